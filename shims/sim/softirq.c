// SPDX-License-Identifier: GPL-2.0
/*
 * Softirq and SMP-call machinery of the simulated CPUs.  The raise functions
 * (raise_softirq_irqoff(), __raise_softirq_irqoff(), should_wake_ksoftirqd(),
 * wakeup_softirqd()) and the RT do_softirq_post_smp_call_flush() check are
 * extracted from the tree's own kernel/softirq.c; this file models what
 * surrounds them: the handler loop, BH enable, irq_exit and the csd queue.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

#ifdef CONFIG_PREEMPT_RT
DEFINE_PER_CPU(struct softirq_ctrl, softirq_ctrl);
#endif

#define MAX_SOFTIRQ_RESTART 10

/*
 * or_softirq_pending() (include/linux/interrupt.h): the one place every
 * raise goes through, so raises are counted here, and a raise from a csd
 * callback (SMP-call context) is recorded as such.
 */
void or_softirq_pending(unsigned long bits)
{
	struct sim_cpu *c;

	explore_hook(__FILE__, __LINE__);
	c = sim_this();
	c->softirq_pending |= bits;
	if (bits & BIT(NET_RX_SOFTIRQ))
		c->cnt.net_rx_raises++;
	if (c->in_smp_call)
		c->cnt.raises_in_smp_call++;
}

/*
 * __do_softirq() / handle_softirqs() (kernel/softirq.c): run the handlers
 * of the pending bits with IRQs enabled, restarting while new bits are
 * raised, at most MAX_SOFTIRQ_RESTART times, then hand over to ksoftirqd.
 * Simplified: no time limit (2 ms in the kernel) and no need_resched() exit.
 */
/*
 * One handler, as handle_softirqs() runs it: a handler that returns with
 * preempt_count changed gets "huh, entered softirq %u %s %p with
 * preempt_count %08x, exited with %08x?" and the count put back.  The
 * parts a handler can leak here: preemption, BH and RCU readers (which
 * !PREEMPT_RCU counts in preempt_count; on RT, where BH and RCU nest per
 * task, the simulator is stricter than the kernel's check).  Recorded as
 * a WARN, so that assert_no_warn() sees it.
 */
static void run_action(struct sim_cpu *c, int nr)
{
	unsigned int bh = c->bh_disable, preempt = c->preempt_disable;
	unsigned int rcu = c->rcu_read_nesting;

	softirq_vec[nr].action(&softirq_vec[nr]);
	c = sim_this();
	if (c->bh_disable != bh || c->preempt_disable != preempt ||
	    c->rcu_read_nesting != rcu) {
		sim_record_warn(__FILE__, __LINE__,
				"huh, softirq exited with preempt_count changed");
		c->bh_disable = bh;
		c->preempt_disable = preempt;
		c->rcu_read_nesting = rcu;
	}
}

void sim_run_softirqs(void)
{
	struct sim_cpu *c = sim_this();
	int max_restart = MAX_SOFTIRQ_RESTART;
	bool irqs_off = c->irqs_off;
	unsigned long pending;

	pending = c->softirq_pending;
	if (!pending)
		return;
	c->cnt.softirq_runs++;
	c->serving_softirq++;
#ifdef CONFIG_PREEMPT_RT
	this_cpu_inc(softirq_ctrl.cnt);
#endif
restart:
	c->softirq_pending = 0;
	c->irqs_off = false;
	while (pending) {
		int nr = __builtin_ctzl(pending);

		pending &= ~BIT(nr);
		if (softirq_vec[nr].action)
			run_action(c, nr);
		c = sim_this();
	}
	c->irqs_off = true;
	pending = c->softirq_pending;
	if (pending) {
		if (--max_restart)
			goto restart;
		wakeup_softirqd();
	}
#ifdef CONFIG_PREEMPT_RT
	this_cpu_dec(softirq_ctrl.cnt);
#endif
	c->serving_softirq--;
	c->irqs_off = irqs_off;
}

/*
 * ksoftirqd_running() (kernel/softirq.c, static there, not extracted): the
 * pending softirqs are left to ksoftirqd when it is runnable and not being
 * parked, except HI and TASKLET, which run at once.
 */
static bool ksoftirqd_running(unsigned long pending)
{
	struct task_struct *tsk = this_cpu_read(ksoftirqd);

	if (pending & (BIT(HI_SOFTIRQ) | BIT(TASKLET_SOFTIRQ)))
		return false;
	return tsk && task_is_running(tsk) && !tsk->should_park;
}

/*
 * invoke_softirq() (kernel/softirq.c, static there), on hardirq exit:
 * RT hands softirqs to ksoftirqd unless BH is disabled on this CPU; !RT runs
 * them right here unless ksoftirqd is already running them.
 */
void invoke_softirq(void)
{
#ifdef CONFIG_PREEMPT_RT
	if (!this_cpu_read(softirq_ctrl.cnt))
		wakeup_softirqd();
#else
	if (ksoftirqd_running(local_softirq_pending()))
		return;
	sim_run_softirqs();
#endif
}

/* do_softirq() (kernel/softirq.c): run pending softirqs unless in interrupt. */
void do_softirq(void)
{
	struct sim_cpu *c = sim_this();
	bool flags = c->irqs_off;

	if (in_interrupt())
		return;
	c->irqs_off = true;
	if (local_softirq_pending() &&
	    !ksoftirqd_running(local_softirq_pending()))
		sim_run_softirqs();
	c->irqs_off = flags;
}

void local_bh_disable(void)
{
	WARN_ON_ONCE(sim_this()->hardirq);	/* __local_bh_disable_ip() */
	sim_this()->bh_disable++;
#ifdef CONFIG_PREEMPT_RT
	this_cpu_inc(softirq_ctrl.cnt);
#endif
}

/*
 * __local_bh_enable_ip(): on !RT, pending softirqs run when the count drops
 * and we are no longer in interrupt context; on RT, when the last BH-disable
 * is dropped; on both, unless ksoftirqd is about to run them.  A preemption point under FULL/RT.  Both
 * versions assert, as here, that IRQs are enabled (lockdep).
 */
void local_bh_enable(void)
{
	struct sim_cpu *c = sim_this();

	WARN_ON_ONCE(c->hardirq);
	lockdep_assert_irqs_enabled();
	if (WARN_ON_ONCE(!c->bh_disable))
		return;
	c->bh_disable--;
#ifdef CONFIG_PREEMPT_RT
	this_cpu_dec(softirq_ctrl.cnt);
	/*
	 * Only the outermost BH section (softirq_ctrl.cnt also counts the
	 * softirq being served), and not when ksoftirqd will run them; a
	 * caller that cannot be preempted wakes ksoftirqd instead.
	 */
	if (!this_cpu_read(softirq_ctrl.cnt) && local_softirq_pending() &&
	    !ksoftirqd_running(local_softirq_pending())) {
		if (c->preempt_disable || c->irqs_off) {
			wakeup_softirqd();
		} else {
			c->irqs_off = true;
			sim_run_softirqs();
			c->irqs_off = false;
		}
	}
#else
	if (!in_interrupt() && local_softirq_pending())
		do_softirq();
#endif
	sim_preempt_point();
}

void raise_softirq(unsigned int nr);

void sim_hardirq_enter(void)
{
	struct sim_cpu *c = sim_this();

	c->hardirq++;
	c->irqs_off = true;
}

/* irq_exit(): run or hand over pending softirqs when leaving the last level. */
void sim_hardirq_exit(void)
{
	struct sim_cpu *c = sim_this();

	c->hardirq--;
	if (!in_interrupt() && local_softirq_pending())
		invoke_softirq();
	c->irqs_off = false;
}

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

/* ksoftirqd's thread function (run_ksoftirqd() via smpboot). */
void sim_run_ksoftirqd(void)
{
	struct sim_cpu *c = sim_this();

	c->irqs_off = true;
	if (local_softirq_pending())
		sim_run_softirqs();
	sim_this()->irqs_off = false;
}
