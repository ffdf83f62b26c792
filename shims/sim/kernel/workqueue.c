// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/workqueue.c: one kworker per CPU, running the work
 * items queued on that CPU in FIFO order.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <string.h>
#include "sim_internal.h"

/* Workqueues: one kworker per CPU, FIFO. */
static struct list_head work_list[NR_CPUS];
static struct task_struct *kworker[NR_CPUS];
static unsigned long work_runs[NR_CPUS];

static int kworker_fn(void *data)
{
	int cpu = (int)(uintptr_t)data;

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(&work_list[cpu])) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		while (!list_empty(&work_list[cpu])) {
			struct work_struct *w = list_first_entry(
				&work_list[cpu], struct work_struct, entry);

			list_del_init(&w->entry);
			w->pending = false;
			work_runs[cpu]++;
			w->func(w);
			cond_resched();
		}
	}
	return 0;
}

bool schedule_work_on(int cpu, struct work_struct *work)
{
	if (work->pending)
		return false;
	work->pending = true;
	work->cpu = cpu;
	list_add_tail(&work->entry, &work_list[cpu]);
	wake_up_process(kworker[cpu]);
	return true;
}

bool schedule_work(struct work_struct *work)
{
	return schedule_work_on(sim_cpu_id(), work);
}

bool work_pending(struct work_struct *work)
{
	return work->pending;
}

bool cancel_work_sync(struct work_struct *work)
{
	bool was = work->pending;

	might_sleep();
	if (was) {
		list_del_init(&work->entry);
		work->pending = false;
	}
	return was;
}

bool flush_work(struct work_struct *work)
{
	bool was = work->pending;

	might_sleep();
	if (was)
		sim_run_cpu(work->cpu, 1000);
	return was;
}

unsigned long sim_work_runs(int cpu)
{
	return work_runs[cpu];
}

void sim_workqueue_reset(void)
{
	memset(work_runs, 0, sizeof(work_runs));
}

/* Boot: cpu's kworker, started. */
void sim_workqueue_boot(int cpu)
{
	INIT_LIST_HEAD(&work_list[cpu]);
	kworker[cpu] =
		sim_task_create_named(kworker_fn, (void *)(uintptr_t)cpu, cpu,
				      sim_percpu_name("kworker/%d:0", cpu));
	sim_kthread_bind(kworker[cpu], cpu);
	wake_up_process(kworker[cpu]);
}
