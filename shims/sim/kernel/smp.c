// SPDX-License-Identifier: GPL-2.0
/*
 * What surrounds the tree's kernel/smp.c.  The call-single queue (the
 * per-CPU call_single_queue), smp_call_function_single_async(),
 * generic_exec_single(), __smp_call_single_queue(), the flushes
 * (generic_smp_call_function_single_interrupt(),
 * flush_smp_call_function_queue(), smpcfd_dying_cpu(), all through
 * __flush_smp_call_function_queue() and its llist snapshot) and csd_unlock()
 * are the tree's own, extracted (kernel-src/manifest).  Here only what
 * cannot run in userspace:
 *  - csd_lock_record(): CONFIG_CSD_LOCK_WAIT_DEBUG's record of the csd a
 *    CPU runs (cur_csd), which counts the callbacks a flush runs;
 *  - arch_send_call_function_single_ipi() (x86's
 *    native_send_call_func_single_ipi()): the IPI, pending until the
 *    target takes it;
 *  - the target's side: the IPI's entry (sysvec_call_function_single()),
 *    the idle loop's flush (do_idle()) and the dying CPU's
 *    (take_cpu_down()), which call the tree's flushes;
 *  - irq_work_run()/irq_work_single(): no irq_work is queued here.
 * The queue holds csds and, with TTWU_QUEUE, the wakeups of
 * try_to_wake_up() (CSD_TYPE_TTWU: shims/sim/kernel/sched/core.c).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include "sim_internal.h"

/*
 * csd_lock_record() (kernel/smp.c, CONFIG_CSD_LOCK_WAIT_DEBUG; a no-op
 * without it): the flush records the csd whose callback it runs, NULL
 * after.  Here the record counts it (csd_run) and marks the callback's
 * context (in_smp_call: what it raises, shims/sim/kernel/softirq.c); only
 * inside a flush, not for generic_exec_single()'s local call.
 */
void csd_lock_record(call_single_data_t *csd)
{
	struct sim_cpu *c = sim_this();

	if (!c->in_csd_flush)
		return;
	c->in_smp_call = csd != NULL;
	if (csd)
		c->cnt.csd_run++;
}

/*
 * arch_send_call_function_single_ipi() (x86: native_send_call_func_single_ipi(),
 * CALL_FUNCTION_SINGLE_VECTOR): pending on cpu until it takes it with
 * IRQs on (sim_deliver_ipi()); counted as /proc/interrupts' CAL.
 */
void arch_send_call_function_single_ipi(int cpu)
{
	sim_cpus[cpu].ipi_pending |= SIM_IPI_CALL_FUNC;
	sim_cpus[cpu].cnt.ipis++;
}

/* include/linux/irq_work.h: nothing queues an irq_work here. */
void irq_work_run(void)
{
}

void irq_work_single(void *arg)
{
	(void)arg;
	WARN_ONCE(1, "irq_work on the call-single queue: not simulated\n");
}

/*
 * The IPIs pending for cpu arrive there as interrupts (IRQs on, not in
 * hardirq): the call-function IPI runs the tree's
 * generic_smp_call_function_single_interrupt() between irq_enter() and
 * irq_exit() (sysvec_call_function_single()); the reschedule IPI is
 * scheduler_ipi() (sysvec_reschedule_ipi(), no irq_enter()), which only
 * folds TIF_NEED_RESCHED: the preemption is the interrupt return's.
 */
void sim_deliver_ipi(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();
	unsigned int pending = c->ipi_pending;

	c->ipi_pending = 0;
	explore_tso_mb(); /* taken as serializing, as interrupt entry */
	if (pending & SIM_IPI_CALL_FUNC) {
		sim_hardirq_enter();
		c->in_csd_flush++;
		generic_smp_call_function_single_interrupt();
		sim_this()->in_csd_flush--;
		sim_hardirq_exit();
	}
	/* The interrupted task: the interrupt return preempts it, if due. */
	if (prev == cpu)
		sim_preempt_point("the IPI's irqentry_exit_cond_resched()");
	sim_switch_cpu(prev);
}

/*
 * The idle loop's flush (do_idle(), preemption disabled): a polling idle
 * CPU that set_nr_if_polling() woke takes the queue without an interrupt
 * through the tree's flush_smp_call_function_queue(), which runs it with
 * IRQs off and hands what the callbacks raised to
 * do_softirq_post_smp_call_flush() (on RT the tree's, with its
 * WARN_ON_ONCE).
 */
void sim_idle_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();

	c->idle_need_resched = false;
	c->preempt_disable++;
	c->in_csd_flush++;
	flush_smp_call_function_queue();
	c = sim_this();
	c->in_csd_flush--;
	c->preempt_disable--;
	/*
	 * The tree's flush takes the whole queue (llist_del_all()); what is
	 * there now was queued meanwhile (whoever queued it wakes this CPU:
	 * IPI or set_nr_if_polling()), or the flush did not take it.
	 */
	c->flush_left = per_cpu(call_single_queue, cpu).first;
	if (c->flush_left)
		sim_last_tree_step(&c->flush_left_file, &c->flush_left_line);
	sim_switch_cpu(prev);
}

/*
 * smpcfd_dying_cpu() (the tree's) on the outgoing CPU, from take_cpu_down()
 * with IRQs off: the callbacks still queued for it run there; what they
 * raise stays pending until the CPU is back.
 */
void sim_dying_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);

	sim_this()->in_csd_flush++;
	smpcfd_dying_cpu((unsigned int)cpu);
	sim_this()->in_csd_flush--;
	sim_switch_cpu(prev);
}

/* A csd callback (not a queued wakeup) waits in cpu's queue. */
bool sim_csd_pending(int cpu)
{
	struct llist_node *n;

	for (n = per_cpu(call_single_queue, cpu).first; n; n = n->next) {
		const struct __call_single_node *e =
			container_of(n, struct __call_single_node, llist);

		if ((e->u_flags & CSD_FLAG_TYPE_MASK) != CSD_TYPE_TTWU)
			return true;
	}
	return false;
}

/* Anything in cpu's call-single queue: a csd or a queued wakeup. */
bool sim_call_queue_pending(int cpu)
{
	return !llist_empty(&per_cpu(call_single_queue, cpu));
}

/*
 * Queued since cpu's idle loop last flushed, or queued and cpu woken
 * (set_nr_if_polling()): what the model's idle loop flushes at once (the
 * kernel's waits for the IPI or set_nr_if_polling() that the sender
 * follows llist_add() with; flushing at the add only adds interleavings).
 * What a flush left is not new: only a wakeup makes the idle loop flush
 * again, as in do_idle().
 */
bool sim_call_queue_new(int cpu)
{
	const struct llist_node *first = per_cpu(call_single_queue, cpu).first;

	return first && (first != sim_cpus[cpu].flush_left ||
			 sim_cpus[cpu].idle_need_resched);
}

/*
 * cpu goes idle with its queue not empty and nothing to wake it (no IPI
 * pending, TIF_NEED_RESCHED clear): its entries never run, and no later
 * llist_add() sends an IPI (the queue was not empty).  Describes the
 * first entry, or NULL if the queue is empty or cpu will be woken.
 */
const char *sim_call_queue_stranded(int cpu)
{
	const struct llist_node *first = per_cpu(call_single_queue, cpu).first;
	const struct sim_cpu *c = &sim_cpus[cpu];
	const struct __call_single_node *e;
	static char msg[320];
	char what[64];

	if (!first || !c->online || c->ipi_pending || c->idle_need_resched ||
	    first != c->flush_left)
		return NULL;
	e = container_of(first, struct __call_single_node, llist);
	if ((e->u_flags & CSD_FLAG_TYPE_MASK) == CSD_TYPE_TTWU)
		snprintf(what, sizeof(what), "the queued wakeup of %s",
			 container_of(e, struct task_struct, wake_entry)->comm);
	else
		snprintf(what, sizeof(what), "a csd");
	snprintf(
		msg, sizeof(msg),
		"csd never flushed: CPU %d idle with %s in its call_single_queue "
		"(no IPI pending, TIF_NEED_RESCHED clear); its idle loop's "
		"flush_smp_call_function_queue() left it, last at %s:%d",
		cpu, what, sim_tree_path(c->flush_left_file),
		c->flush_left_line);
	return msg;
}
