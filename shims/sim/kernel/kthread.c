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

/* __kthread_parkme(): sleep in TASK_PARKED while asked to park. */
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

/*
 * kthread(): a new kthread runs nothing if stopped before its first run,
 * and parks before its thread function if asked to (kthread_park() of a
 * thread that never ran, as __smpboot_create_thread() does).  The
 * kernel's __kthread_parkme() loop is entered only when should_park is
 * set: otherwise it sets TASK_PARKED and TASK_RUNNING again, on the
 * running task, which nothing can observe.
 */
int sim_kthread(struct task_struct *p)
{
	if (p->should_stop)
		return -EINTR;
	if (p->should_park)
		kthread_parkme();
	return p->threadfn(p->data);
}

/*
 * kthread_unpark(): a per-CPU kthread is bound to its CPU again
 * (__kthread_bind()), then the parked thread runs again.
 */
void kthread_unpark(struct task_struct *k)
{
	if (k->per_cpu)
		sim_kthread_bind(k, k->cpu);
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

/* kernel/kthread.c (since v6.6): stop k, then drop the caller's reference. */
int kthread_stop_put(struct task_struct *k)
{
	int ret = kthread_stop(k);

	put_task_struct(k);
	return ret;
}

struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data,
					  unsigned int cpu, const char *name)
{
	struct task_struct *p = sim_task_create_named(
		fn, data, (int)cpu, sim_percpu_name(name, (int)cpu));

	sim_kthread_bind(p, (int)cpu);
	return p;
}

/*
 * kthread_set_per_cpu(): mark a bound kthread as the CPU's own
 * (KTHREAD_IS_PER_CPU); it must be bound already (PF_NO_SETAFFINITY).
 */
void kthread_set_per_cpu(struct task_struct *k, int cpu)
{
	WARN_ON_ONCE(!(k->flags & PF_NO_SETAFFINITY));
	if (cpu < 0) {
		k->per_cpu = false;
		return;
	}
	k->cpu = cpu;
	k->per_cpu = true;
}

static int task_parked(void *arg)
{
	struct task_struct *p = arg;

	return p->parked && !p->on_rq;
}

/*
 * kthread_park(): ask, wake, wait until it sleeps in kthread_parkme()
 * (wait_for_completion(&kthread->parked), then wait_task_inactive()).  A
 * thread that never ran parks in kthread() before its thread function.
 */
int kthread_park(struct task_struct *p)
{
	if (WARN_ON_ONCE(p->should_park))
		return -EBUSY;
	might_sleep(); /* wait_for_completion() */
	p->should_park = true;
	wake_up_process(p);
	if (explore_in_program()) {
		explore_wait_until_of(task_parked, p, EXPLORE_WAIT_IRQS,
				      p->comm, "to park");
		return 0;
	}
	sim_run_cpu(p->cpu, 1000);
	if (!task_parked(p))
		sim_bug(__FILE__, __LINE__,
			"kthread_park(): the thread did not park");
	return 0;
}
