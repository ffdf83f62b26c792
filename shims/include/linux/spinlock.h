/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/spinlock.h, with a context checker in the spirit
 * of lockdep's usage checks: each lock class (the lock's name: the struct
 * member it is, e.g. "defer_lock") records whether it was taken in hardirq,
 * in softirq, with IRQs enabled and with BH enabled; taking a lock in
 * hardirq that is elsewhere taken with IRQs on (or in softirq and elsewhere
 * with BH on) is reported as lockdep would ({IN-HARDIRQ-W} -> {HARDIRQ-ON-W}).
 * On !RT a lock is owned by a CPU (preemption is off while it is held);
 * one CPU runs at a time, so contention on one CPU shows as a recursive
 * acquisition, which is reported as a deadlock.  On RT it is owned by a
 * task, which may be preempted while holding it; another task of that CPU
 * then blocks on it (kernel/locking/rtmutex.c: shims/sim/kernel/locking/).
 *
 * On !RT spin_lock() disables preemption.  On PREEMPT_RT spinlock_t is a
 * sleeping lock (kernel/locking/spinlock_rt.c): rt_spin_lock() checks
 * rtlock_might_resched() (a report in hardirq, with IRQs off or with
 * preemption off), then holds an RCU read-side section and disables
 * migration until the unlock; spin_lock_irqsave() does not disable
 * interrupts.  That is modelled too (shims/sim/kernel/locking/).
 */
#ifndef SHIM_LINUX_SPINLOCK_H
#define SHIM_LINUX_SPINLOCK_H

#include <sim/sim.h>

/* Where each usage of a class was first seen, as lockdep records it. */
enum sim_lock_usage {
	SIM_USED_IN_HARDIRQ,
	SIM_USED_IN_SOFTIRQ,
	SIM_USED_IRQS_ON,
	SIM_USED_BH_ON,
	SIM_NR_USAGE,
};

struct sim_lock_class {
	const char *name;
	bool used_in_hardirq, used_in_softirq;
	bool used_irqs_on, used_bh_on;
	const char *usage_file[SIM_NR_USAGE];
	int usage_line[SIM_NR_USAGE];
	struct sim_lock_class *next;
};

typedef struct spinlock {
	int owner; /* CPU holding it, -1 if free */
	/* the task holding it: on RT the owner, which may be preempted */
	struct task_struct *owner_task;
	const char *name;
	unsigned long acquisitions;
} spinlock_t;

/* The call site (the tree's file:line in extracted code) is reported. */
void sim_spin_lock(spinlock_t *lock, const char *name, const char *file,
		   int line);
void sim_spin_unlock(spinlock_t *lock, const char *file, int line);
bool sim_lockdep_clean(void);
const char *sim_lockdep_report(void);
bool sim_lockdep_class_used(const char *name, const char *usage);

#define spin_lock_init(l) (*(l) = (spinlock_t){ .owner = -1, .name = #l })
/* clang-format off */
#define __SPIN_LOCK_UNLOCKED(n)	{ .owner = -1, .name = #n }
/* clang-format on */
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
/* Explorer: a point before each acquire (spinning while another CPU
 * holds the lock) and after each release; no-ops unless exploring. */
#define spin_lock(l)                                                \
	do {                                                        \
		explore_hook_lock(&(l)->owner, __FILE__, __LINE__); \
		sim_spin_lock(l, #l, __FILE__, __LINE__);           \
	} while (0)
#define spin_unlock(l)                                  \
	do {                                            \
		sim_spin_unlock(l, __FILE__, __LINE__); \
		explore_hook(__FILE__, __LINE__);       \
	} while (0)
#define spin_lock_bh(l)             \
	do {                        \
		local_bh_disable(); \
		spin_lock(l);       \
	} while (0)
#define spin_unlock_bh(l)          \
	do {                       \
		spin_unlock(l);    \
		local_bh_enable(); \
	} while (0)

#ifdef CONFIG_PREEMPT_RT
#define spin_lock_irq(l) spin_lock(l)
#define spin_unlock_irq(l) spin_unlock(l)
#define spin_lock_irqsave(l, f) \
	do {                    \
		(f) = 0;        \
		spin_lock(l);   \
	} while (0)
#define spin_unlock_irqrestore(l, f) \
	do {                         \
		(void)(f);           \
		spin_unlock(l);      \
	} while (0)
#else
#define spin_lock_irq(l)             \
	do {                         \
		local_irq_disable(); \
		spin_lock(l);        \
	} while (0)
/* After the IRQ restore: a preemption point (preempt_enable() there). */
#define spin_unlock_irq(l)                                                \
	do {                                                              \
		spin_unlock(l);                                           \
		local_irq_enable();                                       \
		sim_preempt_point("spin_unlock_irq(): preempt_enable()"); \
	} while (0)
#define spin_lock_irqsave(l, f)    \
	do {                       \
		local_irq_save(f); \
		spin_lock(l);      \
	} while (0)
#define spin_unlock_irqrestore(l, f)                                   \
	do {                                                           \
		spin_unlock(l);                                        \
		local_irq_restore(f);                                  \
		sim_preempt_point(                                     \
			"spin_unlock_irqrestore(): preempt_enable()"); \
	} while (0)
#endif

/* On RT the owner is a task (rt_mutex_owner()), elsewhere this CPU. */
#ifdef CONFIG_PREEMPT_RT
#define lockdep_assert_held(l) WARN_ON_ONCE((l)->owner_task != current)
#else
#define lockdep_assert_held(l) WARN_ON_ONCE((l)->owner != sim_cpu_id())
#endif

#endif
