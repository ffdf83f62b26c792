/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/kernel.h: might_sleep() and the
 * CONFIG_DEBUG_ATOMIC_SLEEP checks behind it, defined in
 * shims/sim/kernel/sched/core.c.  The file and line are the call site's:
 * in extracted code, the tree's own (the extraction's #line).
 */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H

#define MIGHT_RESCHED_RCU_SHIFT 8
#define MIGHT_RESCHED_PREEMPT_MASK ((1U << MIGHT_RESCHED_RCU_SHIFT) - 1)

void __might_resched(const char *file, int line, unsigned int offsets);
void __might_sleep(const char *file, int line);

/*
 * include/linux/instruction_pointer.h and ftrace.h: the addresses
 * kernel/softirq.c hands to lockdep and the preempt tracer (both not
 * simulated, so only evaluated).
 */
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define _THIS_IP_                        \
	({                               \
		__label__ __here;        \
__here:                                  \
		(unsigned long)&&__here; \
	})
#define CALLER_ADDR0 ((unsigned long)__builtin_return_address(0))
#define get_lock_parent_ip() CALLER_ADDR0

/* might_resched() is the simulator's cond_resched() where it schedules. */
#define might_sleep() __might_sleep(__FILE__, __LINE__)

#endif
