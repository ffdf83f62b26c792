// SPDX-License-Identifier: GPL-2.0
/*
 * PREEMPT_RCU's reader side (shims/sim/kernel/rcu/tree.c), self-tests:
 *
 *   rcu_read        rcu_read_lock()/rcu_read_unlock() nesting, its depth
 *                   where readers are preemptible, and the WARN of an
 *                   unlock without a lock (__rcu_read_unlock(), with
 *                   CONFIG_PROVE_LOCKING)
 */
#include "../../sim_checks.h"

/* ---- rcu_read ---- */

static void rcu_read_nesting_counted(void **state)
{
	/* PREEMPT_RCU: the full and RT models. */
	unsigned int depth = sim_preempt >= SIM_PREEMPT_FULL;

	(void)state;
	rcu_read_lock();
	rcu_read_lock();
	assert_int_equal(sim_this()->rcu_read_nesting, 2);
	assert_int_equal(rcu_preempt_depth(), 2 * depth);
	rcu_read_unlock();
	rcu_read_unlock();
	assert_int_equal(sim_this()->rcu_read_nesting, 0);
	assert_int_equal(rcu_preempt_depth(), 0);
	assert_no_report();
}

static void rcu_read_unbalanced_unlock_warns(void **state)
{
	(void)state;
	rcu_read_unlock();
	assert_int_equal(sim_total().warns, 1);
	/* 6.1's __rcu_read_unlock(): the count went to -1, then the WARN. */
	assert_non_null(
		strstr(sim_warns[0].msg, ": rrln < 0 || rrln > RCU_NEST_PMAX"));
	assert_int_equal(sim_this()->rcu_read_nesting, -1);
	rcu_read_lock();
	assert_int_equal(sim_this()->rcu_read_nesting, 0);
	assert_int_equal(sim_total().warns, 1);
}

const struct CMUnitTest sim_checks_rcu_read[] = {
	cmocka_unit_test_setup(rcu_read_nesting_counted, check_setup),
	cmocka_unit_test_setup(rcu_read_unbalanced_unlock_warns, check_setup),
};
const size_t sim_checks_rcu_read_nr = ARRAY_SIZE(sim_checks_rcu_read);
