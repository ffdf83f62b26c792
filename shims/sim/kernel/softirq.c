// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/softirq.c around what is extracted from the tree: the
 * tree's own BH disable and enable (RT and !RT), handle_softirqs() /
 * __do_softirq(), invoke_softirq(), do_softirq(), ksoftirqd_running(),
 * run_ksoftirqd() and the raise functions (kernel-src/manifest).  What is
 * left here:
 *
 *  - or_softirq_pending() (include/linux/interrupt.h), where raises are
 *    counted;
 *  - the preempt_count arithmetic the extracted code does, on the CPU's
 *    counts (include/linux/preempt.h), and softirq_count();
 *  - irq_enter()/irq_exit() reduced to the hardirq count and the softirq
 *    entry on exit (the tree's __irq_exit_rcu() does the same, plus tick
 *    and lockdep accounting the simulator does not keep);
 *  - spawn_ksoftirqd(): the tree's softirq_threads registered at boot
 *    with the tree's smpboot_register_percpu_thread() (kernel/smpboot.c,
 *    extracted).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

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
 * softirq_count() (include/linux/preempt.h): !RT, the softirq bits of this
 * CPU's preempt_count; RT, current->softirq_disable_cnt.
 */
unsigned int sim_softirq_count(void)
{
	struct sim_cpu *c = sim_this();

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return (unsigned int)current->softirq_disable_cnt &
		       SOFTIRQ_MASK;
	return c->serving_softirq * SOFTIRQ_OFFSET +
	       c->bh_disable * SOFTIRQ_DISABLE_OFFSET;
}

/*
 * The CPU's preempt_count without the RCU readers that !PREEMPT_RCU adds
 * (sim_preempt_count()): hardirq nesting, the !RT softirq bits and
 * preempt_disable() nesting.  RT keeps no softirq bits there.
 */
static unsigned int raw_count(const struct sim_cpu *c)
{
	unsigned int pc = c->hardirq * HARDIRQ_OFFSET + c->preempt_disable;

	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		pc += c->serving_softirq * SOFTIRQ_OFFSET +
		      c->bh_disable * SOFTIRQ_DISABLE_OFFSET;
	return pc;
}

static void set_raw_count(struct sim_cpu *c, unsigned int pc)
{
	unsigned int softirq = (pc & SOFTIRQ_MASK) / SOFTIRQ_OFFSET;

	if (IS_ENABLED(CONFIG_PREEMPT_RT) && softirq)
		sim_bug(__FILE__, __LINE__,
			"softirq bits in preempt_count on PREEMPT_RT");
	c->hardirq = (pc & HARDIRQ_MASK) / HARDIRQ_OFFSET;
	c->serving_softirq = softirq & 1;
	c->bh_disable = softirq >> 1;
	c->preempt_disable = pc & PREEMPT_MASK;
}

/* __preempt_count_add()/_sub() (asm/preempt.h), as the kernel's arithmetic. */
void __preempt_count_add(int val)
{
	struct sim_cpu *c = sim_this();

	set_raw_count(c, raw_count(c) + (unsigned int)val);
}

void __preempt_count_sub(int val)
{
	struct sim_cpu *c = sim_this();

	set_raw_count(c, raw_count(c) - (unsigned int)val);
}

/*
 * preempt_count_set(): only handle_softirqs() calls it, after its pr_err()
 * "huh, entered softirq ... exited with ...": a handler leaked a count.
 * Recorded as a WARN too, so that assert_no_warn() sees it.  pc is what
 * preempt_count() read, with !PREEMPT_RCU's readers in it.
 */
void preempt_count_set(unsigned int pc)
{
	struct sim_cpu *c = sim_this();

	sim_record_warn(__FILE__, __LINE__,
			"huh, softirq exited with preempt_count changed");
	if (sim_preempt < SIM_PREEMPT_FULL)
		pc -= c->rcu_read_nesting;
	set_raw_count(c, pc);
}

/*
 * __do_softirq() with IRQs off, as irq_exit() and the BH-enable paths
 * enter it; nothing to do without pending bits.
 */
void sim_run_softirqs(void)
{
	struct sim_cpu *c = sim_this();
	bool irqs_off = c->irqs_off;

	if (!local_softirq_pending())
		return;
	c->irqs_off = true;
	__do_softirq();
	sim_this()->irqs_off = irqs_off;
}

void sim_hardirq_enter(void)
{
	struct sim_cpu *c = sim_this();

	c->hardirq++;
	c->irqs_off = true;
}

/*
 * irq_exit() (__irq_exit_rcu()): leave the hardirq count, then the tree's
 * invoke_softirq() when no longer in interrupt and softirqs are pending.
 */
void sim_hardirq_exit(void)
{
	struct sim_cpu *c = sim_this();

	c->hardirq--;
	if (!in_interrupt() && local_softirq_pending())
		invoke_softirq();
	sim_this()->irqs_off = false;
}

/*
 * spawn_ksoftirqd() (an early_initcall): the tree's softirq_threads
 * registered through the tree's smpboot_register_percpu_thread(), so
 * ksoftirqd runs the tree's smpboot_thread_fn().  Its CPUHP_SOFTIRQ_DEAD
 * callback, takeover_tasklets(), is not set up: nothing queues tasklets.
 */
void sim_softirq_boot(void)
{
	BUG_ON(smpboot_register_percpu_thread(&softirq_threads));
}
