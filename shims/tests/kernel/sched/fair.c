// SPDX-License-Identifier: GPL-2.0
/*
 * The load balancer (shims/sim/kernel/sched/fair.c), self-tests:
 *
 *   load_balance    under the explorer a task preempted while runnable
 *                   may be pulled to another active CPU (load_balance()),
 *                   unless it is bound or has migration disabled
 */
#include "../../sim_checks.h"

/*
 * A task preempted while runnable may be pulled to another CPU
 * (load_balance()) unless it is bound or has migration disabled.  It runs
 * on CPU 1 next to a second runnable task, passes one preemption point
 * (cond_resched() under NONE, preempt_enable() under RT) and records
 * where it runs after it; CPU 0 idles (sim_cpu_idle()).  With migration
 * disabled it wakes an RT task of CPU 1 first, which preempts it there on
 * RT too (where migrate_disable() makes a normal task's reschedule lazy,
 * so the second task alone would never preempt it).
 */
enum lb_mode { LB_UNBOUND, LB_BOUND, LB_MIGRATE_DISABLED };
static enum lb_mode lb_mode;
static unsigned int lb_after; /* bit cpu: it ran on after the point */
static struct task_struct *lb_rt;

static int lb_fn(void *arg)
{
	(void)arg;
	if (lb_mode == LB_MIGRATE_DISABLED) {
		migrate_disable();
		wake_up_process(lb_rt);
	}
	if (sim_preempt >= SIM_PREEMPT_FULL) {
		preempt_disable();
		preempt_enable();
	} else {
		cond_resched();
	}
	lb_after |= 1u << raw_smp_processor_id();
	if (lb_mode == LB_MIGRATE_DISABLED)
		migrate_enable();
	return 0;
}

static int lb_other(void *arg)
{
	(void)arg;
	return 0;
}

static void lb_setup(void)
{
	struct task_struct *p;

	sim_reset(2);
	if (lb_mode == LB_BOUND)
		p = kthread_create_on_cpu(lb_fn, NULL, 1, "bound/%u");
	else
		p = sim_task_create(lb_fn, NULL, 1, "unbound");
	wake_up_process(p);
	wake_up_process(sim_task_create(lb_other, NULL, 1, "other"));
	lb_rt = kthread_create_on_cpu(lb_other, NULL, 1, "rt/%u");
	lb_rt->rt = true;
}

static void lb_cpu0(void)
{
	sim_cpu_idle(0);
}

static void lb_cpu1(void)
{
	sim_run_cpu(1, 100);
}

static unsigned int lb_explore(enum lb_mode mode)
{
	const struct explore_scenario scn = {
		.name = "load_balance",
		.setup = lb_setup,
		.nr_threads = 2,
		.threads = {
			{ 0, lb_cpu0, "CPU0 idle" },
			{ 1, lb_cpu1, "CPU1 two tasks" },
		},
	};
	struct explore_result r;

	lb_mode = mode;
	lb_after = 0;
	explore_run(&scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	return lb_after;
}

static void load_balance_preempted_unbound_task_pulled(void **state)
{
	(void)state;
	assert_int_equal(lb_explore(LB_UNBOUND), 1u << 0 | 1u << 1);
	assert_int_equal(lb_explore(LB_BOUND), 1u << 1);
	assert_int_equal(lb_explore(LB_MIGRATE_DISABLED), 1u << 1);
}

const struct CMUnitTest sim_checks_sched_fair[] = {
	cmocka_unit_test_setup(load_balance_preempted_unbound_task_pulled,
			       check_setup),
};
const size_t sim_checks_sched_fair_nr = ARRAY_SIZE(sim_checks_sched_fair);
