// SPDX-License-Identifier: GPL-2.0
/*
 * net_rx_action() and the NAPI schedule paths around it: patch 04
 * (softnet_data.in_net_rx_action), 05 (optimize napi_schedule_rps()) and
 * 06 (net_rx_action() restart and the raise_softirq_irqoff() deviation),
 * and what __napi_poll() does with a poll that used its whole budget
 * (the 6.1 code the series builds on).
 */
#include "support/napitest.h"

/*
 * softnet_data.in_net_rx_action (patch 04): a tree without it fails the
 * tests below (the manifest's "member?" entry).
 */
#define HAVE_IN_NET_RX_ACTION EXTRACTED_HAVE_softnet_data_in_net_rx_action

#define WANT_THREADS \
	(IS_ENABLED(CONFIG_PREEMPT_RT) || napitest_thread_backlog_napi())

static struct net_device test_dev = { .name = "sim0", .running = true };

static struct napi_struct napi_a, napi_b;
static int a_polls, b_polls;
static bool a_saw_in_rx_action;
static unsigned long a_raises_during_poll;
static bool a_schedules_b;
static int a_steer_to = -1;
static int a_work; /* what poll_a reports as done (it completes) */
static bool b_saw_csd_to_1; /* CPU 1 had a csd queued when poll_b ran */

/*
 * napi_c: a device whose poll n (from 0) reports c_work[n] of the budget
 * (the last entry repeats); it completes only when that is less than the
 * budget, as a driver must.  c_resched_first: the first poll completes,
 * its device interrupt fires again, and the poll still reports the whole
 * budget (the driver bug __napi_poll() warns about).  c_tick: a jiffy
 * passes during each poll.
 */
#define C_POLLS 8
static struct napi_struct napi_c, napi_d, napi_e;
static int c_polls;
static int c_work[C_POLLS];
static unsigned long c_state_at[C_POLLS]; /* napi_c.state at each poll */
static bool c_resched_first;
static bool c_tick;

static bool sd_in_net_rx_action(struct softnet_data *sd)
{
#if HAVE_IN_NET_RX_ACTION
	return sd->in_net_rx_action;
#else
	(void)sd;
	fail_msg("softnet_data.in_net_rx_action is not in this tree (%s)",
		 EXTRACTED_TREE);
	return false;
#endif
}

static int poll_a(struct napi_struct *n, int budget)
{
	int cpu = smp_processor_id();
	unsigned long raises = sim_count(cpu, net_rx_raises);

	(void)budget;
	a_polls++;
#if HAVE_IN_NET_RX_ACTION
	a_saw_in_rx_action = this_cpu_ptr(&softnet_data)->in_net_rx_action;
#endif
	if (a_schedules_b)
		napi_schedule(&napi_b);
	if (a_steer_to >= 0) {
		unsigned int qtail;

		enqueue_to_backlog(sim_skb_alloc(&test_dev), a_steer_to,
				   &qtail);
	}
	a_raises_during_poll = sim_count(cpu, net_rx_raises) - raises;
	napi_complete_done(n, a_work);
	return a_work;
}

static int poll_b(struct napi_struct *n, int budget)
{
	(void)budget;
	b_polls++;
	b_saw_csd_to_1 = sim_csd_pending(1);
	napi_complete_done(n, 0);
	return 0;
}

static void schedule_from_hardirq(struct napi_struct *n);

static int poll_c(struct napi_struct *n, int budget)
{
	int i = c_polls < C_POLLS ? c_polls : C_POLLS - 1;
	int work = c_work[i];

	c_state_at[i] = READ_ONCE(n->state);
	c_polls++;
	if (c_tick)
		sim_tick(smp_processor_id());
	if (c_resched_first && c_polls == 1) {
		napi_complete_done(n, work);
		schedule_from_hardirq(n);
	} else if (work < budget) {
		napi_complete_done(n, work);
	}
	return work;
}

/* poll_c reports work for every poll from the next one on. */
static void c_work_from_now(int work)
{
	int i;

	for (i = c_polls; i < C_POLLS; i++)
		c_work[i] = work;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	test_dev.gro_flush_timeout = 0;
	test_dev.napi_defer_hard_irqs = 0;
	test_dev.rps_map_len = 0; /* rps_needed: reset by napitest_boot() */
	napitest_napi_name_as(&napi_a, "napi_a", &test_dev);
	napitest_napi_name_as(&napi_b, "napi_b", &test_dev);
	napitest_napi_name_as(&napi_c, "napi_c", &test_dev);
	napitest_napi_name_as(&napi_d, "napi_d", &test_dev);
	napitest_napi_name_as(&napi_e, "napi_e", &test_dev);
	napitest_napi_init(&napi_a, &test_dev, poll_a);
	napitest_napi_init(&napi_b, &test_dev, poll_b);
	napitest_napi_init(&napi_c, &test_dev, poll_c);
	napitest_napi_init(&napi_d, &test_dev, poll_c);
	napitest_napi_init(&napi_e, &test_dev, poll_c);
	c_polls = 0;
	memset(c_work, 0, sizeof(c_work));
	memset(c_state_at, 0, sizeof(c_state_at));
	c_resched_first = false;
	c_tick = false;
	b_saw_csd_to_1 = false;
	a_polls = b_polls = 0;
	a_saw_in_rx_action = false;
	a_raises_during_poll = 0;
	a_schedules_b = false;
	a_steer_to = -1;
	a_work = 0;
	sim_switch_cpu(0);
	return 0;
}

/*
 * Run net_rx_action() once on this CPU, in the context __do_softirq() gives
 * it (SOFTIRQ_OFFSET, IRQs on, the pending bit cleared), but without the
 * softirq core's restart loop: what it leaves pending stays visible.
 */
static void run_net_rx_action_once(void)
{
	struct sim_cpu *c = sim_this();

	c->softirq_pending &= ~BIT(NET_RX_SOFTIRQ);
	c->serving_softirq++;
#ifdef CONFIG_PREEMPT_RT
	this_cpu_inc(softirq_ctrl.cnt);
#endif
	c->irqs_off = false;
	/* As handle_softirqs() does: through the handler net_dev_init()
	 * registered (its signature differs before and after v6.10). */
	assert_ptr_equal((void *)softirq_vec[NET_RX_SOFTIRQ].action,
			 (void *)net_rx_action);
	softirq_handler_call(&softirq_vec[NET_RX_SOFTIRQ]);
	c = sim_this();
	assert_false(c->irqs_off);
#ifdef CONFIG_PREEMPT_RT
	this_cpu_dec(softirq_ctrl.cnt);
#endif
	c->serving_softirq--;
}

/*
 * Run net_rx_action() again while it leaves NET_RX pending, at most
 * MAX_SOFTIRQ_RESTART (10) times, as handle_softirqs()' restart loop does:
 * for what must happen whether the NAPI is polled again in the same
 * invocation (patch 0004's restart, V7's business) or in the next one.
 */
static int run_net_rx_action_until_idle(void)
{
	int rounds = 0;

	do {
		run_net_rx_action_once();
		rounds++;
	} while ((local_softirq_pending() & BIT(NET_RX_SOFTIRQ)) &&
		 rounds < 10);
	return rounds;
}

/* Schedule n from a device interrupt, leaving the softirq pending. */
static void schedule_from_hardirq(struct napi_struct *n)
{
	struct sim_cpu *c = sim_this();

	c->hardirq++;
	c->irqs_off = true;
	napi_schedule(n);
	c->hardirq--;
	c->irqs_off = false;
}

/*
 * V5: in_net_rx_action is true while ->poll runs and false once
 * net_rx_action() returns with an empty poll_list; a later hardirq schedule
 * then raises NET_RX again (with the flag left set it would not, and the
 * NAPI would be stranded on poll_list).
 */
static void v5_in_net_rx_action_scoped_to_poll(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long raises;

	(void)state;
	schedule_from_hardirq(&napi_a);
	run_net_rx_action_once();

	assert_int_equal(a_polls, 1);
	assert_true(a_saw_in_rx_action);
	assert_false(sd_in_net_rx_action(sd));
	assert_true(list_empty(&sd->poll_list));

	raises = sim_count(0, net_rx_raises);
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	sim_run_all(1000);
	assert_cpu_count_delta(0, net_rx_raises, raises, 1);
	assert_int_equal(a_polls, 2);
	assert_no_warn();
}

/*
 * V5, the budget-exhausted exit: the last NAPI completes exactly as the
 * budget runs out, so net_rx_action() leaves through the time_squeeze path
 * with an empty poll_list; patch 04 clears in_net_rx_action there too (the
 * hunk matrix found that hunk unguarded).  Left set, the next hardirq
 * schedule raises nothing and the NAPI is stranded on poll_list.
 */
static void v5_budget_exhausted_exit_clears_in_net_rx_action(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	(void)state;
	WRITE_ONCE(netdev_budget, 1);
	a_work = 1;
	schedule_from_hardirq(&napi_a);
	run_net_rx_action_once();

	assert_int_equal(a_polls, 1);
	assert_int_equal(sd->time_squeeze, 1);
	assert_true(list_empty(&sd->poll_list));
	assert_false(sd_in_net_rx_action(sd));

	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	sim_run_all(1000);
	assert_int_equal(a_polls, 2);
	assert_no_warn();
}

/*
 * V5, the budget-exhausted exit with work left: the NAPI that uses up the
 * budget ends the round, the next one waits on poll_list with NET_RX
 * raised again, and in_net_rx_action stays set meanwhile (as upstream:
 * NET_RX is pending, so napi_schedule_rps() need not raise) until the next
 * round empties the list.
 */
static void v5_budget_exhausted_defers_rest_keeps_flag(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	(void)state;
	WRITE_ONCE(netdev_budget, 1);
	a_work = 1;
	schedule_from_hardirq(&napi_a);
	schedule_from_hardirq(&napi_b);
	run_net_rx_action_once();

	assert_int_equal(a_polls, 1);
	assert_int_equal(b_polls, 0);
	assert_int_equal(sd->time_squeeze, 1);
	assert_true(sim_this()->softirq_pending & BIT(NET_RX_SOFTIRQ));
	assert_true(sd_in_net_rx_action(sd));

	run_net_rx_action_once();
	assert_int_equal(b_polls, 1);
	assert_false(sd_in_net_rx_action(sd));
	assert_true(list_empty(&sd->poll_list));
	assert_no_warn();
}

/*
 * V6: a remote (RPS) enqueue from inside net_rx_action() raises nothing
 * locally -- net_rx_action() sends the IPI at its end; outside it, the
 * enqueue raises NET_RX once so that the IPI gets sent.  The path exists
 * only without backlog threads (RT always uses them).
 */
static void v6_napi_schedule_rps_raise_only_outside_rx_action(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long raises;
	unsigned int qtail;

	(void)state;
#ifdef CONFIG_RPS
	if (WANT_THREADS)
		skip(); /* no IPI path: backlog threads */
	/* Inside net_rx_action(): no raise, IPI sent at the end. */
	a_steer_to = 1;
	sim_hardirq_enter();
	napi_schedule(&napi_a);
	sim_hardirq_exit();
	sim_run_cpu(0, 1000);
	assert_int_equal(a_polls, 1);
	assert_int_equal(a_raises_during_poll, 0);
	/* The RPS csd is queued; polling idle CPU 1 needs no IPI. */
	assert_true(sim_csd_pending(1));
	assert_cpu_count(1, ipis, 0);
	assert_false(local_softirq_pending() & BIT(NET_RX_SOFTIRQ));
	sim_run_all(1000);
	assert_cpu_count(1, skbs_delivered, 1);

	/* Outside it (task context, BH off): one raise. */
	raises = sim_count(0, net_rx_raises);
	local_bh_disable();
	enqueue_to_backlog(sim_skb_alloc(&test_dev), 1, &qtail);
	assert_cpu_count_delta(0, net_rx_raises, raises, 1);
	assert_ptr_equal(sd->rps_ipi_list, &per_cpu(softnet_data, 1));
	local_bh_enable(); /* net_rx_action() sends the IPI */
	assert_true(sim_csd_pending(1));
	assert_cpu_count(1, ipis, 0); /* CPU 1 idles polling */
	assert_ptr_equal(sd->rps_ipi_list, NULL);

	sim_run_all(1000);
	assert_cpu_count(1, skbs_delivered, 2);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
#else
	(void)sd;
	(void)raises;
	(void)qtail;
	skip(); /* no IPI path: no RPS */
#endif
}

/*
 * V7: a NAPI scheduled from inside a poll callback is polled by the same
 * net_rx_action() invocation (the restart after clearing in_net_rx_action),
 * not left on poll_list with NET_RX not pending.
 */
static void v7_napi_scheduled_in_poll_polled_same_invocation(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	(void)state;
	a_schedules_b = true;
	schedule_from_hardirq(&napi_a);
	run_net_rx_action_once();

	assert_int_equal(a_polls, 1);
	assert_int_equal(b_polls, 1);
	assert_true(list_empty(&sd->poll_list));
	assert_napi_state_clear(&napi_b, NAPI_STATE_SCHED);
	assert_false(sd_in_net_rx_action(sd));
	assert_false(local_softirq_pending() & BIT(NET_RX_SOFTIRQ));
	assert_no_warn();
}

/*
 * V8, the documented deviation of patch 06: ____napi_schedule() raises with
 * raise_softirq_irqoff(), so a schedule from task context with IRQs off and
 * BH enabled wakes ksoftirqd (nothing else would run NET_RX); upstream
 * 8b43fd3d1d7d's __raise_softirq_irqoff() would leave it pending.
 */
static void v8_task_irqs_off_schedule_wakes_ksoftirqd(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	struct task_struct *ksd = per_cpu(ksoftirqd, 0);
	unsigned long wakeups = sim_count(0, wakeups);

	(void)state;
	assert_value(ksd->on_rq, 0, "ksoftirqd/0 on the runqueue");
	set_bit(NAPI_STATE_SCHED, &napi_a.state);
	local_irq_disable();
	____napi_schedule(sd, &napi_a);
	local_irq_enable();

	assert_net_rx_pending(true);
	assert_cpu_count_delta(0, wakeups, wakeups, 1);
	assert_value(ksd->on_rq, 1, "ksoftirqd/0 on the runqueue");
	sim_run_all(1000);
	assert_value(a_polls, 1, "->poll() calls of napi_a");
	assert_no_warn();
}

/* V8: from hardirq context the raise wakes nothing (irq_exit runs NET_RX). */
static void v8_hardirq_schedule_no_ksoftirqd_wakeup(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long wakeups = sim_count(0, wakeups);

	(void)state;
	set_bit(NAPI_STATE_SCHED, &napi_a.state);
	sim_hardirq_enter();
	____napi_schedule(sd, &napi_a);
	assert_cpu_count_delta(0, wakeups, wakeups, 0);
	assert_net_rx_pending(true);
	sim_hardirq_exit();
	sim_run_all(1000);
	assert_value(a_polls, 1, "->poll() calls of napi_a");
	assert_no_warn();
}

/* V8: with BH disabled the raise wakes nothing (local_bh_enable runs it). */
static void v8_bh_disabled_schedule_no_ksoftirqd_wakeup(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long wakeups = sim_count(0, wakeups);

	(void)state;
	set_bit(NAPI_STATE_SCHED, &napi_a.state);
	local_bh_disable();
	local_irq_disable();
	____napi_schedule(sd, &napi_a);
	local_irq_enable();
	assert_cpu_count_delta(0, wakeups, wakeups, 0);
	assert_net_rx_pending(true);
	local_bh_enable();
	assert_value(a_polls, 1, "->poll() calls of napi_a");
	assert_no_warn();
}

/*
 * V35: napi_schedule_prep() on a NAPI being disabled (NAPI_STATE_DISABLE,
 * set by napi_disable() before it waits for SCHED) refuses: it returns
 * false and leaves the state as it was, SCHED and MISSED untouched, so
 * napi_schedule() from the device interrupt lists nothing, raises nothing
 * and nothing polls it.
 */
static void v35_schedule_prep_refuses_disabling_napi(void **state)
{
	unsigned long raises = sim_count(0, net_rx_raises);

	(void)state;
	set_bit(NAPI_STATE_DISABLE, &napi_a.state);
	assert_value(napi_schedule_prep(&napi_a), false,
		     "napi_schedule_prep(napi_a)");
	assert_napi_state_is(&napi_a, NAPIF_STATE_DISABLE);

	/* napi_disable() holding SCHED: still refused, no MISSED either. */
	set_bit(NAPI_STATE_SCHED, &napi_a.state);
	assert_value(napi_schedule_prep(&napi_a), false,
		     "napi_schedule_prep(napi_a)");
	assert_napi_state_is(&napi_a, NAPIF_STATE_DISABLE | NAPIF_STATE_SCHED);
	clear_bit(NAPI_STATE_SCHED, &napi_a.state);

	schedule_from_hardirq(&napi_a);
	assert_napi_state_is(&napi_a, NAPIF_STATE_DISABLE);
	assert_poll_list_empty(sim_this()->id);
	assert_cpu_count_delta(0, net_rx_raises, raises, 0);
	sim_run_all(1000);
	assert_value(a_polls, 0, "->poll() calls of napi_a");
	assert_no_warn();
}

/*
 * V55: napi_schedule_prep() on a NAPI that is already scheduled
 * (NAPI_STATE_SCHED: being polled) returns false and sets
 * NAPI_STATE_MISSED; the napi_complete_done() of that poll then keeps
 * SCHED, clears MISSED and schedules the NAPI again (__napi_schedule()),
 * so the event that came during the poll gets a poll of its own.
 */
static void v55_schedule_during_poll_gets_another_poll(void **state)
{
	(void)state;
	set_bit(NAPI_STATE_SCHED, &napi_a.state); /* its poll is running */
	assert_value(napi_schedule_prep(&napi_a), false,
		     "napi_schedule_prep(napi_a)");
	assert_napi_state_is(&napi_a, NAPIF_STATE_SCHED | NAPIF_STATE_MISSED);
	local_bh_disable(); /* as ->poll() runs, in softirq */
	assert_value(napi_complete_done(&napi_a, 0), false,
		     "napi_complete_done(napi_a, 0)");
	assert_napi_state_is(&napi_a, NAPIF_STATE_SCHED);
	assert_poll_list_not_empty_after(sim_this()->id, "napi_complete_done");
	local_bh_enable();
	sim_run_all(1000);
	assert_value(a_polls, 1, "->poll() calls of napi_a");
	assert_napi_state_is(&napi_a, 0);
	assert_no_warn();
}

/*
 * V42: a poll that used its whole budget while napi_disable() waits
 * (NAPI_STATE_DISABLE set) is completed by __napi_poll() -- SCHED
 * cleared, so napi_disable() can take it -- and not put back for a
 * repoll: one poll, nothing left on poll_list, NET_RX not raised again.
 */
static void v42_disable_pending_full_poll_completed_not_repolled(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	(void)state;
	c_work_from_now(napi_c.weight);
	schedule_from_hardirq(&napi_c);
	set_bit(NAPI_STATE_DISABLE, &napi_c.state); /* napi_disable() */
	run_net_rx_action_once();

	assert_value(c_polls, 1, "->poll() calls of napi_c");
	assert_napi_state_is(&napi_c, NAPIF_STATE_DISABLE);
	assert_poll_list_empty(sim_this()->id);
	assert_net_rx_pending(false);
	assert_value(sd->time_squeeze, 0, "sd->time_squeeze");
	assert_no_warn();
}

/*
 * V43: with NAPI_STATE_PREFER_BUSY_POLL (busy_poll_stop() of a
 * prefer-busy-poll socket), a poll that used its whole budget is completed
 * rather than repolled -- PREFER_BUSY_POLL cleared with SCHED -- and, as
 * no gro_flush_timeout will bring it back, scheduled again at once: it is
 * polled again as an ordinary NAPI (in the same net_rx_action() with patch
 * 0004's restart, in the next one without it: not this test's concern).
 */
static void v43_prefer_busy_poll_full_poll_rescheduled(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);

	(void)state;
	c_work[0] = napi_c.weight;
	set_bit(NAPI_STATE_PREFER_BUSY_POLL, &napi_c.state);
	schedule_from_hardirq(&napi_c);
	run_net_rx_action_until_idle();

	assert_value(c_polls, 2, "->poll() calls of napi_c");
	assert_state_word(c_state_at[0],
			  NAPIF_STATE_SCHED | NAPIF_STATE_PREFER_BUSY_POLL,
			  "state of napi_c at its first poll");
	assert_state_word(c_state_at[1], NAPIF_STATE_SCHED,
			  "state of napi_c at its second poll");
	assert_napi_state_is(&napi_c, 0);
	assert_poll_list_empty(sim_this()->id);
	assert_net_rx_pending(false);
	assert_value(sd->time_squeeze, 0, "sd->time_squeeze");
	assert_value(napi_c.timer.armed, false, "napi_c->timer armed");
	assert_no_warn();
}

/*
 * V43, with napi_defer_hard_irqs and gro_flush_timeout: the completion
 * arms the NAPI's timer instead (napi_complete_done() returns false), so
 * __napi_poll() does not schedule it: one poll, SCHED clear, timer armed.
 */
static void v43_prefer_busy_poll_with_flush_timer_not_rescheduled(void **state)
{
	(void)state;
	test_dev.napi_defer_hard_irqs = 1;
	test_dev.gro_flush_timeout = 20000;
	c_work[0] = napi_c.weight;
	set_bit(NAPI_STATE_PREFER_BUSY_POLL, &napi_c.state);
	schedule_from_hardirq(&napi_c);
	run_net_rx_action_once();

	assert_value(c_polls, 1, "->poll() calls of napi_c");
	assert_napi_state_is(&napi_c, 0);
	assert_value(napi_c.timer.armed, true, "napi_c->timer armed");
	assert_value(napi_c.timer.expires, 20000, "napi_c->timer expiry (ns)");
	assert_poll_list_empty(sim_this()->id);
	assert_net_rx_pending(false);
	assert_no_warn();
}

/*
 * V45: net_rx_action() ends its round when netdev_budget_usecs has passed
 * (2 jiffies at HZ=1000), even with budget left: of three NAPIs that each
 * use their whole weight while a jiffy passes, two are polled (not
 * min(3, netdev_budget / weight)), time_squeeze counts the cut, and the
 * third waits on poll_list with NET_RX raised, behind the two repolls.
 */
static void v45_time_limit_ends_round_with_budget_left(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned long limit = usecs_to_jiffies(READ_ONCE(netdev_budget_usecs));

	(void)state;
	assert_int_equal(limit, 2);
	assert_true(READ_ONCE(netdev_budget) > 3 * napi_c.weight);
	c_work_from_now(napi_c.weight);
	c_tick = true;
	schedule_from_hardirq(&napi_c);
	schedule_from_hardirq(&napi_d);
	schedule_from_hardirq(&napi_e);
	run_net_rx_action_once();

	assert_value(c_polls, 2, "->poll() calls of napi_c");
	assert_value(sd->time_squeeze, 1, "sd->time_squeeze");
	assert_poll_list_first(sim_this()->id, &napi_e);
	assert_net_rx_pending(true);

	/* The next round polls all three; this time they complete. */
	c_work_from_now(0);
	c_tick = false;
	run_net_rx_action_once();
	assert_value(c_polls, 5, "->poll() calls of napi_c");
	assert_poll_list_empty(sim_this()->id);
	assert_napi_state_is(&napi_c, 0);
	assert_napi_state_is(&napi_d, 0);
	assert_napi_state_is(&napi_e, 0);
	assert_no_warn();
}

/*
 * V46: process_backlog() first sends the RPS IPIs already pending on its
 * CPU (a device NAPI polled before it steered a packet to CPU 1), so the
 * remote CPU starts while this one drains its backlog: the csd is queued
 * before the NAPI after the backlog is polled, not at the end of
 * net_rx_action().  Only with RPS and without backlog threads.
 */
static void v46_process_backlog_sends_pending_rps_ipis_first(void **state)
{
	struct sim_cpu *c = sim_this();
	unsigned int qtail;

	(void)state;
#ifdef CONFIG_RPS
	if (WANT_THREADS)
		skip(); /* no IPI path: backlog threads */
	a_steer_to = 1;
	schedule_from_hardirq(&napi_a);
	/* netif_rx() of a packet for this CPU from the device interrupt. */
	c->hardirq++;
	c->irqs_off = true;
	assert_int_equal(enqueue_to_backlog(sim_skb_alloc(&test_dev), 0,
					    &qtail),
			 NET_RX_SUCCESS);
	c->hardirq--;
	c->irqs_off = false;
	schedule_from_hardirq(&napi_b);
	run_net_rx_action_once();

	assert_value(a_polls, 1, "->poll() calls of napi_a");
	assert_value(b_polls, 1, "->poll() calls of napi_b");
	assert_cpu_count(0, skbs_delivered, 1);
	assert_value(b_saw_csd_to_1, true,
		     "csd to CPU 1 queued before napi_b's poll");
	assert_value(this_cpu_ptr(&softnet_data)->rps_ipi_list != NULL, false,
		     "sd->rps_ipi_list not empty");
	sim_run_all(1000);
	assert_cpu_count(1, skbs_delivered, 1);
	assert_value(sim_skbs_outstanding(), 0,
		     "packets neither delivered nor freed");
	assert_no_warn();
#else
	(void)c;
	(void)qtail;
	skip(); /* no IPI path: no RPS */
#endif
}

/*
 * V48: a poll that reports more than its budget (a driver bug) is
 * reported once, "NAPI poll function ... returned 65, exceeding its
 * budget of 64.", and treated as a full poll: repolled in the next
 * round, where doing it again is not reported again.
 */
static void v48_poll_over_budget_reported_once(void **state)
{
	(void)state;
	c_work[0] = napi_c.weight + 1;
	c_work[1] = napi_c.weight + 1;
	c_work[2] = 0;
	schedule_from_hardirq(&napi_c);
	run_net_rx_action_once();
	assert_value(c_polls, 1, "->poll() calls of napi_c");
	assert_value(sim_total().pr_warn_once, 1, "pr_warn_once() lines");
	assert_non_null(strstr(sim_last_pr_warn,
			       "returned 65, exceeding its budget of 64."));
	assert_poll_list_first(sim_this()->id, &napi_c);
	assert_net_rx_pending(true);

	run_net_rx_action_once();
	run_net_rx_action_once();
	assert_value(c_polls, 3, "->poll() calls of napi_c");
	assert_value(sim_total().pr_warn_once, 1, "pr_warn_once() lines");
	assert_poll_list_empty(sim_this()->id);
	assert_napi_state_clear(&napi_c, NAPI_STATE_SCHED);
	assert_no_warn();
}

/*
 * V49: a driver that completed and was scheduled again by its interrupt,
 * but still reports its whole budget, is already back on poll_list:
 * __napi_poll() warns once ("sim0: Budget exhausted after napi
 * rescheduled") and leaves it there instead of adding it to the repoll
 * list a second time; it is polled once more and the lists stay sound.
 * The next time is handled the same way without a second report.
 */
static void v49_rescheduled_full_poll_warned_not_repolled(void **state)
{
	(void)state;
	c_resched_first = true;
	c_work[0] = napi_c.weight;
	schedule_from_hardirq(&napi_c);
	run_net_rx_action_once();

	assert_value(c_polls, 2, "->poll() calls of napi_c");
	assert_value(sim_total().pr_warn_once, 1, "pr_warn_once() lines");
	assert_string_equal(sim_last_pr_warn,
			    "sim0: Budget exhausted after napi rescheduled\n");
	assert_napi_state_is(&napi_c, 0);
	assert_poll_list_empty(sim_this()->id);
	assert_net_rx_pending(false);

	/* The same again: handled the same way, not reported again. */
	c_polls = 0;
	schedule_from_hardirq(&napi_c);
	run_net_rx_action_once();
	assert_value(c_polls, 2, "->poll() calls of napi_c");
	assert_value(sim_total().pr_warn_once, 1, "pr_warn_once() lines");
	assert_napi_state_is(&napi_c, 0);
	assert_poll_list_empty(sim_this()->id);
	assert_no_warn();
}

/*
 * V50: a poll that used its whole budget, with packets held by GRO, has
 * only the old ones flushed (HZ >= 1000: napi_gro_flush(n, true)) before
 * it is repolled; the young ones wait, and the poll that completes
 * flushes them all.
 */
static void v50_full_poll_flushes_only_old_gro_packets(void **state)
{
	unsigned long all = sim_gro_flushes(false), old = sim_gro_flushes(true);

	(void)state;
	c_work[0] = napi_c.weight;
	c_work[1] = 0;
	schedule_from_hardirq(&napi_c);
	napi_c.gro_bitmask = 1;
	run_net_rx_action_once();
	assert_value(c_polls, 1, "->poll() calls of napi_c");
	assert_value(sim_gro_flushes(true) - old, 1,
		     "napi_gro_flush(napi, true) calls");
	assert_value(sim_gro_flushes(false) - all, 0,
		     "napi_gro_flush(napi, false) calls");
	assert_value(napi_c.gro_bitmask, 1, "napi_c->gro_bitmask");

	run_net_rx_action_once();
	assert_value(c_polls, 2, "->poll() calls of napi_c");
	assert_value(sim_gro_flushes(false) - all, 1,
		     "napi_gro_flush(napi, false) calls");
	assert_value(napi_c.gro_bitmask, 0, "napi_c->gro_bitmask");
	assert_napi_state_clear(&napi_c, NAPI_STATE_SCHED);
	assert_no_warn();
}

/*
 * V52: netif_rx() from task context with BH enabled disables BH around
 * netif_rx_internal() (need_bh_off), so NET_RX runs at its own
 * local_bh_enable(): the packet is delivered on this CPU before netif_rx()
 * returns, nothing wakes ksoftirqd and no WARN fires; with BH already
 * disabled by the caller it waits for the caller's local_bh_enable().
 * rps_needed is off: no steering (get_rps_cpu() is not consulted).
 */
static void v52_netif_rx_task_context_delivers_at_bh_enable(void **state)
{
	unsigned long wakeups = sim_count(0, wakeups);
	struct sk_buff *skb = sim_skb_alloc(&test_dev);

	(void)state;
	require_definition(netif_rx);
	assert_value(netif_rx(skb), NET_RX_SUCCESS,
		     "netif_rx()'s return (NET_RX_SUCCESS: 0)");
	assert_value(skb->delivered_on_cpu, 0,
		     "CPU the packet was delivered on (-1: not yet)");
	assert_cpu_count_delta(0, wakeups, wakeups, 0);

	skb = sim_skb_alloc(&test_dev);
	local_bh_disable();
	assert_value(netif_rx(skb), NET_RX_SUCCESS,
		     "netif_rx()'s return (NET_RX_SUCCESS: 0)");
	assert_value(skb->delivered_on_cpu, -1,
		     "CPU the packet was delivered on (-1: not yet)");
	local_bh_enable();
	assert_value(skb->delivered_on_cpu, 0,
		     "CPU the packet was delivered on (-1: not yet)");
	assert_cpu_count_delta(0, wakeups, wakeups, 0);
	assert_value(sim_skbs_outstanding(), 0,
		     "packets neither delivered nor freed");
	assert_no_warn();
}

/*
 * V53: with RPS on (rps_needed, as store_rps_map() sets it), netif_rx()
 * enqueues on the CPU that get_rps_cpu() picks from the device's rps_map
 * and the packet is delivered there, not on the receiving CPU; with no
 * target (no map: get_rps_cpu() returns -1) it stays on the receiving
 * CPU and is delivered at netif_rx()'s own local_bh_enable().  Both
 * directions (0 -> 1, 1 -> 0), so that neither "this CPU" nor "CPU 0"
 * passes by coincidence.
 */
static void v53_netif_rx_steers(int from, int to)
{
	struct sk_buff *skb = sim_skb_alloc(&test_dev);
	unsigned long d_to = sim_count(to, skbs_delivered);
	unsigned long d_from = sim_count(from, skbs_delivered);

	sim_switch_cpu(from);
	skb->hash = 0x9e3779b9;
	test_dev.rps_map_len = 1;
	test_dev.rps_map_cpus[0] = to;
	assert_int_equal(netif_rx(skb), NET_RX_SUCCESS);
	assert_int_equal(skb->delivered_on_cpu, -1);
	sim_run_all(10000);
	assert_int_equal(skb->delivered_on_cpu, to);
	assert_cpu_count_delta(to, skbs_delivered, d_to, 1);
	assert_cpu_count_delta(from, skbs_delivered, d_from, 0);
}

static void v53_netif_rx_follows_rps_map(void **state)
{
#ifdef CONFIG_RPS
	struct sk_buff *skb;
#endif

	(void)state;
	require_definition(netif_rx);
#ifndef CONFIG_RPS
	skip(); /* without RPS netif_rx() has no steering */
#else
	static_branch_enable(&rps_needed);
	v53_netif_rx_steers(0, 1);
	v53_netif_rx_steers(1, 0);

	/* No map: get_rps_cpu() has no target, the packet stays here. */
	test_dev.rps_map_len = 0;
	sim_switch_cpu(1);
	skb = sim_skb_alloc(&test_dev);
	skb->hash = 0x9e3779b9;
	assert_int_equal(netif_rx(skb), NET_RX_SUCCESS);
	assert_int_equal(skb->delivered_on_cpu, 1);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v5_in_net_rx_action_scoped_to_poll,
				       setup),
		cmocka_unit_test_setup(
			v5_budget_exhausted_defers_rest_keeps_flag, setup),
		cmocka_unit_test_setup(
			v5_budget_exhausted_exit_clears_in_net_rx_action,
			setup),
		cmocka_unit_test_setup(
			v6_napi_schedule_rps_raise_only_outside_rx_action,
			setup),
		cmocka_unit_test_setup(
			v7_napi_scheduled_in_poll_polled_same_invocation,
			setup),
		cmocka_unit_test_setup(
			v8_task_irqs_off_schedule_wakes_ksoftirqd, setup),
		cmocka_unit_test_setup(v8_hardirq_schedule_no_ksoftirqd_wakeup,
				       setup),
		cmocka_unit_test_setup(
			v8_bh_disabled_schedule_no_ksoftirqd_wakeup, setup),
		cmocka_unit_test_setup(v35_schedule_prep_refuses_disabling_napi,
				       setup),
		cmocka_unit_test_setup(
			v55_schedule_during_poll_gets_another_poll, setup),
		cmocka_unit_test_setup(
			v42_disable_pending_full_poll_completed_not_repolled,
			setup),
		cmocka_unit_test_setup(
			v43_prefer_busy_poll_full_poll_rescheduled, setup),
		cmocka_unit_test_setup(
			v43_prefer_busy_poll_with_flush_timer_not_rescheduled,
			setup),
		cmocka_unit_test_setup(
			v45_time_limit_ends_round_with_budget_left, setup),
		cmocka_unit_test_setup(
			v46_process_backlog_sends_pending_rps_ipis_first,
			setup),
		cmocka_unit_test_setup(v48_poll_over_budget_reported_once,
				       setup),
		cmocka_unit_test_setup(
			v49_rescheduled_full_poll_warned_not_repolled, setup),
		cmocka_unit_test_setup(
			v50_full_poll_flushes_only_old_gro_packets, setup),
		cmocka_unit_test_setup(
			v52_netif_rx_task_context_delivers_at_bh_enable, setup),
		cmocka_unit_test_setup(v53_netif_rx_follows_rps_map, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
