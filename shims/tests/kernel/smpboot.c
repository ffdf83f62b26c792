// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU hotplug threads (the tree's kernel/smpboot.c, extracted, parked
 * and unparked by shims/sim/kernel/cpu.c's CPU hotplug), self-tests:
 *
 *   park_order  cpu_down() parks the outgoing CPU's threads first
 *               registered first (smpboot_park_threads():
 *               list_for_each_entry_reverse() over hotplug_threads, which
 *               smpboot_register_percpu_thread() list_add()s to), each
 *               thread's park() once; cpu_up() unparks them, each
 *               thread's unpark() once, and setup() does not run again
 *               (the simulator's part: CPU hotplug's calls, in
 *               shims/sim/kernel/cpu.c, and kthread_park()/_unpark() in
 *               shims/sim/kernel/kthread.c)
 */
#include "../sim_checks.h"

static DEFINE_PER_CPU(struct task_struct *, order_a_task);
static DEFINE_PER_CPU(struct task_struct *, order_b_task);
static char order_log[16];
static unsigned int order_n, order_setups;

static void order_event(unsigned int cpu, char what)
{
	if (cpu == 1 && order_n < sizeof(order_log) - 1)
		order_log[order_n++] = what;
}

static int order_should_run(unsigned int cpu)
{
	(void)cpu;
	return 0;
}

static void order_fn(unsigned int cpu)
{
	(void)cpu;
}

static void order_setup(unsigned int cpu)
{
	if (cpu == 1)
		order_setups++;
}

static void park_a(unsigned int cpu)
{
	order_event(cpu, 'a');
}

static void unpark_a(unsigned int cpu)
{
	order_event(cpu, 'A');
}

static void park_b(unsigned int cpu)
{
	order_event(cpu, 'b');
}

static void unpark_b(unsigned int cpu)
{
	order_event(cpu, 'B');
}

static struct smp_hotplug_thread order_a = {
	.store = &order_a_task,
	.thread_should_run = order_should_run,
	.thread_fn = order_fn,
	.setup = order_setup,
	.park = park_a,
	.unpark = unpark_a,
	.thread_comm = "order_a/%u",
};

static struct smp_hotplug_thread order_b = {
	.store = &order_b_task,
	.thread_should_run = order_should_run,
	.thread_fn = order_fn,
	.setup = order_setup,
	.park = park_b,
	.unpark = unpark_b,
	.thread_comm = "order_b/%u",
};

/*
 * a is registered before b: cpu_down(1) parks a, then b (kthread_park()
 * waits for each); cpu_up(1) unparks both, each running its unpark() once
 * in its own thread, in the order the scheduler runs them.
 */
static void park_first_registered_first_unpark_each_once(void **state)
{
	(void)state;
	memset(order_log, 0, sizeof(order_log));
	order_n = 0;
	order_setups = 0;
	assert_int_equal(smpboot_register_percpu_thread(&order_a), 0);
	assert_int_equal(smpboot_register_percpu_thread(&order_b), 0);
	sim_run_cpu(1, 100); /* setup() on CPU 1, then sleep */
	assert_int_equal(order_setups, 2);
	sim_cpu_down(1, 0);
	assert_string_equal(order_log, "ab");
	sim_cpu_up(1);
	assert_int_equal(order_n, 4);
	assert_non_null(strchr(order_log + 2, 'A'));
	assert_non_null(strchr(order_log + 2, 'B'));
	assert_int_equal(order_setups, 2);
	assert_no_report();
}

const struct CMUnitTest sim_checks_smpboot[] = {
	cmocka_unit_test_setup(park_first_registered_first_unpark_each_once,
			       check_setup),
};
const size_t sim_checks_smpboot_nr = ARRAY_SIZE(sim_checks_smpboot);
