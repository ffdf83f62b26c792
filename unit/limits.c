// SPDX-License-Identifier: GPL-2.0
/*
 * The limits of the queues the series works on, reached: a backlog filled
 * to netdev_max_backlog (enqueue_to_backlog(), net/core/dev.c) and a remote
 * defer_list filled to sysctl_skb_defer_max (skb_attempt_defer_free(),
 * net/core/skbuff.c).  Small limits are set through the sysctls, as an
 * administrator would; the code compares against them exactly, so a
 * one-off change of either comparison fails here.
 */
#include "support/napitest.h"

#define MAX_BACKLOG 8
#define DEFER_MAX 8

static struct net_device test_dev = { .name = "sim0", .running = true };
static struct net_device stopped_dev = { .name = "sim1", .running = false };

/* The backlog the tests fill: a remote CPU's with RPS, else this CPU's. */
static int target_cpu(void)
{
	return IS_ENABLED(CONFIG_RPS) ? 1 : 0;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	WRITE_ONCE(netdev_max_backlog, MAX_BACKLOG);
	WRITE_ONCE(sysctl_skb_defer_max, DEFER_MAX);
	sim_switch_cpu(0);
	return 0;
}

/* netif_rx() of skb into cpu's backlog from CPU 0, BH off as there. */
static int enqueue_on(struct sk_buff *skb, int cpu)
{
	unsigned int qtail;
	int ret;

	local_bh_disable();
	ret = enqueue_to_backlog(skb, cpu, &qtail);
	local_bh_enable();
	return ret;
}

/* A packet dropped by the backlog: freed here, counted, with its reason. */
static void assert_dropped(const struct sk_buff *skb, int reason)
{
	assert_int_equal(skb->freed_on_cpu, 0);
	assert_int_equal(skb->delivered_on_cpu, -1);
	assert_string_equal(skb->freed_by, "kfree_skb_reason");
	if (skb->drop_reason != reason)
		fail_msg("dropped with reason %d, expected %d "
			 "(enum skb_drop_reason)",
			 skb->drop_reason, reason);
}

/* Fill cpu's input_pkt_queue to the limit: qlen <= netdev_max_backlog. */
static void fill_backlog(int cpu)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	int i;

	local_bh_disable(); /* nothing is processed meanwhile */
	for (i = 0; i <= MAX_BACKLOG; i++)
		assert_int_equal(enqueue_on(sim_skb_alloc(&test_dev), cpu),
				 NET_RX_SUCCESS);
	assert_int_equal(skb_queue_len(&sd->input_pkt_queue), MAX_BACKLOG + 1);
	assert_int_equal(sd_dropped(sd), 0);
}

/*
 * V32: enqueue_to_backlog() accepts a packet while the queue holds at most
 * netdev_max_backlog packets; the next one is dropped: NET_RX_DROP,
 * sd->dropped and the device's rx_dropped counted, the packet freed on the
 * enqueuing CPU with SKB_DROP_REASON_CPU_BACKLOG, the queue unchanged.
 * The queued packets are then all delivered.
 */
static void v32_backlog_full_drops_next_packet(void **state)
{
	int cpu = target_cpu();
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	struct sk_buff *skb;

	(void)state;
	fill_backlog(cpu);
	skb = sim_skb_alloc(&test_dev);
	assert_int_equal(enqueue_on(skb, cpu), NET_RX_DROP);
	assert_int_equal(skb_queue_len(&sd->input_pkt_queue), MAX_BACKLOG + 1);
	local_bh_enable();

	assert_int_equal(sd_dropped(sd), 1);
	assert_int_equal(test_dev.rx_dropped, 1);
	assert_dropped(skb, SKB_DROP_REASON_CPU_BACKLOG);

	sim_run_all(10000);
	assert_cpu_count(cpu, skbs_delivered, MAX_BACKLOG + 1);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
}

/*
 * V32: a packet of a device that is not running is dropped before the
 * limit is looked at, with SKB_DROP_REASON_NOT_SPECIFIED (the reason the
 * function starts with) and counted in sd->dropped, also right after a
 * CPU_BACKLOG drop.  Since v6.10 (95e48d862ada "net: enqueue_to_backlog()
 * change vs not running device") the reason is SKB_DROP_REASON_DEV_READY
 * and sd->dropped counts only the backlog drops.
 */
#if EXTRACTED_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define STOPPED_DEV_DROP_REASON SKB_DROP_REASON_DEV_READY
#define STOPPED_DEV_SD_DROPPED 0
#else
#define STOPPED_DEV_DROP_REASON SKB_DROP_REASON_NOT_SPECIFIED
#define STOPPED_DEV_SD_DROPPED 1
#endif

static void v32_stopped_device_drop_not_specified(void **state)
{
	int cpu = target_cpu();
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	struct sk_buff *full, *skb;

	(void)state;
	fill_backlog(cpu);
	full = sim_skb_alloc(&test_dev);
	assert_int_equal(enqueue_on(full, cpu), NET_RX_DROP);
	local_bh_enable();
	sim_run_all(10000);
	assert_dropped(full, SKB_DROP_REASON_CPU_BACKLOG);

	skb = sim_skb_alloc(&stopped_dev);
	assert_int_equal(enqueue_on(skb, cpu), NET_RX_DROP);
	assert_dropped(skb, STOPPED_DEV_DROP_REASON);
	assert_int_equal(sd_dropped(sd), 1 + STOPPED_DEV_SD_DROPPED);
	assert_int_equal(stopped_dev.rx_dropped, 1);
	assert_true(skb_queue_empty(&sd->input_pkt_queue));
	assert_int_equal(sim_skbs_outstanding(), 0);
	stopped_dev.rx_dropped = 0;
	test_dev.rx_dropped = 0;
	assert_no_warn();
}

static int test_teardown(void **state)
{
	(void)state;
	test_dev.rx_dropped = 0;
	stopped_dev.rx_dropped = 0;
	return 0;
}

/*
 * V33: CPU 1's defer_list takes at most sysctl_skb_defer_max skbs freed
 * from CPU 0; the next one is freed at once on CPU 0 (the nodefer path),
 * and defer_count stays at the limit.  CPU 1 then frees the deferred ones.
 */
static void v33_defer_list_full_frees_locally(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	struct sk_buff *skb;
	int i;

	(void)state;
	for (i = 0; i < DEFER_MAX; i++) {
		skb = napitest_skb_on(1, &test_dev);
		skb_attempt_defer_free(skb);
		assert_int_equal(skb->freed_on_cpu, -1);
	}
	assert_int_equal(READ_ONCE(sd->defer_count), DEFER_MAX);

	skb = napitest_skb_on(1, &test_dev);
	skb_attempt_defer_free(skb);
	assert_int_equal(skb->freed_on_cpu, 0);
	/* 6.1: __kfree_skb(); later trees: kfree_skb_napi_cache(), with BH
	 * disabled into the NAPI cache. */
	assert_string_equal(skb->freed_by, EXTRACTED_HAVE_kfree_skb_napi_cache ?
						   "__napi_kfree_skb" :
						   "__kfree_skb");
	assert_int_equal(READ_ONCE(sd->defer_count), DEFER_MAX);
	assert_cpu_count(0, skbs_freed, 1);
	assert_cpu_count(1, skbs_freed, 0);

	sim_run_all(10000);
	assert_cpu_count(1, skbs_freed, DEFER_MAX);
	assert_null(READ_ONCE(sd->defer_list));
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			v32_backlog_full_drops_next_packet, setup,
			test_teardown),
		cmocka_unit_test_setup_teardown(
			v32_stopped_device_drop_not_specified, setup,
			test_teardown),
		cmocka_unit_test_setup_teardown(
			v33_defer_list_full_frees_locally, setup,
			test_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
