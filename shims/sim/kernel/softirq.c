// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/softirq.c: the softirq machinery of the simulated CPUs.
 * The raise functions (raise_softirq_irqoff(), __raise_softirq_irqoff(),
 * should_wake_ksoftirqd(), wakeup_softirqd()) and the RT
 * do_softirq_post_smp_call_flush() check are extracted from the tree's own
 * kernel/softirq.c; this file models what surrounds them: the handler loop,
 * BH disable and enable, irq_enter/irq_exit and ksoftirqd.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

#ifdef CONFIG_PREEMPT_RT
DEFINE_PER_CPU(struct softirq_ctrl, softirq_ctrl);
#endif

#define MAX_SOFTIRQ_RESTART 10

struct softirq_action softirq_vec[NR_SOFTIRQS];

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

	softirq_handler_call(&softirq_vec[nr]);
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

#ifdef CONFIG_PREEMPT_RT
/*
 * RT's __local_bh_disable_ip(), a task's first BH-disable from preemptible
 * context: local_lock(&softirq_ctrl.lock) -- migrate_disable() and an
 * rt_spin_lock(), itself an RCU reader with migration disabled -- and
 * rcu_read_lock() "to meet the RCU bottomhalf requirements".  So a
 * BH-disabled section is an RCU read-side section on RT, and sleeping in
 * it is reported.  Released when the last BH-disable is dropped.
 */
static void softirq_ctrl_lock(struct sim_cpu *c)
{
	migrate_disable();
	rcu_read_lock();	/* rt_spin_lock() */
	migrate_disable();
	rcu_read_lock();
	c->softirq_ctrl_locked = true;
}

static void softirq_ctrl_unlock(struct sim_cpu *c)
{
	if (!c->softirq_ctrl_locked || softirq_count())
		return;
	c->softirq_ctrl_locked = false;
	rcu_read_unlock();
	migrate_enable();	/* rt_spin_unlock() */
	rcu_read_unlock();
	migrate_enable();
}
#endif

void local_bh_disable(void)
{
	struct sim_cpu *c = sim_this();

	WARN_ON_ONCE(c->hardirq);	/* __local_bh_disable_ip() */
#ifdef CONFIG_PREEMPT_RT
	if (!softirq_count() && preemptible())
		softirq_ctrl_lock(c);
	this_cpu_inc(softirq_ctrl.cnt);
#endif
	c->bh_disable++;
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
	softirq_ctrl_unlock(c);
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

/* run_ksoftirqd(): what ksoftirqd runs when softirqs are pending. */
static void run_ksoftirqd(void)
{
	struct sim_cpu *c = sim_this();

	/* RT: ksoftirqd_run_begin() is a BH-disable with SOFTIRQ_OFFSET. */
#ifdef CONFIG_PREEMPT_RT
	softirq_ctrl_lock(c);
#endif
	c->irqs_off = true;
	if (local_softirq_pending())
		sim_run_softirqs();
	c->irqs_off = false;
#ifdef CONFIG_PREEMPT_RT
	softirq_ctrl_unlock(c);		/* ksoftirqd_run_end() */
#endif
}

/* smpboot_thread_fn() with softirq_threads (kernel/softirq.c). */
static int ksoftirqd_fn(void *data)
{
	(void)data;
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* smpboot parks before running anything. */
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			kthread_parkme();
			continue;
		}
		if (!local_softirq_pending()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		run_ksoftirqd();
		cond_resched();
	}
	return 0;
}

/* Boot: cpu's ksoftirqd, started. */
void sim_softirq_boot(int cpu)
{
	per_cpu(ksoftirqd, cpu) = kthread_create_on_cpu(ksoftirqd_fn, NULL,
							(unsigned int)cpu,
							"ksoftirqd/%u");
	wake_up_process(per_cpu(ksoftirqd, cpu));
}
