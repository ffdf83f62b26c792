// SPDX-License-Identifier: GPL-2.0
/*
 * V29, V30, the seed-netpoll patch ("netpoll: Optimize skb refilling on critical path",
 * on 6.1's single global skb pool): find_skb(), refill_skbs(),
 * refill_skbs_work_handler(), __netpoll_setup() and __netpoll_cleanup()
 * are the tree's own (net/core/netpoll.c), struct netpoll is the tree's
 * (include/linux/netpoll.h, with the seed's refill_wq).  The refill work
 * runs on the simulated CPU's kworker (shims/sim/kernel/workqueue.c).
 */
#include <string.h>
#include <kernel_prelude.h>

/* include/linux/gfp.h */
#ifndef GFP_ATOMIC
#define GFP_ATOMIC 0x20u
#endif
#ifndef GFP_KERNEL
#define GFP_KERNEL 0xcc0u
#endif

/* include/linux/errno.h: kernel-internal. */
#define ENOTSUPP 524

/* include/linux/netdevice.h: enum netdev_priv_flags. */
#define IFF_DISABLE_NETPOLL (1u << 12)

/* include/uapi/linux/if_ether.h, ip.h, udp.h: sizes for MAX_SKB_SIZE. */
struct ethhdr {
	u8 h[14];
};
struct iphdr {
	u8 h[20];
};
struct udphdr {
	u8 h[8];
};

/* Allocation failures the tests inject (alloc_skb(), kmalloc()). */
static int alloc_skb_failures, kmalloc_failures;
static unsigned long alloc_skb_calls;

/* include/linux/skbuff.h: alloc_skb(), failing while told to. */
static struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp)
{
	(void)size;
	(void)gfp;
	alloc_skb_calls++;
	if (alloc_skb_failures) {
		alloc_skb_failures--;
		return NULL;
	}
	return sim_skb_alloc(NULL);
}

#define skb_reserve(skb, len) \
	do {                  \
		(void)(skb);  \
		(void)(len);  \
	} while (0)

/* include/linux/slab.h: kmalloc() does not zero (poisoned here). */
static void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	(void)gfp;
	if (kmalloc_failures) {
		kmalloc_failures--;
		return NULL;
	}
	p = malloc(size);
	if (p)
		memset(p, 0x5a, size);
	return p;
}
#define kfree(p) free(p)

/* include/linux/string.h */
#define strscpy(dst, src, n) snprintf((dst), (n), "%s", (src))

/* include/linux/rtnetlink.h, rcupdate.h, srcu.h: no concurrent readers. */
#define rtnl_dereference(p) (p)
#define RCU_INIT_POINTER(p, v) ((p) = (v))
#define synchronize_rcu() \
	do {              \
	} while (0)
#define synchronize_srcu(s) \
	do {                \
		(void)(s);  \
	} while (0)
/* call_rcu(): the grace period has elapsed at once. */
#define call_rcu(head, fn) (fn)(head)
static int netpoll_srcu; /* net/core/netpoll.c: DEFINE_STATIC_SRCU() */

/* net/core/netpoll.c: the TX retry work (static there); not exercised. */
static void queue_process(struct work_struct *work)
{
	(void)work;
}

/* net/core/netpoll.c: the completion queue is empty here (static there). */
static void zap_completion_queue(void)
{
}

/* net/core/netpoll.c: polling the device frees nothing here; counted. */
static unsigned long poll_dev_calls;

void netpoll_poll_dev(struct net_device *dev)
{
	(void)dev;
	poll_dev_calls++;
}

#include "support/napitest.h"

static struct net_device test_dev;
static struct net_device_ops test_ops;
static int ndo_setup_ret;
static bool refill_pending_at_ndo_cleanup;
static struct netpoll *cleanup_np;

static int test_ndo_netpoll_setup(struct net_device *dev,
				  struct netpoll_info *info)
{
	return ndo_setup_ret;
}

/* The driver's teardown: the refill work must already be cancelled. */
static void test_ndo_netpoll_cleanup(struct net_device *dev)
{
	refill_pending_at_ndo_cleanup = work_pending(&cleanup_np->refill_wq);
}

/* Boot; an empty pool (netpoll_init()) then n skbs in it; a netpoll target. */
static void netpoll_boot(struct netpoll *np, unsigned int pool_skbs)
{
	napitest_boot(2);
	skb_queue_head_init(&skb_pool);
	while (pool_skbs--)
		__skb_queue_tail(&skb_pool, sim_skb_alloc(NULL));
	alloc_skb_failures = kmalloc_failures = 0;
	alloc_skb_calls = poll_dev_calls = 0;
	ndo_setup_ret = 0;
	refill_pending_at_ndo_cleanup = false;
	memset(&test_dev, 0, sizeof(test_dev));
	strcpy(test_dev.name, "eth0");
	test_ops.ndo_netpoll_setup = test_ndo_netpoll_setup;
	test_ops.ndo_netpoll_cleanup = test_ndo_netpoll_cleanup;
	test_dev.netdev_ops = &test_ops;
	/* What the caller hands __netpoll_setup(): not zeroed. */
	memset(np, 0x6b, sizeof(*np));
	np->name = "netconsole";
	cleanup_np = np;
}

static void v29_find_skb_does_not_refill_the_pool(void **state)
{
	struct netpoll np;
	struct sk_buff *skb;

	netpoll_boot(&np, 2);
	assert_int_equal(__netpoll_setup(&np, &test_dev), 0);
	skb = find_skb(&np, 100, 0);
	assert_non_null(skb);
	/* The pool is below MAX_SKBS and stays as it is. */
	assert_int_equal(skb_queue_len(&skb_pool), 2);
	assert_int_equal(alloc_skb_calls, 1);
	__netpoll_cleanup(&np);
	assert_no_warn();
}

static void v29_no_refill_work_when_alloc_succeeds(void **state)
{
	struct netpoll np;

	netpoll_boot(&np, 2);
	assert_int_equal(__netpoll_setup(&np, &test_dev), 0);
	assert_non_null(find_skb(&np, 100, 0));
	assert_false(work_pending(&np.refill_wq));
	sim_run_cpu(0, 100);
	assert_int_equal(sim_work_runs(0), 0);
	__netpoll_cleanup(&np);
	assert_no_warn();
}

static void v29_pool_dequeue_schedules_the_refill(void **state)
{
	struct netpoll np;
	struct sk_buff *skb;

	netpoll_boot(&np, 2);
	assert_int_equal(__netpoll_setup(&np, &test_dev), 0);
	alloc_skb_failures = 1;
	skb = find_skb(&np, 100, 0);
	assert_non_null(skb);
	assert_int_equal(skb_queue_len(&skb_pool), 1); /* taken from it */
	assert_true(work_pending(&np.refill_wq));
	/* The kworker refills the pool, outside find_skb(). */
	sim_run_cpu(0, 100);
	assert_int_equal(sim_work_runs(0), 1);
	assert_int_equal(skb_queue_len(&skb_pool), MAX_SKBS);
	__netpoll_cleanup(&np);
	assert_no_warn();
}

static void v29_cleanup_cancels_the_refill_first(void **state)
{
	struct netpoll np;
	unsigned long runs;

	netpoll_boot(&np, 2);
	assert_int_equal(__netpoll_setup(&np, &test_dev), 0);
	alloc_skb_failures = 1;
	assert_non_null(find_skb(&np, 100, 0));
	assert_true(work_pending(&np.refill_wq));
	runs = sim_work_runs(0);
	__netpoll_cleanup(&np);
	/* Cancelled before the driver and npinfo are torn down ... */
	assert_false(refill_pending_at_ndo_cleanup);
	assert_null(test_dev.npinfo);
	/* ... and it never runs on the (now freeable) struct netpoll. */
	assert_false(work_pending(&np.refill_wq));
	sim_run_cpu(0, 100);
	assert_int_equal(sim_work_runs(0), runs);
	assert_no_warn();
}

/* Each way __netpoll_setup() can fail, in order. */
enum setup_failure {
	FAIL_NETPOLL_DISABLED, /* IFF_DISABLE_NETPOLL: -ENOTSUPP */
	FAIL_NPINFO_ALLOC, /* kmalloc(): -ENOMEM */
	FAIL_NDO_SETUP, /* ndo_netpoll_setup() */
	NR_SETUP_FAILURES
};

static void v30_refill_work_initialised_before_setup_can_fail(void **state)
{
	int f;

	for (f = 0; f < NR_SETUP_FAILURES; f++) {
		struct netpoll np;

		netpoll_boot(&np, 2);
		if (f == FAIL_NETPOLL_DISABLED)
			test_dev.priv_flags |= IFF_DISABLE_NETPOLL;
		if (f == FAIL_NPINFO_ALLOC)
			kmalloc_failures = 1;
		if (f == FAIL_NDO_SETUP)
			ndo_setup_ret = -EIO;
		assert_int_not_equal(__netpoll_setup(&np, &test_dev), 0);
		assert_null(test_dev.npinfo);
#if EXTRACTED_HAVE_refill_skbs_work_handler
		if (np.refill_wq.func != refill_skbs_work_handler)
			fail_msg(
				"setup failure %d left np->refill_wq uninitialised",
				f);
#else
		require_definition(refill_skbs_work_handler);
#endif
		assert_true(list_empty(&np.refill_wq.entry));
		assert_false(work_pending(&np.refill_wq));
		/* A teardown of the failed target is safe (npinfo is NULL). */
		__netpoll_cleanup(&np);
		assert_no_warn();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v29_find_skb_does_not_refill_the_pool),
		cmocka_unit_test(v29_no_refill_work_when_alloc_succeeds),
		cmocka_unit_test(v29_pool_dequeue_schedules_the_refill),
		cmocka_unit_test(v29_cleanup_cancels_the_refill_first),
		cmocka_unit_test(
			v30_refill_work_initialised_before_setup_can_fail),
	};

	return cmocka_run_group_tests_name("seed-netpoll (V29, V30)", tests,
					   NULL, NULL);
}
