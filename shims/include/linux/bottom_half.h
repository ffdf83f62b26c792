/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/bottom_half.h: the inline entry points of
 * kernel/softirq.c's __local_bh_disable_ip() / __local_bh_enable_ip(),
 * which are the tree's own (extracted, RT and !RT; CONFIG_TRACE_IRQFLAGS,
 * as lockdep has it, so !RT's __local_bh_disable_ip() is out of line).
 */
#ifndef SHIM_LINUX_BOTTOM_HALF_H
#define SHIM_LINUX_BOTTOM_HALF_H

#include <linux/kernel.h>
#include <linux/preempt.h>

void __local_bh_disable_ip(unsigned long ip, unsigned int cnt);
void __local_bh_enable_ip(unsigned long ip, unsigned int cnt);
void _local_bh_enable(void);

static inline void local_bh_disable(void)
{
	__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
}

static inline void local_bh_enable_ip(unsigned long ip)
{
	__local_bh_enable_ip(ip, SOFTIRQ_DISABLE_OFFSET);
}

/*
 * On RT a BH-disabled section is preemptible, but with PREEMPT_LAZY only
 * by an RT task (it is migrate-disabled: preempt_lazy_count); a lazy
 * reschedule raised inside it is taken when the section ends: at
 * local_unlock(&softirq_ctrl.lock)'s migrate_enable(), with IRQs still off
 * in __local_bh_enable_ip(), so here, after its local_irq_restore().
 * !RT's has its own preempt_check_resched().
 */
static inline void local_bh_enable(void)
{
	__local_bh_enable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		sim_preempt_point("local_bh_enable(): __local_bh_enable_ip()");
}

#endif
