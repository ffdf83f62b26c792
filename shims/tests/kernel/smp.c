// SPDX-License-Identifier: GPL-2.0
/*
 * The call-single queue (shims/sim/kernel/smp.c), self-tests:
 *
 *   ipi             IPIs only to a CPU that is not idle polling
 *                   (set_nr_if_polling()), the flush's llist snapshot,
 *                   wakeups queued for an idle CPU (ttwu_queue_wakelist(),
 *                   not on RT), and under the explorer an IPI at any point
 *                   where IRQs are on; the csd is unlocked before its
 *                   callback runs (it may queue itself again from there);
 *                   one flush runs the csd callbacks before the wakeups
 *                   queued ahead of them
 *
 * The queue, its send path and its flushes are the tree's kernel/smp.c
 * (kernel-src/manifest): each test here also guards that code.
 * Each report names the call site: this file and the line.
 */
#include "../sim_checks.h"

/* ---- ipi ---- */

static call_single_data_t csd_a, csd_b;
static unsigned int csd_a_runs, csd_b_runs;
static bool csd_a_in_hardirq;

static void csd_b_fn(void *info)
{
	(void)info;
	csd_b_runs++;
}

/* Queues csd_b for its own CPU from CPU 0 while its flush runs. */
static void csd_a_fn(void *info)
{
	int prev;

	(void)info;
	csd_a_runs++;
	csd_a_in_hardirq = in_hardirq();
	prev = sim_switch_cpu(0);
	smp_call_function_single_async(1, &csd_b);
	sim_switch_cpu(prev);
}

static void ipi_setup_csds(void)
{
	INIT_CSD(&csd_a, csd_a_fn, NULL);
	INIT_CSD(&csd_b, csd_b_fn, NULL);
	csd_a_runs = csd_b_runs = 0;
	csd_a_in_hardirq = false;
}

/* Idle polling: no IPI; the idle loop's flush runs it, IRQs off, no hardirq. */
static void ipi_polling_idle_cpu_gets_none(void **state)
{
	(void)state;
	ipi_setup_csds();
	assert_int_equal(smp_call_function_single_async(1, &csd_a), 0);
	assert_int_equal(smp_call_function_single_async(1, &csd_a), -EBUSY);
	assert_int_equal(sim_count(1, ipis), 0);
	assert_true(sim_cpus[1].idle_need_resched);
	sim_run_cpu(1, 10);
	assert_int_equal(csd_a_runs, 1);
	assert_false(csd_a_in_hardirq);
	/* csd_b came after the snapshot: a flush of its own, no IPI either. */
	assert_int_equal(csd_b_runs, 1);
	assert_int_equal(sim_count(1, ipis), 0);
	assert_no_report();
}

/*
 * Halted: one IPI, the callback in hardirq.  llist_del_all() took a
 * snapshot: csd_b, queued during the flush, is not run by it but sends an
 * IPI of its own.
 */
static void ipi_halted_idle_cpu_gets_one_per_empty_queue(void **state)
{
	(void)state;
	ipi_setup_csds();
	sim_cpus[1].idle_poll = false;
	smp_call_function_single_async(1, &csd_a);
	assert_int_equal(sim_count(1, ipis), 1);
	assert_true(sim_cpus[1].ipi_pending & SIM_IPI_CALL_FUNC);
	sim_deliver_ipi(1);
	assert_int_equal(csd_a_runs, 1);
	assert_true(csd_a_in_hardirq);
	assert_int_equal(csd_b_runs, 0);
	assert_true(sim_csd_pending(1));
	assert_int_equal(sim_count(1, ipis), 2);
	sim_run_cpu(1, 10);
	assert_int_equal(csd_b_runs, 1);
	assert_no_report();
}

static int ipi_nop(void *arg)
{
	(void)arg;
	return 0;
}

/*
 * try_to_wake_up() of a task of idle CPU 1 from CPU 0: queued on CPU 1's
 * wake list, TASK_WAKING until CPU 1 activates it (ttwu_queue_wakelist());
 * on RT, TTWU_QUEUE is off: runnable at once.
 */
static void ipi_remote_wakeup_queued_unless_rt(void **state)
{
	struct task_struct *p = sim_task_create(ipi_nop, NULL, 1, "wakee");

	(void)state;
	sim_cpus[1].idle_poll = false;
	assert_int_equal(wake_up_process(p), 1);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_int_equal(p->__state, TASK_RUNNING);
		assert_true(p->on_rq);
		assert_int_equal(sim_count(1, ttwu_queued), 0);
		assert_int_equal(sim_count(1, ipis), 0);
		assert_int_equal(sim_count(1, resched_ipis), 1);
	} else {
		assert_int_equal(p->__state, TASK_WAKING);
		assert_false(p->on_rq);
		assert_int_equal(sim_count(1, ttwu_queued), 1);
		assert_int_equal(sim_count(1, ipis), 1);
		/* A second wakeup finds it waking: nothing to do. */
		assert_int_equal(wake_up_process(p), 0);
	}
	sim_run_cpu(1, 10);
	assert_true(p->exited);
	assert_no_report();
}

/*
 * One flush, a queued wakeup ahead of an async csd: __flush_smp_call_function_queue()
 * runs the csd callbacks first, unlinking each from behind the TTWU entry
 * it leaves ("Second; run all !SYNC callbacks"), then hands what is left
 * to sched_ttwu_pending() ("Third; only CSD_TYPE_TTWU is left").  So the
 * callback still sees the wakee TASK_WAKING, and the wakee is activated
 * once.  On RT, TTWU_QUEUE is off: the wakee is runnable before the flush.
 */
static call_single_data_t csd_d;
static struct task_struct *csd_d_wakee;
static unsigned int csd_d_runs, csd_d_wakee_state;

static void csd_d_fn(void *info)
{
	(void)info;
	csd_d_runs++;
	csd_d_wakee_state = READ_ONCE(csd_d_wakee->__state);
}

static void ipi_flush_runs_csds_before_queued_wakeups(void **state)
{
	unsigned int want = IS_ENABLED(CONFIG_PREEMPT_RT) ? TASK_RUNNING :
							    TASK_WAKING;

	(void)state;
	csd_d_wakee = sim_task_create(ipi_nop, NULL, 1, "wakee");
	INIT_CSD(&csd_d, csd_d_fn, NULL);
	csd_d_runs = 0;
	sim_cpus[1].idle_poll = false;
	assert_int_equal(wake_up_process(csd_d_wakee), 1);
	assert_int_equal(smp_call_function_single_async(1, &csd_d), 0);
	sim_deliver_ipi(1);
	assert_int_equal(csd_d_runs, 1);
	if (csd_d_wakee_state != want)
		fail_msg(
			"the csd's callback saw the wakee in __state %#x, expected %#x: kernel/smp.c runs csd callbacks before the queued wakeups",
			csd_d_wakee_state, want);
	assert_int_equal(csd_d_wakee->__state, TASK_RUNNING);
	assert_true(csd_d_wakee->on_rq);
	assert_false(sim_csd_pending(1));
	sim_run_cpu(1, 10);
	assert_true(csd_d_wakee->exited);
	assert_int_equal(csd_d_runs, 1);
	assert_no_report();
}

/*
 * Under the explorer the IPI arrives at any point where CPU 1 has IRQs
 * on, and at none where they are off: the callback sees every value of
 * ipi_x CPU 1's program leaves visible with IRQs on (0 and 2), never 1.
 */
static int ipi_x;
static unsigned int ipi_seen; /* bit v: the callback saw ipi_x == v */

static void ipi_x_fn(void *info)
{
	(void)info;
	ipi_seen |= 1u << ipi_x;
}

static void ipi_scn_setup(void)
{
	sim_reset(2);
	INIT_CSD(&csd_a, ipi_x_fn, NULL);
	ipi_x = 0;
}

static void ipi_scn_cpu0(void)
{
	smp_call_function_single_async(1, &csd_a);
}

static void ipi_scn_cpu1(void)
{
	explore_point_named("x = 0, IRQs on");
	local_irq_disable();
	ipi_x = 1;
	explore_point_named("x = 1, IRQs off");
	ipi_x = 2;
	local_irq_enable();
	explore_point_named("x = 2, IRQs on");
	ipi_x = 3;
}

static void ipi_explorer_delivers_where_irqs_on(void **state)
{
	const struct explore_scenario scn = {
		.name = "ipi_where_irqs_on",
		.setup = ipi_scn_setup,
		.nr_threads = 2,
		.threads = {
			{ 0, ipi_scn_cpu0, "CPU0 csd to CPU 1" },
			{ 1, ipi_scn_cpu1, "CPU1 IRQs on/off/on" },
		},
	};
	struct explore_result r;

	(void)state;
	ipi_seen = 0;
	explore_run(&scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	if (ipi_seen != (1u << 0 | 1u << 2 | 1u << 3))
		fail_msg(
			"the IPI's callback saw ipi_x in {%s%s%s%s}, expected {0, 2, 3}",
			ipi_seen & 1 ? " 0" : "", ipi_seen & 2 ? " 1" : "",
			ipi_seen & 4 ? " 2" : "", ipi_seen & 8 ? " 3" : "");
}

/*
 * __flush_smp_call_function_queue() unlocks an async csd before its
 * callback runs (csd_unlock(), then func()): the callback, or another CPU
 * while it runs, may queue the same csd again, as trigger_rx_softirq()
 * lets skb_attempt_defer_free() do once it has cleared
 * sd->defer_ipi_scheduled.  Unlocked after the callback, that second
 * smp_call_function_single_async() would get -EBUSY and the kick would be
 * lost.
 */
static call_single_data_t csd_c;
static unsigned int csd_c_runs;
static int csd_c_requeue_err;

static void csd_c_fn(void *info)
{
	int prev;

	(void)info;
	if (csd_c_runs++)
		return;
	prev = sim_switch_cpu(0);
	csd_c_requeue_err = smp_call_function_single_async(1, &csd_c);
	sim_switch_cpu(prev);
}

static void ipi_csd_unlocked_before_its_callback(void **state)
{
	(void)state;
	INIT_CSD(&csd_c, csd_c_fn, NULL);
	csd_c_runs = 0;
	csd_c_requeue_err = 1;
	sim_cpus[1].idle_poll = false;
	assert_int_equal(smp_call_function_single_async(1, &csd_c), 0);
	sim_deliver_ipi(1);
	assert_int_equal(csd_c_runs, 1);
	if (csd_c_requeue_err != 0)
		fail_msg(
			"smp_call_function_single_async() of a csd whose callback runs returned %d, expected 0: kernel/smp.c unlocks it before the callback",
			csd_c_requeue_err);
	assert_true(sim_csd_pending(1));
	sim_run_cpu(1, 10);
	assert_int_equal(csd_c_runs, 2);
	assert_no_report();
}

const struct CMUnitTest sim_checks_smp[] = {
	cmocka_unit_test_setup(ipi_polling_idle_cpu_gets_none, check_setup),
	cmocka_unit_test_setup(ipi_halted_idle_cpu_gets_one_per_empty_queue,
			       check_setup),
	cmocka_unit_test_setup(ipi_remote_wakeup_queued_unless_rt, check_setup),
	cmocka_unit_test_setup(ipi_flush_runs_csds_before_queued_wakeups,
			       check_setup),
	cmocka_unit_test_setup(ipi_explorer_delivers_where_irqs_on,
			       check_setup),
	cmocka_unit_test_setup(ipi_csd_unlocked_before_its_callback,
			       check_setup),
};
const size_t sim_checks_smp_nr = ARRAY_SIZE(sim_checks_smp);
