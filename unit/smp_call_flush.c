// SPDX-License-Identifier: GPL-2.0
/*
 * The RT check the series exists to silence, exercised: softirqs raised
 * from SMP-call context, on an idle CPU that takes its csds in the idle
 * loop (flush_smp_call_function_queue()).  On PREEMPT_RT the tree's own
 * do_softirq_post_smp_call_flush() (kernel/softirq.c, extracted) WARNs
 * once for any vector but SCHED_SOFTIRQ and hands the raised softirqs to
 * ksoftirqd through invoke_softirq(); without RT the flush ends in
 * do_softirq() and they run right there.
 *
 * These are the positive controls of V16's "0 post-flush WARN": the
 * check fires when it should, so its silence elsewhere means something.
 */
#include "support/napitest.h"

/*
 * nohz_csd_func() (kernel/sched/core.c): the scheduler's idle load
 * balancing kick, the one raise from a csd RT expects.
 */
static void nohz_csd_func(void *info)
{
	(void)info;
	raise_softirq_irqoff(SCHED_SOFTIRQ);
}

/*
 * The defer csd's trigger_rx_softirq() (net/core/dev.c), the raise of
 * 6.1-rt's defer IPI, without its defer_ipi_scheduled bookkeeping (the -rt
 * base has no defer csd).
 */
static void net_rx_csd_func(void *info)
{
	(void)info;
	__raise_softirq_irqoff(NET_RX_SOFTIRQ);
}

static call_single_data_t sched_csd, net_rx_csd;
static unsigned int sched_softirq_runs;

/*
 * kernel/sched/fair.c's SCHED_SOFTIRQ handler, counted; of the type the
 * tree's open_softirq() takes (the softirq_action argument went in v6.10).
 */
static void run_rebalance_domains_v(void)
{
	sched_softirq_runs++;
}

static void run_rebalance_domains_h(struct softirq_action *h)
{
	(void)h;
	run_rebalance_domains_v();
}

#define run_rebalance_domains                             \
	__builtin_choose_expr(SOFTIRQ_HANDLER_TAKES_VOID, \
			      run_rebalance_domains_v,    \
			      run_rebalance_domains_h)

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	INIT_CSD(&sched_csd, nohz_csd_func, NULL);
	INIT_CSD(&net_rx_csd, net_rx_csd_func, NULL);
	open_softirq(SCHED_SOFTIRQ, run_rebalance_domains);
	sched_softirq_runs = 0;
	sim_switch_cpu(0);
	return 0;
}

/* What CPU 1 did with one csd queued from CPU 0 and flushed when idle. */
struct flush_result {
	unsigned long warns;
	unsigned long wakeups; /* on CPU 1, by the flush */
	unsigned long softirq_runs; /* on CPU 1, in the flush */
	unsigned long ksoftirqd_switches; /* ksoftirqd/1 ran afterwards */
	unsigned long left_pending; /* CPU 1's pending bits at the end */
};

static struct flush_result flush_one(call_single_data_t *csd)
{
	struct task_struct *ksd1 = per_cpu(ksoftirqd, 1);
	struct sim_counters c1 = sim_cpus[1].cnt;
	unsigned long warns = sim_total().warns;
	unsigned long sw = ksd1->switches;
	struct flush_result r;

	assert_int_equal(smp_call_function_single_async(1, csd), 0);
	assert_true(sim_csd_pending(1));
	sim_idle_flush(1);
	assert_false(sim_csd_pending(1));
	assert_cpu_count_delta(1, csd_run, c1.csd_run, 1);
	assert_cpu_count_delta(1, raises_in_smp_call, c1.raises_in_smp_call, 1);
	r.warns = sim_total().warns - warns;
	r.wakeups = sim_count(1, wakeups) - c1.wakeups;
	r.softirq_runs = sim_count(1, softirq_runs) - c1.softirq_runs;
	sim_run_cpu(1, 100);
	r.ksoftirqd_switches = ksd1->switches - sw;
	r.left_pending = sim_cpus[1].softirq_pending;
	print_message(
		"  V34 warns %lu, wakeups(cpu1) %lu, softirq runs in flush %lu, ksoftirqd/1 runs %lu, left pending %#lx\n",
		r.warns, r.wakeups, r.softirq_runs, r.ksoftirqd_switches,
		r.left_pending);
	return r;
}

/* The one WARN, at do_softirq_post_smp_call_flush()'s check. */
static void assert_post_flush_warn(void)
{
	assert_int_equal(sim_total().warns, 1);
	if (!strstr(sim_warns[0].msg, "kernel/softirq.c") ||
	    !strstr(sim_warns[0].msg, "was_pending != (is_pending"))
		fail_msg(
			"the WARN was '%s', not do_softirq_post_smp_call_flush()'s",
			sim_warns[0].msg);
}

/*
 * V34: NET_RX raised from a csd (as the defer csd's trigger_rx_softirq()
 * does) on an idle CPU.  RT: one
 * WARN from do_softirq_post_smp_call_flush(), ksoftirqd/1 woken by its
 * invoke_softirq() and running NET_RX; twice, still one WARN (ONCE).
 * !RT: the flush's do_softirq() runs it at once, silently.
 */
static void v34_csd_net_rx_raise_warns_once_on_rt(void **state)
{
	struct flush_result r;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		r = flush_one(&net_rx_csd);
		assert_int_equal(r.left_pending, 0);
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			assert_int_equal(r.wakeups, 1);
			assert_int_equal(r.softirq_runs, 0);
			assert_int_equal(r.ksoftirqd_switches, 1);
		} else {
			assert_int_equal(r.wakeups, 0);
			assert_int_equal(r.softirq_runs, 1);
			assert_int_equal(r.ksoftirqd_switches, 0);
		}
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_post_flush_warn();
	else
		assert_no_warn();
}

/*
 * V34: SCHED_SOFTIRQ raised from a csd (nohz_csd_func()) is the expected
 * one: no WARN on RT either; it still runs, in ksoftirqd/1 (woken by
 * raise_softirq_irqoff() outside interrupt context; without RT the
 * flush's do_softirq() then leaves it to the running ksoftirqd on trees
 * with ksoftirqd_running(), and runs it itself on trees without, v6.7 on).
 */
static void v34_csd_sched_softirq_raise_silent(void **state)
{
	struct flush_result r;

	(void)state;
	r = flush_one(&sched_csd);
	assert_int_equal(r.left_pending, 0);
	assert_int_equal(sched_softirq_runs, 1);
	assert_int_equal(r.wakeups, 1);
	if (IS_ENABLED(CONFIG_PREEMPT_RT) || EXTRACTED_HAVE_ksoftirqd_running) {
		assert_int_equal(r.softirq_runs, 0);
		assert_int_equal(r.ksoftirqd_switches, 1);
	} else {
		/* v6.7 reverted "softirq: Let ksoftirqd do its job": without
		 * ksoftirqd_running(), the flush's do_softirq() runs it. */
		assert_int_equal(r.softirq_runs, 1);
	}
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v34_csd_net_rx_raise_warns_once_on_rt,
				       setup),
		cmocka_unit_test_setup(v34_csd_sched_softirq_raise_silent,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
