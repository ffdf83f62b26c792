// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/smp.c: the call-single queue of each simulated CPU,
 * smp_call_function_single_async(), its IPI and the flushes that run the
 * queue (the IPI handler, the idle loop, a dying CPU).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

/* Run the csd queue of this CPU (__flush_smp_call_function_queue()). */
static void flush_csd_queue(void)
{
	struct sim_cpu *c = sim_this();

	c->in_smp_call = true;
	while (!list_empty(&c->csd_queue)) {
		call_single_data_t *csd = list_first_entry(&c->csd_queue,
							   call_single_data_t,
							   node);

		list_del_init(&csd->node);
		/* csd_unlock() before the callback: async csds may re-queue. */
		csd->queued = false;
		c->cnt.csd_run++;
		csd->func(csd->info);
		c = sim_this();
	}
	c->in_smp_call = false;
}

/*
 * smp_call_function_single_async() (kernel/smp.c): a csd still queued is
 * not queued twice (-EBUSY); a queue that was empty gets an IPI.
 * Simplified: queuing to the local CPU runs the callback at once with IRQs
 * off, as generic_exec_single() does.
 */
int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	struct sim_cpu *target = &sim_cpus[cpu];
	bool was_empty;

	explore_hook(__FILE__, __LINE__);
	if (csd->queued)
		return -EBUSY;
	if (cpu == sim_cpu_id()) {
		bool flags = sim_this()->irqs_off;

		sim_this()->irqs_off = true;
		csd->func(csd->info);
		sim_this()->irqs_off = flags;
		return 0;
	}
	if (!target->online)
		return -ENXIO;
	was_empty = list_empty(&target->csd_queue);
	csd->queued = true;
	list_add_tail(&csd->node, &target->csd_queue);
	if (was_empty)
		target->cnt.ipis++;
	return 0;
}

/* The IPI arrives as a hardirq on cpu (generic_smp_call_function_single_interrupt()). */
void sim_deliver_ipi(int cpu)
{
	int prev = sim_switch_cpu(cpu);

	sim_hardirq_enter();
	flush_csd_queue();
	sim_hardirq_exit();
	sim_switch_cpu(prev);
}

/*
 * The idle loop's flush (do_idle() -> flush_smp_call_function_queue()): an
 * idle, polling CPU takes the csds without an interrupt, with IRQs off; the
 * softirqs pending before the flush are snapshotted and
 * do_softirq_post_smp_call_flush() -- on RT the tree's own, with its
 * WARN_ON_ONCE -- deals with what the callbacks raised.
 */
void sim_idle_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();
	unsigned int was_pending;
	bool flags = c->irqs_off;

	if (list_empty(&c->csd_queue)) {
		sim_switch_cpu(prev);
		return;
	}
	c->irqs_off = true;
	preempt_disable();
	was_pending = local_softirq_pending();
	flush_csd_queue();
	do_softirq_post_smp_call_flush(was_pending);
	sim_this()->preempt_disable--;
	sim_this()->irqs_off = flags;
	sim_switch_cpu(prev);
}

/*
 * smpcfd_dying_cpu() (kernel/smp.c) on the outgoing CPU, from
 * take_cpu_down() with IRQs off: the csds still queued for it run there;
 * what they raise stays pending until the CPU is back.
 */
void sim_dying_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);

	flush_csd_queue();
	sim_switch_cpu(prev);
}

bool sim_csd_pending(int cpu)
{
	return !list_empty(&sim_cpus[cpu].csd_queue);
}
