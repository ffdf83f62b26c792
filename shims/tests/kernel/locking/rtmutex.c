// SPDX-License-Identifier: GPL-2.0
/*
 * The rt_mutex of PREEMPT_RT locks (shims/sim/kernel/locking/rtmutex.c)
 * and the 6.1-rt scheduling around it (kernel/sched/core.c), self-tests:
 *
 *   rt_bh_preempt   RT: a BH-disabled section is preemptible by an RT
 *                   task, which then blocks on softirq_ctrl.lock owned
 *                   by the preempted task and boosts it (rtmutex PI);
 *                   a normal wakeup inside it is lazy (PREEMPT_LAZY);
 *                   PREEMPT_RCU's reader depth is per task
 */
#include "../../sim_checks.h"

static char bh_log[16];
static struct task_struct *bh_b, *bh_m;
static unsigned int bh_b_depth, bh_b_depth_before;

static void bh_mark(char c)
{
	size_t n = strlen(bh_log);

	if (n + 1 < sizeof(bh_log))
		bh_log[n] = c;
}

/* A, normal: wakes a normal task, then an RT one, inside its BH section. */
static int bh_task_a(void *arg)
{
	(void)arg;
	local_bh_disable();
	bh_mark('a');
	wake_up_process(bh_m); /* lazy: no preemption here on RT */
	wake_up_process(bh_b); /* RT: TIF_NEED_RESCHED */
	bh_mark('A');
	local_bh_enable();
	bh_mark('E');
	return 0;
}

/* B, SCHED_FIFO: its local_bh_disable() blocks on softirq_ctrl.lock on RT. */
static int bh_task_b(void *arg)
{
	(void)arg;
	bh_mark('b');
	bh_b_depth_before = rcu_preempt_depth(); /* not A's readers */
	local_bh_disable();
	bh_mark('B');
	bh_b_depth = rcu_preempt_depth();
	local_bh_enable();
	return 0;
}

static int bh_task_m(void *arg)
{
	(void)arg;
	bh_mark('m');
	return 0;
}

/*
 * On RT (6.1-rt, PREEMPT_LAZY) a BH-disabled section is preemptible, by
 * an RT task: A is preempted by B inside it; B blocks on the per-CPU
 * softirq_ctrl.lock that A owns, boosting A above M (normal, runnable),
 * so A runs, not M, to its local_bh_enable(), which hands the lock to B;
 * B's RCU depth is its own (PREEMPT_RCU: 0 when it preempts A inside
 * A's readers; 2 in its section: the local lock's reader and the BH one).
 * Waking M inside the section preempts nothing (a lazy reschedule).
 * Elsewhere (FULL, !RT) the section is preempt-disabled: B runs after it.
 */
static void rt_bh_preemptible_lock_per_task_with_pi(void **state)
{
	struct task_struct *a;

	(void)state;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		sim_preempt = SIM_PREEMPT_FULL;
	memset(bh_log, 0, sizeof(bh_log));
	bh_b_depth = 0;
	bh_b_depth_before = 1;
	bh_b = sim_task_create(bh_task_b, NULL, 1, "bh_b");
	bh_b->rt = true;
	bh_m = sim_task_create(bh_task_m, NULL, 1, "bh_m");
	a = sim_task_create(bh_task_a, NULL, 1, "bh_a");
	wake_up_process(a);
	sim_run_cpu(1, 100);
	assert_true(a->exited && bh_b->exited && bh_m->exited);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_memory_equal(bh_log, "abAB", 4);
		assert_int_equal(bh_b_depth_before, 0);
		assert_int_equal(bh_b_depth, 2);
	} else {
		assert_memory_equal(bh_log, "aAbB", 4);
	}
	assert_int_equal(strlen(bh_log), 6);
	assert_false(a->pi_boost);
	assert_no_report();
}

const struct CMUnitTest sim_checks_rtmutex[] = {
	cmocka_unit_test_setup(rt_bh_preemptible_lock_per_task_with_pi,
			       check_setup),
};
const size_t sim_checks_rtmutex_nr = ARRAY_SIZE(sim_checks_rtmutex);
