// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_DEBUG_PREEMPT (shims/sim/lib/smp_processor_id.c), self-tests:
 *
 *   debug_preempt   smp_processor_id(), this_cpu_ptr(), __this_cpu_*()
 *                   (lib/smp_processor_id.c, CONFIG_DEBUG_PREEMPT)
 *
 * Each report names the call site: this file and the line.
 */
#include "../sim_checks.h"

/* ---- debug_preempt ---- */

static DEFINE_PER_CPU(int, pcpu_counter);

static int use_this_cpu_ptr(void *arg)
{
	(void)arg;
	check_site = __LINE__ + 1;
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
	check_site = __LINE__ + 1;
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

/*
 * With migration disabled an unbound task's CPU number is stable: not
 * reported, through nested sections, until the outermost
 * migrate_enable().
 */
static int use_migrate_disabled(void *arg)
{
	(void)arg;
	migrate_disable();
	(void)smp_processor_id();
	migrate_disable();
	(*this_cpu_ptr(&pcpu_counter))++;
	migrate_enable();
	(void)__this_cpu_read(pcpu_counter);
	migrate_enable();
	check_site = __LINE__ + 1;
	(void)smp_processor_id();
	return 0;
}

static void debug_preempt_migrate_disabled_not_reported(void **state)
{
	(void)state;
	run_task(use_migrate_disabled, false);
	assert_one_report(
		"BUG: using smp_processor_id() in preemptible [00000000] code: unbound/");
}

const struct CMUnitTest sim_checks_smp_processor_id[] = {
	cmocka_unit_test_setup(debug_preempt_unbound_kthread_reported,
			       check_setup),
	cmocka_unit_test_setup(debug_preempt_bound_kthread_not_reported,
			       check_setup),
	cmocka_unit_test_setup(debug_preempt_only_unprotected_use_reported,
			       check_setup),
	cmocka_unit_test_setup(debug_preempt_migrate_disabled_not_reported,
			       check_setup),
};
const size_t sim_checks_smp_processor_id_nr =
	ARRAY_SIZE(sim_checks_smp_processor_id);
