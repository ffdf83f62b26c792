// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/locking/rtmutex.c (and spinlock_rt.c's slow paths) on
 * PREEMPT_RT: a spinlock_t, a local_lock_t and so softirq_ctrl.lock are
 * rt_mutexes owned by a task, which may be preempted while it holds one.
 *
 *  - rtlock_slowlock_locked(): a task that finds the lock held by a task of
 *    its own CPU queues as a waiter (blocked_on; the top waiter is the
 *    highest priority, then the first to block), lends its priority to the
 *    owner if it is an RT task and the owner is not
 *    (task_blocks_on_rt_mutex(), rt_mutex_adjust_prio(): one level, the
 *    chain walk is not modelled) and sleeps in TASK_RTLOCK_WAIT
 *    (schedule_rtlock()), its own state kept in saved_state (a wakeup
 *    meanwhile makes that TASK_RUNNING) and restored with the lock;
 *    woken, it tries again.  Held by a task of
 *    another CPU it spins (rtmutex_spin_on_owner(); under the explorer a
 *    wait, outside it a bug: one CPU runs at a time there).
 *  - rt_mutex_slowunlock(): the owner's boost by this lock's waiters is
 *    dropped (rt_mutex_adjust_prio()), the lock released and the top
 *    waiter woken (mark_wakeup_next_waiter(), rt_mutex_wake_up_q()).
 *    Simplified: the lock is free until the waiter runs; a task that
 *    takes it meanwhile steals it, as a higher-priority one may there.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

static unsigned long block_seq;
/* Tasks blocked on an rtlock (blocked_on set): none, no waiter to look for. */
static unsigned int nr_blocked;

void sim_rtlock_reset(void)
{
	nr_blocked = 0;
}

static void rtlock_block(spinlock_t *lock, struct task_struct *owner,
			 const char *file, int line)
{
	struct task_struct *p = current;

	p->blocked_on = lock;
	p->blocked_seq = ++block_seq;
	/* current_save_and_set_rtlock_wait_state() */
	p->saved_state = READ_ONCE(p->__state);
	if (sim_task_is_rt(p) && !sim_task_is_rt(owner)) {
		owner->pi_boost++;
		p->pi_boosting = owner;
	}
	WRITE_ONCE(p->__state, TASK_RTLOCK_WAIT);
	nr_blocked++;
	sim_schedule_rtlock(file, line);
	nr_blocked--;
	p->blocked_on = NULL;
}

void rtlock_lock(spinlock_t *lock, const char *file, int line)
{
	struct task_struct *owner;

	while ((owner = lock->owner_task)) {
		if (owner->cpu != sim_cpu_id()) {
			if (!explore_in_program())
				sim_bug(file, line,
					"lock held by another simulated CPU that is not running");
			explore_lock_wait(&lock->owner, file, line);
			continue;
		}
		if (!current->ctx)
			sim_bug(file, line,
				"lock held by a task of this CPU that was preempted: "
				"the test's own context cannot block on it");
		rtlock_block(lock, owner, file, line);
		/* current_restore_rtlock_saved_state() */
		WRITE_ONCE(current->__state, current->saved_state);
	}
	lock->owner_task = current;
	lock->owner = sim_cpu_id();
}

/* The waiter rt_mutex_top_waiter() names: RT first, then the earliest. */
static struct task_struct *top_waiter(const spinlock_t *lock)
{
	struct task_struct *top = NULL;
	unsigned int i;

	for (i = 0; i < sim_nr_tasks(); i++) {
		struct task_struct *w = sim_task(i);

		if (w->blocked_on != lock)
			continue;
		if (!top || (sim_task_is_rt(w) && !sim_task_is_rt(top)) ||
		    (sim_task_is_rt(w) == sim_task_is_rt(top) &&
		     w->blocked_seq < top->blocked_seq))
			top = w;
	}
	return top;
}

void rtlock_unlock(spinlock_t *lock)
{
	struct task_struct *owner = lock->owner_task, *top;
	unsigned int i;

	/*
	 * rt_spin_unlock()'s fast path (kernel/locking/spinlock_rt.c):
	 * rt_mutex_cmpxchg_release() succeeds while no waiter has set
	 * RT_MUTEX_HAS_WAITERS in the owner word.  No task blocked on any
	 * rtlock: none on this one.
	 */
	if (!nr_blocked) {
		lock->owner_task = NULL;
		lock->owner = -1;
		return;
	}
	for (i = 0; i < sim_nr_tasks(); i++) {
		struct task_struct *w = sim_task(i);

		if (w->blocked_on == lock && w->pi_boosting == owner) {
			owner->pi_boost--;
			w->pi_boosting = NULL;
		}
	}
	lock->owner_task = NULL;
	lock->owner = -1;
	top = top_waiter(lock);
	if (top)
		wake_up_state(top, TASK_RTLOCK_WAIT);
}
