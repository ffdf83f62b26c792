// SPDX-License-Identifier: GPL-2.0
/*
 * Backlog threads and smpboot: patch 14 ("net: Allow to use SMP threads for
 * backlog NAPI", upstream dad6b9770263) and its net_dev_init() hunk.
 */
#include "support/napitest.h"

static struct net_device test_dev = { .name = "sim0", .running = true };

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	return 0;
}

/* Queue n packets on cpu's backlog without scheduling its NAPI. */
static void queue_packets(int cpu, int n)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	int i;

	for (i = 0; i < n; i++)
		__skb_queue_tail(&sd->input_pkt_queue,
				 sim_skb_alloc(&test_dev));
}

/*
 * V20: net_dev_init() initialises every CPU's backlog.poll_list.  6.1 never
 * did (the backlog NAPI was only ever list_add_tail()ed); the series adds
 * INIT_LIST_HEAD(&sd->backlog.poll_list) (cover letter adjustment e).
 */
static void v20_backlog_poll_list_initialised(void **state)
{
	int cpu;

	(void)state;
	for_each_possible_cpu(cpu) {
		struct napi_struct *napi = &per_cpu(softnet_data, cpu).backlog;

		assert_ptr_equal(napi->poll_list.next, &napi->poll_list);
		assert_ptr_equal(napi->poll_list.prev, &napi->poll_list);
	}
}

/*
 * V20: on a fresh, never-polled softnet_data, a backlog poll that uses its
 * whole budget asks to be polled again, as the threaded path needs
 * (__napi_poll() is called there with no list_add() before it).  Without
 * the INIT_LIST_HEAD, list_empty() is false on the zeroed node: __napi_poll()
 * prints "backlog: Budget exhausted after napi rescheduled" once and returns
 * without setting repoll -- measured here: one pr_warn_once and one
 * iteration without repoll, not a stall (the next enqueue reschedules).
 */
static void v20_budget_exhausted_backlog_repolls(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	bool repoll = false;
	int work, weight;

	(void)state;
	sim_switch_cpu(1);
	weight = sd->backlog.weight;
	queue_packets(1, 2 * weight);
	set_bit(NAPI_STATE_SCHED, &sd->backlog.state);

	local_bh_disable();
	work = __napi_poll(&sd->backlog, &repoll);
	local_bh_enable();

	assert_int_equal(work, weight);
	if (sim_total().pr_warn_once)
		fail_msg("unexpected: %s", sim_last_pr_warn);
	assert_true(repoll);
}

/* Whether this configuration runs the backlog NAPI in threads. */
static bool expect_threads(void)
{
#ifdef CONFIG_PREEMPT_RT
	return true;
#else
	return napitest_thread_backlog_napi();
#endif
}

static void require_backlog_threads(void)
{
	if (expect_threads())
		require_definition(backlog_napi);
}

/*
 * Enqueue n packets for cpu from the current CPU, as netif_rx() does once
 * get_rps_cpu() chose cpu.  Without RPS there is no remote enqueue: the
 * packets are enqueued on cpu itself.
 */
static void enqueue_for(int cpu, int n)
{
	unsigned int qtail;
	int i, prev = -1;

#ifndef CONFIG_RPS
	prev = sim_switch_cpu(cpu);
#endif
	local_bh_disable();
	for (i = 0; i < n; i++)
		assert_int_equal(enqueue_to_backlog(sim_skb_alloc(&test_dev),
						    cpu, &qtail),
				 NET_RX_SUCCESS);
	local_bh_enable();
	if (prev >= 0)
		sim_switch_cpu(prev);
}

/* Packets delivered to the stack on cpu so far. */
#define delivered_on(cpu) sim_count(cpu, skbs_delivered)

/*
 * V21 (patch 14 registration): non-RT without thread_backlog_napi, no
 * backlog threads and the old softirq behaviour; with it (or on RT) one
 * backlog_napi/N per online CPU, bound to N, whose setup() ran once and
 * made the CPU's backlog THREADED with that thread.
 */
static void v21_backlog_threads_per_online_cpu(void **state)
{
	int cpu;

	(void)state;
	require_backlog_threads();
	for_each_possible_cpu(cpu) {
		struct napi_struct *napi = &per_cpu(softnet_data, cpu).backlog;
		struct task_struct *t = napitest_backlog_thread(cpu);
		char comm[TASK_COMM_LEN];

		if (!expect_threads() || !cpu_online(cpu)) {
			assert_null(t);
			assert_napi_state_clear(napi, NAPI_STATE_THREADED);
			assert_null(napi->thread);
			continue;
		}
		assert_non_null(t);
		snprintf(comm, sizeof(comm), "backlog_napi/%d", cpu);
		assert_string_equal(t->comm, comm);
		assert_int_equal(t->cpu, cpu);
		/* backlog_napi_setup() ran: its thread and THREADED. */
		assert_ptr_equal(napi->thread, t);
		assert_napi_state_set(napi, NAPI_STATE_THREADED);
		/* Idle: asleep in smpboot_thread_fn(). */
		assert_task_state(t, TASK_INTERRUPTIBLE);
	}
}

/*
 * V21: CPU offline parks the thread and online unparks the same thread;
 * setup() does not run again and the backlog stays THREADED with it.
 * setup() (backlog_napi_setup()) sets napi->thread: cleared before the
 * offline, it stays cleared if setup() does not run again, and is put
 * back after.
 */
static void v21_park_unpark_keeps_thread_and_setup_once(void **state)
{
	struct napi_struct *napi = &per_cpu(softnet_data, 1).backlog;
	struct task_struct *t = napitest_backlog_thread(1);

	(void)state;
	require_backlog_threads();
	assert_ptr_equal(napi->thread, t);
	napi->thread = NULL;
	sim_cpu_down(1, 0);
	if (t) {
		assert_true(t->parked);
		assert_task_state(t, TASK_PARKED);
	}
	sim_cpu_up(1);
	assert_ptr_equal(napitest_backlog_thread(1), t);
	/* setup() did not run again. */
	assert_null(napi->thread);
	napi->thread = t;
	if (t) {
		assert_false(t->parked);
		assert_task_state(t, TASK_INTERRUPTIBLE);
	}
	assert_napi_state(napi, NAPI_STATE_THREADED, expect_threads());
	assert_no_warn();
}

/*
 * V18 (patch 14 process_backlog completion): when the backlog drains,
 * process_backlog()'s inline __napi_complete() clears SCHED but keeps
 * THREADED, so the next schedule goes to the thread again.  Before the
 * series (and without threads) the state is simply cleared.
 */
static void v18_backlog_completion_keeps_threaded(void **state)
{
	struct napi_struct *napi = &per_cpu(softnet_data, 1).backlog;
	int round;

	(void)state;
	require_backlog_threads();
	for (round = 1; round <= 2; round++) {
		enqueue_for(1, 4);
		sim_run_all(1000);
		assert_int_equal(delivered_on(1), 4 * round);
		assert_napi_state_clear(napi, NAPI_STATE_SCHED);
		assert_napi_state_clear(napi, NAPI_STATE_SCHED_THREADED);
		assert_napi_state(napi, NAPI_STATE_THREADED, expect_threads());
		assert_true(list_empty(&napi->poll_list));
	}
	assert_int_equal(delivered_on(0), 0);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
}

/*
 * V19 (patch 14 dev_cpu_dead): CPU 1 dies with its backlog on its
 * poll_list (scheduled from its own net_rx_action(), NET_RX not yet run);
 * dev_cpu_dead() takes it off and clears its state but keeps THREADED, so
 * after CPU 1 is back a packet for it wakes backlog_napi/1 again instead
 * of being polled from the enqueuing CPU's list.
 */
static void v19_cpu_dead_keeps_threaded(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	struct napi_struct *napi = &sd->backlog;
	struct task_struct *t = napitest_backlog_thread(1);
	unsigned long wakeups;
	unsigned int qtail;
	int prev;

	(void)state;
	require_backlog_threads();
#if !EXTRACTED_HAVE_softnet_data_in_net_rx_action
	/* The scenario parks a packet with in_net_rx_action (patch 04). */
	(void)sd;
	(void)napi;
	(void)t;
	(void)wakeups;
	(void)qtail;
	(void)prev;
	fail_msg("softnet_data.in_net_rx_action is not in this tree (%s)",
		 EXTRACTED_TREE);
#else
	prev = sim_switch_cpu(1);
	sd->in_net_rx_action = true; /* no NET_RX raise: it is running */
	assert_int_equal(enqueue_to_backlog(sim_skb_alloc(&test_dev), 1,
					    &qtail),
			 NET_RX_SUCCESS);
	sd->in_net_rx_action = false; /* ... and CPU 1 stops here */
	sim_switch_cpu(prev);
	assert_false(sim_cpus[1].softirq_pending);
	assert_ptr_equal(sd->poll_list.next, &napi->poll_list);

	sim_cpu_down(1, 0);
	assert_poll_list_empty(1);
	assert_napi_state_clear(napi, NAPI_STATE_SCHED);
	assert_napi_state(napi, NAPI_STATE_THREADED, expect_threads());
	/* Its packet was requeued on CPU 0 and delivered there. */
	sim_run_all(1000);
	assert_int_equal(delivered_on(0), 1);

	sim_cpu_up(1);
	wakeups = sim_count(1, wakeups);
	enqueue_for(1, 3);
	if (t && IS_ENABLED(CONFIG_RPS))
		assert_cpu_count(1, wakeups, wakeups + 1);
	sim_run_all(1000);
	assert_int_equal(delivered_on(1), 3);
	assert_int_equal(delivered_on(0), 1);
	assert_poll_list_empty(0);
	assert_napi_state(napi, NAPI_STATE_THREADED, expect_threads());
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v20_backlog_poll_list_initialised,
				       setup),
		cmocka_unit_test_setup(v20_budget_exhausted_backlog_repolls,
				       setup),
		cmocka_unit_test_setup(v21_backlog_threads_per_online_cpu,
				       setup),
		cmocka_unit_test_setup(
			v21_park_unpark_keeps_thread_and_setup_once, setup),
		cmocka_unit_test_setup(v18_backlog_completion_keeps_threaded,
				       setup),
		cmocka_unit_test_setup(v19_cpu_dead_keeps_threaded, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
