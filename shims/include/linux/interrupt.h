/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/interrupt.h (softirq part) and linux/hardirq.h. */
#ifndef SHIM_LINUX_INTERRUPT_H
#define SHIM_LINUX_INTERRUPT_H

#include <sim/sim.h>
#include <linux/bitops.h>

/* Copied from include/linux/interrupt.h (tools/check-shim-copies) */
/* clang-format off */
enum
{
	HI_SOFTIRQ=0,
	TIMER_SOFTIRQ,
	NET_TX_SOFTIRQ,
	NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ,
	IRQ_POLL_SOFTIRQ,
	TASKLET_SOFTIRQ,
	SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ,
	RCU_SOFTIRQ,    /* Preferable RCU should always be the last softirq */

	NR_SOFTIRQS
};
/* clang-format on */

/*
 * struct softirq_action, softirq_vec[] and open_softirq() come from the
 * tree (kernel-src/manifest; kernel_prelude.h): the handler takes the
 * softirq_action until v6.9 and nothing since v6.10.  A caller that must
 * work with both calls softirq_handler_call().
 */
struct softirq_action;
/* kernel/softirq.c's names ("NET_RX"...), from the tree. */
extern const char *const softirq_to_name[NR_SOFTIRQS];

#define local_softirq_pending() (sim_this()->softirq_pending)
#define set_softirq_pending(x) (sim_this()->softirq_pending = (x))
/* or_softirq_pending(): also where raises are counted. */
void or_softirq_pending(unsigned long bits);

void raise_softirq_irqoff(unsigned int nr);
void __raise_softirq_irqoff(unsigned int nr);
void raise_softirq(unsigned int nr);
void do_softirq(void);
void invoke_softirq(void); /* kernel/softirq.c, static there */

#ifdef CONFIG_PREEMPT_RT
void do_softirq_post_smp_call_flush(unsigned int was_pending);
#else
static inline void do_softirq_post_smp_call_flush(unsigned int unused)
{
	do_softirq();
}
#endif

#define trace_softirq_raise(nr) \
	do {                    \
	} while (0)
#define force_irqthreads() 0

/*
 * asm/softirq_stack.h: x86-64 switches to the IRQ stack; the simulator's
 * task stack is the only one.
 */
void __do_softirq(void);
#define do_softirq_own_stack() __do_softirq()

/*
 * include/linux/vtime.h: no time accounting; the entry is where the
 * simulator counts the handler loop's runs (sim_counters.softirq_runs).
 */
#define account_softirq_enter(p) ((void)(p), sim_this()->cnt.softirq_runs++)
#define account_softirq_exit(p) ((void)(p))

/* include/linux/kernel_stat.h: per-CPU statistics, not kept. */
#define kstat_incr_softirqs_this_cpu(nr) ((void)(nr))

/*
 * kernel/softirq.c's lockdep_softirq_start()/end() (not extracted: the
 * tree's !CONFIG_TRACE_IRQFLAGS variants are one-line definitions the
 * extraction cannot prototype): lockdep's irq-context tracking, which the
 * simulator's lock checker does from the CPU's counts instead
 * (shims/sim/kernel/locking/lockdep.c).
 */
static inline bool lockdep_softirq_start(void)
{
	return false;
}

static inline void lockdep_softirq_end(bool in_hardirq)
{
	(void)in_hardirq;
}

#endif
