// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.1 code of net/core/dev.c the series builds on, around the NAPI it
 * schedules: what netif_napi_add() initialises (init_gro_hash()), how
 * napi_complete_done() defers the device interrupt (napi_defer_hard_irqs,
 * gro_flush_timeout) and how net_dev_init() stops at a failing boot step.
 * Found untested by `make mutants` (hunk-matrix/mutants.md).
 */
#include "support/napitest.h"

#define FLUSH_TIMEOUT_NS 20000

static struct net_device test_dev = { .name = "sim0", .running = true };
static struct napi_struct napi;

static int idle_poll(struct napi_struct *n, int budget)
{
	(void)n;
	(void)budget;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	test_dev.gro_flush_timeout = 0;
	test_dev.napi_defer_hard_irqs = 0;
	napitest_napi_init(&napi, &test_dev, idle_poll);
	return 0;
}

/*
 * V38: init_gro_hash() (netif_napi_add()) leaves every GRO bucket an empty
 * list with count 0 and gro_bitmask 0, whatever the memory held before (a
 * NAPI re-added after netif_napi_del(), or not zeroed by its allocator).
 */
static void v38_init_gro_hash_empties_every_bucket(void **state)
{
	struct napi_struct *n = test_malloc(sizeof(*n));
	int i;

	(void)state;
	memset(n, 0xa5, sizeof(*n));
	init_gro_hash(n);
	for (i = 0; i < GRO_HASH_BUCKETS; i++) {
		if (!list_empty(&n->gro_hash[i].list))
			fail_msg("gro_hash[%d].list not an empty list after "
				 "init_gro_hash()",
				 i);
		if (n->gro_hash[i].count)
			fail_msg(
				"gro_hash[%d].count = %d after init_gro_hash(), "
				"expected 0",
				i, (int)n->gro_hash[i].count);
	}
	assert_value(n->gro_bitmask, 0,
		     "napi->gro_bitmask after init_gro_hash()");
	test_free(n);
}

/* The NAPI as napi_schedule_prep() leaves it: SCHED set, off any list. */
static void schedule_prep(void)
{
	assert_value(napi_schedule_prep(&napi), true, "napi_schedule_prep()");
	assert_napi_state_set(&napi, NAPI_STATE_SCHED);
}

/*
 * V39: with napi_defer_hard_irqs = 2 and gro_flush_timeout set, a poll
 * that did work and the next empty one complete with false (the driver
 * keeps its interrupt masked) and arm the NAPI's timer for
 * gro_flush_timeout; the third empty poll completes with true and arms
 * nothing.  SCHED is cleared each time.
 */
static void v39_defer_hard_irqs_arms_flush_timer(void **state)
{
	(void)state;
	test_dev.napi_defer_hard_irqs = 2;
	test_dev.gro_flush_timeout = FLUSH_TIMEOUT_NS;

	schedule_prep();
	assert_value(napi_complete_done(&napi, 1), false,
		     "napi_complete_done(napi, 1)");
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	assert_value(napi.timer.armed, true, "napi->timer armed");
	assert_value(napi.timer.expires, FLUSH_TIMEOUT_NS,
		     "napi->timer expiry (ns, gro_flush_timeout)");
	assert_value(napi.timer.starts, 1,
		     "hrtimer_start() calls on napi->timer");

	schedule_prep();
	assert_value(napi_complete_done(&napi, 0), false,
		     "napi_complete_done(napi, 0)");
	assert_value(napi.timer.starts, 2,
		     "hrtimer_start() calls on napi->timer");

	hrtimer_cancel(&napi.timer);
	schedule_prep();
	assert_value(napi_complete_done(&napi, 0), true,
		     "napi_complete_done(napi, 0)");
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	assert_value(napi.timer.armed, false, "napi->timer armed");
	assert_value(napi.timer.starts, 2,
		     "hrtimer_start() calls on napi->timer");
	assert_no_warn();
}

/*
 * V39, the default (no deferral, no timeout): napi_complete_done() returns
 * true, clears SCHED and arms no timer, whether the poll did work or not;
 * so does napi_defer_hard_irqs without gro_flush_timeout.
 */
static void v39_no_timeout_arms_no_timer(void **state)
{
	(void)state;
	schedule_prep();
	assert_value(napi_complete_done(&napi, 1), true,
		     "napi_complete_done(napi, 1)");
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	schedule_prep();
	assert_value(napi_complete_done(&napi, 0), true,
		     "napi_complete_done(napi, 0)");
	assert_value(napi.timer.armed, false, "napi->timer armed");
	assert_value(napi.timer.starts, 0,
		     "hrtimer_start() calls on napi->timer");

	/* napi_defer_hard_irqs alone, without a timeout, defers nothing. */
	test_dev.napi_defer_hard_irqs = 2;
	schedule_prep();
	assert_value(napi_complete_done(&napi, 1), true,
		     "napi_complete_done(napi, 1)");
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	assert_value(napi.defer_hard_irqs_count, 1,
		     "napi->defer_hard_irqs_count");
	assert_value(napi.timer.armed, false, "napi->timer armed");
	assert_value(napi.timer.starts, 0,
		     "hrtimer_start() calls on napi->timer");
	assert_no_warn();
}

/*
 * V47: napi_complete_done() on a NAPI that a busy poller owns
 * (NAPI_STATE_IN_BUSY_POLL: napi_busy_loop() will complete it) or that
 * netpoll is polling (NAPI_STATE_NPSVC) returns false and changes
 * nothing: SCHED stays set, no timer is armed.
 */
static void v47_complete_done_while_busy_polled_changes_nothing(void **state)
{
	(void)state;
	test_dev.napi_defer_hard_irqs = 1;
	test_dev.gro_flush_timeout = FLUSH_TIMEOUT_NS;
	schedule_prep();
	set_bit(NAPI_STATE_IN_BUSY_POLL, &napi.state);
	assert_value(napi_complete_done(&napi, 1), false,
		     "napi_complete_done(napi, 1)");
	assert_napi_state_is(&napi,
			     NAPIF_STATE_SCHED | NAPIF_STATE_IN_BUSY_POLL);
	assert_value(napi.defer_hard_irqs_count, 0,
		     "napi->defer_hard_irqs_count");

	clear_bit(NAPI_STATE_IN_BUSY_POLL, &napi.state);
	set_bit(NAPI_STATE_NPSVC, &napi.state);
	assert_value(napi_complete_done(&napi, 1), false,
		     "napi_complete_done(napi, 1)");
	assert_napi_state_is(&napi, NAPIF_STATE_SCHED | NAPIF_STATE_NPSVC);
	assert_value(napi.defer_hard_irqs_count, 0,
		     "napi->defer_hard_irqs_count");
	assert_value(napi.timer.armed, false, "napi->timer armed");
	assert_value(napi.timer.starts, 0,
		     "hrtimer_start() calls on napi->timer");
	assert_no_warn();
}

/*
 * V50: napi_complete_done() of a poll that did work, with packets held by
 * GRO (gro_bitmask), flushes them all; with gro_flush_timeout set it
 * flushes only the old ones and arms the NAPI's timer, which flushes the
 * rest (the young packets stay held).
 */
static void v50_complete_flushes_gro_unless_flush_timeout(void **state)
{
	unsigned long all = sim_gro_flushes(false), old = sim_gro_flushes(true);

	(void)state;
	napi.gro_bitmask = 1;
	schedule_prep();
	assert_value(napi_complete_done(&napi, 1), true,
		     "napi_complete_done(napi, 1)");
	assert_value(sim_gro_flushes(false) - all, 1,
		     "napi_gro_flush(napi, false) calls");
	assert_value(sim_gro_flushes(true) - old, 0,
		     "napi_gro_flush(napi, true) calls");
	assert_value(napi.gro_bitmask, 0, "napi->gro_bitmask");
	assert_value(napi.timer.armed, false, "napi->timer armed");

	test_dev.gro_flush_timeout = FLUSH_TIMEOUT_NS;
	napi.gro_bitmask = 1;
	schedule_prep();
	assert_value(napi_complete_done(&napi, 1), true,
		     "napi_complete_done(napi, 1)");
	assert_value(sim_gro_flushes(false) - all, 1,
		     "napi_gro_flush(napi, false) calls");
	assert_value(sim_gro_flushes(true) - old, 1,
		     "napi_gro_flush(napi, true) calls");
	assert_value(napi.gro_bitmask, 1, "napi->gro_bitmask");
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	assert_value(napi.timer.armed, true, "napi->timer armed");
	assert_value(napi.timer.expires, FLUSH_TIMEOUT_NS,
		     "napi->timer expiry (ns, gro_flush_timeout)");
	assert_no_warn();
}

/*
 * V40: net_dev_init() returns -ENOMEM at the first boot step that fails
 * (dev_proc_init(), netdev_kobject_init(), register_pernet_subsys()) and
 * initialises no backlog: dev_boot_phase stays set.
 */
static void v40_net_dev_init_stops_at_failing_step(void **state)
{
	static const char *const steps[] = {
		"dev_proc_init",
		"netdev_kobject_init",
		"register_pernet_subsys",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		sim_reset(2);
		sim_fail_init_step(steps[i]);
		if (net_dev_init() != -ENOMEM)
			fail_msg("net_dev_init() went on after %s() failed",
				 steps[i]);
		assert_value(dev_boot_phase, 1, "dev_boot_phase");
		assert_value(
			per_cpu(softnet_data, 0).backlog.poll == NULL, true,
			"CPU 0's backlog uninitialised (backlog.poll NULL)");
	}
	sim_reset(2);
	assert_value(net_dev_init(), 0, "net_dev_init()");
	assert_value(dev_boot_phase, 0, "dev_boot_phase");
	assert_value(per_cpu(softnet_data, 0).backlog.poll != NULL, true,
		     "CPU 0's backlog initialised (backlog.poll set)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v38_init_gro_hash_empties_every_bucket),
		cmocka_unit_test_setup(v39_defer_hard_irqs_arms_flush_timer,
				       setup),
		cmocka_unit_test_setup(v39_no_timeout_arms_no_timer, setup),
		cmocka_unit_test(v40_net_dev_init_stops_at_failing_step),
		cmocka_unit_test_setup(
			v47_complete_done_while_busy_polled_changes_nothing,
			setup),
		cmocka_unit_test_setup(
			v50_complete_flushes_gro_unless_flush_timeout, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
