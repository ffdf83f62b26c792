/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/preempt.h.  The context tests read from the
 * simulated CPU.  softirq_count() differs between RT and !RT as in the
 * kernel: on RT it is the BH-disable count of the current task
 * (current->softirq_disable_cnt), which the simulator keeps per CPU because
 * a task cannot migrate inside a BH-disabled section.
 *
 * preempt_count() is composed as the kernel's (CONFIG_PREEMPT_COUNT, which
 * CONFIG_DEBUG_ATOMIC_SLEEP selects in every preemption model): hardirq
 * nesting, and on !RT the softirq bits (serving: SOFTIRQ_OFFSET, BH
 * disabled: SOFTIRQ_DISABLE_OFFSET each), plus preempt_disable() nesting,
 * which counts non-RT spinlocks and, without PREEMPT_RCU, RCU readers
 * (shims/sim/kernel/sched/core.c).  migrate_disable() is per task, as
 * with CONFIG_SMP in every model since 5.11.
 */
#ifndef SHIM_LINUX_PREEMPT_H
#define SHIM_LINUX_PREEMPT_H

#include <sim/sim.h>

#define PREEMPT_OFFSET 1
#define SOFTIRQ_OFFSET 0x100
#define SOFTIRQ_DISABLE_OFFSET 0x200
#define HARDIRQ_OFFSET 0x10000

#define PREEMPT_MASK 0x000000ff
#define SOFTIRQ_MASK 0x0000ff00
#define HARDIRQ_MASK 0x000f0000

/*
 * softirq_count() in the kernel's encoding: on !RT the softirq bits of
 * preempt_count (the CPU's serving_softirq and bh_disable), on RT the
 * current task's softirq_disable_cnt, which kernel/softirq.c's RT
 * __local_bh_disable_ip() writes (shims/sim/kernel/softirq.c).
 */
unsigned int sim_softirq_count(void);
#define hardirq_count() (sim_this()->hardirq)
#define softirq_count() sim_softirq_count()
#define in_hardirq() (hardirq_count() != 0)
#define in_irq() in_hardirq()
#define in_serving_softirq() ((softirq_count() & SOFTIRQ_OFFSET) != 0)
#define in_softirq() (softirq_count() != 0)
#define in_interrupt() (hardirq_count() || softirq_count())
#define in_task() (!in_interrupt())
#define in_nmi() 0

unsigned int sim_preempt_count(void);
#define preempt_count() sim_preempt_count()
#define in_atomic() (preempt_count() != 0)
#define preemptible() (preempt_count() == 0 && !sim_this()->irqs_off)

#define preempt_disable() (sim_this()->preempt_disable++)
/*
 * preempt_enable() reaching zero is a preemption point (CONFIG_PREEMPTION:
 * preempt_schedule() when TIF_NEED_RESCHED is set):
 * sim_preempt_enable(), shims/sim/kernel/sched/core.c.
 */
void sim_preempt_enable(void);
#define preempt_enable() sim_preempt_enable()
#define preempt_enable_no_resched() ((void)sim_this()->preempt_disable--)

/*
 * The raw preempt_count arithmetic kernel/softirq.c does (!RT BH
 * disable/enable, the handler loop's check): on the CPU's counts, in the
 * kernel's encoding (shims/sim/kernel/softirq.c).  preempt_count_set() is
 * reached only from handle_softirqs()'s "huh" path.
 */
void __preempt_count_add(int val);
void __preempt_count_sub(int val);
void preempt_count_set(unsigned int pc);
#define preempt_count_add(val) __preempt_count_add(val)
#define preempt_count_sub(val) __preempt_count_sub(val)
#define preempt_count_dec() __preempt_count_sub(1)
/* A preemption point under FULL and RT (CONFIG_PREEMPTION). */
#define preempt_check_resched() \
	sim_preempt_point("preempt_check_resched(): preempt_schedule()")
#define trace_preempt_on(a0, a1) \
	do {                     \
	} while (0)
#define trace_preempt_off(a0, a1) \
	do {                      \
	} while (0)

void migrate_disable(void);
void migrate_enable(void);

#endif
