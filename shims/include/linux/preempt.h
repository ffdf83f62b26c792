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

#define PREEMPT_OFFSET		1
#define SOFTIRQ_OFFSET		0x100
#define SOFTIRQ_DISABLE_OFFSET	0x200
#define HARDIRQ_OFFSET		0x10000

#define hardirq_count()		(sim_this()->hardirq)
#define softirq_count()		(sim_this()->serving_softirq + sim_this()->bh_disable)
#define in_hardirq()		(hardirq_count() != 0)
#define in_irq()		in_hardirq()
#define in_serving_softirq()	(sim_this()->serving_softirq != 0)
#define in_softirq()		(softirq_count() != 0)
#define in_interrupt()		(hardirq_count() || softirq_count())
#define in_task()		(!in_interrupt())
#define in_nmi()		0

unsigned int sim_preempt_count(void);
#define preempt_count()		sim_preempt_count()
#define in_atomic()		(preempt_count() != 0)
#define preemptible()		(preempt_count() == 0 && !sim_this()->irqs_off)

#define preempt_disable()	(sim_this()->preempt_disable++)
#define preempt_enable()	(sim_this()->preempt_disable--)
#define preempt_enable_no_resched() preempt_enable()

void migrate_disable(void);
void migrate_enable(void);

#endif
