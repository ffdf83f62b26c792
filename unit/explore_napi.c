// SPDX-License-Identifier: GPL-2.0
/*
 * Systematic interleaving exploration (shims/sim/explore.c) of the
 * cross-CPU paths of the series: each scenario gives each simulated CPU a
 * program, and every schedule within the preemption bound (CHESS, default
 * 2) is run and checked.  A counterexample is printed per CPU, step by
 * step, with net/core/dev.c:LINE of the tree under test, and a replay
 * string (NAPITEST_SCHEDULE).
 *
 *   (a) remote enqueue vs the backlog thread finishing a poll and sleeping
 *   (b) ____napi_schedule() vs napi_thread_wait()          (patch 12, V14)
 *   (c) defer kick vs defer flush                          (patches 01, 13)
 *   (c2) defer kick vs a backlog NAPI on the local poll_list (patch 13, V25)
 *   (d) hardirq napi_schedule() inside net_rx_action()     (patch 06, V7)
 *   (e) CPU 1 offline with backlog work in flight: dev_cpu_dead() (patch 14, V19)
 *   (f) defer kick vs a backlog on its poll_list, with CPU 1's
 *       choice between ksoftirqd and its backlog thread   (patch 13, V25)
 *   (g) an unbound NAPI thread pulled to another CPU between two polls
 *       (load balancing)                                   (patch 11, V31)
 *   (h) a forced-threaded device interrupt (SCHED_FIFO) vs a NAPI
 *       thread's BH section: on RT it preempts, blocks, boosts
 *   (i) a local device interrupt vs process_backlog() completing the
 *       backlog (patch 14, V18)
 *
 * Properties, on every schedule, after the machine is run to quiescence:
 * no packet lost or duplicated, no WARN or pr_warn_once, the context
 * checker clean, no softirq raised from SMP-call context under RT (generic,
 * explore.c), and here: every backlog queue and defer_list empty, no NAPI
 * left with SCHED set, no poll_list entry, NET_RX pending nowhere,
 * in_net_rx_action false, every napi_schedule() followed by a poll.  At
 * every step (c2, e, f): a backlog NAPI on a list is SCHED, and (c2, e)
 * not SCHED_THREADED (V25).
 */
#include "support/napitest.h"
#include <sim/explore.h>

#define NR_EXPLORE_CPUS 2

/* softnet_data.in_net_rx_action (patch 04): the manifest's member? entry. */
#define HAVE_IN_NET_RX_ACTION EXTRACTED_HAVE_softnet_data_in_net_rx_action

static struct net_device test_dev = { .name = "sim0", .running = true };

/* Driver NAPIs, polled by drv_poll(): complete at once, count polls. */
static struct napi_struct napi_a, napi_b;
static unsigned int polls_a, polls_b;

static int drv_poll(struct napi_struct *napi, int budget)
{
	(void)budget;
	if (napi == &napi_a)
		polls_a++;
	else
		polls_b++;
	napi_complete_done(napi, 0);
	return 0;
}

static void boot(void)
{
	napitest_boot(NR_EXPLORE_CPUS);
	napitest_napi_init(&napi_a, &test_dev, drv_poll);
	napitest_napi_init(&napi_b, &test_dev, drv_poll);
	polls_a = polls_b = 0;
}

/* netif_rx() of a new packet from this CPU to cpu's backlog. */
static struct sk_buff *enqueue_from_here(int cpu)
{
	struct sk_buff *skb = sim_skb_alloc(&test_dev);
	unsigned int qtail;

	local_bh_disable();
	enqueue_to_backlog(skb, cpu, &qtail);
	local_bh_enable();
	return skb;
}

static char check_msg[200];

/* The per-CPU state every scenario must leave behind once quiescent. */
static const char *check_quiescent(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_EXPLORE_CPUS; cpu++) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);
		const char *what = NULL;

		if (skb_queue_len(&sd->input_pkt_queue))
			what = "input_pkt_queue not empty (lost wakeup)";
		else if (skb_queue_len(&sd->process_queue))
			what = "process_queue not empty (lost wakeup)";
		else if (sd->defer_list)
			what = "defer_list not empty (lost kick)";
		else if (sim_test_bit(NAPI_STATE_SCHED, &sd->backlog.state))
			what = "backlog NAPI left with SCHED set and nobody to run it";
		else if (!list_empty(&sd->poll_list))
			what = "a NAPI left on poll_list";
		else if (sim_cpus[cpu].softirq_pending & BIT(NET_RX_SOFTIRQ))
			what = "NET_RX left pending with nobody to run it";
#if HAVE_IN_NET_RX_ACTION
		else if (sd->in_net_rx_action)
			what = "in_net_rx_action left true";
#endif
		if (what) {
			snprintf(check_msg, sizeof(check_msg), "CPU %d: %s",
				 cpu, what);
			return check_msg;
		}
	}
	if (sim_test_bit(NAPI_STATE_SCHED, &napi_a.state) ||
	    sim_test_bit(NAPI_STATE_SCHED, &napi_b.state))
		return "driver NAPI left with SCHED set and nobody to run it";
	return NULL;
}

/*
 * On a list: a poll_list, or net_rx_action()'s local lists.  A zeroed node
 * was never on one (before patch 14 nothing initialises the backlog's,
 * V20).
 */
static bool napi_listed(struct napi_struct *n)
{
	/*
	 * list_empty() by a plain read: the explorer's own check between
	 * two steps is no step of the machine (no hook, no trail entry).
	 */
	return n->poll_list.next && n->poll_list.next != &n->poll_list;
}

/*
 * At every step: a backlog NAPI on a list is scheduled, so the next
 * napi_schedule() cannot add it a second time; napi_poll() takes it off
 * before polling it.
 */
static const char *backlog_listed_is_scheduled(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_EXPLORE_CPUS; cpu++) {
		struct napi_struct *n = &per_cpu(softnet_data, cpu).backlog;

		if (napi_listed(n) &&
		    !sim_test_bit(NAPI_STATE_SCHED, &n->state)) {
			snprintf(
				check_msg, sizeof(check_msg),
				"CPU %d: backlog NAPI still on a list with SCHED clear "
				"(completed while listed)",
				cpu);
			return check_msg;
		}
	}
	return NULL;
}

/* ... and (V25) never on a list while SCHED_THREADED hands it to a thread. */
static const char *backlog_listed_invariants(void)
{
	const char *msg = backlog_listed_is_scheduled();
	int cpu;

	if (msg)
		return msg;
	for (cpu = 0; cpu < NR_EXPLORE_CPUS; cpu++) {
		struct napi_struct *n = &per_cpu(softnet_data, cpu).backlog;

		if (napi_listed(n) &&
		    sim_test_bit(NAPI_STATE_SCHED_THREADED, &n->state)) {
			snprintf(
				check_msg, sizeof(check_msg),
				"CPU %d: backlog NAPI on a list with SCHED_THREADED set (V25)",
				cpu);
			return check_msg;
		}
	}
	return NULL;
}

static void run_cpu1(void)
{
	sim_run_cpu(1, 100);
}

static void explore_expect_none(const struct explore_scenario *s)
{
	struct explore_result r;

	explore_run(s, &r);
	/* Another scenario chosen (NAPITEST_EXPLORE_ONLY, NAPITEST_SCHEDULE). */
	if (r.skipped)
		skip();
	if (r.violations)
		fail_msg(
			"%s: %lu of %lu schedules violate a property; first: %s "
			"(NAPITEST_SCHEDULE='%s/%s')",
			s->name, r.violations, r.schedules, r.first_violation,
			s->name, r.first_schedule);
	if (!r.complete)
		fail_msg("%s: INCOMPLETE: the bounded search was not exhausted "
			 "within its schedule budget (raise max_schedules); "
			 "an incomplete search is not a pass",
			 s->name);
}

/*
 * (a) CPU 0 enqueues a packet to CPU 1's backlog (netif_rx()-style, BH
 * off) while CPU 1 finishes polling an earlier packet and goes to sleep:
 * backlog_napi/1 in napi_threaded_poll_loop() -> process_backlog() ->
 * smpboot's thread_should_run()/schedule() (threads), or the csd ->
 * net_rx_action() path (rps).
 */
static void a_setup(void)
{
	boot();
	/* The earlier packet: CPU 1 is woken (thread, or IPI queued). */
	enqueue_from_here(1);
}

static void a_cpu0(void)
{
	enqueue_from_here(1);
}

static const struct explore_scenario scn_a = {
	.name = "a_remote_enqueue_vs_backlog_sleep",
	.setup = a_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, a_cpu0, "CPU0 enqueue_to_backlog(cpu 1)" },
		{ 1, run_cpu1, "CPU1 backlog poll + sleep" },
	},
	.check = check_quiescent,
	.random_walks = 50,
};

static void explore_a_remote_enqueue_vs_backlog_sleep(void **state)
{
	(void)state;
#ifndef CONFIG_RPS
	skip(); /* without RPS nothing is enqueued to another CPU */
#endif
	explore_expect_none(&scn_a);
}

/*
 * (b) A threaded driver NAPI on CPU 1: its thread finishes a poll and
 * goes back to napi_thread_wait() while CPU 0's device interrupt calls
 * napi_schedule() -> ____napi_schedule().  Patch 12 sets SCHED_THREADED
 * unconditionally; with the task-state condition restored, a schedule
 * that finds the thread TASK_INTERRUPTIBLE wakes it without the bit and
 * the thread goes back to sleep: the NAPI stays SCHED forever.
 */
static void b_setup(void)
{
	int prev;

	boot();
	prev = sim_switch_cpu(1);
	napi_a.thread = kthread_run(napi_threaded_poll, &napi_a, "napi/%s-%d",
				    test_dev.name, 0);
	set_bit(NAPI_STATE_THREADED, &napi_a.state);
	sim_run_cpu(1, 16); /* the thread sleeps in napi_thread_wait() */
	/* The first interrupt, on CPU 1: the thread is woken to poll. */
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	sim_switch_cpu(prev);
}

static void b_cpu0(void)
{
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
}

static const char *b_check(void)
{
	const char *msg = check_quiescent();

	if (msg)
		return msg;
	/* Two schedules: two polls (the second through MISSED if it overlapped). */
	if (polls_a != 2) {
		snprintf(
			check_msg, sizeof(check_msg),
			"threaded NAPI polled %u times for 2 napi_schedule() (lost wakeup)",
			polls_a);
		return check_msg;
	}
	return NULL;
}

static const struct explore_scenario scn_b = {
	.name = "b_napi_schedule_vs_napi_thread_wait",
	.setup = b_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, b_cpu0, "CPU0 hardirq napi_schedule()" },
		{ 1, run_cpu1, "CPU1 napi thread poll + wait" },
	},
	.check = b_check,
	.random_walks = 50,
};

static void explore_b_napi_schedule_vs_napi_thread_wait(void **state)
{
	(void)state;
	explore_expect_none(&scn_b);
}

/*
 * (b) under x86-TSO: the thread's task-state store may sit in CPU 1's
 * store buffer while it tests NAPI_STATE_SCHED_THREADED.  With
 * set_current_state() (a full barrier) either the thread sees the bit or
 * the waker sees TASK_INTERRUPTIBLE; with a relaxed __set_current_state()
 * in napi_thread_wait() the waker may read TASK_RUNNING, skip the wakeup,
 * and the thread sleeps with the bit set: a lost wakeup.
 */
static void explore_b_tso_napi_schedule_vs_napi_thread_wait(void **state)
{
	struct explore_scenario scn_b_tso = scn_b;

	(void)state;
	scn_b_tso.name = "b_tso_napi_schedule_vs_napi_thread_wait";
	scn_b_tso.tso = true;
	explore_expect_none(&scn_b_tso);
}

/*
 * (c) CPU 0 frees packets allocated on CPU 1 (skb_attempt_defer_free()):
 * each lands on CPU 1's defer_list and, at half capacity, kicks CPU 1
 * (kick_defer_list_purge(): the backlog NAPI with threads, the defer csd
 * otherwise), while CPU 1 flushes its defer_list from a kick made earlier.
 * sysctl_skb_defer_max = 1 so that every add to an empty list kicks: with
 * larger values a packet added right after a flush waits, by design, for
 * CPU 1's next softirq, which a quiescent machine never runs.
 */
static struct sk_buff *skb_from_cpu1(void)
{
	struct sk_buff *skb = sim_skb_alloc(&test_dev);

	skb->alloc_cpu = 1;
	return skb;
}

/* Free, from here and BH off, a packet allocated on CPU 1. */
static void defer_free_cpu1_skb(void)
{
	local_bh_disable();
	skb_attempt_defer_free(skb_from_cpu1());
	local_bh_enable();
}

static void c_setup(void)
{
	boot();
	sysctl_skb_defer_max = 1;
	defer_free_cpu1_skb(); /* kicks CPU 1 */
}

static void c_cpu0(void)
{
	defer_free_cpu1_skb();
	defer_free_cpu1_skb();
}

static const struct explore_scenario scn_c = {
	.name = "c_defer_kick_vs_flush",
	.setup = c_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, c_cpu0, "CPU0 skb_attempt_defer_free() x2" },
		{ 1, run_cpu1, "CPU1 defer flush" },
	},
	.check = check_quiescent,
	.random_walks = 50,
};

static void explore_c_defer_kick_vs_flush(void **state)
{
	(void)state;
	explore_expect_none(&scn_c);
}

/*
 * (c2) The kick of (c) while CPU 1's backlog NAPI is already scheduled on
 * CPU 1's own poll_list (a local enqueue, BH off, NET_RX pending): patch
 * 13's __test_and_set_bit(NAPI_STATE_SCHED) guard in
 * kick_defer_list_purge() must leave it there (V25: a NAPI is never on a
 * poll_list while SCHED_THREADED is set).
 */
static void c2_setup(void)
{
	boot();
	sysctl_skb_defer_max = 1;
}

static void c2_cpu0(void)
{
	defer_free_cpu1_skb();
}

static void c2_cpu1(void)
{
	unsigned int qtail;

	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), 1, &qtail);
	local_bh_enable(); /* net_rx_action() (!RT) or later */
	sim_run_cpu(1, 100);
}

static const struct explore_scenario scn_c2 = {
	.name = "c2_defer_kick_vs_local_backlog",
	.setup = c2_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, c2_cpu0, "CPU0 skb_attempt_defer_free()" },
		{ 1, c2_cpu1, "CPU1 local enqueue + net_rx_action" },
	},
	.check = check_quiescent,
	.invariant = backlog_listed_invariants,
	.random_walks = 50,
};

static void explore_c2_defer_kick_vs_local_backlog(void **state)
{
	(void)state;
	explore_expect_none(&scn_c2);
}

/*
 * (d) CPU 0 runs net_rx_action() for driver NAPI A; the device interrupt
 * of NAPI B (napi_schedule() in hardirq) arrives at any point where CPU 0
 * has IRQs enabled, in particular while A is polled and in_net_rx_action
 * is true, so ____napi_schedule() queues B without raising NET_RX.
 * Patch 06's restart ("goto start" when poll_list was refilled) is what
 * polls B then; without it B is stranded on poll_list (V7).  CPU 1 runs
 * its own (empty) scheduler as a second program.
 */
static void d_setup(void)
{
	boot();
}

static void d_cpu0(void)
{
	local_bh_disable();
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	local_bh_enable(); /* net_rx_action() runs here */
}

static void d_irq_b(void)
{
	napi_schedule(&napi_b);
}

static const char *d_check(void)
{
	const char *msg = check_quiescent();

	if (msg)
		return msg;
	if (polls_a != 1 || polls_b != 1) {
		snprintf(check_msg, sizeof(check_msg),
			 "NAPI A polled %u times, B %u times (1 each expected)",
			 polls_a, polls_b);
		return check_msg;
	}
	return NULL;
}

static const struct explore_scenario scn_d = {
	.name = "d_hardirq_schedule_in_net_rx_action",
	.setup = d_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, d_cpu0, "CPU0 net_rx_action(A)" },
		{ 1, run_cpu1, "CPU1 idle" },
	},
	.nr_irqs = 1,
	.irqs = { { 0, d_irq_b, "CPU0 IRQ napi_schedule(B)" } },
	.check = d_check,
	.random_walks = 50,
};

static void explore_d_hardirq_schedule_in_net_rx_action(void **state)
{
	(void)state;
	explore_expect_none(&scn_d);
}

/* Backlog threads in this configuration (and tree). */
static bool threads_on(void)
{
#if EXTRACTED_HAVE_use_backlog_threads
	return use_backlog_threads();
#else
	return false;
#endif
}

/*
 * The device interrupt on this CPU: netif_rx() in hardirq, no RPS
 * steering (netif_rx_internal() -> enqueue_to_backlog() on this CPU).
 */
static void irq_local_rx(void)
{
	unsigned int qtail;

	enqueue_to_backlog(sim_skb_alloc(&test_dev), smp_processor_id(),
			   &qtail);
}

/*
 * That interrupt outside the explorer: in hardirq; on PREEMPT_RT in its
 * forced irq thread, BH disabled (irq_forced_thread_fn()), since an RT
 * spinlock may not be taken in hardirq.
 */
static void device_irq_local_rx(void)
{
#ifdef CONFIG_PREEMPT_RT
	local_bh_disable();
	irq_local_rx();
	local_bh_enable();
#else
	sim_hardirq_enter();
	irq_local_rx();
	sim_hardirq_exit();
#endif
}

/*
 * ksoftirqd/1 is awake: an earlier softirq overflow on CPU 1 handed work
 * to it (handle_softirqs() -> wakeup_softirqd(), IRQs off, on that CPU).
 * Then a NET_RX raised by a hardirq on CPU 1 is left to it on !RT too
 * (invoke_softirq() defers while ksoftirqd_running()), as RT always does.
 * The tree's wakeup_softirqd() wakes its own CPU's ksoftirqd: a local
 * wakeup, runnable at once (ttwu_queue_cond() never queues on the
 * waker's own CPU).  Woken from CPU 0 instead, as no kernel path does,
 * ksoftirqd/1 would wait TASK_WAKING on idle CPU 1's wake list (!RT:
 * TTWU_QUEUE), not running, until CPU 1 flushes it.
 */
static void wake_ksoftirqd1(void)
{
	unsigned long flags;
	int prev = sim_switch_cpu(1);

	local_irq_save(flags);
	wakeup_softirqd();
	local_irq_restore(flags);
	sim_switch_cpu(prev);
	if (!task_is_running(per_cpu(ksoftirqd, 1)))
		sim_bug(__FILE__, __LINE__,
			"ksoftirqd/1 not running after wakeup_softirqd()");
}

/*
 * f and i start from NET_RX left pending to a running ksoftirqd/1 by the
 * tree's invoke_softirq() (!RT) or __local_bh_enable_ip() (RT): 6.1's
 * ksoftirqd_running() ("softirq: Let ksoftirqd do its job"), which
 * upstream reverted in v6.5 (d15121be7485).  A tree without it runs a
 * pending NET_RX at once at irq exit or local_bh_enable(), so that state
 * never arises there: the scenario does not apply, says why, and is
 * cmocka's skip (n/a in the verdict), neither a pass nor a failure.
 */
static bool net_rx_left_to_ksoftirqd1_arises(const char *scenario)
{
	if (EXTRACTED_HAVE_ksoftirqd_running)
		return true;
	printf("  %s: not applicable on this tree (%s): its invoke_softirq() and __local_bh_enable_ip() run a pending NET_RX at once (no ksoftirqd_running(), reverted upstream in v6.5), so NET_RX is never left to a running ksoftirqd/1\n",
	       scenario, EXTRACTED_TREE);
	return false;
}

/*
 * The scenario's premise: NET_RX of CPU 1's local packet left pending,
 * the backlog on CPU 1's poll_list; each part and ksoftirqd/1's state
 * said apart when it does not hold.
 */
static void expect_net_rx_left_to_ksoftirqd1(const char *scenario)
{
	bool pending = sim_cpus[1].softirq_pending & BIT(NET_RX_SOFTIRQ);
	bool listed = napi_listed(&per_cpu(softnet_data, 1).backlog);
	unsigned int state = READ_ONCE(per_cpu(ksoftirqd, 1)->__state);
	char msg[200];

	if (pending && listed)
		return;
	snprintf(
		msg, sizeof(msg),
		"scenario %s: premise not met: NET_RX pending on CPU 1: %s; backlog on CPU 1's poll_list: %s; ksoftirqd/1 __state: %s",
		scenario, pending ? "yes" : "no", listed ? "yes" : "no",
		napitest_task_state_name(state));
	sim_bug(__FILE__, __LINE__, msg);
}

/*
 * (e) CPU 1 goes offline while work for it is in flight: cpu_down(1) on
 * CPU 0 parks CPU 1's per-CPU threads (backlog_napi/1, then ksoftirqd/1),
 * has CPU 1 run take_cpu_down() (offline, its queued csds run there), and
 * calls dev_cpu_dead(1) on CPU 0; CPU 1 runs until then (sim_cpu_idle()).
 * In flight: a packet CPU 0 steered to CPU 1 before (RPS: backlog_napi/1
 * woken, or an RPS IPI queued), a defer_list entry whose kick went to CPU
 * 1 (backlog thread, or defer csd), and a packet CPU 1's device interrupt
 * queues locally at any point it chooses (the backlog on CPU 1's own
 * poll_list, NET_RX left to ksoftirqd/1, which may be parked first).  Then
 * CPU 1 comes back and CPU 0 steers one more packet to it.
 *
 * Properties, besides the generic ones: nothing left anywhere once CPU 1
 * is back; with threads both backlogs keep THREADED (V19) and the packet
 * steered to CPU 1 after it is back is delivered there, not polled from
 * CPU 0's list.
 */
static struct sk_buff *e_after_up;

static void e_setup(void)
{
	boot();
	sysctl_skb_defer_max = 1; /* the entry kicks (see (c)) */
	wake_ksoftirqd1();
#ifdef CONFIG_RPS
	enqueue_from_here(1);
#endif
	defer_free_cpu1_skb();
	e_after_up = NULL;
}

static void e_cpu0(void)
{
	sim_cpu_down(1, 0);
	sim_cpu_up(1);
#ifdef CONFIG_RPS
	/* get_rps_cpu() may pick CPU 1 again: it is online. */
	e_after_up = enqueue_from_here(1);
#endif
}

static void e_cpu1(void)
{
	sim_cpu_idle(1);
}

static const char *e_check(void)
{
	const char *msg = check_quiescent();
	int cpu;

	if (msg)
		return msg;
	if (!cpu_online(1))
		return "CPU 1 did not come back";
	for (cpu = 0; cpu < NR_EXPLORE_CPUS && threads_on(); cpu++) {
		struct napi_struct *n = &per_cpu(softnet_data, cpu).backlog;

		if (!sim_test_bit(NAPI_STATE_THREADED, &n->state)) {
			snprintf(check_msg, sizeof(check_msg),
				 "CPU %d: backlog NAPI lost THREADED (V19)",
				 cpu);
			return check_msg;
		}
	}
	if (e_after_up && e_after_up->delivered_on_cpu != 1) {
		snprintf(
			check_msg, sizeof(check_msg),
			"the packet steered to CPU 1 once it was back was delivered on CPU %d",
			e_after_up->delivered_on_cpu);
		return check_msg;
	}
	return NULL;
}

static const struct explore_scenario scn_e = {
	.name = "e_cpu_dead_vs_enqueue",
	.setup = e_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, e_cpu0, "CPU0 cpu_down(1), cpu_up(1)" },
		{ 1, e_cpu1, "CPU1 until offline" },
	},
	.nr_irqs = 1,
	.irqs = { { 1, irq_local_rx, "CPU1 IRQ netif_rx()", .threaded = true } },
	.check = e_check,
	.invariant = backlog_listed_invariants,
	.random_walks = 50,
	/*
	 * Bound 3 needs up to 331408 schedules (rt-rps) since the smpboot
	 * threads run the tree's own smpboot_thread_fn() (its
	 * set_current_state() calls are explorer points) and IRQs or
	 * preemption coming back on are points too (explore_async_point()).
	 */
	.max_schedules = 400000,
};

static void explore_e_cpu_dead_vs_enqueue(void **state)
{
	(void)state;
	require_definition(dev_cpu_dead);
	explore_expect_none(&scn_e);
}

/*
 * (f) V25 where it matters: CPU 1's backlog is on CPU 1's own poll_list
 * (its device interrupt queued a packet; NET_RX is left to ksoftirqd/1)
 * when CPU 0's defer kick arrives.  Patch 13's
 * __test_and_set_bit(NAPI_STATE_SCHED) guard in kick_defer_list_purge()
 * leaves it there.  Without the guard the kick also sets SCHED_THREADED
 * and wakes backlog_napi/1; if CPU 1's scheduler then runs that thread
 * before ksoftirqd (a choice the explorer makes), the thread completes
 * the backlog while it is still on the poll_list (the invariant checked
 * at every step), and the next local packet (a second interrupt) adds it
 * to a poll_list a second time.  The kick happens in setup: a kick that
 * finds the backlog idle is (c)'s case.
 */
static void f_setup(void)
{
	int prev;

	boot();
	sysctl_skb_defer_max = 1;
	wake_ksoftirqd1();
	prev = sim_switch_cpu(1);
	device_irq_local_rx();
	sim_switch_cpu(prev);
	expect_net_rx_left_to_ksoftirqd1("f");
	defer_free_cpu1_skb();
}

static const struct explore_scenario scn_f = {
	.name = "f_defer_kick_vs_backlog_on_poll_list",
	.setup = f_setup,
	.nr_threads = 1,
	.threads = {
		{ 1, run_cpu1, "CPU1 ksoftirqd / backlog_napi" },
	},
	.nr_irqs = 1,
	.irqs = { { 1, irq_local_rx, "CPU1 IRQ netif_rx()", .threaded = true } },
	.check = check_quiescent,
	/* Not V25's SCHED_THREADED rule: the kick in setup breaks it at once. */
	.invariant = backlog_listed_is_scheduled,
	.random_walks = 50,
};

static void explore_f_defer_kick_vs_backlog_on_poll_list(void **state)
{
	(void)state;
	if (!napitest_thread_backlog_napi() && !IS_ENABLED(CONFIG_PREEMPT_RT))
		skip(); /* no backlog threads: the kick is a csd, (c) */
	if (!net_rx_left_to_ksoftirqd1_arises(scn_f.name))
		skip();
	boot();
	/*
	 * A tree without backlog threads fails here (base): what f needs,
	 * once f is explored (not skipped by NAPITEST_EXPLORE_ONLY).
	 */
	if (!napitest_backlog_thread(1) && !explore_skip_reason(&scn_f))
		fail_msg("no backlog_napi/1 in this tree (%s)", EXTRACTED_TREE);
	explore_expect_none(&scn_f);
}

/*
 * (g) A driver NAPI's thread comes from kthread_run(): unbound.  Its poll
 * uses the whole budget once, so napi_threaded_poll_loop() goes round
 * twice; between the rounds it passes local_bh_enable() and
 * cond_resched(), where ksoftirqd/1 (runnable) may take CPU 1 from it and
 * the load balancer may pull it, runnable, to CPU 0 (idle).  Each round
 * must use the softnet_data of the CPU it runs on (V31: the flag says a
 * threaded poll runs on that CPU; left on another CPU's softnet_data it
 * keeps napi_schedule_rps() there from raising NET_RX).  The invariant,
 * at every step: in_napi_threaded_poll is set only on the CPU the NAPI
 * thread is on (only that thread polls here).
 */
#define HAVE_IN_NAPI_THREADED_POLL \
	EXTRACTED_HAVE_softnet_data_in_napi_threaded_poll

static int drv_poll_twice(struct napi_struct *napi, int budget)
{
	if (++polls_a == 1)
		return budget; /* more to do: napi_threaded_poll_loop() repolls */
	napi_complete_done(napi, 0);
	return 0;
}

static void g_setup(void)
{
	int prev;

	boot();
	napitest_threaded_napi(&napi_a, &test_dev, drv_poll_twice, 1);
	prev = sim_switch_cpu(1);
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	sim_switch_cpu(prev);
	wake_ksoftirqd1(); /* runnable next to the thread: need_resched() */
}

static void g_cpu0(void)
{
	sim_cpu_idle(0);
}

static const char *g_flag_on_thread_cpu(void)
{
#if HAVE_IN_NAPI_THREADED_POLL
	int cpu;

	for (cpu = 0; cpu < NR_EXPLORE_CPUS; cpu++) {
		if (!per_cpu(softnet_data, cpu).in_napi_threaded_poll ||
		    napi_a.thread->cpu == cpu)
			continue;
		snprintf(
			check_msg, sizeof(check_msg),
			"CPU %d: in_napi_threaded_poll set while the NAPI thread polls on CPU %d (V31)",
			cpu, napi_a.thread->cpu);
		return check_msg;
	}
#endif
	return NULL;
}

static const char *g_check(void)
{
	const char *msg = check_quiescent();

	if (msg)
		return msg;
	if (polls_a != 2) {
		snprintf(check_msg, sizeof(check_msg),
			 "threaded NAPI polled %u times, 2 expected (a repoll)",
			 polls_a);
		return check_msg;
	}
	return g_flag_on_thread_cpu();
}

static const struct explore_scenario scn_g = {
	.name = "g_unbound_napi_thread_migrates_between_polls",
	.setup = g_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, g_cpu0, "CPU0 idle" },
		{ 1, run_cpu1, "CPU1 napi thread repoll" },
	},
	.check = g_check,
	.invariant = g_flag_on_thread_cpu,
	.random_walks = 50,
};

static void explore_g_unbound_napi_thread_migrates_between_polls(void **state)
{
	(void)state;
	explore_expect_none(&scn_g);
}

/*
 * (h) A device interrupt on CPU 1 as 6.1-rt forces it to a thread: the
 * hardirq only wakes irq/9-sim0 (SCHED_FIFO), which runs the handler
 * (netif_rx() to the local backlog) between local_bh_disable() and
 * local_bh_enable() (irq_forced_thread_fn()), while CPU 1's driver NAPI
 * thread (normal) polls inside its own BH-disabled section.  On RT the
 * irq thread preempts it there (an RT wakeup is not lazy), blocks on
 * softirq_ctrl.lock that the NAPI thread owns, boosts it, and runs once
 * the NAPI thread's local_bh_enable() releases it; NET_RX then runs at
 * the irq thread's own local_bh_enable() (checked).  Elsewhere the BH
 * section holds preemption off and the thread runs after it.
 */
static struct task_struct *irq_thread;
static bool irq_thread_pending;
/* Its packet was delivered by its own local_bh_enable() (NET_RX there). */
static bool irq_rx_at_bh_enable;

static int irq_thread_fn(void *arg)
{
	(void)arg;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!READ_ONCE(irq_thread_pending)) {
			schedule();
			continue;
		}
		unsigned long delivered;

		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(irq_thread_pending, false);
		delivered = sim_count(1, skbs_delivered);
		local_bh_disable();
		irq_local_rx();
		local_bh_enable();
		irq_rx_at_bh_enable = sim_count(1, skbs_delivered) > delivered;
	}
	return 0;
}

static void h_setup(void)
{
	int prev;

	boot();
	napitest_threaded_napi(&napi_a, &test_dev, drv_poll, 1);
	irq_thread_pending = false;
	irq_rx_at_bh_enable = false;
	irq_thread = sim_task_create(irq_thread_fn, NULL, 1, "irq/9-sim0");
	irq_thread->rt = true;
	sim_kthread_bind(irq_thread, 1);
	prev = sim_switch_cpu(1);
	wake_up_process(irq_thread);
	sim_run_cpu(1, 16); /* it sleeps */
	sim_hardirq_enter();
	napi_schedule(&napi_a); /* the NAPI thread is woken to poll */
	sim_hardirq_exit();
	sim_switch_cpu(prev);
}

/* irq_default_primary_handler() + __irq_wake_thread(), in hardirq. */
static void h_hardirq(void)
{
	WRITE_ONCE(irq_thread_pending, true);
	wake_up_process(irq_thread);
}

static const char *h_check(void)
{
	const char *msg = check_quiescent();

	if (msg)
		return msg;
	if (polls_a != 1) {
		snprintf(check_msg, sizeof(check_msg),
			 "threaded NAPI polled %u times, 1 expected", polls_a);
		return check_msg;
	}
	if (READ_ONCE(irq_thread_pending))
		return "the irq thread never ran its handler";
	/*
	 * The NET_RX its handler raised runs at its own local_bh_enable()
	 * (kernel/softirq.c, __local_bh_enable_ip(); on RT the task may
	 * preempt: no handoff to ksoftirqd).
	 */
	if (!irq_rx_at_bh_enable)
		return "NET_RX raised in irq/9-sim0's BH section did not run at "
		       "its local_bh_enable() (left to ksoftirqd?)";
	return NULL;
}

static const struct explore_scenario scn_h = {
	.name = "h_irq_thread_vs_napi_thread_bh",
	.setup = h_setup,
	.nr_threads = 1,
	.threads = {
		{ 1, run_cpu1, "CPU1 napi thread, irq thread" },
	},
	.nr_irqs = 1,
	.irqs = { { 1, h_hardirq, "CPU1 IRQ wakes irq/9-sim0" } },
	.check = h_check,
	.random_walks = 50,
};

static void explore_h_irq_thread_vs_napi_thread_bh(void **state)
{
	(void)state;
	explore_expect_none(&scn_h);
}

/*
 * (i) V18 where it races: CPU 1's backlog holds a packet (NET_RX left to
 * ksoftirqd/1) and CPU 1's device interrupt queues another (netif_rx(),
 * local) at any point where CPU 1 takes interrupts, among them the moment
 * process_backlog() turns IRQs back on after finding input_pkt_queue
 * empty (backlog_unlock_irq_enable(): the irq-on point of the explorer).
 * process_backlog() completes the backlog (clears NAPI_STATE_SCHED) under
 * the backlog lock with IRQs off, so that packet either finds SCHED clear
 * and schedules the backlog again, or is spliced before the completion.
 */
static void i_setup(void)
{
	int prev;

	boot();
	wake_ksoftirqd1();
	prev = sim_switch_cpu(1);
	device_irq_local_rx();
	sim_switch_cpu(prev);
	expect_net_rx_left_to_ksoftirqd1("i");
}

static const struct explore_scenario scn_i = {
	.name = "i_v18_backlog_completion_vs_local_irq",
	.setup = i_setup,
	.nr_threads = 1,
	.threads = {
		{ 1, run_cpu1, "CPU1 ksoftirqd / backlog_napi" },
	},
	.nr_irqs = 1,
	.irqs = { { 1, irq_local_rx, "CPU1 IRQ netif_rx()", .threaded = true } },
	.check = check_quiescent,
	.invariant = backlog_listed_is_scheduled,
	.random_walks = 50,
};

static void explore_i_v18_backlog_completion_vs_local_irq(void **state)
{
	(void)state;
	if (!net_rx_left_to_ksoftirqd1_arises(scn_i.name))
		skip();
	explore_expect_none(&scn_i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(explore_a_remote_enqueue_vs_backlog_sleep),
		cmocka_unit_test(explore_b_napi_schedule_vs_napi_thread_wait),
		cmocka_unit_test(
			explore_b_tso_napi_schedule_vs_napi_thread_wait),
		cmocka_unit_test(explore_c_defer_kick_vs_flush),
		cmocka_unit_test(explore_c2_defer_kick_vs_local_backlog),
		cmocka_unit_test(explore_d_hardirq_schedule_in_net_rx_action),
		cmocka_unit_test(explore_e_cpu_dead_vs_enqueue),
		cmocka_unit_test(explore_f_defer_kick_vs_backlog_on_poll_list),
		cmocka_unit_test(
			explore_g_unbound_napi_thread_migrates_between_polls),
		cmocka_unit_test(explore_h_irq_thread_vs_napi_thread_bh),
		cmocka_unit_test(explore_i_v18_backlog_completion_vs_local_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
