// SPDX-License-Identifier: GPL-2.0
/*
 * RPS steering into a remote backlog: patch 14 ("net: Allow to use SMP
 * threads for backlog NAPI", upstream dad6b9770263), its use_backlog_threads()
 * branch in napi_schedule_rps(), the use_local_napi shortcut in
 * ____napi_schedule() and the !use_backlog_threads() guards.
 */
#include "support/napitest.h"

#define FLOOD 64

/* Configurations where the backlog NAPI runs in backlog_napi/N threads. */
#define WANT_THREADS \
	(IS_ENABLED(CONFIG_PREEMPT_RT) || napitest_thread_backlog_napi())

static struct net_device test_dev = { .name = "sim0", .running = true };

/* A driver NAPI on CPU 0 whose ->poll steers packets to rx_target_cpu. */
static struct napi_struct rx_napi;
static int rx_target_cpu, rx_nr_packets;

static int rx_poll(struct napi_struct *n, int budget)
{
	unsigned int qtail;
	int i;

	(void)budget;
	for (i = 0; i < rx_nr_packets; i++)
		enqueue_to_backlog(sim_skb_alloc(&test_dev), rx_target_cpu,
				   &qtail);
	/* The packets were handed on, none consumed from the ring. */
	napi_complete_done(n, 0);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	napitest_napi_init(&rx_napi, &test_dev, rx_poll);
	rx_target_cpu = 1;
	rx_nr_packets = FLOOD;
	return 0;
}

/*
 * V16, the headline: a flood RPS-steered from CPU 0 to idle CPU 1, executed
 * by net_rx_action() on CPU 0 (rx_napi's ->poll).  With backlog threads (RT
 * always, !RT with thread_backlog_napi) napi_schedule_rps() wakes CPU 1's
 * backlog_napi thread: no csd, nothing raised from SMP-call context, so no
 * do_softirq_post_smp_call_flush() WARN (the cover letter's splat).
 * Without threads (rps) the csd path is the expected one.
 *
 * The IPIs are counted as the kernel sends them.  CPU 1 idles polling
 * (mwait; the default): the wakeup and the csd both reach it without an
 * IPI (set_nr_if_polling()), so "no IPI" holds either way and the csd is
 * what tells the paths apart.  CPU 1 idles halted (v16_..._halted): the
 * csd costs a function-call IPI; the wakeup costs one IPI too, the
 * kernel's own for waking an idle CPU -- on !RT the call-function IPI of
 * the wake list (ttwu_queue_wakelist(): 6.1 queues a wakeup for a CPU with
 * nr_running == 0), on RT, where TTWU_QUEUE is off, the reschedule IPI of
 * resched_curr() -- and never an RPS csd.
 */
static void v16_remote_enqueue(bool halted)
{
	struct task_struct *thr = napitest_backlog_thread(1);
	struct task_struct *ksd1 = per_cpu(ksoftirqd, 1);
	unsigned long thr_sw = thr ? thr->switches : 0;
	unsigned long ksd1_sw = ksd1->switches;
	struct sim_counters c0 = sim_cpus[0].cnt, c1 = sim_cpus[1].cnt, t;
	unsigned long wakeups1, ipis1, res1;
	unsigned int received_rps1 = 0;

#ifndef CONFIG_RPS
	(void)received_rps1;
	skip(); /* without RPS nothing is steered to another CPU */
#else
	received_rps1 = per_cpu(softnet_data, 1).received_rps;
#endif
	sim_cpus[1].idle_poll = !halted;
	napitest_device_irq(0, &rx_napi); /* softirq on irq_exit */
	sim_run_all(10000);

	t = sim_total();
	wakeups1 = sim_count(1, wakeups) - c1.wakeups;
	ipis1 = sim_count(1, ipis) - c1.ipis;
	res1 = sim_count(1, resched_ipis) - c1.resched_ipis;
	print_message("  V16 %-14s N=%d  CPU 1 idle %s: ipis(cpu1)=%lu "
		      "resched_ipis(cpu1)=%lu ttwu_queued(cpu1)=%lu "
		      "csd_run(cpu1)=%lu "
		      "raises_in_smp_call=%lu warns=%lu ksoftirqd/1 runs=%lu "
		      "backlog_napi/1 runs=%lu wakeups(cpu1)=%lu "
		      "delivered(cpu1)=%lu\n",
#ifdef CONFIG_PREEMPT_RT
		      "rt-rps",
#else
		      napitest_thread_backlog_napi() ? "rps-threads" : "rps",
#endif
		      FLOOD, halted ? "halted" : "polling", ipis1, res1,
		      sim_count(1, ttwu_queued) - c1.ttwu_queued,
		      sim_count(1, csd_run) - c1.csd_run, t.raises_in_smp_call,
		      t.warns, ksd1->switches - ksd1_sw,
		      thr ? thr->switches - thr_sw : 0, wakeups1,
		      sim_count(1, skbs_delivered) - c1.skbs_delivered);

	/* Every packet delivered, on the CPU it was steered to. */
	assert_cpu_count_delta(1, skbs_delivered, c1.skbs_delivered, FLOOD);
	assert_cpu_count(0, skbs_delivered, 0);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();

	if (WANT_THREADS) {
		if (!thr)
			fail_msg("no backlog_napi/1 thread in this tree (%s)",
				 EXTRACTED_TREE);
		assert_cpu_count_delta(1, csd_run, c1.csd_run, 0);
		assert_int_equal(t.raises_in_smp_call, 0);
		assert_cpu_count_delta(1, net_rx_raises, c1.net_rx_raises, 0);
		/* The only IPI is the wakeup's, and only to a halted CPU. */
		if (!halted) {
			assert_int_equal(ipis1, 0);
			assert_int_equal(res1, 0);
		} else if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			assert_int_equal(ipis1, 0);
			assert_int_equal(res1, 1);
		} else {
			assert_int_equal(ipis1, 1);
			assert_cpu_count_delta(1, ttwu_queued, c1.ttwu_queued,
					       1);
			assert_int_equal(res1, 0);
		}
		/*
		 * The threads branch of napi_schedule_rps() returns: nothing
		 * on CPU 0's rps_ipi_list, and CPU 0's only NET_RX raise is
		 * the device interrupt's.
		 */
#ifdef CONFIG_RPS
		assert_null(per_cpu(softnet_data, 0).rps_ipi_list);
		assert_int_equal(per_cpu(softnet_data, 1).received_rps,
				 received_rps1);
#endif
		assert_cpu_count_delta(0, net_rx_raises, c0.net_rx_raises, 1);
		/* Only backlog_napi/1 was woken on CPU 1, and it ran. */
		assert_int_equal(wakeups1, 1);
		assert_int_equal(ksd1->switches - ksd1_sw, 0);
		assert_true(thr->switches - thr_sw >= 1);
	} else {
		/*
		 * The 6.1 path: one csd, rps_trigger_softirq() on CPU 1,
		 * counted in its softnet_stat's received_rps column; an IPI
		 * only to a halted CPU 1.
		 */
		assert_int_equal(ipis1, halted ? 1 : 0);
		assert_cpu_count_delta(1, csd_run, c1.csd_run, 1);
#ifdef CONFIG_RPS
		assert_int_equal(per_cpu(softnet_data, 1).received_rps,
				 received_rps1 + 1);
#endif
	}
}

static void v16_rt_remote_enqueue_sends_no_ipi(void **state)
{
	(void)state;
	v16_remote_enqueue(false);
}

static void v16_rt_remote_enqueue_sends_no_ipi_halted(void **state)
{
	(void)state;
	v16_remote_enqueue(true);
}

/*
 * V17: a local enqueue (RPS target == this CPU) takes the use_local_napi
 * shortcut of ____napi_schedule(): the backlog NAPI goes on this CPU's
 * poll_list and NET_RX is raised; backlog_napi/N is not woken.  On CPU 0
 * and on CPU 1, so that a per-CPU variable read for the wrong CPU
 * (backlog_napi, softnet_data) cannot pass by coincidence.
 */
static void local_enqueue_uses_poll_list(int cpu)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	int other = !cpu;
	struct sim_counters c, o;
	unsigned int qtail;

	if (WANT_THREADS && !napitest_backlog_thread(cpu))
		fail_msg("no backlog_napi/%d thread in this tree (%s)", cpu,
			 EXTRACTED_TREE);
	sim_switch_cpu(cpu);
	c = sim_cpus[cpu].cnt;
	o = sim_cpus[other].cnt;

	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), cpu, &qtail);

	assert_false(list_empty(&sd->poll_list));
	assert_ptr_equal(sd->poll_list.next, &sd->backlog.poll_list);
	assert_true(list_empty(&per_cpu(softnet_data, other).poll_list));
	assert_true(local_softirq_pending() & BIT(NET_RX_SOFTIRQ));
	assert_cpu_count_delta(cpu, net_rx_raises, c.net_rx_raises, 1);
	assert_cpu_count_delta(other, net_rx_raises, o.net_rx_raises, 0);
	assert_napi_state_clear(&sd->backlog, NAPI_STATE_SCHED_THREADED);
	assert_cpu_count_delta(cpu, wakeups, c.wakeups, 0);
	assert_cpu_count_delta(other, wakeups, o.wakeups, 0);

	local_bh_enable(); /* runs NET_RX here */
	sim_run_all(1000);
	assert_cpu_count(cpu, skbs_delivered, 1);
	assert_cpu_count(other, skbs_delivered, 0);
	assert_no_warn();
}

static void v17_local_enqueue_uses_poll_list(void **state)
{
	(void)state;
	local_enqueue_uses_poll_list(0);
}

static void v17_local_enqueue_uses_poll_list_cpu1(void **state)
{
	(void)state;
	local_enqueue_uses_poll_list(1);
}

/*
 * V22: with backlog threads, a stale rps_ipi_list (left by a path that
 * queued it before the threads were used) is ignored: not "waiting" for
 * process_backlog()/net_rx_action(), and net_rps_action_and_irq_enable()
 * sends no IPI.  Without threads it is sent (the 6.1 behaviour).
 */
static void v22_stale_rps_ipi_list_ignored_with_threads(void **state)
{
#ifdef CONFIG_RPS
	struct softnet_data *sd = &per_cpu(softnet_data, 0);
	struct softnet_data *remsd = &per_cpu(softnet_data, 1);

	(void)state;
	sim_switch_cpu(0);
	remsd->rps_ipi_next = NULL;
	sd->rps_ipi_list = remsd;

	if (WANT_THREADS) {
		if (!napitest_backlog_thread(1))
			fail_msg("no backlog_napi/1 thread in this tree (%s)",
				 EXTRACTED_TREE);
		assert_false(sd_has_rps_ipi_waiting(sd));
	} else {
		assert_true(sd_has_rps_ipi_waiting(sd));
	}

	local_irq_disable();
	net_rps_action_and_irq_enable(sd);
	assert_false(irqs_disabled());
	/* The csd, if any, is queued: polling idle CPU 1 needs no IPI. */
	assert_int_equal(sim_csd_pending(1), !WANT_THREADS);
	assert_cpu_count(1, ipis, 0);
	sim_run_all(1000);
	assert_cpu_count(1, csd_run, WANT_THREADS ? 0 : 1);
	assert_no_warn();
#else
	(void)state;
	skip(); /* rps_ipi_list exists only with RPS */
#endif
}

/*
 * V22, dev_cpu_dead(): a CPU going offline with a stale rps_ipi_list sends
 * no IPI when threads are used (patch 14 puts the send under
 * !use_backlog_threads(); the hunk matrix found this hunk unguarded).
 * Without threads the pending IPI is sent, as before.
 */
static void v22_cpu_dead_ignores_stale_rps_ipi_list_with_threads(void **state)
{
#ifdef CONFIG_RPS
	struct softnet_data *oldsd = &per_cpu(softnet_data, 1);
	struct softnet_data *remsd = &per_cpu(softnet_data, 2);

	(void)state;
	napitest_boot(3);
	remsd->rps_ipi_next = NULL;
	oldsd->rps_ipi_list = remsd;

	sim_cpu_down(1, 0);
	assert_int_equal(sim_csd_pending(2), !WANT_THREADS);
	assert_cpu_count(2, ipis, 0);
	sim_run_all(1000);
	assert_cpu_count(2, csd_run, WANT_THREADS ? 0 : 1);
	assert_no_warn();
#else
	(void)state;
	skip(); /* rps_ipi_list exists only with RPS */
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v16_rt_remote_enqueue_sends_no_ipi,
				       setup),
		cmocka_unit_test_setup(
			v16_rt_remote_enqueue_sends_no_ipi_halted, setup),
		cmocka_unit_test_setup(v17_local_enqueue_uses_poll_list, setup),
		cmocka_unit_test_setup(v17_local_enqueue_uses_poll_list_cpu1,
				       setup),
		cmocka_unit_test_setup(
			v22_stale_rps_ipi_list_ignored_with_threads, setup),
		cmocka_unit_test(
			v22_cpu_dead_ignores_stale_rps_ipi_list_with_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
