// SPDX-License-Identifier: GPL-2.0
/*
 * The softirq core (shims/sim/kernel/softirq.c and the tree's own
 * kernel/softirq.c), self-tests:
 *
 *   rt_bh           RT local_bh_disable() is an RCU reader, migration off
 *                   (kernel/softirq.c)
 *   softirq_exits   the tree's handle_softirqs() leaves its restart loop
 *                   after MAX_SOFTIRQ_RESTART rounds, MAX_SOFTIRQ_TIME
 *                   (simulated jiffies) or at need_resched()
 *   softirq_state   a softirq run at local_bh_enable() runs its handler
 *                   serving softirq with IRQs on, and leaves the task as
 *                   it was: preempt_count 0, IRQs on, not in softirq, no
 *                   RCU reader, migration on
 *
 * Each report names the call site: this file and the line.
 */
#include "../sim_checks.h"

/* ---- rt_bh ---- */

static unsigned int bh_rcu_depth, bh_migration_disabled, bh_preempt_count;

static int bh_state(void *arg)
{
	(void)arg;
	local_bh_disable();
	bh_rcu_depth = rcu_preempt_depth();
	bh_migration_disabled = current->migration_disabled;
	bh_preempt_count = preempt_count();
	local_bh_enable();
	assert_int_equal(rcu_preempt_depth(), 0);
	assert_int_equal(current->migration_disabled, 0);
	return 0;
}

/*
 * RT: softirq_ctrl.lock (a local_lock: migrate_disable() and an rt
 * spinlock) and rcu_read_lock(); !RT: SOFTIRQ_DISABLE_OFFSET.
 */
static void rt_bh_is_rcu_reader_without_migration(void **state)
{
	(void)state;
	run_task(bh_state, false);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_int_equal(bh_rcu_depth, 2);
		assert_int_equal(bh_migration_disabled, 2);
		assert_int_equal(bh_preempt_count, 0);
	} else {
		assert_int_equal(bh_preempt_count, SOFTIRQ_DISABLE_OFFSET);
		assert_int_equal(bh_migration_disabled, 0);
	}
	assert_no_report();
}

/* ---- softirq_exits ---- */

/*
 * The tree's handle_softirqs() (kernel/softirq.c) restarts while handlers
 * raise new softirqs, and stops after MAX_SOFTIRQ_RESTART rounds, once
 * jiffies reach the start plus MAX_SOFTIRQ_TIME, or at need_resched(),
 * leaving the rest pending for ksoftirqd.  The simulated jiffies and
 * need_resched() must make each exit reachable.  A TIMER_SOFTIRQ handler
 * raises itself again each round and, as asked, lets a tick pass or wakes
 * a task on this CPU.
 */
static unsigned int rearm_runs;
static bool rearm_ticks, rearm_wakes;
static struct task_struct *rearm_waker;

static int sleeper(void *arg)
{
	(void)arg;
	return 0;
}

static void rearm(void)
{
	rearm_runs++;
	if (rearm_ticks)
		sim_tick(sim_cpu_id());
	if (rearm_wakes && !rearm_waker) {
		rearm_waker =
			sim_task_create(sleeper, NULL, sim_cpu_id(), "woken");
		wake_up_process(rearm_waker);
	}
	local_irq_disable();
	__raise_softirq_irqoff(TIMER_SOFTIRQ);
	local_irq_enable();
}

static void rearm_h(struct softirq_action *h)
{
	(void)h;
	rearm();
}

/* One handler loop on CPU 0, idle otherwise; returns the rounds it ran. */
static unsigned int run_rearming_loop(bool ticks, bool wakes)
{
	struct task_struct *ksd = per_cpu(ksoftirqd, 0);

	sim_run_cpu(0, 100); /* the boot threads go to sleep */
	assert_false(need_resched());
	softirq_vec[TIMER_SOFTIRQ].action = __builtin_choose_expr(
		SOFTIRQ_HANDLER_TAKES_VOID, rearm, rearm_h);
	rearm_runs = 0;
	rearm_ticks = ticks;
	rearm_wakes = wakes;
	rearm_waker = NULL;
	local_irq_disable();
	__raise_softirq_irqoff(TIMER_SOFTIRQ);
	local_irq_enable();
	sim_run_softirqs();
	/* __do_softirq() returns with IRQs as its caller had them: on. */
	assert_false(irqs_disabled());
	/* The rest is left pending, for ksoftirqd, which was woken. */
	assert_true(local_softirq_pending() & BIT(TIMER_SOFTIRQ));
	assert_true(task_is_running(ksd));
	softirq_vec[TIMER_SOFTIRQ].action = NULL;
	set_softirq_pending(0);
	assert_no_report();
	return rearm_runs;
}

static void softirq_exits_after_max_restart(void **state)
{
	(void)state;
	assert_int_equal(run_rearming_loop(false, false), MAX_SOFTIRQ_RESTART);
}

static void softirq_exits_after_max_softirq_time(void **state)
{
	(void)state;
	/* One tick per round: the loop ends when MAX_SOFTIRQ_TIME passed. */
	assert_int_equal(run_rearming_loop(true, false), MAX_SOFTIRQ_TIME);
}

static void softirq_exits_at_need_resched(void **state)
{
	(void)state;
	assert_int_equal(run_rearming_loop(false, true), 1);
}

/* ---- softirq_state ---- */

static unsigned int probe_runs;
static bool probe_serving, probe_irqs_off;
static unsigned int after_preempt, after_rcu, after_migration;
static bool after_irqs_off, after_in_softirq;

static void state_probe(void)
{
	probe_runs++;
	probe_serving = in_serving_softirq();
	probe_irqs_off = irqs_disabled();
}

static void state_probe_h(struct softirq_action *h)
{
	(void)h;
	state_probe();
}

static int softirq_at_bh_enable(void *arg)
{
	(void)arg;
	local_bh_disable();
	raise_softirq(TIMER_SOFTIRQ);
	local_bh_enable(); /* runs it here, in this task */
	after_preempt = preempt_count();
	after_irqs_off = irqs_disabled();
	after_in_softirq = in_softirq();
	after_rcu = rcu_preempt_depth();
	after_migration = current->migration_disabled;
	return 0;
}

static void softirq_state_restored_after_the_loop(void **state)
{
	(void)state;
	sim_run_cpu(1, 100); /* the boot threads go to sleep */
	softirq_vec[TIMER_SOFTIRQ].action = __builtin_choose_expr(
		SOFTIRQ_HANDLER_TAKES_VOID, state_probe, state_probe_h);
	probe_runs = 0;
	run_task(softirq_at_bh_enable, true);
	softirq_vec[TIMER_SOFTIRQ].action = NULL;
	assert_int_equal(probe_runs, 1);
	assert_true(probe_serving);
	assert_false(probe_irqs_off);
	assert_int_equal(after_preempt, 0);
	assert_false(after_irqs_off);
	assert_false(after_in_softirq);
	assert_int_equal(after_rcu, 0);
	assert_int_equal(after_migration, 0);
	assert_no_report();
}

const struct CMUnitTest sim_checks_softirq[] = {
	cmocka_unit_test_setup(rt_bh_is_rcu_reader_without_migration,
			       check_setup),
	cmocka_unit_test_setup(softirq_exits_after_max_restart, check_setup),
	cmocka_unit_test_setup(softirq_exits_after_max_softirq_time,
			       check_setup),
	cmocka_unit_test_setup(softirq_exits_at_need_resched, check_setup),
	cmocka_unit_test_setup(softirq_state_restored_after_the_loop,
			       check_setup),
};
const size_t sim_checks_softirq_nr = ARRAY_SIZE(sim_checks_softirq);
