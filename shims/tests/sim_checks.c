// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the simulator's debug checks (ctest -L sim): each rule
 * the shims take from the kernel, exercised directly, with the case it
 * must report and the case it must not.  A rule removed from the shims
 * fails its test here.
 *
 *   might_resched   __might_resched() in cond_resched() and might_sleep()
 *                   (kernel/sched/core.c, CONFIG_DEBUG_ATOMIC_SLEEP)
 *   schedule        schedule_debug()'s "scheduling while atomic"
 *   rtlock          rtlock_might_resched() in RT spin_lock()
 *                   (kernel/locking/spinlock_rt.c); !RT spin_lock()
 *                   disables preemption
 *   rt_bh           RT local_bh_disable() is an RCU reader, migration off
 *                   (kernel/softirq.c)
 *   debug_preempt   smp_processor_id(), this_cpu_ptr(), __this_cpu_*()
 *                   (lib/smp_processor_id.c, CONFIG_DEBUG_PREEMPT)
 *   lockdep         the lock checker's usage rules, reported at the sites
 *   list_debug      CONFIG_DEBUG_LIST, reported at the call site
 *   softirq_exits   the tree's handle_softirqs() leaves its restart loop
 *                   after MAX_SOFTIRQ_RESTART rounds, MAX_SOFTIRQ_TIME
 *                   (simulated jiffies) or at need_resched()
 *   ipi             the call-single queue (kernel/smp.c): IPIs only to a
 *                   CPU that is not idle polling (set_nr_if_polling()),
 *                   the flush's llist snapshot, wakeups queued for an idle
 *                   CPU (ttwu_queue_wakelist(), not on RT), and under the
 *                   explorer an IPI at any point where IRQs are on
 *   preempt_points  under FULL/RT a runnable task takes the CPU where the
 *                   kernel would: the end of try_to_wake_up(),
 *                   preempt_enable() reaching zero, spin_unlock_irqrestore()
 *                   after the IRQ restore, the tick
 *   migration       under the explorer an unbound kthread is woken on any
 *                   active CPU (select_task_rq()), a bound one on its own;
 *                   one preempted while runnable may be pulled to another
 *                   CPU (load_balance()) unless bound or migrate-disabled
 *
 * Each report names the call site: here, this file and the line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kernel_prelude.h>

static int site; /* the line a task's report must name */

static int setup(void **state)
{
	(void)state;
	sim_reset(2);
	return 0;
}

/* Run fn as a task on CPU 1: unbound (kthread_run()) or bound to it. */
static void run_task(int (*fn)(void *), bool bound)
{
	struct task_struct *p;

	if (bound)
		p = kthread_create_on_cpu(fn, NULL, 1, "bound/%u");
	else
		p = sim_task_create(fn, NULL, 1, "unbound");
	wake_up_process(p);
	sim_run_cpu(1, 100);
	assert_true(p->exited);
}

/* Exactly one report, about what, at this file's line site. */
static void assert_one_report(const char *what)
{
	if (sim_total().warns != 1 || !strstr(sim_warns[0].msg, what))
		fail_msg("expected one report \"%s\", got %lu: %s", what,
			 sim_total().warns,
			 sim_nr_warns ? sim_warns[0].msg : "(none)");
	if (sim_warns[0].line != site ||
	    !strstr(sim_warns[0].file, "sim_checks.c"))
		fail_msg("reported at %s:%d, not at sim_checks.c:%d",
			 sim_warns[0].file, sim_warns[0].line, site);
}

static void assert_no_report(void)
{
	if (sim_total().warns)
		fail_msg("unexpected report: %s", sim_warns[0].msg);
}

/* ---- might_resched ---- */

static int resched_in_bh(void *arg)
{
	(void)arg;
	local_bh_disable();
	site = __LINE__ + 1;
	cond_resched();
	local_bh_enable();
	return 0;
}

/* In every preemption model: under FULL and RT too (it used to return). */
static void might_resched_cond_resched_in_bh(void **state)
{
	static const enum sim_preempt_model models[] = {
		SIM_PREEMPT_NONE,
		SIM_PREEMPT_VOLUNTARY,
		SIM_PREEMPT_FULL,
		SIM_PREEMPT_RT,
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(models); i++) {
		sim_reset(2);
		sim_preempt = models[i];
		run_task(resched_in_bh, false);
		assert_one_report(
			"BUG: sleeping function called from invalid context at ");
	}
}

static int resched_in_rcu(void *arg)
{
	(void)arg;
	rcu_read_lock();
	site = __LINE__ + 1;
	cond_resched();
	rcu_read_unlock();
	return 0;
}

/* An RCU reader: preempt_count without PREEMPT_RCU, its depth with it. */
static void might_resched_cond_resched_in_rcu_reader(void **state)
{
	(void)state;
	sim_preempt = SIM_PREEMPT_NONE;
	run_task(resched_in_rcu, false);
	assert_one_report("sleeping function called from invalid context");
	sim_reset(2);
	sim_preempt = SIM_PREEMPT_FULL;
	run_task(resched_in_rcu, false);
	assert_one_report("sleeping function called from invalid context");
	assert_non_null(strstr(sim_warns[0].msg, "invalid context"));
}

static int resched_irqs_off(void *arg)
{
	(void)arg;
	local_irq_disable();
	site = __LINE__ + 1;
	might_sleep();
	local_irq_enable();
	return 0;
}

static void might_resched_might_sleep_irqs_off(void **state)
{
	(void)state;
	run_task(resched_irqs_off, false);
	assert_one_report("sleeping function called from invalid context");
}

static int resched_clean(void *arg)
{
	(void)arg;
	cond_resched();
	might_sleep();
	local_bh_disable();
	local_bh_enable();
	cond_resched();
	return 0;
}

static void might_resched_clean_task_not_reported(void **state)
{
	(void)state;
	run_task(resched_clean, false);
	assert_no_report();
}

/* ---- schedule ---- */

static int schedule_preempt_off(void *arg)
{
	(void)arg;
	preempt_disable();
	site = __LINE__ + 1;
	schedule();
	preempt_enable();
	return 0;
}

static void schedule_while_atomic(void **state)
{
	(void)state;
	run_task(schedule_preempt_off, false);
	assert_one_report("BUG: scheduling while atomic: unbound/");
}

/* ---- rtlock ---- */

static spinlock_t test_lock = __SPIN_LOCK_UNLOCKED(test_lock);

static int lock_irqs_off(void *arg)
{
	unsigned long flags;

	(void)arg;
	local_irq_save(flags);
	site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	local_irq_restore(flags);
	return 0;
}

static int lock_preempt_off(void *arg)
{
	(void)arg;
	preempt_disable();
	site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	preempt_enable();
	return 0;
}

/* RT: an rt spinlock taken with IRQs or preemption off is reported. */
static void rtlock_irqs_or_preempt_off(void **state)
{
	(void)state;
	run_task(lock_irqs_off, false);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_no_report(); /* spin_lock_irqsave()'s own shape */
		return;
	}
	assert_one_report("sleeping function called from invalid context");
	sim_reset(2);
	run_task(lock_preempt_off, false);
	assert_one_report("sleeping function called from invalid context");
}

static void rtlock_in_hardirq(void **state)
{
	(void)state;
	sim_switch_cpu(1);
	sim_hardirq_enter();
	site = __LINE__ + 1;
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	sim_hardirq_exit();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_one_report(
			"sleeping function called from invalid context");
	else
		assert_no_report();
}

static int lock_in_bh_and_rcu(void *arg)
{
	unsigned int count;

	(void)arg;
	local_bh_disable();
	rcu_read_lock();
	count = preempt_count();
	spin_lock(&test_lock);
	/* !RT: spin_lock() is preempt_disable(); RT: an RCU reader. */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_int_equal(rcu_preempt_depth(), 4);
	else
		assert_int_equal(preempt_count(), count + 1);
	spin_unlock(&test_lock);
	rcu_read_unlock();
	local_bh_enable();
	return 0;
}

/* A spinlock may nest in a BH-disabled section and an RCU reader. */
static void rtlock_nests_in_bh_and_rcu(void **state)
{
	(void)state;
	run_task(lock_in_bh_and_rcu, false);
	assert_no_report();
	assert_int_equal(sim_this()->rcu_read_nesting, 0);
}

/* ---- rt_bh ---- */

static unsigned int bh_rcu_depth, bh_migration_disabled, bh_preempt_count;

static int bh_state(void *arg)
{
	(void)arg;
	local_bh_disable();
	bh_rcu_depth = rcu_preempt_depth();
	bh_migration_disabled = current->migration_disabled;
	bh_preempt_count = preempt_count();
	local_bh_enable();
	assert_int_equal(rcu_preempt_depth(), 0);
	assert_int_equal(current->migration_disabled, 0);
	return 0;
}

/*
 * RT: softirq_ctrl.lock (a local_lock: migrate_disable() and an rt
 * spinlock) and rcu_read_lock(); !RT: SOFTIRQ_DISABLE_OFFSET.
 */
static void rt_bh_is_rcu_reader_without_migration(void **state)
{
	(void)state;
	run_task(bh_state, false);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		assert_int_equal(bh_rcu_depth, 2);
		assert_int_equal(bh_migration_disabled, 2);
		assert_int_equal(bh_preempt_count, 0);
	} else {
		assert_int_equal(bh_preempt_count, SOFTIRQ_DISABLE_OFFSET);
		assert_int_equal(bh_migration_disabled, 0);
	}
	assert_no_report();
}

/* ---- debug_preempt ---- */

static DEFINE_PER_CPU(int, pcpu_counter);

static int use_this_cpu_ptr(void *arg)
{
	(void)arg;
	site = __LINE__ + 1;
	(*this_cpu_ptr(&pcpu_counter))++;
	return 0;
}

static void debug_preempt_unbound_kthread_reported(void **state)
{
	(void)state;
	run_task(use_this_cpu_ptr, false);
	assert_one_report(
		"BUG: using smp_processor_id() in preemptible [00000000] code: unbound/");
}

static void debug_preempt_bound_kthread_not_reported(void **state)
{
	(void)state;
	run_task(use_this_cpu_ptr, true);
	assert_no_report();
}

static int use_this_cpu_ops(void *arg)
{
	(void)arg;
	/* Preempt-safe and raw operations are not checked. */
	this_cpu_inc(pcpu_counter);
	(void)this_cpu_read(pcpu_counter);
	(void)raw_cpu_ptr(&pcpu_counter);
	(void)raw_smp_processor_id();
	/* Stable here: migration, preemption or IRQs off. */
	migrate_disable();
	(void)smp_processor_id();
	migrate_enable();
	preempt_disable();
	__this_cpu_inc(pcpu_counter);
	preempt_enable();
	local_irq_disable();
	(void)__this_cpu_read(pcpu_counter);
	local_irq_enable();
	local_bh_disable();
	(void)this_cpu_ptr(&pcpu_counter);
	local_bh_enable();
	site = __LINE__ + 1;
	(void)__this_cpu_read(pcpu_counter);
	return 0;
}

static void debug_preempt_only_unprotected_use_reported(void **state)
{
	(void)state;
	run_task(use_this_cpu_ops, false);
	assert_one_report(
		"BUG: using __this_cpu_read() in preemptible [00000000] code: unbound/");
}

/* ---- lockdep ---- */

static spinlock_t hard_lock = __SPIN_LOCK_UNLOCKED(hard_lock);

/* Taken in hardirq, then with IRQs on: {IN-HARDIRQ-W} -> {HARDIRQ-ON-W}. */
static void lockdep_hardirq_then_irqs_on(void **state)
{
	int first, second;

	(void)state;
	sim_hardirq_enter();
	first = __LINE__ + 1;
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	sim_hardirq_exit();
	second = __LINE__ + 1;
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* RT: a hardirq may not take it at all (rtlock above). */
		assert_true(sim_lockdep_clean());
		return;
	}
	if (sim_lockdep_clean())
		fail_msg("no {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} report");
	{
		char want[64];

		snprintf(want, sizeof(want), "sim_checks.c:%d", second);
		assert_non_null(strstr(sim_lockdep_report(), want));
		snprintf(want, sizeof(want), "sim_checks.c:%d", first);
		assert_non_null(strstr(sim_lockdep_report(), want));
	}
	assert_non_null(strstr(sim_lockdep_report(),
			       "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}"));
}

static void lockdep_irqs_off_everywhere_clean(void **state)
{
	unsigned long flags;

	(void)state;
	sim_hardirq_enter();
	spin_lock(&hard_lock);
	spin_unlock(&hard_lock);
	sim_hardirq_exit();
	spin_lock_irqsave(&hard_lock, flags);
	spin_unlock_irqrestore(&hard_lock, flags);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		assert_true(sim_lockdep_clean());
}

/* ---- list_debug ---- */

static void list_debug_double_add_reported_at_call_site(void **state)
{
	LIST_HEAD(head);
	struct list_head node;

	(void)state;
	list_add(&node, &head);
	site = __LINE__ + 1;
	list_add(&node, &head);
	assert_one_report("list_add double add");
}

static void list_debug_double_del_reported_at_call_site(void **state)
{
	LIST_HEAD(head);
	struct list_head node;

	(void)state;
	list_add_tail(&node, &head);
	list_del(&node);
	site = __LINE__ + 1;
	list_del(&node);
	assert_one_report("list_del corruption");
	assert_non_null(strstr(sim_warns[0].msg, "LIST_POISON1"));
	assert_true(list_empty(&head));
}

/* ---- softirq_exits ---- */

/*
 * The tree's handle_softirqs() (kernel/softirq.c) restarts while handlers
 * raise new softirqs, and stops after MAX_SOFTIRQ_RESTART rounds, once
 * jiffies reach the start plus MAX_SOFTIRQ_TIME, or at need_resched(),
 * leaving the rest pending for ksoftirqd.  The simulated jiffies and
 * need_resched() must make each exit reachable.  A TIMER_SOFTIRQ handler
 * raises itself again each round and, as asked, lets a tick pass or wakes
 * a task on this CPU.
 */
static unsigned int rearm_runs;
static bool rearm_ticks, rearm_wakes;
static struct task_struct *rearm_waker;

static int sleeper(void *arg)
{
	(void)arg;
	return 0;
}

static void rearm(void)
{
	rearm_runs++;
	if (rearm_ticks)
		sim_tick(sim_cpu_id());
	if (rearm_wakes && !rearm_waker) {
		rearm_waker =
			sim_task_create(sleeper, NULL, sim_cpu_id(), "woken");
		wake_up_process(rearm_waker);
	}
	local_irq_disable();
	__raise_softirq_irqoff(TIMER_SOFTIRQ);
	local_irq_enable();
}

static void rearm_h(struct softirq_action *h)
{
	(void)h;
	rearm();
}

/* One handler loop on CPU 0, idle otherwise; returns the rounds it ran. */
static unsigned int run_rearming_loop(bool ticks, bool wakes)
{
	struct task_struct *ksd = per_cpu(ksoftirqd, 0);

	sim_run_cpu(0, 100); /* the boot threads go to sleep */
	assert_false(need_resched());
	softirq_vec[TIMER_SOFTIRQ].action = __builtin_choose_expr(
		SOFTIRQ_HANDLER_TAKES_VOID, rearm, rearm_h);
	rearm_runs = 0;
	rearm_ticks = ticks;
	rearm_wakes = wakes;
	rearm_waker = NULL;
	local_irq_disable();
	__raise_softirq_irqoff(TIMER_SOFTIRQ);
	local_irq_enable();
	sim_run_softirqs();
	/* The rest is left pending, for ksoftirqd, which was woken. */
	assert_true(local_softirq_pending() & BIT(TIMER_SOFTIRQ));
	assert_true(task_is_running(ksd));
	softirq_vec[TIMER_SOFTIRQ].action = NULL;
	set_softirq_pending(0);
	assert_no_report();
	return rearm_runs;
}

static void softirq_exits_after_max_restart(void **state)
{
	(void)state;
	assert_int_equal(run_rearming_loop(false, false), MAX_SOFTIRQ_RESTART);
}

static void softirq_exits_after_max_softirq_time(void **state)
{
	(void)state;
	/* One tick per round: the loop ends when MAX_SOFTIRQ_TIME passed. */
	assert_int_equal(run_rearming_loop(true, false), MAX_SOFTIRQ_TIME);
}

static void softirq_exits_at_need_resched(void **state)
{
	(void)state;
	assert_int_equal(run_rearming_loop(false, true), 1);
}

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

/* ---- preempt_points ---- */

static char pp_log[64];
static struct task_struct *pp_b;
static bool pp_done;
static DEFINE_SPINLOCK(pp_lock);

static void pp_mark(char c)
{
	size_t n = strlen(pp_log);

	if (n + 1 < sizeof(pp_log))
		pp_log[n] = c;
}

static int pp_task_b(void *arg)
{
	(void)arg;
	for (;;) {
		pp_mark('B');
		set_current_state(TASK_INTERRUPTIBLE);
		if (pp_done)
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* A wakes B on its own CPU at each kind of point; B must run right there. */
static int pp_task_a(void *arg)
{
	unsigned long flags;

	(void)arg;
	pp_mark('1');
	wake_up_process(pp_b); /* end of try_to_wake_up() */
	pp_mark('2');
	preempt_disable();
	wake_up_process(pp_b);
	pp_mark('3');
	preempt_enable(); /* reaching zero */
	pp_mark('4');
	spin_lock_irqsave(&pp_lock, flags);
	wake_up_process(pp_b);
	pp_mark('5');
	spin_unlock_irqrestore(&pp_lock, flags);
	pp_mark('6');
	local_irq_disable();
	wake_up_process(pp_b);
	pp_mark('7');
	local_irq_enable();
	sim_tick(1); /* the tick's interrupt return */
	pp_mark('8');
	pp_done = true;
	wake_up_process(pp_b);
	return 0;
}

static void preempt_points_where_the_kernel_has_them(void **state)
{
	struct task_struct *a;

	(void)state;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		sim_preempt = SIM_PREEMPT_FULL;
	memset(pp_log, 0, sizeof(pp_log));
	pp_done = false;
	spin_lock_init(&pp_lock);
	pp_b = sim_task_create(pp_task_b, NULL, 1, "pp_b");
	a = sim_task_create(pp_task_a, NULL, 1, "pp_a");
	wake_up_process(pp_b);
	sim_run_cpu(1, 2); /* B runs once and sleeps */
	wake_up_process(a);
	sim_run_cpu(1, 100);
	assert_true(a->exited);
	assert_string_equal(pp_log, "B1B23B45B67B8B");
	assert_no_report();
}

/* ---- migration ---- */

static struct task_struct *mig_task;
static unsigned int mig_ran_on; /* bit cpu: the task ran there */
static bool mig_bound;

static int mig_fn(void *arg)
{
	(void)arg;
	mig_ran_on |= 1u << raw_smp_processor_id();
	return 0;
}

static void mig_setup(void)
{
	sim_reset(2);
	if (mig_bound)
		mig_task = kthread_create_on_cpu(mig_fn, NULL, 1, "bound/%u");
	else
		mig_task = sim_task_create(mig_fn, NULL, 1, "unbound");
}

static void mig_cpu0(void)
{
	wake_up_process(mig_task);
}

static void mig_cpu1(void)
{
	explore_point_named("CPU 1 idle");
}

static unsigned int mig_explore(bool bound)
{
	const struct explore_scenario scn = {
		.name = "migration",
		.setup = mig_setup,
		.nr_threads = 2,
		.threads = {
			{ 0, mig_cpu0, "CPU0 wakes the task" },
			{ 1, mig_cpu1, "CPU1" },
		},
	};
	struct explore_result r;

	mig_bound = bound;
	mig_ran_on = 0;
	explore_run(&scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	return mig_ran_on;
}

static void migration_unbound_kthread_any_cpu_bound_never(void **state)
{
	(void)state;
	assert_int_equal(mig_explore(false), 1u << 0 | 1u << 1);
	assert_int_equal(mig_explore(true), 1u << 1);
}

/*
 * Load balancing: a task preempted while runnable may be pulled to
 * another CPU (load_balance()) unless it is bound or has migration
 * disabled.  It runs on CPU 1 next to a second runnable task, passes one
 * preemption point (cond_resched() under NONE, preempt_enable() under RT)
 * and records where it runs after it; CPU 0 idles (sim_cpu_idle()).
 */
enum lb_mode { LB_UNBOUND, LB_BOUND, LB_MIGRATE_DISABLED };
static enum lb_mode lb_mode;
static unsigned int lb_after; /* bit cpu: it ran on after the point */

static int lb_fn(void *arg)
{
	(void)arg;
	if (lb_mode == LB_MIGRATE_DISABLED)
		migrate_disable();
	if (sim_preempt >= SIM_PREEMPT_FULL) {
		preempt_disable();
		preempt_enable();
	} else {
		cond_resched();
	}
	lb_after |= 1u << raw_smp_processor_id();
	if (lb_mode == LB_MIGRATE_DISABLED)
		migrate_enable();
	return 0;
}

static int lb_other(void *arg)
{
	(void)arg;
	return 0;
}

static void lb_setup(void)
{
	struct task_struct *p;

	sim_reset(2);
	if (lb_mode == LB_BOUND)
		p = kthread_create_on_cpu(lb_fn, NULL, 1, "bound/%u");
	else
		p = sim_task_create(lb_fn, NULL, 1, "unbound");
	wake_up_process(p);
	wake_up_process(sim_task_create(lb_other, NULL, 1, "other"));
}

static void lb_cpu0(void)
{
	sim_cpu_idle(0);
}

static void lb_cpu1(void)
{
	sim_run_cpu(1, 100);
}

static unsigned int lb_explore(enum lb_mode mode)
{
	const struct explore_scenario scn = {
		.name = "load_balance",
		.setup = lb_setup,
		.nr_threads = 2,
		.threads = {
			{ 0, lb_cpu0, "CPU0 idle" },
			{ 1, lb_cpu1, "CPU1 two tasks" },
		},
	};
	struct explore_result r;

	lb_mode = mode;
	lb_after = 0;
	explore_run(&scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	return lb_after;
}

static void migration_preempted_unbound_task_pulled(void **state)
{
	(void)state;
	assert_int_equal(lb_explore(LB_UNBOUND), 1u << 0 | 1u << 1);
	assert_int_equal(lb_explore(LB_BOUND), 1u << 1);
	assert_int_equal(lb_explore(LB_MIGRATE_DISABLED), 1u << 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(might_resched_cond_resched_in_bh, setup),
		cmocka_unit_test_setup(might_resched_cond_resched_in_rcu_reader,
				       setup),
		cmocka_unit_test_setup(might_resched_might_sleep_irqs_off,
				       setup),
		cmocka_unit_test_setup(might_resched_clean_task_not_reported,
				       setup),
		cmocka_unit_test_setup(schedule_while_atomic, setup),
		cmocka_unit_test_setup(rtlock_irqs_or_preempt_off, setup),
		cmocka_unit_test_setup(rtlock_in_hardirq, setup),
		cmocka_unit_test_setup(rtlock_nests_in_bh_and_rcu, setup),
		cmocka_unit_test_setup(rt_bh_is_rcu_reader_without_migration,
				       setup),
		cmocka_unit_test_setup(debug_preempt_unbound_kthread_reported,
				       setup),
		cmocka_unit_test_setup(debug_preempt_bound_kthread_not_reported,
				       setup),
		cmocka_unit_test_setup(
			debug_preempt_only_unprotected_use_reported, setup),
		cmocka_unit_test_setup(lockdep_hardirq_then_irqs_on, setup),
		cmocka_unit_test_setup(lockdep_irqs_off_everywhere_clean,
				       setup),
		cmocka_unit_test_setup(
			list_debug_double_add_reported_at_call_site, setup),
		cmocka_unit_test_setup(
			list_debug_double_del_reported_at_call_site, setup),
		cmocka_unit_test_setup(softirq_exits_after_max_restart, setup),
		cmocka_unit_test_setup(softirq_exits_after_max_softirq_time,
				       setup),
		cmocka_unit_test_setup(softirq_exits_at_need_resched, setup),
		cmocka_unit_test_setup(ipi_polling_idle_cpu_gets_none, setup),
		cmocka_unit_test_setup(
			ipi_halted_idle_cpu_gets_one_per_empty_queue, setup),
		cmocka_unit_test_setup(ipi_remote_wakeup_queued_unless_rt,
				       setup),
		cmocka_unit_test_setup(ipi_explorer_delivers_where_irqs_on,
				       setup),
		cmocka_unit_test_setup(preempt_points_where_the_kernel_has_them,
				       setup),
		cmocka_unit_test_setup(
			migration_unbound_kthread_any_cpu_bound_never, setup),
		cmocka_unit_test_setup(migration_preempted_unbound_task_pulled,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
