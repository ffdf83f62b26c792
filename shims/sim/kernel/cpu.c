// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/cpu.c: CPU hotplug (cpu_down(), cpu_up()) reduced to
 * the states the code under test depends on, and the CPUHP_NET_DEV_DEAD
 * callback.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <string.h>
#include "sim_internal.h"

static int (*cpu_dead_cb)(unsigned int cpu);

/* CPU hotplug: stop_machine(take_cpu_down) requested on this CPU. */
static bool takedown_pending[NR_CPUS];

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu))
{
	(void)name;
	(void)startup;
	if (state == CPUHP_NET_DEV_DEAD)
		cpu_dead_cb = teardown;
	return 0;
}

/*
 * CPU hotplug, as kernel/cpu.c runs it for cpu_down(cpu) and cpu_up(cpu),
 * reduced to the states the code under test depends on:
 *
 *   CPUHP_AP_SMPBOOT_THREADS  the tree's smpboot_park_threads():
 *                             kthread_park() each per-CPU thread of the
 *                             outgoing CPU, first registered first
 *                             (ksoftirqd before backlog_napi), waiting
 *                             for each to park
 *   CPUHP_TEARDOWN_CPU        takedown_cpu(): stop_machine(take_cpu_down)
 *                             on the outgoing CPU; the control CPU waits
 *                             with IRQs off until it is dead
 *   CPUHP_NET_DEV_DEAD        dev_cpu_dead() on the control CPU
 *
 * and back up: CPUHP_CREATE_THREADS (the tree's smpboot_create_threads(),
 * for a CPU that was never online), online, the tree's
 * smpboot_unpark_threads() (last registered first).
 *
 * Simplified: in the kernel the parking is done by the outgoing CPU's
 * cpuhp/N thread, here by the control side (the threads see the same
 * requests); the stopper takes the CPU at its next context switch, not at
 * the next preemption point; tasks left runnable on a dead CPU are not
 * migrated but wait for it to come back (the per-CPU kworker; nothing the
 * code under test queues); the other DEAD and DYING states (timers, RCU,
 * the scheduler's own) are not modelled; a dead CPU's pending softirq bits
 * stay set until it is back, as in irq_stat.
 *
 * Under the explorer, cpu_down() is a program on the control CPU and the
 * outgoing CPU runs sim_cpu_idle() as its program; outside it the control
 * side runs the outgoing CPU's scheduler itself.
 */

/*
 * take_cpu_down() (kernel/cpu.c), the stopper on the outgoing CPU with
 * IRQs off: __cpu_disable() takes it out of cpu_online_mask, then the
 * DYING states run, of which smpcfd_dying_cpu() runs the csds still queued
 * for it (__flush_smp_call_function_queue(false)): their raises are never
 * run there.  Then the CPU is dead.
 */
static void take_cpu_down(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();

	c->irqs_off = true;
	WRITE_ONCE(c->online, false);
	sim_dying_flush(cpu);
	WRITE_ONCE(takedown_pending[cpu], false);
	sim_switch_cpu(prev);
}

static int cpu_dead(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	return !READ_ONCE(sim_cpus[cpu].online) &&
	       !READ_ONCE(takedown_pending[cpu]);
}

/* cpu_down(cpu) from the current (control) CPU. */
void sim_cpu_down(int cpu, int control_cpu)
{
	int prev = sim_switch_cpu(control_cpu);

	/* sched_cpu_deactivate() (CPUHP_AP_ACTIVE) comes first. */
	WRITE_ONCE(sim_cpus[cpu].inactive, true);
	smpboot_park_threads((unsigned int)cpu);
	if (explore_in_program()) {
		WRITE_ONCE(takedown_pending[cpu], true);
		/* multi_cpu_stop(): the control CPU waits with IRQs off. */
		explore_wait_until(cpu_dead, (void *)(uintptr_t)cpu, 0,
				   "take_cpu_down() on the outgoing CPU");
	} else {
		take_cpu_down(cpu);
	}
	if (cpu_dead_cb) {
		explore_point_named("CPUHP_NET_DEV_DEAD: dev_cpu_dead()");
		cpu_dead_cb((unsigned int)cpu);
	}
	sim_switch_cpu(prev);
}

/*
 * cpu_up(cpu): the per-CPU threads created if the CPU never was online
 * (CPUHP_CREATE_THREADS), online, unparked; outside the explorer, let it
 * run.
 */
void sim_cpu_up(int cpu)
{
	BUG_ON(smpboot_create_threads((unsigned int)cpu));
	sim_cpus[cpu].irqs_off = false;
	WRITE_ONCE(sim_cpus[cpu].online, true);
	smpboot_unpark_threads((unsigned int)cpu);
	/* sched_cpu_activate() (CPUHP_AP_ACTIVE) comes last. */
	WRITE_ONCE(sim_cpus[cpu].inactive, false);
	if (!explore_in_program())
		sim_run_cpu(cpu, 1000);
}

/*
 * cpus_read_lock()/cpus_read_unlock() (cpu_hotplug_lock): only the
 * might_sleep() of percpu_down_read().  The simulator registers per-CPU
 * threads at boot, never while a CPU goes down or up.
 */
void cpus_read_lock(void)
{
	might_sleep();
}

void cpus_read_unlock(void)
{
}

static int cpu_has_work(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	return !sim_runqueue_empty(cpu) || sim_call_queue_new(cpu) ||
	       sim_cpus[cpu].ipi_pending || READ_ONCE(takedown_pending[cpu]);
}

/*
 * An explorer program: the life of cpu until it is taken down.  Its
 * scheduler runs whatever is runnable; idle, it waits for work (taking
 * interrupts meanwhile, do_idle()); when cpu_down() asks for it, the
 * stopper runs take_cpu_down() here and the program ends.
 */
void sim_cpu_idle(int cpu)
{
	while (READ_ONCE(sim_cpus[cpu].online)) {
		explore_point_named("idle loop, about to schedule");
		if (READ_ONCE(takedown_pending[cpu])) {
			take_cpu_down(cpu);
			break;
		}
		if (sim_run_cpu(cpu, 1000) ||
		    cpu_has_work((void *)(uintptr_t)cpu))
			continue;
		if (!explore_in_program())
			break;
		explore_wait_until(cpu_has_work, (void *)(uintptr_t)cpu,
				   EXPLORE_WAIT_IRQS | EXPLORE_WAIT_IDLE,
				   "work");
	}
}

bool sim_takedown_pending(int cpu)
{
	return takedown_pending[cpu];
}

void sim_cpuhp_reset(void)
{
	cpu_dead_cb = NULL;
	memset(takedown_pending, 0, sizeof(takedown_pending));
}
