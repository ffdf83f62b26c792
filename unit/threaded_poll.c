// SPDX-License-Identifier: GPL-2.0
/*
 * Threaded NAPI: ____napi_schedule() and napi_thread_wait() (patch 12,
 * "net: Remove conditional threaded-NAPI wakeup based on task state"),
 * the split-out napi_threaded_poll_loop() (patch 14) and the yield fix of
 * the seed-yield patch ("net: yield the CPU on every exit of the threaded NAPI poll
 * loop", tree variant seed-yield).
 *
 * A driver NAPI instance with its own napi_threaded_poll() kthread, as
 * dev_set_threaded() / napi_kthread_create() set it up, polled by a
 * simulated device whose poll function is below.
 */
#include "support/napitest.h"

static struct net_device test_dev = { .name = "sim0", .running = true };
static struct napi_struct test_napi;

/* The simulated device. */
static unsigned int dev_polls; /* ->poll() calls */
static int dev_poll_cpu; /* CPU of the last ->poll() */
static int dev_batch; /* packets per poll (< weight: completes) */
static unsigned int dev_refire_until; /* IRQ fires again while polls < this */
static unsigned int dev_tick_every; /* advance jiffies every n polls */
static unsigned int dev_full_until; /* full budget (repoll) while polls < this */
static struct work_struct
	*dev_pin_work; /* queued on this CPU by the first poll */

static int dev_poll(struct napi_struct *napi, int budget)
{
	int work = dev_batch < budget ? dev_batch : budget;

	if (dev_polls < dev_full_until)
		work = budget;
	dev_polls++;
	dev_poll_cpu = smp_processor_id();
	/* A work item pinned to this CPU while its poll loop is busy. */
	if (dev_polls == 1 && dev_pin_work)
		assert_true(schedule_work_on(dev_poll_cpu, dev_pin_work));
	if (dev_tick_every && !(dev_polls % dev_tick_every))
		sim_tick(dev_poll_cpu);
	if (work < budget)
		napi_complete_done(napi, work);
	/*
	 * The next packets arrived while this batch was processed: the
	 * device interrupt fires again (no coalescing) before the poll
	 * loop looks at the state.
	 */
	if (dev_polls < dev_refire_until) {
		sim_hardirq_enter();
		napi_schedule(napi);
		sim_hardirq_exit();
	}
	return work;
}

/* test_dev's NAPI, threaded on cpu (see napitest_threaded_napi()). */
static struct napi_struct *threaded_napi_on(int cpu)
{
	napitest_threaded_napi(&test_napi, &test_dev, dev_poll, cpu);
	return &test_napi;
}

static int setup(void **state)
{
	(void)state;
	sim_preempt = SIM_PREEMPT_NONE;
	napitest_boot(2);
	dev_polls = 0;
	dev_poll_cpu = -1;
	dev_batch = 8;
	dev_refire_until = 0;
	dev_tick_every = 0;
	dev_full_until = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sim_preempt = SIM_PREEMPT_NONE;
	return 0;
}

/*
 * V14 (patch 12): ____napi_schedule() sets SCHED_THREADED even when the
 * thread sleeps in TASK_INTERRUPTIBLE, which is where napi_thread_wait()
 * and smpboot_thread_fn() always sleep.  Before the series the bit was set
 * only for a thread not in that state (the wakeup itself was the
 * ownership token, "woken" in napi_thread_wait()).
 */
static void v14_sched_threaded_set_while_thread_interruptible(void **state)
{
	struct napi_struct *napi = threaded_napi_on(1);
	int prev;

	(void)state;
	prev = sim_switch_cpu(1);
	sim_hardirq_enter();
	napi_schedule(napi);
	assert_napi_state_set(napi, NAPI_STATE_SCHED);
	assert_napi_state_set(napi, NAPI_STATE_SCHED_THREADED);
	assert_true(list_empty(&napi->poll_list));
	sim_hardirq_exit();
	sim_switch_cpu(prev);

	/* The thread owns it: one poll, on its CPU, then it sleeps again. */
	sim_run_cpu(1, 100);
	assert_int_equal(dev_polls, 1);
	assert_int_equal(dev_poll_cpu, 1);
	assert_napi_state_clear(napi, NAPI_STATE_SCHED_THREADED);
	assert_task_state(napi->thread, TASK_INTERRUPTIBLE);
	assert_no_warn();
}

/*
 * V15 (patch 12b): a wakeup the thread did not get from ____napi_schedule()
 * (SCHED_THREADED clear) does not make it poll, even with SCHED set by
 * another owner (busy poll, napi_disable()).  Before the series the first
 * wakeup set "woken" and the thread polled a NAPI it did not own.
 */
static void v15_spurious_wakeup_does_not_poll(void **state)
{
	struct napi_struct *napi = threaded_napi_on(1);

	(void)state;
	/* Another owner holds SCHED (napi_schedule_prep() from busy poll). */
	assert_true(napi_schedule_prep(napi));
	assert_napi_state_clear(napi, NAPI_STATE_SCHED_THREADED);

	assert_int_equal(wake_up_process(napi->thread), 1);
	sim_run_cpu(1, 100);

	assert_int_equal(dev_polls, 0);
	assert_napi_state_set(napi, NAPI_STATE_SCHED);
	assert_task_state(napi->thread, TASK_INTERRUPTIBLE);
	assert_no_warn();
}

/*
 * V23 (patch 14 loop split): a thread repolling for longer than the RCU
 * period (100 ms here) reports quiescent states through
 * rcu_softirq_qs_periodic() (6.1 stable already had it in
 * napi_threaded_poll(); it must survive the move into
 * napi_threaded_poll_loop()).
 */
static void v23_long_repoll_reports_rcu_qs(void **state)
{
	struct napi_struct *napi = threaded_napi_on(1);

	(void)state;
#ifdef CONFIG_PREEMPT_RT
	skip(); /* rcu_softirq_qs_periodic() is a no-op on RT */
#endif
	dev_full_until = 350; /* full budget: repoll, 350 times */
	dev_tick_every = 1; /* one jiffy per poll */
	napitest_device_irq(1, napi);
	sim_run_cpu(1, 100);
	assert_int_equal(dev_polls, 351);
	print_message("  polls %u, jiffies %lu, rcu_qs %lu\n", dev_polls,
		      jiffies, sim_count(1, rcu_qs));
	assert_true(sim_count(1, rcu_qs) >= 3);
	/* ... and only then: none while repolling under the RCU period. */
	assert_true(sim_count(1, rcu_qs) <= dev_polls / (HZ / 10));
	assert_no_warn();
}

/*
 * V27 / seed-yield: the device refires as fast as the thread drains it, a
 * work item is pinned to the thread's CPU.  Returns the number of poll
 * loop exits the thread made before the work item ran.
 */
#define V27_LOAD_EXITS 1000

static unsigned int v27_work_ran_at;

static void v27_work_fn(struct work_struct *work)
{
	(void)work;
	v27_work_ran_at = dev_polls;
}

static unsigned int v27_run(unsigned long *resched)
{
	struct napi_struct *napi = threaded_napi_on(1);
	struct work_struct work;
	unsigned long switches;

#ifdef CONFIG_PREEMPT_RT
	sim_preempt = SIM_PREEMPT_RT;
#else
	sim_preempt = SIM_PREEMPT_NONE;
#endif
	dev_batch = 8; /* < weight: every poll exits the loop */
	dev_refire_until = V27_LOAD_EXITS;
	v27_work_ran_at = 0;
	INIT_WORK(&work, v27_work_fn);

	dev_pin_work = &work;
	napitest_device_irq(1, napi);
	switches = sim_run_cpu(1, 100000);
	dev_pin_work = NULL;
	*resched = sim_count(1, cond_resched);
	print_message(
		"  preempt %d: %u loop exits under load, work ran after exit %u, %lu cond_resched, %lu context switches\n",
		sim_preempt, dev_polls, v27_work_ran_at, *resched, switches);
	/* The load ended and both ran to completion. */
	assert_int_equal(dev_polls, V27_LOAD_EXITS);
	assert_int_equal(sim_work_runs(1), 1);
	return v27_work_ran_at;
}

/*
 * V44 (patch 14 split the loop out of napi_threaded_poll()): kthread_stop()
 * of a NAPI thread sleeping in napi_thread_wait() ends it -- the wait
 * returns -1 and napi_threaded_poll() returns, without polling -- both
 * when it never polled and after it has.
 */
static void v44_napi_thread_exits_on_kthread_stop(void **state)
{
	struct napi_struct *napi = threaded_napi_on(1);
	struct task_struct *t = napi->thread;

	(void)state;
	assert_int_equal(kthread_stop(t), 0);
	assert_true(t->exited);
	assert_task_state(t, TASK_DEAD);
	assert_int_equal(dev_polls, 0);

	napi = threaded_napi_on(1);
	t = napi->thread;
	napitest_device_irq(1, napi);
	sim_run_cpu(1, 100);
	assert_int_equal(dev_polls, 1);
	assert_task_state(t, TASK_INTERRUPTIBLE);
	assert_int_equal(kthread_stop(t), 0);
	assert_true(t->exited);
	assert_int_equal(dev_polls, 1);
	assert_no_warn();
}

#if defined(NAPITEST_VARIANT_seed_yield) || defined(CONFIG_PREEMPT_RT)
/*
 * V27 (the seed-yield fix): every exit of napi_threaded_poll_loop() reaches
 * cond_resched(), so the work item runs after the first exit.  Under
 * PREEMPT_RT (rt-rps) preemption at local_bh_enable() gives the same
 * result without the fix.
 */
static void v27_threaded_poll_yields_on_every_exit(void **state)
{
	unsigned long resched;

	(void)state;
	assert_int_equal(v27_run(&resched), 1);
#ifndef CONFIG_PREEMPT_RT
	/* The thread's exits, plus the kworker's one after its item. */
	assert_true(resched >= V27_LOAD_EXITS);
#endif
}
#else
/*
 * V27 (without the seed-yield fix): under PREEMPT_NONE the loop reaches
 * cond_resched() only when it repolls; a poll that completes breaks out
 * first and napi_thread_wait() returns without scheduling because
 * SCHED_THREADED is already set again.  The work item pinned to that CPU
 * runs only once the load stops: it is starved for as long as packets
 * arrive as fast as they are drained.  Expected to hold on patched and
 * base; the seed-yield variant runs the test above instead.
 */
static void v27_threaded_poll_unfixed_loop_starves_work(void **state)
{
	unsigned long resched;

	(void)state;
	assert_int_equal(v27_run(&resched), V27_LOAD_EXITS);
	assert_int_equal(resched, 1); /* the kworker's own, after its item */
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			v14_sched_threaded_set_while_thread_interruptible,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			v15_spurious_wakeup_does_not_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(v23_long_repoll_reports_rcu_qs,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			v44_napi_thread_exits_on_kthread_stop, setup, teardown),
#if defined(NAPITEST_VARIANT_seed_yield) || defined(CONFIG_PREEMPT_RT)
		cmocka_unit_test_setup_teardown(
			v27_threaded_poll_yields_on_every_exit, setup,
			teardown),
#else
		cmocka_unit_test_setup_teardown(
			v27_threaded_poll_unfixed_loop_starves_work, setup,
			teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
