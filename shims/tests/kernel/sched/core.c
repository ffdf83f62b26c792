// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler (shims/sim/kernel/sched/core.c), self-tests:
 *
 *   might_resched   __might_resched() in cond_resched() and might_sleep()
 *                   (kernel/sched/core.c, CONFIG_DEBUG_ATOMIC_SLEEP)
 *   schedule        schedule_debug()'s "scheduling while atomic"
 *   preempt_points  under FULL/RT a runnable task takes the CPU where the
 *                   kernel would: the end of try_to_wake_up(),
 *                   preempt_enable() reaching zero, spin_unlock_irqrestore()
 *                   after the IRQ restore, the tick
 *   migration       under the explorer an unbound kthread is woken on any
 *                   active CPU (select_task_rq()), a bound one or one
 *                   that sleeps with migration disabled on its own (the
 *                   load balancer: kernel/sched/fair.c)
 *   migrate_disable migrate_disable()/migrate_enable(): a count per task
 *
 * Each report names the call site: this file and the line.
 */
#include "../../sim_checks.h"

/* ---- might_resched ---- */

static int resched_in_bh(void *arg)
{
	(void)arg;
	local_bh_disable();
	check_site = __LINE__ + 1;
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
	check_site = __LINE__ + 1;
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
	check_site = __LINE__ + 1;
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
	check_site = __LINE__ + 1;
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

/* Where the task ran, over every schedule of setup's scenario. */
static unsigned int mig_run(const char *name, void (*setup)(void))
{
	const struct explore_scenario scn = {
		.name = name,
		.setup = setup,
		.nr_threads = 2,
		.threads = {
			{ 0, mig_cpu0, "CPU0 wakes the task" },
			{ 1, mig_cpu1, "CPU1" },
		},
	};
	struct explore_result r;

	mig_ran_on = 0;
	explore_run(&scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	return mig_ran_on;
}

static unsigned int mig_explore(bool bound)
{
	mig_bound = bound;
	return mig_run("migration", mig_setup);
}

static void migration_unbound_kthread_any_cpu_bound_never(void **state)
{
	(void)state;
	assert_int_equal(mig_explore(false), 1u << 0 | 1u << 1);
	assert_int_equal(mig_explore(true), 1u << 1);
}

/*
 * select_task_rq(): a task that sleeps with migration disabled (on RT: in
 * a spinlock or BH-disabled section, blocked on an rtlock) is woken on
 * its own CPU; the same unbound task with migration enabled may be woken
 * on any active CPU.  It goes to sleep on CPU 1 in the setup; CPU 0 wakes
 * it.
 */
static bool mig_disabled;

static int mig_sleeper_fn(void *arg)
{
	(void)arg;
	if (mig_disabled)
		migrate_disable();
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule();
	mig_ran_on |= 1u << raw_smp_processor_id();
	if (mig_disabled)
		migrate_enable();
	return 0;
}

static void mig_sleeper_setup(void)
{
	sim_reset(2);
	mig_task = sim_task_create(mig_sleeper_fn, NULL, 1, "unbound");
	wake_up_process(mig_task);
	sim_run_cpu(1, 100);
	assert_int_equal(mig_task->__state, TASK_UNINTERRUPTIBLE);
}

static unsigned int mig_sleeper_explore(bool disabled)
{
	mig_disabled = disabled;
	return mig_run("migrate_disabled_wakeup", mig_sleeper_setup);
}

static void migration_migrate_disabled_sleeper_woken_on_its_cpu(void **state)
{
	(void)state;
	assert_int_equal(mig_sleeper_explore(false), 1u << 0 | 1u << 1);
	assert_int_equal(mig_sleeper_explore(true), 1u << 1);
}

/* ---- migrate_disable ---- */

/*
 * migrate_disable()/migrate_enable() count per task: nested pairs keep
 * migration disabled until the outermost enable, another task of the same
 * CPU is not affected, and on RT the outermost pair alone holds
 * preempt_lazy_count.  One enable too many WARNs and changes nothing.
 */
static struct task_struct *md_first;
static bool md_second_ran;

static int md_second_fn(void *arg)
{
	(void)arg;
	md_second_ran = true;
	assert_int_equal(current->migration_disabled, 0);
	assert_int_equal(md_first->migration_disabled, 2);
	return 0;
}

static int md_nested_fn(void *arg)
{
	unsigned int lazy = current->preempt_lazy_count;
	unsigned int rt = IS_ENABLED(CONFIG_PREEMPT_RT);

	(void)arg;
	md_first = current;
	md_second_ran = false;
	migrate_disable();
	migrate_disable();
	assert_int_equal(current->migration_disabled, 2);
	assert_int_equal(current->preempt_lazy_count, lazy + rt);
	/* The other task runs while this one is runnable, disabled twice. */
	wake_up_process(sim_task_create(md_second_fn, NULL, 1, "second"));
	schedule();
	assert_true(md_second_ran);
	migrate_enable();
	assert_int_equal(current->migration_disabled, 1);
	assert_int_equal(current->preempt_lazy_count, lazy + rt);
	migrate_enable();
	assert_int_equal(current->migration_disabled, 0);
	assert_int_equal(current->preempt_lazy_count, lazy);
	migrate_enable(); /* WARN_ON_ONCE(), at migrate_enable()'s line */
	assert_int_equal(current->migration_disabled, 0);
	assert_int_equal(current->preempt_lazy_count, lazy);
	return 0;
}

static void migrate_disable_counts_per_task(void **state)
{
	(void)state;
	run_task(md_nested_fn, false);
	assert_int_equal(sim_total().warns, 1);
	assert_non_null(strstr(sim_warns[0].file, "kernel/sched/core.c"));
}

const struct CMUnitTest sim_checks_sched_core[] = {
	cmocka_unit_test_setup(might_resched_cond_resched_in_bh, check_setup),
	cmocka_unit_test_setup(might_resched_cond_resched_in_rcu_reader,
			       check_setup),
	cmocka_unit_test_setup(might_resched_might_sleep_irqs_off, check_setup),
	cmocka_unit_test_setup(might_resched_clean_task_not_reported,
			       check_setup),
	cmocka_unit_test_setup(schedule_while_atomic, check_setup),
	cmocka_unit_test_setup(preempt_points_where_the_kernel_has_them,
			       check_setup),
	cmocka_unit_test_setup(migration_unbound_kthread_any_cpu_bound_never,
			       check_setup),
	cmocka_unit_test_setup(
		migration_migrate_disabled_sleeper_woken_on_its_cpu,
		check_setup),
	cmocka_unit_test_setup(migrate_disable_counts_per_task, check_setup),
};
const size_t sim_checks_sched_core_nr = ARRAY_SIZE(sim_checks_sched_core);
