// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/smp.c: the call-single queue of each CPU (an llist),
 * smp_call_function_single_async() and its send path, and the flushes
 * that run the queue: the IPI handler, the idle loop, a dying CPU.  The
 * functions follow 6.1's line by line, with its names; not modelled: the
 * CSD_LOCK_WAIT_DEBUG variants (off in Debian's configs) and irq_work.
 * The queue holds csds and, with TTWU_QUEUE, the wakeups of
 * try_to_wake_up() (CSD_TYPE_TTWU: shims/sim/kernel/sched/core.c).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

/*
 * __smp_call_single_queue(): llist_add() (a cmpxchg(): a full barrier on
 * x86) and, when the queue was empty, send_call_function_single_ipi().
 */
void __smp_call_single_queue(int cpu, struct llist_node *node)
{
	explore_tso_mb();
	if (llist_add(node, &sim_cpus[cpu].call_single_queue))
		send_call_function_single_ipi(cpu);
}

/* csd_unlock(): the csd may be queued again from here on. */
static void csd_unlock(call_single_data_t *csd)
{
	WARN_ON(!(csd->node.u_flags & CSD_FLAG_LOCK));
	explore_tso_mb();
	csd->node.u_flags = 0;
}

/* generic_exec_single(): the local CPU runs it at once with IRQs off. */
static int generic_exec_single(int cpu, call_single_data_t *csd)
{
	if (cpu == sim_cpu_id()) {
		smp_call_func_t func = csd->func;
		void *info = csd->info;
		bool flags = sim_this()->irqs_off;

		csd_unlock(csd);
		sim_this()->irqs_off = true;
		func(info);
		sim_this()->irqs_off = flags;
		return 0;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		csd_unlock(csd);
		return -ENXIO;
	}
	__smp_call_single_queue(cpu, &csd->node.llist);
	return 0;
}

/*
 * smp_call_function_single_async(): a csd still locked (queued, or its
 * callback not yet started) is not queued twice: -EBUSY.
 */
int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	int err;

	explore_hook(__FILE__, __LINE__);
	sim_this()->preempt_disable++;
	if (csd->node.u_flags & CSD_FLAG_LOCK) {
		err = -EBUSY;
		goto out;
	}
	csd->node.u_flags = CSD_FLAG_LOCK;
	err = generic_exec_single(cpu, csd);
out:
	sim_this()->preempt_disable--;
	return err;
}

/*
 * __flush_smp_call_function_queue(): takes the whole queue at once
 * (llist_del_all(): what is queued from then on waits for the next IPI or
 * flush, which its llist_add() asks for), runs the SYNC callbacks, then
 * the ASYNC ones (unlocking each csd before its callback, so it may queue
 * itself again), then hands the wakeups to sched_ttwu_pending().
 */
/*
 * &csd_next->node.llist in kernel/smp.c, where csd_next may be the NULL the
 * llist iterator ends on: the member is at offset 0, so the kernel's
 * expression is NULL too, but UBSan (make check SANITIZE=1) reports a
 * member access within a null pointer.  The same value, without it.
 */
static struct llist_node *csd_llist(call_single_data_t *csd)
{
	return csd ? &csd->node.llist : NULL;
}

static void __flush_smp_call_function_queue(bool warn_cpu_offline)
{
	call_single_data_t *csd, *csd_next;
	struct llist_node *entry, *prev;
	static bool warned;
	struct sim_cpu *c = sim_this();

	lockdep_assert_irqs_disabled();
	explore_tso_mb();
	entry = llist_del_all(&c->call_single_queue);
	entry = llist_reverse_order(entry);

	if (unlikely(warn_cpu_offline && !cpu_online(sim_cpu_id()) && !warned &&
		     entry != NULL)) {
		warned = true;
		WARN(1, "IPI on offline CPU %d\n", sim_cpu_id());
	}

	/* First: the SYNC callbacks (none of the code under test queues one). */
	prev = NULL;
	llist_for_each_entry_safe(csd, csd_next, entry, node.llist) {
		if (CSD_TYPE(csd) == CSD_TYPE_SYNC) {
			if (prev)
				prev->next = csd_llist(csd_next);
			else
				entry = csd_llist(csd_next);
			c->in_smp_call = true;
			csd->func(csd->info);
			c = sim_this();
			c->in_smp_call = false;
			csd_unlock(csd);
		} else {
			prev = &csd->node.llist;
		}
	}
	if (!entry)
		return;

	/* Second: every other callback. */
	prev = NULL;
	llist_for_each_entry_safe(csd, csd_next, entry, node.llist) {
		int type = CSD_TYPE(csd);

		if (type == CSD_TYPE_TTWU) {
			prev = &csd->node.llist;
			continue;
		}
		if (prev)
			prev->next = csd_llist(csd_next);
		else
			entry = csd_llist(csd_next);
		if (type == CSD_TYPE_ASYNC) {
			smp_call_func_t func = csd->func;
			void *info = csd->info;

			csd_unlock(csd);
			c->cnt.csd_run++;
			c->in_smp_call = true;
			func(info);
			c = sim_this();
			c->in_smp_call = false;
		}
	}

	/* Third: only CSD_TYPE_TTWU is left. */
	if (entry)
		sched_ttwu_pending(entry);
}

/*
 * The IPIs pending for cpu arrive there as interrupts (IRQs on, not in
 * hardirq): the call-function IPI runs
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
		__flush_smp_call_function_queue(true);
		sim_hardirq_exit();
	}
	/* The interrupted task: the interrupt return preempts it, if due. */
	if (prev == cpu)
		sim_preempt_point();
	sim_switch_cpu(prev);
}

/*
 * The idle loop's flush (do_idle() -> flush_smp_call_function_queue()):
 * a polling idle CPU that set_nr_if_polling() woke takes the queue without
 * an interrupt, with IRQs off; the softirqs pending before the flush are
 * snapshotted and, if any is pending after it,
 * do_softirq_post_smp_call_flush() -- on RT the tree's own, with its
 * WARN_ON_ONCE -- deals with what the callbacks raised.
 */
void sim_idle_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();
	unsigned int was_pending;
	bool flags = c->irqs_off;

	c->idle_need_resched = false;
	if (llist_empty(&c->call_single_queue)) {
		sim_switch_cpu(prev);
		return;
	}
	c->irqs_off = true;
	preempt_disable();
	was_pending = local_softirq_pending();
	__flush_smp_call_function_queue(true);
	if (local_softirq_pending())
		do_softirq_post_smp_call_flush(was_pending);
	sim_this()->preempt_disable--;
	sim_this()->irqs_off = flags;
	sim_switch_cpu(prev);
}

/*
 * smpcfd_dying_cpu() (kernel/smp.c) on the outgoing CPU, from
 * take_cpu_down() with IRQs off: the callbacks still queued for it run
 * there (__flush_smp_call_function_queue(false)); what they raise stays
 * pending until the CPU is back.
 */
void sim_dying_flush(int cpu)
{
	int prev = sim_switch_cpu(cpu);

	__flush_smp_call_function_queue(false);
	sim_switch_cpu(prev);
}

/* A csd callback (not a queued wakeup) waits in cpu's queue. */
bool sim_csd_pending(int cpu)
{
	struct llist_node *n;

	for (n = sim_cpus[cpu].call_single_queue.first; n; n = n->next) {
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
	return !llist_empty(&sim_cpus[cpu].call_single_queue);
}
