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

/* "CPU 0, CPU 1" for the bits of a mask of CPUs, or "no CPU". */
static const char *lb_cpus(unsigned int mask, char *buf, size_t len)
{
	size_t n = 0;
	int cpu;

	buf[0] = '\0';
	for (cpu = 0; cpu < 32 && n < len; cpu++)
		if (mask & 1u << cpu)
			n += snprintf(buf + n, len - n, "%sCPU %d",
				      n ? ", " : "", cpu);
	return n ? buf : "no CPU";
}

/* The CPUs the task ran on after its preemption point, by name. */
static void assert_ran_on(const char *task, enum lb_mode mode,
			  unsigned int want)
{
	unsigned int got = lb_explore(mode);
	char g[64], w[64];

	if (got != want)
		fail_msg("load_balance(): the %s task ran on %s after its "
			 "preemption point over all schedules, expected %s",
			 task, lb_cpus(got, g, sizeof(g)),
			 lb_cpus(want, w, sizeof(w)));
}

static void load_balance_preempted_unbound_task_pulled(void **state)
{
	(void)state;
	assert_ran_on("unbound", LB_UNBOUND, 1u << 0 | 1u << 1);
	assert_ran_on("bound (kthread_create_on_cpu())", LB_BOUND, 1u << 1);
	assert_ran_on("migrate_disable()d", LB_MIGRATE_DISABLED, 1u << 1);
}

const struct CMUnitTest sim_checks_sched_fair[] = {
	cmocka_unit_test_setup(load_balance_preempted_unbound_task_pulled,
			       check_setup),
};
const size_t sim_checks_sched_fair_nr = ARRAY_SIZE(sim_checks_sched_fair);
