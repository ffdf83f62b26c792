// SPDX-License-Identifier: GPL-2.0
/*
 * RPS from a threaded NAPI poll, and the input_pkt_queue lock with backlog
 * threads but no RPS:
 *
 *   11 "net: optimize napi_threaded_poll() vs RPS/RFS" (upstream
 *      87eff2ec57b6): napi_threaded_poll_loop() sets
 *      sd->in_napi_threaded_poll around ->poll(), napi_schedule_rps() then
 *      raises no NET_RX for a remote enqueue (11a), and the loop sends the
 *      pending rps_ipi_list itself after each poll, before
 *      local_bh_enable() (11b);
 *   13 "net: Use backlog-NAPI to clean up the defer_list" (upstream
 *      80d2eefcb4c8): backlog_lock_*() take the input_pkt_queue lock when
 *      backlog threads are used, also without CONFIG_RPS (13c).
 *
 * The RPS source is a driver NAPI on CPU 0 with its own
 * napi_threaded_poll() kthread (dev_set_threaded()), whose ->poll() steers
 * packets to CPU 1 with enqueue_to_backlog(), as netif_receive_skb() does
 * after get_rps_cpu().
 */
#include "support/napitest.h"

#define FLOOD 16

/* Backlog threads are used: always on RT, on request (thread_backlog_napi) else. */
#define THREADS_ON \
	(IS_ENABLED(CONFIG_PREEMPT_RT) || napitest_thread_backlog_napi())

/* The lock class of every sk_buff_head lock (skb_queue_head_init()). */
#define SKB_QUEUE_LOCK "sk_buff_head.lock"

static struct net_device test_dev = { .name = "sim0", .running = true };
static struct napi_struct rx_napi;

/* The simulated device: what its ->poll() does and what it saw. */
static unsigned int dev_polls;
static int dev_target_cpu;
static int dev_repoll_first; /* first poll consumes the full budget */
static unsigned long
	dev_raises_in_poll; /* NET_RX raises on this CPU by the enqueue */
static bool dev_net_rx_pending_in_poll;
static int dev_flag_in_poll; /* sd->in_napi_threaded_poll during ->poll() */
static struct work_struct obs_work; /* queued from ->poll(): the observer */
static bool obs_queue;

/* What the observer saw when it first got CPU 0 from the poll thread. */
static struct {
	bool ran;
	unsigned int polls;
	unsigned long ipis1;
	bool csd_pending1;
	unsigned long wakeups1;
	unsigned long softirq_runs0;
} obs;

static void obs_fn(struct work_struct *work)
{
	(void)work;
	obs.ran = true;
	obs.polls = dev_polls;
	obs.ipis1 = sim_count(1, ipis);
	obs.csd_pending1 = sim_csd_pending(1);
	obs.wakeups1 = sim_count(1, wakeups);
	obs.softirq_runs0 = sim_count(0, softirq_runs);
}

static int dev_poll(struct napi_struct *napi, int budget)
{
	unsigned long raises = sim_count(sim_cpu_id(), net_rx_raises);
	unsigned int qtail;
	int i;

	dev_polls++;
#if EXTRACTED_HAVE_softnet_data_in_napi_threaded_poll
	dev_flag_in_poll = this_cpu_ptr(&softnet_data)->in_napi_threaded_poll;
#endif
	if (dev_polls == 1) {
		for (i = 0; i < FLOOD; i++)
			enqueue_to_backlog(sim_skb_alloc(&test_dev),
					   dev_target_cpu, &qtail);
		dev_raises_in_poll =
			sim_count(sim_cpu_id(), net_rx_raises) - raises;
		dev_net_rx_pending_in_poll = local_softirq_pending() &
					     BIT(NET_RX_SOFTIRQ);
		/*
		 * Woken now, the observer gets CPU 0 at the first preemption
		 * point of the poll thread: the local_bh_enable() that ends
		 * this poll iteration (everything before it runs with BH off).
		 */
		if (obs_queue)
			assert_true(schedule_work_on(0, &obs_work));
		if (dev_repoll_first)
			return budget; /* ring not drained: repoll */
	}
	/* The packets were handed on, none consumed from the ring. */
	napi_complete_done(napi, 0);
	return 0;
}

/* test_dev's NAPI, threaded on cpu (see napitest_threaded_napi()). */
static struct napi_struct *threaded_napi_on(int cpu)
{
	napitest_threaded_napi(&rx_napi, &test_dev, dev_poll, cpu);
	return &rx_napi;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	dev_polls = 0;
	dev_target_cpu = 1;
	dev_repoll_first = 0;
	dev_raises_in_poll = 0;
	dev_net_rx_pending_in_poll = false;
	dev_flag_in_poll = -1;
	obs_queue = false;
	memset(&obs, 0, sizeof(obs));
	INIT_WORK(&obs_work, obs_fn);
	return 0;
}

/*
 * V12 (patch 11a): a remote RPS enqueue made from inside a threaded poll
 * (sd->in_napi_threaded_poll set by napi_threaded_poll_loop()) raises no
 * NET_RX on the polling CPU: the thread sends the IPI itself (V13), a
 * softirq on CPU 0 would only do that later and at a cost.  With backlog
 * threads (rt-rps, rps-threads) napi_schedule_rps() wakes CPU 1's
 * backlog_napi thread instead and raises nothing either.  Base raises
 * (the 6.1 napi_schedule_rps() raises for every remote enqueue).
 */
static void v12_threaded_poll_rps_enqueue_no_local_raise(void **state)
{
	struct napi_struct *napi;
	unsigned long raises0, runs0;

	(void)state;
#ifndef CONFIG_RPS
	skip(); /* without RPS no packet is steered to another CPU */
#endif
	napi = threaded_napi_on(0);
	raises0 = sim_count(0, net_rx_raises);
	runs0 = sim_count(0, softirq_runs);

	napitest_device_irq(0, napi);
	sim_run_cpu(0, 100);
	assert_int_equal(dev_polls, 1);
	print_message(
		"  V12 raises in poll %lu, NET_RX pending %d, softirq runs(cpu0) %lu\n",
		dev_raises_in_poll, dev_net_rx_pending_in_poll,
		sim_count(0, softirq_runs) - runs0);
	assert_int_equal(dev_raises_in_poll, 0);
	assert_false(dev_net_rx_pending_in_poll);
	/* Nor later in the thread: no NET_RX on CPU 0 at all. */
	assert_cpu_count_delta(0, net_rx_raises, raises0, 0);
	assert_cpu_count_delta(0, softirq_runs, runs0, 0);
	assert_false(local_softirq_pending() & BIT(NET_RX_SOFTIRQ));

	/* And the packets still reach CPU 1. */
	sim_run_all(10000);
	assert_cpu_count(1, skbs_delivered, FLOOD);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
}

/*
 * V13 (patch 11b): after each threaded poll the loop sends the pending
 * rps_ipi_list itself, before local_bh_enable().  The first poll steers
 * FLOOD packets to CPU 1 and consumes its full budget (the loop repolls);
 * the observer, woken inside that poll, gets CPU 0 at the iteration's
 * local_bh_enable() (PREEMPT_FULL: the first preemption point with BH on)
 * and must find the IPI to CPU 1 already sent, with no softirq run on
 * CPU 0 (base sends it from net_rx_action(), run by that local_bh_enable()).
 * Without threads (rps) that is one IPI; with threads (rt-rps,
 * rps-threads) there is no rps_ipi_list: backlog_napi/1 was woken, no IPI.
 * Either way CPU 1 then processes every packet.
 */
static void v13_threaded_poll_sends_rps_ipis(void **state)
{
	unsigned long ipis1 = sim_count(1, ipis);
	unsigned long csd_run1 = sim_count(1, csd_run);
	unsigned long wakeups1 = sim_count(1, wakeups);
	unsigned long runs0 = sim_count(0, softirq_runs);
	struct napi_struct *napi;

	(void)state;
#ifndef CONFIG_RPS
	skip(); /* without RPS there is no rps_ipi_list to send */
#endif
	if (THREADS_ON && !napitest_backlog_thread(1))
		fail_msg("no backlog_napi/1 thread in this tree (%s)",
			 EXTRACTED_TREE);
#ifndef CONFIG_PREEMPT_RT
	sim_preempt = SIM_PREEMPT_FULL;
#endif
	napi = threaded_napi_on(0);
	dev_repoll_first = 1;
	obs_queue = true;

	napitest_device_irq(0, napi);
	sim_run_cpu(0, 100);
	sim_preempt = IS_ENABLED(CONFIG_PREEMPT_RT) ? SIM_PREEMPT_RT :
						      SIM_PREEMPT_NONE;
	print_message(
		"  V13 observer: ran %d after poll %u, ipis(cpu1) %lu, csd pending(cpu1) %d, wakeups(cpu1) %lu, softirq runs(cpu0) %lu\n",
		obs.ran, obs.polls, obs.ipis1 - ipis1, obs.csd_pending1,
		obs.wakeups1 - wakeups1, obs.softirq_runs0 - runs0);
	assert_int_equal(dev_polls, 2);
	/* It preempted the thread between the two polls. */
	assert_true(obs.ran);
	assert_int_equal(obs.polls, 1);
	assert_int_equal(obs.softirq_runs0 - runs0, 0);
	if (THREADS_ON) {
		assert_int_equal(obs.ipis1 - ipis1, 0);
		assert_false(obs.csd_pending1);
		assert_int_equal(obs.wakeups1 - wakeups1, 1);
	} else {
		/* Queued; polling idle CPU 1 needs no IPI. */
		assert_int_equal(obs.ipis1 - ipis1, 0);
		assert_true(obs.csd_pending1);
	}

	/* The remote packets are processed, on CPU 1. */
	sim_run_all(10000);
	assert_cpu_count_delta(1, csd_run, csd_run1, THREADS_ON ? 0 : 1);
	assert_cpu_count_delta(1, ipis, ipis1, 0); /* CPU 1 idles polling */
	assert_cpu_count(1, skbs_delivered, FLOOD);
	assert_cpu_count(0, skbs_delivered, 0);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_cpu_count_delta(0, softirq_runs, runs0, 0);
	assert_no_warn();
}

/* in_napi_threaded_poll of cpu's softnet_data (a tree without it: fails). */
static bool threaded_poll_flag(int cpu)
{
#if EXTRACTED_HAVE_softnet_data_in_napi_threaded_poll
	return per_cpu(softnet_data, cpu).in_napi_threaded_poll;
#else
	(void)cpu;
	fail_msg("softnet_data has no in_napi_threaded_poll in this tree (%s)",
		 EXTRACTED_TREE);
	return false;
#endif
}

/*
 * V31 (patch 11a): sd->in_napi_threaded_poll is set around the threaded
 * ->poll() only, and cleared when the loop iteration ends, as V5 wants of
 * in_net_rx_action.  Left set, a later RPS enqueue to a remote CPU from
 * task context (tun, veth, loopback netif_rx()) raises no NET_RX here, so
 * net_rx_action() never sends the IPI and the packet is stranded on an
 * idle system (rps; with backlog threads the remote thread is woken
 * instead and the flag is not read).  Checked in every configuration:
 * the flag, and the packet delivered on CPU 1.
 */
static void v31_in_napi_threaded_poll_scoped_to_poll(void **state)
{
	struct napi_struct *napi = threaded_napi_on(0);
	unsigned long raises0;
	int target = IS_ENABLED(CONFIG_RPS) ? 1 : 0;

	(void)state;
	dev_target_cpu = target;
	napitest_device_irq(0, napi);
	sim_run_all(10000);
	assert_int_equal(dev_polls, 1);
	assert_int_equal(dev_flag_in_poll, 1);
	assert_cpu_count(target, skbs_delivered, FLOOD);

	/* Later, from task context on CPU 0: netif_rx() steered to target. */
	sim_switch_cpu(0);
	raises0 = sim_count(0, net_rx_raises);
	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), target,
			   &(unsigned int){ 0 });
	if (!THREADS_ON) /* rps_ipi_list (rps) or the local backlog (norps) */
		assert_cpu_count_delta(0, net_rx_raises, raises0, 1);
	local_bh_enable();
	sim_run_all(10000);
	assert_cpu_count(target, skbs_delivered, FLOOD + 1);
	assert_int_equal(sim_skbs_outstanding(), 0);
	/* The flag itself, where the enqueue above does not read it. */
	assert_false(threaded_poll_flag(0));
	assert_false(threaded_poll_flag(1));
	assert_no_warn();
}

static struct sk_buff *alloc_on(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sk_buff *skb = sim_skb_alloc(&test_dev);

	sim_switch_cpu(prev);
	return skb;
}

/*
 * V26 (patch 13c), the defer kick: kick_defer_list_purge() schedules CPU
 * 1's backlog NAPI under CPU 1's input_pkt_queue lock, which must really
 * be taken (backlog_lock_irq_save() must not fall back to local_irq_save()
 * when RPS is off).  backlog_napi/1 then frees the skbs through
 * process_backlog(), which takes it again.
 */
static void v26_defer_kick_locks(void)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	int n = (int)(READ_ONCE(sysctl_skb_defer_max) >> 1) + 1;
	unsigned long acq;
	int i;

	sim_switch_cpu(0);
	for (i = 0; i < n - 1; i++)
		skb_attempt_defer_free(alloc_on(1));
	acq = sd->input_pkt_queue.lock.acquisitions;
	assert_int_equal(acq, 0);

	skb_attempt_defer_free(alloc_on(1)); /* the kick */
	print_message(
		"  V26 kick: input_pkt_queue lock of cpu1 taken %lu time(s)\n",
		sd->input_pkt_queue.lock.acquisitions - acq);
	assert_int_equal(sd->input_pkt_queue.lock.acquisitions - acq, 1);
	assert_int_equal(sd->input_pkt_queue.lock.owner, -1);
	assert_true(sim_lockdep_class_used(SKB_QUEUE_LOCK, "any"));
	assert_napi_state_set(&sd->backlog, NAPI_STATE_SCHED_THREADED);

	acq = sd->input_pkt_queue.lock.acquisitions;
	sim_run_all(1000);
	print_message(
		"  V26 backlog_napi/1: input_pkt_queue lock of cpu1 taken %lu time(s)\n",
		sd->input_pkt_queue.lock.acquisitions - acq);
	assert_true(sd->input_pkt_queue.lock.acquisitions > acq);
	assert_cpu_count(1, skbs_freed, n);
}

/*
 * V26 (patch 13c), process_backlog(): a local enqueue on CPU 0, then the
 * NET_RX run by local_bh_enable() (the use_local_napi shortcut) processes
 * it.  process_backlog() takes the input_pkt_queue lock twice: to splice
 * the queue into process_queue, then to find it empty and complete.
 */
static void v26_process_backlog_locks(void)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 0);
	unsigned long acq;
	unsigned int qtail;

	sim_switch_cpu(0);
	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), 0, &qtail);
	/* The enqueue itself, under backlog_lock_irq_save(). */
	assert_int_equal(sd->input_pkt_queue.lock.acquisitions, 1);

	acq = sd->input_pkt_queue.lock.acquisitions;
	local_bh_enable(); /* net_rx_action() -> process_backlog() */
	sim_run_all(1000);
	print_message(
		"  V26 process_backlog: input_pkt_queue lock of cpu0 taken %lu time(s)\n",
		sd->input_pkt_queue.lock.acquisitions - acq);
	assert_cpu_count(0, skbs_delivered, 1);
	assert_int_equal(sd->input_pkt_queue.lock.acquisitions - acq, 2);
	assert_int_equal(sd->input_pkt_queue.lock.owner, -1);
}

/*
 * V26 (patch 13c): with backlog threads the input_pkt_queue lock is
 * really taken, also with RPS=n (norps-threads), in process_backlog() and
 * in the defer kick path.  On base, where rps_lock_*() only disable
 * interrupts without RPS, norps-threads takes no lock at all.  The RPS
 * configurations with threads (rt-rps, rps-threads) take it through
 * IS_ENABLED(CONFIG_RPS) anyway and run the same checks.  Skipped
 * without backlog threads: the kick is then the defer csd (V1, V24) and
 * takes no backlog lock.  One test per path.
 */
static void v26_process_backlog_takes_backlog_lock(void **state)
{
	(void)state;
	if (!THREADS_ON)
		skip(); /* no backlog threads: the IRQ-only helpers */
	v26_process_backlog_locks();
	assert_true(sim_lockdep_clean());
	assert_no_warn();
}

static void v26_defer_kick_takes_backlog_lock(void **state)
{
	(void)state;
	if (!THREADS_ON)
		skip(); /* no backlog threads: the kick is a csd */
	require_definition(kick_defer_list_purge);
	v26_defer_kick_locks();
	assert_true(sim_lockdep_clean());
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			v12_threaded_poll_rps_enqueue_no_local_raise, setup),
		cmocka_unit_test_setup(v13_threaded_poll_sends_rps_ipis, setup),
		cmocka_unit_test_setup(v31_in_napi_threaded_poll_scoped_to_poll,
				       setup),
		cmocka_unit_test_setup(v26_process_backlog_takes_backlog_lock,
				       setup),
		cmocka_unit_test_setup(v26_defer_kick_takes_backlog_lock,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
