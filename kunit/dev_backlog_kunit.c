// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the backlog NAPI, threaded NAPI and net_rx_action() code
 * of net/core/dev.c (the backlog-NAPI smpboot-threads backport).
 *
 * This file is not built on its own: net/core/dev.c includes it at its end
 * under CONFIG_NET_BACKLOG_NAPI_KUNIT_TEST, so the tests can call the static
 * functions of dev.c (____napi_schedule(), __napi_poll(),
 * enqueue_to_backlog(), napi_kthread_create(), ...) on the real per-CPU
 * softnet_data.  NAPI instances other than the backlog are fakes owned by
 * the tests, with their own poll callbacks.
 *
 * Case names carry the invariant IDs (Vn) of the project's catalogue.
 * dev_backlog_kunit_tree.h says what the tree under test has; a case that
 * needs a patch the tree lacks fails and names the patch.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/kernel_stat.h>
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>

#include "dev_backlog_kunit_tree.h"

/* Local experimental ethertype: no protocol handler but ours takes it. */
#define NAPITEST_ETH_P		0x88b5
/*
 * A wait for another CPU or thread is bounded only as a hang guard, not as
 * a verdict: NAPITEST_WAIT_LOOPS sleeps of NAPITEST_WAIT_US (10-20 s), far
 * above the milliseconds an event takes under QEMU TCG on a loaded host.
 */
#define NAPITEST_WAIT_US	2000
#define NAPITEST_WAIT_LOOPS	5000
#define NAPITEST_WAIT_GUARD_S	(NAPITEST_WAIT_LOOPS * NAPITEST_WAIT_US / 1000000)

struct napitest_napi {
	struct napi_struct napi;
	atomic_t polls;
	/* observations made inside the poll callback */
	struct task_struct *poller;
	bool in_rx_action;
	unsigned int rx_invocation;
	/* napi to schedule from inside the poll callback, once */
	struct napi_struct *chain;
};

struct napitest_ctx {
	struct net_device *dev;
	struct packet_type pt;
};

static atomic_t napitest_rcv = ATOMIC_INIT(0);
static int napitest_rcv_cpu = -1;
static struct task_struct *napitest_rcv_task;

static int napitest_rcv_func(struct sk_buff *skb, struct net_device *dev,
			     struct packet_type *pt,
			     struct net_device *orig_dev)
{
	WRITE_ONCE(napitest_rcv_cpu, smp_processor_id());
	WRITE_ONCE(napitest_rcv_task, current);
	atomic_inc(&napitest_rcv);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static int napitest_rcv_last_cpu(void)
{
	return READ_ONCE(napitest_rcv_cpu);
}

static struct task_struct *napitest_rcv_last_task(void)
{
	return READ_ONCE(napitest_rcv_task);
}

static bool napitest_wait_atomic(atomic_t *v, int want)
{
	int i;

	for (i = 0; i < NAPITEST_WAIT_LOOPS; i++) {
		if (atomic_read(v) >= want)
			return true;
		usleep_range(NAPITEST_WAIT_US, 2 * NAPITEST_WAIT_US);
	}
	return atomic_read(v) >= want;
}

/* Wait until @t sleeps in TASK_INTERRUPTIBLE (off the CPU). */
static bool napitest_wait_sleeping(struct task_struct *t)
{
	int i;

	for (i = 0; i < NAPITEST_WAIT_LOOPS; i++) {
		if (READ_ONCE(t->__state) == TASK_INTERRUPTIBLE &&
		    wait_task_inactive(t, TASK_INTERRUPTIBLE))
			return true;
		usleep_range(NAPITEST_WAIT_US, 2 * NAPITEST_WAIT_US);
	}
	return false;
}

static unsigned int napitest_net_rx_count(void)
{
	return kstat_softirqs_cpu(NET_RX_SOFTIRQ, smp_processor_id());
}

/* How often @n is linked on @head (bounded walk, so a corrupt list ends). */
static int napitest_count_on(struct list_head *head, struct napi_struct *n)
{
	struct list_head *pos = head->next;
	int count = 0, steps = 0;

	while (pos && pos != head && steps++ < 64) {
		if (pos == &n->poll_list)
			count++;
		pos = pos->next;
	}
	return count;
}

static int napitest_poll(struct napi_struct *napi, int budget)
{
	struct napitest_napi *tn = container_of(napi, struct napitest_napi,
						napi);
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	tn->poller = current;
#if NAPITEST_HAS_IN_NET_RX_ACTION
	tn->in_rx_action = READ_ONCE(sd->in_net_rx_action);
#else
	tn->in_rx_action = false;
	(void)sd;
#endif
	tn->rx_invocation = napitest_net_rx_count();
	if (tn->chain) {
		napi_schedule(tn->chain);
		tn->chain = NULL;
	}
	napi_complete_done(napi, 0);
	atomic_inc(&tn->polls);
	return 0;
}

static struct napitest_napi *napitest_napi_new(struct kunit *test,
					       bool threaded)
{
	struct napitest_ctx *ctx = test->priv;
	struct napitest_napi *tn;

	tn = kunit_kzalloc(test, sizeof(*tn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tn);
	INIT_LIST_HEAD(&tn->napi.poll_list);
	tn->napi.poll = napitest_poll;
	tn->napi.weight = NAPI_POLL_WEIGHT;
	tn->napi.dev = ctx->dev;
	atomic_set(&tn->polls, 0);
	if (threaded) {
		set_bit(NAPI_STATE_THREADED, &tn->napi.state);
		KUNIT_ASSERT_EQ(test, napi_kthread_create(&tn->napi), 0);
		/* napi_threaded_poll() now sleeps in napi_thread_wait() */
		KUNIT_ASSERT_TRUE(test,
				  napitest_wait_sleeping(tn->napi.thread));
	}
	return tn;
}

static void napitest_napi_release(struct napitest_napi *tn)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!list_empty(&tn->napi.poll_list))
		list_del_init(&tn->napi.poll_list);
	tn->napi.state = 0;
	local_irq_restore(flags);
	if (tn->napi.thread) {
		kthread_stop(tn->napi.thread);
		tn->napi.thread = NULL;
	}
}

static struct sk_buff *napitest_skb(struct kunit *test)
{
	struct napitest_ctx *ctx = test->priv;
	struct sk_buff *skb;

	skb = alloc_skb(ETH_ZLEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, skb);
	skb_put_zero(skb, ETH_ZLEN);
	skb_reset_mac_header(skb);
	skb->dev = ctx->dev;
	skb->protocol = htons(NAPITEST_ETH_P);
	return skb;
}

static int napitest_init(struct kunit *test)
{
	struct napitest_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->dev = alloc_netdev(0, "napitest", NET_NAME_UNKNOWN, ether_setup);
	if (!ctx->dev)
		return -ENOMEM;
	/* netif_running() for enqueue_to_backlog(); never registered */
	set_bit(__LINK_STATE_START, &ctx->dev->state);
	ctx->pt.type = htons(NAPITEST_ETH_P);
	ctx->pt.dev = ctx->dev;
	ctx->pt.func = napitest_rcv_func;
	dev_add_pack(&ctx->pt);
	atomic_set(&napitest_rcv, 0);
	test->priv = ctx;
	return 0;
}

static void napitest_exit(struct kunit *test)
{
	struct napitest_ctx *ctx = test->priv;

	dev_remove_pack(&ctx->pt);
	clear_bit(__LINK_STATE_START, &ctx->dev->state);
	free_netdev(ctx->dev);
}

/* ---- V20: backlog.poll_list initialised by net_dev_init() ---------------- */

/*
 * Snapshot taken right after net_dev_init() (a subsys_initcall), before any
 * packet or test can touch a backlog: napi_poll()'s list_del_init() would
 * initialise the node as a side effect and hide a missing INIT_LIST_HEAD.
 */
static struct cpumask napitest_boot_null_node;
static struct cpumask napitest_boot_listed;

static int __init napitest_backlog_snapshot(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);

		if (!sd->backlog.poll_list.next)
			cpumask_set_cpu(cpu, &napitest_boot_null_node);
		else if (!list_empty(&sd->backlog.poll_list))
			cpumask_set_cpu(cpu, &napitest_boot_listed);
	}
	return 0;
}
subsys_initcall_sync(napitest_backlog_snapshot);

static void v20_backlog_poll_list_initialised(struct kunit *test)
{
	int cpu;

	/* napitest-diff lines: compared with unit/differential.c */
	kunit_info(test, "napitest-diff v20 initialised=%d empty=%d\n",
		   !cpumask_test_cpu(0, &napitest_boot_null_node),
		   !cpumask_test_cpu(0, &napitest_boot_listed));
	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_FALSE_MSG(test,
				       cpumask_test_cpu(cpu, &napitest_boot_null_node),
				       "cpu%d: backlog.poll_list never initialised (INIT_LIST_HEAD in net_dev_init, patch 14)",
				       cpu);
		KUNIT_EXPECT_FALSE_MSG(test,
				       cpumask_test_cpu(cpu, &napitest_boot_listed),
				       "cpu%d: backlog.poll_list not empty after net_dev_init()",
				       cpu);
	}
}

/*
 * The threaded path polls the backlog with __napi_poll() and no list_add()
 * ever happened.  With the node left zeroed, list_empty() is false, so
 * budget exhaustion takes the "backlog: Budget exhausted after napi
 * rescheduled" branch: one pr_warn_once() and no repoll for that round
 * (the NAPI stays SCHED and is polled again by the next round, so it is a
 * lost repoll plus a spurious warning, not a stall).
 */
static void v20_backlog_budget_exhaustion_sets_repoll(struct kunit *test)
{
	struct sk_buff_head q;
	struct softnet_data *sd;
	struct napi_struct *napi;
	int i, weight, work, total = 0, rounds = 0;
	bool repoll = false, busy, empty_after;

	__skb_queue_head_init(&q);
	for (i = 0; i < 2 * NAPI_POLL_WEIGHT; i++)
		__skb_queue_tail(&q, napitest_skb(test));

	local_bh_disable();
	sd = this_cpu_ptr(&softnet_data);
	napi = &sd->backlog;
	spin_lock_irq(&sd->input_pkt_queue.lock);
	/* what a remote enqueue does with threads: SCHED, no list_add() */
	busy = test_and_set_bit(NAPI_STATE_SCHED, &napi->state);
	if (!busy)
		skb_queue_splice_tail_init(&q, &sd->input_pkt_queue);
	spin_unlock_irq(&sd->input_pkt_queue.lock);
	if (busy) {
		local_bh_enable();
		__skb_queue_purge(&q);
		KUNIT_FAIL(test, "backlog NAPI already scheduled; cannot test");
		return;
	}

	weight = napi->weight;
	work = __napi_poll(napi, &repoll);
	empty_after = list_empty(&napi->poll_list);
	total += work;
	/* drain: poll until process_backlog() completes */
	while (test_bit(NAPI_STATE_SCHED, &napi->state) && rounds++ < 100) {
		bool more = false;

		total += __napi_poll(napi, &more);
	}
	local_bh_enable();

	KUNIT_EXPECT_EQ(test, work, weight);
	KUNIT_EXPECT_TRUE_MSG(test, repoll,
			      "budget exhausted but repoll not set (\"Budget exhausted after napi rescheduled\" path)");
	KUNIT_EXPECT_TRUE(test, empty_after);
	KUNIT_EXPECT_FALSE(test, test_bit(NAPI_STATE_SCHED, &napi->state));
	KUNIT_EXPECT_EQ(test, total, 2 * NAPI_POLL_WEIGHT);
	KUNIT_EXPECT_EQ(test, atomic_read(&napitest_rcv), 2 * NAPI_POLL_WEIGHT);
}

static struct kunit_case napitest_init_cases[] = {
	KUNIT_CASE(v20_backlog_poll_list_initialised),
	KUNIT_CASE(v20_backlog_budget_exhaustion_sets_repoll),
	{}
};

static struct kunit_suite napitest_init_suite = {
	.name = "net_backlog_napi_init",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_init_cases,
};

/* ---- V14/V15/V11: threaded NAPI wakeup and ownership ------------------- */

static void v14_schedule_sets_sched_threaded_when_thread_sleeps(struct kunit *test)
{
	struct napitest_napi *tn = napitest_napi_new(test, true);
	struct task_struct *thread = tn->napi.thread;
	bool sleeping, sched_threaded;
	unsigned long flags;

	local_irq_save(flags);
	sleeping = READ_ONCE(thread->__state) == TASK_INTERRUPTIBLE;
	if (napi_schedule_prep(&tn->napi))
		____napi_schedule(this_cpu_ptr(&softnet_data), &tn->napi);
	sched_threaded = test_bit(NAPI_STATE_SCHED_THREADED, &tn->napi.state);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, sleeping);
	KUNIT_EXPECT_TRUE_MSG(test, sched_threaded,
			      "SCHED_THREADED not set for a TASK_INTERRUPTIBLE thread (patch 12)");
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 1));
	KUNIT_EXPECT_PTR_EQ(test, tn->poller, thread);
	napitest_napi_release(tn);
}

static void v15_spurious_wakeup_does_not_poll(struct kunit *test)
{
	struct napitest_napi *tn = napitest_napi_new(test, true);

	/* SCHED set (by someone else, e.g. busy poll), SCHED_THREADED not */
	KUNIT_ASSERT_TRUE(test, napi_schedule_prep(&tn->napi));
	wake_up_process(tn->napi.thread);
	KUNIT_EXPECT_TRUE(test, napitest_wait_sleeping(tn->napi.thread));
	msleep(20);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&tn->polls), 0,
			    "threaded NAPI polled after a spurious wakeup without SCHED_THREADED (patch 12)");
	napitest_napi_release(tn);
}

static void v11_threaded_poll_flushes_defer_list(struct kunit *test)
{
	struct napitest_napi *tn = napitest_napi_new(test, true);
	struct sk_buff *skb = napitest_skb(test);
	struct sk_buff *left;
	struct softnet_data *sd;
	unsigned long flags;
	int cpu, count;

	/* the thread polls on the CPU whose defer_list we fill */
	cpu = cpumask_first(cpu_online_mask);
	KUNIT_ASSERT_EQ(test,
			set_cpus_allowed_ptr(tn->napi.thread, cpumask_of(cpu)),
			0);
	sd = &per_cpu(softnet_data, cpu);
	spin_lock_irqsave(&sd->defer_lock, flags);
	skb->next = sd->defer_list;
	WRITE_ONCE(sd->defer_list, skb);
	sd->defer_count++;
	spin_unlock_irqrestore(&sd->defer_lock, flags);

	local_irq_save(flags);
	if (napi_schedule_prep(&tn->napi))
		____napi_schedule(this_cpu_ptr(&softnet_data), &tn->napi);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 1));
	KUNIT_EXPECT_TRUE(test, napitest_wait_sleeping(tn->napi.thread));

	left = READ_ONCE(sd->defer_list);
	count = READ_ONCE(sd->defer_count);
	KUNIT_EXPECT_PTR_EQ_MSG(test, left, NULL,
				"threaded poll left cpu%d's defer_list (patch 10)",
				cpu);
	KUNIT_EXPECT_EQ(test, count, 0);

	napitest_napi_release(tn);
	if (READ_ONCE(sd->defer_list)) {
		/* flush what the tree under test left, on its CPU */
		local_bh_disable();
		skb_defer_free_flush(sd);
		local_bh_enable();
	}
}

static struct kunit_case napitest_threaded_cases[] = {
	KUNIT_CASE(v14_schedule_sets_sched_threaded_when_thread_sleeps),
	KUNIT_CASE(v15_spurious_wakeup_does_not_poll),
	KUNIT_CASE(v11_threaded_poll_flushes_defer_list),
	{}
};

static struct kunit_suite napitest_threaded_suite = {
	.name = "net_threaded_napi",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_threaded_cases,
};

/* ---- V5/V7/V8: net_rx_action() and NET_RX raising ------------------------ */

static void v5_in_net_rx_action_true_during_poll_false_after(struct kunit *test)
{
#if NAPITEST_HAS_IN_NET_RX_ACTION
	struct napitest_napi *tn = napitest_napi_new(test, false);
	bool after, pending;

	local_bh_disable();
	napi_schedule(&tn->napi);
	local_bh_enable();		/* runs net_rx_action() */
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 1));
	KUNIT_EXPECT_TRUE(test, tn->in_rx_action);

	local_bh_disable();
	after = READ_ONCE(this_cpu_ptr(&softnet_data)->in_net_rx_action);
	/* a later schedule must raise NET_RX, or the NAPI is stranded */
	napi_schedule(&tn->napi);
	pending = local_softirq_pending() & BIT(NET_RX_SOFTIRQ);
	local_bh_enable();

	KUNIT_EXPECT_FALSE_MSG(test, after,
			       "in_net_rx_action still set after net_rx_action() returned (patch 04/06)");
	KUNIT_EXPECT_TRUE(test, pending);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 2));
	napitest_napi_release(tn);
#else
	KUNIT_FAIL(test, "tree has no softnet_data.in_net_rx_action (patch 04 not applied)");
#endif
}

static void v7_napi_scheduled_from_poll_runs_in_same_net_rx_action(struct kunit *test)
{
	struct napitest_napi *a = napitest_napi_new(test, false);
	struct napitest_napi *b = napitest_napi_new(test, false);
	bool polled;

	a->chain = &b->napi;
	local_bh_disable();
	napi_schedule(&a->napi);
	local_bh_enable();
	polled = napitest_wait_atomic(&b->polls, 1);

	KUNIT_EXPECT_EQ(test, atomic_read(&a->polls), 1);
	KUNIT_EXPECT_TRUE_MSG(test, polled,
			      "NAPI scheduled from a poll callback never polled (stranded on poll_list)");
	KUNIT_EXPECT_EQ_MSG(test, b->rx_invocation, a->rx_invocation,
			    "polled in another NET_RX invocation, not in the same net_rx_action() (patch 06)");
	napitest_napi_release(b);
	napitest_napi_release(a);
}

/*
 * Wait until this CPU's ksoftirqd sleeps, then disable IRQs.  Returns the
 * ksoftirqd task, with IRQs disabled.
 */
static struct task_struct *napitest_ksoftirqd_sleeping_irqoff(struct kunit *test)
{
	struct task_struct *k;
	int i;

	for (i = 0; i < NAPITEST_WAIT_LOOPS; i++) {
		local_irq_disable();
		k = this_cpu_ksoftirqd();
		if (READ_ONCE(k->__state) == TASK_INTERRUPTIBLE &&
		    !local_softirq_pending())
			return k;
		local_irq_enable();
		usleep_range(NAPITEST_WAIT_US, 2 * NAPITEST_WAIT_US);
	}
	local_irq_disable();
	KUNIT_FAIL(test, "ksoftirqd never idle");
	return this_cpu_ksoftirqd();
}

static void v8_task_context_irqs_off_schedule_wakes_ksoftirqd(struct kunit *test)
{
	struct napitest_napi *tn = napitest_napi_new(test, false);
	struct task_struct *k;
	bool woken, pending;

	migrate_disable();
	k = napitest_ksoftirqd_sleeping_irqoff(test);
	/* task context, IRQs off, BH on */
	napi_schedule(&tn->napi);
	woken = READ_ONCE(k->__state) == TASK_RUNNING;
	pending = local_softirq_pending() & BIT(NET_RX_SOFTIRQ);
	local_irq_enable();
	migrate_enable();

	KUNIT_EXPECT_TRUE(test, pending);
	KUNIT_EXPECT_TRUE_MSG(test, woken,
			      "ksoftirqd not woken: NET_RX raised with __raise_softirq_irqoff() from task context (patch 06 deviation)");
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 1));
	napitest_napi_release(tn);
}

static void v8_bh_off_schedule_does_not_wake_ksoftirqd(struct kunit *test)
{
	struct napitest_napi *tn = napitest_napi_new(test, false);
	struct task_struct *k;
	bool woken;

	local_bh_disable();
	k = napitest_ksoftirqd_sleeping_irqoff(test);
	napi_schedule(&tn->napi);
	woken = READ_ONCE(k->__state) == TASK_RUNNING;
	local_irq_enable();
	local_bh_enable();		/* runs NET_RX here */

	KUNIT_EXPECT_FALSE(test, woken);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&tn->polls, 1));
	KUNIT_EXPECT_PTR_EQ(test, tn->poller, current);
	napitest_napi_release(tn);
}

static struct kunit_case napitest_rx_action_cases[] = {
	KUNIT_CASE(v5_in_net_rx_action_true_during_poll_false_after),
	KUNIT_CASE(v7_napi_scheduled_from_poll_runs_in_same_net_rx_action),
	KUNIT_CASE(v8_task_context_irqs_off_schedule_wakes_ksoftirqd),
	KUNIT_CASE(v8_bh_off_schedule_does_not_wake_ksoftirqd),
	{}
};

static struct kunit_suite napitest_rx_action_suite = {
	.name = "net_rx_action",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_rx_action_cases,
};

/* ---- V17/V18/V21/V25/V26: backlog NAPI threads --------------------------- */

#if NAPITEST_HAS_BACKLOG_THREADS
static bool napitest_threads_expected(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) ||
	       strstr(saved_command_line, "thread_backlog_napi");
}
#endif

static void v17_local_enqueue_uses_local_poll_list_not_thread(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS
	struct sk_buff *skb = napitest_skb(test);
	struct task_struct *thread;
	struct softnet_data *sd;
	bool was_sleeping, sleeping, sched_threaded, pending;
	unsigned int qtail = 0;
	int ret, on_list;

	KUNIT_ASSERT_TRUE_MSG(test, use_backlog_threads(),
			      "boot with thread_backlog_napi (kunit/run does)");
	local_bh_disable();
	sd = this_cpu_ptr(&softnet_data);
	thread = __this_cpu_read(backlog_napi);
	was_sleeping = READ_ONCE(thread->__state) == TASK_INTERRUPTIBLE;
	ret = enqueue_to_backlog(skb, smp_processor_id(), &qtail);
	on_list = napitest_count_on(&sd->poll_list, &sd->backlog);
	pending = local_softirq_pending() & BIT(NET_RX_SOFTIRQ);
	sched_threaded = test_bit(NAPI_STATE_SCHED_THREADED,
				  &sd->backlog.state);
	sleeping = READ_ONCE(thread->__state) == TASK_INTERRUPTIBLE;
	local_bh_enable();

	kunit_info(test,
		   "napitest-diff v17 ret=%d on_list=%d pending=%d sched_threaded=%d woken=%d\n",
		   ret, on_list, pending, sched_threaded,
		   was_sleeping && !sleeping);
	KUNIT_EXPECT_EQ(test, ret, NET_RX_SUCCESS);
	KUNIT_EXPECT_EQ_MSG(test, on_list, 1,
			    "local enqueue did not put the backlog on this CPU's poll_list (use_local_napi)");
	KUNIT_EXPECT_TRUE(test, pending);
	KUNIT_EXPECT_FALSE(test, sched_threaded);
	if (was_sleeping)
		KUNIT_EXPECT_TRUE_MSG(test, sleeping,
				      "local enqueue woke backlog_napi thread");
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&napitest_rcv, 1));
#else
	KUNIT_FAIL(test, "tree has no use_backlog_threads() (patch 14 not applied)");
#endif
}

static void v18_backlog_completion_keeps_threaded(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS
	struct sk_buff *skb = napitest_skb(test);
	unsigned long state;
	unsigned int qtail = 0;
	int ret;

	KUNIT_ASSERT_TRUE(test, use_backlog_threads());
	local_bh_disable();
	ret = enqueue_to_backlog(skb, smp_processor_id(), &qtail);
	local_bh_enable();		/* process_backlog() completes */
	KUNIT_EXPECT_EQ(test, ret, NET_RX_SUCCESS);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&napitest_rcv, 1));

	local_bh_disable();
	state = READ_ONCE(this_cpu_ptr(&softnet_data)->backlog.state);
	local_bh_enable();
	kunit_info(test, "napitest-diff v18 ret=%d threaded=%d sched=%d sched_threaded=%d\n",
		   ret, !!(state & NAPIF_STATE_THREADED),
		   !!(state & NAPIF_STATE_SCHED),
		   !!(state & NAPIF_STATE_SCHED_THREADED));
	KUNIT_EXPECT_TRUE_MSG(test, state & NAPIF_STATE_THREADED,
			      "process_backlog() completion cleared NAPI_STATE_THREADED (state = 0)");
	KUNIT_EXPECT_FALSE(test, state & NAPIF_STATE_SCHED);
#else
	KUNIT_FAIL(test, "tree has no use_backlog_threads() (patch 14 not applied)");
#endif
}

static void v21_one_backlog_thread_per_cpu(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS
	bool expected = napitest_threads_expected();
	struct task_struct *p;
	int cpu, named = 0;

	KUNIT_EXPECT_EQ(test, use_backlog_threads(), expected);
	for_each_online_cpu(cpu) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);
		struct task_struct *t = per_cpu(backlog_napi, cpu);
		char comm[TASK_COMM_LEN];

		if (!expected) {
			KUNIT_EXPECT_PTR_EQ(test, t, NULL);
			KUNIT_EXPECT_FALSE(test,
					   test_bit(NAPI_STATE_THREADED,
						    &sd->backlog.state));
			continue;
		}
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
		snprintf(comm, sizeof(comm), "backlog_napi/%d", cpu);
		KUNIT_EXPECT_STREQ(test, t->comm, comm);
		KUNIT_EXPECT_PTR_EQ(test, sd->backlog.thread, t);
		KUNIT_EXPECT_TRUE(test, test_bit(NAPI_STATE_THREADED,
						 &sd->backlog.state));
		KUNIT_EXPECT_EQ(test, task_cpu(t), cpu);
	}

	rcu_read_lock();
	for_each_process(p)
		if (!strncmp(p->comm, "backlog_napi/", 13))
			named++;
	rcu_read_unlock();
	kunit_info(test, "napitest-diff v21 threads=%d per_cpu=%d cpu0_threaded=%d\n",
		   use_backlog_threads(), named == num_online_cpus(),
		   test_bit(NAPI_STATE_THREADED,
			    &per_cpu(softnet_data, 0).backlog.state));
	KUNIT_EXPECT_EQ(test, named, expected ? num_online_cpus() : 0);
#else
	KUNIT_FAIL(test, "tree has no use_backlog_threads() (patch 14 not applied)");
#endif
}

static void v25_sched_set_no_second_schedule(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS && NAPITEST_HAS_KICK_DEFER_LIST_PURGE
	struct sk_buff *skb = napitest_skb(test);
	struct softnet_data *sd;
	unsigned int qtail = 0;
	int on_list;
	bool sched_threaded;

	KUNIT_ASSERT_TRUE(test, use_backlog_threads());
	local_bh_disable();
	sd = this_cpu_ptr(&softnet_data);
	KUNIT_EXPECT_EQ(test, enqueue_to_backlog(skb, smp_processor_id(),
						 &qtail), NET_RX_SUCCESS);
	/* SCHED is set now: a defer-list kick must not schedule again */
	kick_defer_list_purge(sd, smp_processor_id());
	on_list = napitest_count_on(&sd->poll_list, &sd->backlog);
	sched_threaded = test_bit(NAPI_STATE_SCHED_THREADED,
				  &sd->backlog.state);
	local_bh_enable();

	kunit_info(test, "napitest-diff v25 on_list=%d sched_threaded=%d\n",
		   on_list, sched_threaded);
	KUNIT_EXPECT_EQ_MSG(test, on_list, 1,
			    "backlog NAPI linked %d times on poll_list", on_list);
	KUNIT_EXPECT_FALSE_MSG(test, sched_threaded,
			       "backlog NAPI on a poll_list with SCHED_THREADED set");
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&napitest_rcv, 1));
#else
	KUNIT_FAIL(test, "tree has no kick_defer_list_purge() (patches 13/14 not applied)");
#endif
}

/*
 * Whether the lock word is taken: the test observes what the wrapper did,
 * so lockdep_assert_held() (which would stop the test) does not fit.  On
 * a uniprocessor kernel this needs CONFIG_DEBUG_SPINLOCK (.kunitconfig).
 * On PREEMPT_RT a spinlock_t is an rt_mutex: no rlock.
 */
static bool napitest_lock_held(spinlock_t *lock)
{
#ifdef CONFIG_PREEMPT_RT
	return rt_mutex_base_is_locked(&lock->lock);
#else
	return raw_spin_is_locked(&lock->rlock);
#endif
}

static void v26_backlog_lock_taken_when_threads_used(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS && NAPITEST_HAS_BACKLOG_LOCK
	bool want = IS_ENABLED(CONFIG_RPS) || use_backlog_threads();
	struct softnet_data *sd;
	unsigned long flags;
	bool held_save, held_irq;

	local_bh_disable();
	sd = this_cpu_ptr(&softnet_data);
	backlog_lock_irq_save(sd, &flags);
	held_save = napitest_lock_held(&sd->input_pkt_queue.lock);
	backlog_unlock_irq_restore(sd, &flags);
	backlog_lock_irq_disable(sd);
	held_irq = napitest_lock_held(&sd->input_pkt_queue.lock);
	backlog_unlock_irq_enable(sd);
	local_bh_enable();

	KUNIT_EXPECT_EQ_MSG(test, held_save, want,
			    "backlog_lock_irq_save(): input_pkt_queue.lock %s (RPS=%d, threads=%d)",
			    held_save ? "taken" : "not taken",
			    IS_ENABLED(CONFIG_RPS), use_backlog_threads());
	KUNIT_EXPECT_EQ_MSG(test, held_irq, want,
			    "backlog_lock_irq_disable(): input_pkt_queue.lock %s",
			    held_irq ? "taken" : "not taken");
#else
	KUNIT_FAIL(test, "tree has no backlog_lock_irq_save() (patches 14/15 not applied)");
#endif
}

static struct kunit_case napitest_backlog_threads_cases[] = {
	KUNIT_CASE(v21_one_backlog_thread_per_cpu),
	KUNIT_CASE(v26_backlog_lock_taken_when_threads_used),
	KUNIT_CASE(v17_local_enqueue_uses_local_poll_list_not_thread),
	KUNIT_CASE(v18_backlog_completion_keeps_threaded),
	KUNIT_CASE(v25_sched_set_no_second_schedule),
	{}
};

static struct kunit_suite napitest_backlog_threads_suite = {
	.name = "net_backlog_napi_threads",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_backlog_threads_cases,
};

/* ---- V16/V24: cross-CPU, SMP kernels only (QEMU x86_64 -smp 2) --------- */

#if IS_ENABLED(CONFIG_RPS)
static bool napitest_wait_defer_empty(struct softnet_data *sd)
{
	int i;

	for (i = 0; i < NAPITEST_WAIT_LOOPS; i++) {
		if (!READ_ONCE(sd->defer_list))
			return true;
		usleep_range(NAPITEST_WAIT_US, 2 * NAPITEST_WAIT_US);
	}
	return !READ_ONCE(sd->defer_list);
}

static unsigned long napitest_switches(struct task_struct *t)
{
	return READ_ONCE(t->nvcsw) + READ_ONCE(t->nivcsw);
}

/*
 * Wait until @t has been switched out since @before was read: a task's
 * nvcsw/nivcsw count in __schedule() when it leaves the CPU, so a woken
 * thread that already delivered the packet may not have counted yet.
 * The bound is a hang guard, not a verdict.
 */
static unsigned long napitest_wait_switched(struct task_struct *t,
					    unsigned long before)
{
	int i;

	for (i = 0; i < NAPITEST_WAIT_LOOPS; i++) {
		if (napitest_switches(t) > before)
			break;
		usleep_range(NAPITEST_WAIT_US, 2 * NAPITEST_WAIT_US);
	}
	return napitest_switches(t);
}

/* Non-RT form of V16: the remote CPU's backlog_napi thread, no IPI. */
static void v16_remote_enqueue_wakes_remote_backlog_thread_no_ipi(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS
	struct sk_buff *skb = napitest_skb(test);
	struct softnet_data *sd, *mysd;
	struct task_struct *t;
	unsigned int rps_before, rx_before, qtail = 0;
	unsigned long sw_before;
	bool ipi_queued;
	int ret;

	KUNIT_ASSERT_GE(test, num_online_cpus(), 2U);
	KUNIT_ASSERT_TRUE(test, use_backlog_threads());
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	sd = &per_cpu(softnet_data, 1);
	t = per_cpu(backlog_napi, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	rps_before = READ_ONCE(sd->received_rps);
	rx_before = kstat_softirqs_cpu(NET_RX_SOFTIRQ, 1);
	sw_before = napitest_switches(t);

	local_bh_disable();
	mysd = this_cpu_ptr(&softnet_data);
	ret = enqueue_to_backlog(skb, 1, &qtail);
	ipi_queued = READ_ONCE(mysd->rps_ipi_list);
	local_bh_enable();

	KUNIT_EXPECT_EQ(test, ret, NET_RX_SUCCESS);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&napitest_rcv, 1));
	KUNIT_EXPECT_FALSE_MSG(test, ipi_queued,
			       "remote enqueue queued an RPS IPI (rps_ipi_list)");
	KUNIT_EXPECT_EQ(test, sd->received_rps, rps_before);
	KUNIT_EXPECT_EQ(test, kstat_softirqs_cpu(NET_RX_SOFTIRQ, 1), rx_before);
	KUNIT_EXPECT_EQ(test, napitest_rcv_last_cpu(), 1);
	KUNIT_EXPECT_PTR_EQ(test, napitest_rcv_last_task(), t);
	KUNIT_EXPECT_GT_MSG(test, napitest_wait_switched(t, sw_before), sw_before,
			    "hang guard: cpu1's backlog_napi thread not switched out within %d s",
			    NAPITEST_WAIT_GUARD_S);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
#else
	KUNIT_FAIL(test, "tree has no use_backlog_threads() (patch 14 not applied)");
#endif
}

static void v24_remote_defer_kick_wakes_remote_backlog_thread(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS && NAPITEST_HAS_KICK_DEFER_LIST_PURGE
	struct sk_buff *skb = napitest_skb(test);
	struct softnet_data *sd;
	struct task_struct *t;
	unsigned int rx_before;
	unsigned long flags, sw_before;

	KUNIT_ASSERT_GE(test, num_online_cpus(), 2U);
	KUNIT_ASSERT_TRUE(test, use_backlog_threads());
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	sd = &per_cpu(softnet_data, 1);
	t = per_cpu(backlog_napi, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	rx_before = kstat_softirqs_cpu(NET_RX_SOFTIRQ, 1);
	sw_before = napitest_switches(t);

	spin_lock_irqsave(&sd->defer_lock, flags);
	skb->next = sd->defer_list;
	WRITE_ONCE(sd->defer_list, skb);
	sd->defer_count++;
	spin_unlock_irqrestore(&sd->defer_lock, flags);

	local_bh_disable();
	kick_defer_list_purge(sd, 1);
	local_bh_enable();

	KUNIT_EXPECT_TRUE_MSG(test, napitest_wait_defer_empty(sd),
			      "cpu1's defer_list not freed after the kick");
	KUNIT_EXPECT_EQ(test, sd->defer_ipi_scheduled, 0);
	KUNIT_EXPECT_EQ_MSG(test, kstat_softirqs_cpu(NET_RX_SOFTIRQ, 1),
			    rx_before, "defer kick went through NET_RX (csd path)");
	KUNIT_EXPECT_GT_MSG(test, napitest_wait_switched(t, sw_before), sw_before,
			    "hang guard: cpu1's backlog_napi thread not switched out within %d s",
			    NAPITEST_WAIT_GUARD_S);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
#else
	KUNIT_FAIL(test, "tree has no kick_defer_list_purge() (patches 13/14 not applied)");
#endif
}

/* dev_cpu_dead() must keep THREADED on the dead CPU's backlog. */
static void v19_remote_enqueue_wakes_thread_after_cpu_offline_online(struct kunit *test)
{
#if NAPITEST_HAS_BACKLOG_THREADS && IS_ENABLED(CONFIG_HOTPLUG_CPU)
	struct sk_buff *skb = napitest_skb(test);
	unsigned int qtail = 0;
	int ret;

	KUNIT_ASSERT_GE(test, num_online_cpus(), 2U);
	KUNIT_ASSERT_TRUE(test, use_backlog_threads());
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_TRUE_MSG(test,
			      test_bit(NAPI_STATE_THREADED,
				       &per_cpu(softnet_data, 1).backlog.state),
			      "cpu1's backlog lost THREADED across offline/online (dev_cpu_dead)");

	local_bh_disable();
	ret = enqueue_to_backlog(skb, 1, &qtail);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, NET_RX_SUCCESS);
	KUNIT_EXPECT_TRUE(test, napitest_wait_atomic(&napitest_rcv, 1));
	KUNIT_EXPECT_EQ(test, napitest_rcv_last_cpu(), 1);
	KUNIT_EXPECT_PTR_EQ(test, napitest_rcv_last_task(),
			    per_cpu(backlog_napi, 1));
	set_cpus_allowed_ptr(current, cpu_possible_mask);
#else
	KUNIT_FAIL(test, "tree has no use_backlog_threads() (patch 14) or no CPU hotplug");
#endif
}

static struct kunit_case napitest_smp_cases[] = {
	KUNIT_CASE(v16_remote_enqueue_wakes_remote_backlog_thread_no_ipi),
	KUNIT_CASE(v24_remote_defer_kick_wakes_remote_backlog_thread),
	KUNIT_CASE(v19_remote_enqueue_wakes_thread_after_cpu_offline_online),
	{}
};

static struct kunit_suite napitest_smp_suite = {
	.name = "net_backlog_napi_smp",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_smp_cases,
};

/*
 * ---- The cover letter's headline: a remote flood, CPU 0 -> idle CPU 1 ----
 *
 * NAPITEST_FLOOD_N packets are enqueued from CPU 0 to CPU 1's backlog with
 * enqueue_to_backlog(), as RPS steering does (netif_rx() with BH off), each
 * one after CPU 1 delivered the previous, so CPU 1 idles between packets;
 * then NAPITEST_FLOOD_N skbs allocated "on CPU 1" are freed on CPU 0 with
 * skb_attempt_defer_free(), which kicks CPU 1 past half of
 * sysctl_skb_defer_max.  Measured from the kernel's own counters of CPU 1:
 * irq_stat.irq_call_count (function-call IPIs received, x86),
 * irq_resched_count, softnet_data.received_rps (rps_trigger_softirq(), the
 * RPS csd raising NET_RX from SMP-call context) and the NET_RX softirq
 * count.  The cover letter's WARN (do_softirq_post_smp_call_flush(), a
 * WARN_ON_ONCE) has no counter: kunit/headline counts it in the console
 * log, and make kunit-smp fails on any WARN.  One "napitest-headline" line
 * carries the counters for kunit/headline's table.
 */
#define NAPITEST_FLOOD_N	2048
#define NAPITEST_FLOOD_SPINS	2000000

struct napitest_cpu1 {
	unsigned int call_ipis;
	unsigned int resched_ipis;
	unsigned int received_rps;
	unsigned int net_rx;
};

static void napitest_cpu1_read(struct napitest_cpu1 *c)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);

#ifdef CONFIG_X86
	c->call_ipis = READ_ONCE(per_cpu(irq_stat, 1).irq_call_count);
	c->resched_ipis = READ_ONCE(per_cpu(irq_stat, 1).irq_resched_count);
#else
	c->call_ipis = 0;
	c->resched_ipis = 0;
#endif
	c->received_rps = READ_ONCE(sd->received_rps);
	c->net_rx = kstat_softirqs_cpu(NET_RX_SOFTIRQ, 1);
}

/* Spin (a hang guard, not a timing): CPU 1 must make progress. */
static bool napitest_spin_rcv(int want)
{
	long i;

	for (i = 0; i < NAPITEST_FLOOD_SPINS; i++) {
		if (atomic_read(&napitest_rcv) >= want)
			return true;
		cond_resched();
		cpu_relax();
	}
	return atomic_read(&napitest_rcv) >= want;
}

static bool napitest_spin_defer_flushed(struct softnet_data *sd)
{
	long i;

	for (i = 0; i < NAPITEST_FLOOD_SPINS; i++) {
		if (!READ_ONCE(sd->defer_list))
			return true;
		cond_resched();
		cpu_relax();
	}
	return !READ_ONCE(sd->defer_list);
}

/*
 * Free one skb of cpu1 on cpu0 (skb_attempt_defer_free()); past the kick
 * at defer_count == defer_max/2, cpu1 must flush its defer_list.
 */
static bool napitest_defer_one(struct kunit *test, struct softnet_data *sd1,
			       unsigned int defer_half, unsigned int *kicks)
{
	struct sk_buff *skb = napitest_skb(test);

	skb->alloc_cpu = 1;
	skb->dev = NULL;
	if (READ_ONCE(sd1->defer_count) == defer_half)
		(*kicks)++;
	skb_attempt_defer_free(skb);
	if (READ_ONCE(sd1->defer_count) > defer_half)
		return napitest_spin_defer_flushed(sd1);
	return true;
}

static bool napitest_threads_on(void)
{
#if NAPITEST_HAS_BACKLOG_THREADS
	return use_backlog_threads();
#else
	return false;
#endif
}

static void headline_remote_flood_cpu1_idle(struct kunit *test)
{
	struct softnet_data *sd1 = &per_cpu(softnet_data, 1);
	struct napitest_cpu1 a, b, c;
	unsigned int qtail = 0, kicks = 0, kick_failed = 0, defer_half, defer_left;
	bool threads = napitest_threads_on();
	bool flushed = true;
	int i, delivered;

	KUNIT_ASSERT_GE(test, num_online_cpus(), 2U);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	defer_half = READ_ONCE(sysctl_skb_defer_max) >> 1;

	napitest_cpu1_read(&a);
	for (i = 0; i < NAPITEST_FLOOD_N; i++) {
		struct sk_buff *skb = napitest_skb(test);

		local_bh_disable();
		enqueue_to_backlog(skb, 1, &qtail);
		local_bh_enable();
		if (!napitest_spin_rcv(i + 1))
			break;
	}
	delivered = atomic_read(&napitest_rcv);
	napitest_cpu1_read(&b);

	for (i = 0; i < NAPITEST_FLOOD_N && flushed; i++) {
		flushed = napitest_defer_one(test, sd1, defer_half, &kicks);
		if (!flushed)
			kick_failed = kicks;
	}
	/*
	 * What the kernel guarantees is a flush after each kick: the skbs
	 * queued after the last kick (N mod (defer_max/2 + 1) of them) wait,
	 * below the threshold, for the next kick or the next NET_RX/backlog
	 * poll on cpu1.  Count them, then defer more (outside the counters)
	 * until the next kick, which must flush them too.
	 */
	defer_left = READ_ONCE(sd1->defer_count);
	napitest_cpu1_read(&c);
	for (i = 0; flushed && READ_ONCE(sd1->defer_count) && i <= defer_half; i++) {
		unsigned int drain_kicks = kicks;

		flushed = napitest_defer_one(test, sd1, defer_half, &drain_kicks);
		if (!flushed)
			kick_failed = drain_kicks;
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);

	kunit_info(test,
		   "napitest-headline kernel=%s threads=%d n=%d delivered=%d rps_call_ipis=%u rps_resched_ipis=%u received_rps=%u rps_net_rx=%u defer_kicks=%u defer_left=%u defer_call_ipis=%u defer_resched_ipis=%u defer_net_rx=%u\n",
		   IS_ENABLED(CONFIG_PREEMPT_RT) ? "rt" : "preempt", threads,
		   NAPITEST_FLOOD_N, delivered, b.call_ipis - a.call_ipis,
		   b.resched_ipis - a.resched_ipis,
		   b.received_rps - a.received_rps, b.net_rx - a.net_rx, kicks,
		   defer_left, c.call_ipis - b.call_ipis,
		   c.resched_ipis - b.resched_ipis, c.net_rx - b.net_rx);

	KUNIT_EXPECT_EQ_MSG(test, delivered, NAPITEST_FLOOD_N,
			    "cpu1 delivered %d of %d remote packets", delivered,
			    NAPITEST_FLOOD_N);
	KUNIT_EXPECT_GT_MSG(test, kicks, 0U,
			    "no skb_attempt_defer_free() kick past defer_max/2 = %u",
			    defer_half);
	KUNIT_EXPECT_TRUE_MSG(test, flushed,
			      "cpu1's defer_list (defer_count %u > defer_max/2 = %u) not flushed after kick %u (skb_attempt_defer_free() -> kick_defer_list_purge())",
			      READ_ONCE(sd1->defer_count), defer_half, kick_failed);
	if (threads) {
		/* V16/V24 at flood scale: no csd raises NET_RX on cpu1 */
		KUNIT_EXPECT_EQ_MSG(test, b.received_rps - a.received_rps, 0U,
				    "rps_trigger_softirq() ran on cpu1 with backlog threads");
		KUNIT_EXPECT_EQ_MSG(test, c.net_rx - a.net_rx, 0U,
				    "NET_RX ran on cpu1 with backlog threads");
	} else {
		/* the old path: one RPS csd per packet to an idle cpu1 */
		KUNIT_EXPECT_GT_MSG(test, b.received_rps - a.received_rps, 0U,
				    "no rps_trigger_softirq() on cpu1 without backlog threads");
	}
}

static struct kunit_case napitest_headline_cases[] = {
	KUNIT_CASE(headline_remote_flood_cpu1_idle),
	{}
};

static struct kunit_suite napitest_headline_suite = {
	.name = "net_backlog_napi_headline",
	.init = napitest_init,
	.exit = napitest_exit,
	.test_cases = napitest_headline_cases,
};

#endif /* CONFIG_RPS */

/*
 * net_backlog_napi_init is listed first so that V20's budget case finds a
 * backlog that was never polled (its list case uses the boot snapshot and
 * does not depend on the order).
 */
kunit_test_suites(&napitest_init_suite, &napitest_threaded_suite,
		  &napitest_rx_action_suite, &napitest_backlog_threads_suite);
#if IS_ENABLED(CONFIG_RPS)
kunit_test_suites(&napitest_smp_suite, &napitest_headline_suite);
#endif
