// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/kthread.c: the stop and park protocol of the simulated
 * kthreads (tasks of shims/sim/kernel/sched/core.c).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include "sim_internal.h"

bool kthread_should_stop(void)
{
	return current->should_stop;
}

bool kthread_should_park(void)
{
	return current->should_park;
}

void kthread_parkme(void)
{
	for (;;) {
		set_current_state(TASK_PARKED);
		if (!current->should_park)
			break;
		current->parked = true;
		schedule();
	}
	current->parked = false;
	__set_current_state(TASK_RUNNING);
}

/* kthread_unpark(): the parked thread runs again (kernel/kthread.c). */
void kthread_unpark(struct task_struct *k)
{
	k->should_park = false;
	wake_up_state(k, TASK_PARKED);
}

int kthread_stop(struct task_struct *k)
{
	might_sleep(); /* wait_for_completion() */
	k->should_stop = true;
	kthread_unpark(k);
	wake_up_process(k);
	sim_run_cpu(k->cpu, 1000);
	return 0;
}

struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data,
					  unsigned int cpu, const char *name)
{
	struct task_struct *p = sim_task_create(fn, data, (int)cpu, name, cpu);

	sim_kthread_bind(p, (int)cpu);
	return p;
}

static int task_parked(void *arg)
{
	struct task_struct *p = arg;

	return p->parked && !p->on_rq;
}

/* kthread_park(): ask, wake, wait until it sleeps in kthread_parkme(). */
void kthread_park(struct task_struct *p)
{
	might_sleep(); /* wait_for_completion() */
	p->should_park = true;
	wake_up_process(p);
	if (explore_in_program()) {
		char what[48];

		snprintf(what, sizeof(what), "%s to park", p->comm);
		explore_wait_until(task_parked, p, EXPLORE_WAIT_IRQS, what);
		return;
	}
	sim_run_cpu(p->cpu, 1000);
	if (!task_parked(p))
		sim_bug(__FILE__, __LINE__,
			"kthread_park(): the thread did not park");
}
