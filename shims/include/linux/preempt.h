/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/preempt.h.  The context tests read from the
 * simulated CPU.  softirq_count() differs between RT and !RT as in the
 * kernel: on RT it is the BH-disable count of the current task
 * (current->softirq_disable_cnt), which the simulator keeps per CPU because
 * a task cannot migrate inside a BH-disabled section.
 */
#ifndef SHIM_LINUX_PREEMPT_H
#define SHIM_LINUX_PREEMPT_H

#include <sim/sim.h>

#define hardirq_count()		(sim_this()->hardirq)
#define softirq_count()		(sim_this()->serving_softirq + sim_this()->bh_disable)
#define in_hardirq()		(hardirq_count() != 0)
#define in_irq()		in_hardirq()
#define in_serving_softirq()	(sim_this()->serving_softirq != 0)
#define in_softirq()		(softirq_count() != 0)
#define in_interrupt()		(hardirq_count() || softirq_count())
#define in_task()		(!in_interrupt())
#define in_nmi()		0

#define preempt_disable()	(sim_this()->preempt_disable++)
#define preempt_enable()	(sim_this()->preempt_disable--)
#define preempt_enable_no_resched() preempt_enable()
#define migrate_disable()	preempt_disable()
#define migrate_enable()	preempt_enable()

#endif
