/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/irqflags.h and lockdep's irq assertions. */
#ifndef SHIM_LINUX_IRQFLAGS_H
#define SHIM_LINUX_IRQFLAGS_H

#include <sim/sim.h>
#include <linux/bug.h>

/*
 * Each is a step of the hang watchdog (sim/explore.h), at the caller's
 * line.  IRQs coming back on (arch_local_irq_enable()'s sti, or the
 * restore of an "on" state) is where the kernel takes the interrupts and
 * IPIs that came while they were off: under the explorer a point offering
 * exactly those (explore_async_point(), sim/explore.h), named after the
 * kernel function.  Out of line (shims/sim/sim.c): no branch of it counts
 * in the tree's coverage.
 */
void sim_local_irq_set(bool off, const char *what, const char *file, int line);

#define local_irq_disable() \
	sim_local_irq_set(true, "local_irq_disable()", __FILE__, __LINE__)
#define local_irq_enable() \
	sim_local_irq_set(false, "local_irq_enable()", __FILE__, __LINE__)
#define local_irq_save(flags)                                         \
	do {                                                          \
		(flags) = sim_this()->irqs_off;                       \
		sim_local_irq_set(true, "local_irq_save()", __FILE__, \
				  __LINE__);                          \
	} while (0)
#define local_irq_restore(flags) \
	sim_local_irq_set(flags, "local_irq_restore()", __FILE__, __LINE__)
#define raw_local_irq_save(flags) local_irq_save(flags)
#define raw_local_irq_restore(flags) local_irq_restore(flags)
#define irqs_disabled() (sim_this()->irqs_off)

/* lockdep_assert_irqs_disabled(): a WARN in the kernel with lockdep on. */
#define lockdep_assert_irqs_disabled() WARN_ON_ONCE(!irqs_disabled())
#define lockdep_assert_irqs_enabled() WARN_ON_ONCE(irqs_disabled())
#define lockdep_assert_softirq_will_run() \
	do {                              \
	} while (0)

#endif
