/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/irqflags.h and lockdep's irq assertions. */
#ifndef SHIM_LINUX_IRQFLAGS_H
#define SHIM_LINUX_IRQFLAGS_H

#include <sim/sim.h>
#include <linux/bug.h>

static inline void local_irq_disable(void)
{
	sim_this()->irqs_off = true;
}

static inline void local_irq_enable(void)
{
	sim_this()->irqs_off = false;
}

#define local_irq_save(flags)						\
	do {								\
		(flags) = sim_this()->irqs_off;				\
		sim_this()->irqs_off = true;				\
	} while (0)
#define local_irq_restore(flags)	(sim_this()->irqs_off = (flags))
#define irqs_disabled()			(sim_this()->irqs_off)

/* lockdep_assert_irqs_disabled(): a WARN in the kernel with lockdep on. */
#define lockdep_assert_irqs_disabled()	WARN_ON_ONCE(!irqs_disabled())
#define lockdep_assert_irqs_enabled()	WARN_ON_ONCE(irqs_disabled())
#define lockdep_assert_softirq_will_run() do { } while (0)

#endif
