// SPDX-License-Identifier: GPL-2.0
/*
 * The context checker (shims/sim/kernel/locking/lockdep.c), self-tests:
 *
 *   rtlock          rtlock_might_resched() in RT spin_lock()
 *                   (kernel/locking/spinlock_rt.c); !RT spin_lock()
 *                   disables preemption
 *   lockdep         the lock checker's usage rules, reported at the sites
 *
 * Each report names the call site: this file and the line.
 */
#include "../../sim_checks.h"

/* ---- rtlock ---- */

static spinlock_t test_lock = __SPIN_LOCK_UNLOCKED(test_lock);

static int lock_irqs_off(void *arg)
{
	unsigned long flags;

	(void)arg;
	local_irq_save(flags);
	check_site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	local_irq_restore(flags);
	return 0;
}

static int lock_preempt_off(void *arg)
{
	(void)arg;
	preempt_disable();
	check_site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	preempt_enable();
	return 0;
}

/* RT: an rt spinlock taken with IRQs or preemption off is reported. */
static void rtlock_irqs_or_preempt_off(void **state)
{
	(void)state;
	run_task(lock_irqs_off, false);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_no_report(); /* spin_lock_irqsave()'s own shape */
		return;
	}
	assert_one_report("sleeping function called from invalid context");
	sim_reset(2);
	run_task(lock_preempt_off, false);
	assert_one_report("sleeping function called from invalid context");
}

static void rtlock_in_hardirq(void **state)
{
	(void)state;
	sim_switch_cpu(1);
	sim_hardirq_enter();
	check_site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	sim_hardirq_exit();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_one_report(
			"sleeping function called from invalid context");
	else
		assert_no_report();
}

static int lock_in_bh_and_rcu(void *arg)
{
	unsigned int count;

	(void)arg;
	local_bh_disable();
	rcu_read_lock();
	count = preempt_count();
	spin_lock(&test_lock);
	/* !RT: spin_lock() is preempt_disable(); RT: an RCU reader. */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_int_equal(rcu_preempt_depth(), 4);
	else
		assert_int_equal(preempt_count(), count + 1);
	spin_unlock(&test_lock);
	rcu_read_unlock();
	local_bh_enable();
	return 0;
}

/* A spinlock may nest in a BH-disabled section and an RCU reader. */
static void rtlock_nests_in_bh_and_rcu(void **state)
{
	(void)state;
	run_task(lock_in_bh_and_rcu, false);
	assert_no_report();
	assert_int_equal(sim_this()->rcu_read_nesting, 0);
}

/* ---- lockdep ---- */

static spinlock_t hard_lock = __SPIN_LOCK_UNLOCKED(hard_lock);

/* Taken in hardirq, then with IRQs on: {IN-HARDIRQ-W} -> {HARDIRQ-ON-W}. */
static void lockdep_hardirq_then_irqs_on(void **state)
{
	int first, second;

	(void)state;
	sim_hardirq_enter();
	first = __LINE__ + 1;
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	sim_hardirq_exit();
	second = __LINE__ + 1;
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* RT: a hardirq may not take it at all (rtlock above). */
		assert_true(sim_lockdep_clean());
		return;
	}
	if (sim_lockdep_clean())
		fail_msg("no {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} report");
	{
		char want[64];

		snprintf(want, sizeof(want),
			 "tests/kernel/locking/lockdep.c:%d", second);
		assert_non_null(strstr(sim_lockdep_report(), want));
		snprintf(want, sizeof(want),
			 "tests/kernel/locking/lockdep.c:%d", first);
		assert_non_null(strstr(sim_lockdep_report(), want));
	}
	assert_non_null(strstr(sim_lockdep_report(),
			       "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}"));
}

static void lockdep_irqs_off_everywhere_clean(void **state)
{
	unsigned long flags;

	(void)state;
	sim_hardirq_enter();
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	sim_hardirq_exit();
	spin_lock_irqsave(&hard_lock, flags);
	spin_unlock_irqrestore(&hard_lock, flags);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_true(sim_lockdep_clean());
}

const struct CMUnitTest sim_checks_lockdep[] = {
	cmocka_unit_test_setup(rtlock_irqs_or_preempt_off, check_setup),
	cmocka_unit_test_setup(rtlock_in_hardirq, check_setup),
	cmocka_unit_test_setup(rtlock_nests_in_bh_and_rcu, check_setup),
	cmocka_unit_test_setup(lockdep_hardirq_then_irqs_on, check_setup),
	cmocka_unit_test_setup(lockdep_irqs_off_everywhere_clean, check_setup),
};
const size_t sim_checks_lockdep_nr = ARRAY_SIZE(sim_checks_lockdep);
