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
		__skb_queue_tail(&sd->input_pkt_queue, sim_skb_alloc(&test_dev));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v20_backlog_poll_list_initialised, setup),
		cmocka_unit_test_setup(v20_budget_exhausted_backlog_repolls, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
