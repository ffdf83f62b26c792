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
 *
 * Properties, on every schedule, after the machine is run to quiescence:
 * no packet lost or duplicated, no WARN or pr_warn_once, the context
 * checker clean, no softirq raised from SMP-call context under RT (generic,
 * explore.c), and here: every backlog queue and defer_list empty, no NAPI
 * left with SCHED set, no poll_list entry, NET_RX pending nowhere,
 * in_net_rx_action false, every napi_schedule() followed by a poll.
 */
#include "support/napitest.h"
#include <sim/explore.h>

#define NR_EXPLORE_CPUS	2

/* softnet_data.in_net_rx_action (patch 04): see unit/net_rx_action.c. */
#define HAVE_IN_NET_RX_ACTION EXTRACTED_HAVE_napi_threaded_poll_loop

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

static void drv_napi_init(struct napi_struct *n)
{
	memset(n, 0, sizeof(*n));
	INIT_LIST_HEAD(&n->poll_list);
	init_gro_hash(n);
	n->poll = drv_poll;
	n->weight = 64;
	n->dev = &test_dev;
}

static void boot(void)
{
	napitest_boot(NR_EXPLORE_CPUS);
	drv_napi_init(&napi_a);
	drv_napi_init(&napi_b);
	polls_a = polls_b = 0;
}

/* netif_rx() of a new packet from this CPU to cpu's backlog. */
static void enqueue_from_here(int cpu)
{
	unsigned int qtail;

	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), cpu, &qtail);
	local_bh_enable();
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

static void run_cpu1(void)
{
	sim_run_cpu(1, 100);
}

static void explore_expect_none(const struct explore_scenario *s)
{
	struct explore_result r;

	explore_run(s, &r);
	if (r.violations)
		fail_msg("%s: %lu of %lu schedules violate a property; first: %s "
			 "(NAPITEST_SCHEDULE='%s/%s')", s->name, r.violations,
			 r.schedules, r.first_violation, s->name,
			 r.first_schedule);
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
	skip();		/* without RPS nothing is enqueued to another CPU */
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
	sim_run_cpu(1, 16);		/* the thread sleeps in napi_thread_wait() */
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
		snprintf(check_msg, sizeof(check_msg),
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

static void c_setup(void)
{
	boot();
	sysctl_skb_defer_max = 1;
	local_bh_disable();
	skb_attempt_defer_free(skb_from_cpu1());	/* kicks CPU 1 */
	local_bh_enable();
}

static void c_cpu0(void)
{
	local_bh_disable();
	skb_attempt_defer_free(skb_from_cpu1());
	local_bh_enable();
	local_bh_disable();
	skb_attempt_defer_free(skb_from_cpu1());
	local_bh_enable();
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
	local_bh_disable();
	skb_attempt_defer_free(skb_from_cpu1());
	local_bh_enable();
}

static void c2_cpu1(void)
{
	unsigned int qtail;

	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), 1, &qtail);
	local_bh_enable();		/* net_rx_action() (!RT) or later */
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
	local_bh_enable();		/* net_rx_action() runs here */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(explore_a_remote_enqueue_vs_backlog_sleep),
		cmocka_unit_test(explore_b_napi_schedule_vs_napi_thread_wait),
		cmocka_unit_test(explore_c_defer_kick_vs_flush),
		cmocka_unit_test(explore_c2_defer_kick_vs_local_backlog),
		cmocka_unit_test(explore_d_hardirq_schedule_in_net_rx_action),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
