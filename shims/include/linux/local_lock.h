/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/local_lock.h and local_lock_internal.h (v6.11+:
 * softnet_data.process_queue_bh_lock, taken with local_lock_nested_bh()).
 *
 * As there, local_lock_nested_bh() asserts that BH is disabled
 * (lockdep_assert_in_softirq(): a WARN) and takes the lock of this CPU's
 * copy.  On !PREEMPT_RT the kernel's lock is a lockdep map with an owner
 * (local_lock_acquire(): DEBUG_LOCKS_WARN_ON(l->owner)); on PREEMPT_RT it is
 * a per-CPU spinlock_t.  Both are modelled by the spinlock_t stand-in, which
 * gives the lock a class for the context checker and reports a recursive
 * acquisition.  Unlike spin_lock(), no explorer point: the lock is this
 * CPU's and taken with BH disabled, so no other CPU ever contends for it.
 */
#ifndef SHIM_LINUX_LOCAL_LOCK_H
#define SHIM_LINUX_LOCAL_LOCK_H

#include <linux/spinlock.h>
#include <linux/preempt.h>
#include <linux/percpu.h>
#include <linux/bug.h>

typedef spinlock_t local_lock_t;

#define INIT_LOCAL_LOCK(lockname) __SPIN_LOCK_UNLOCKED(lockname)
#define local_lock_init(l) spin_lock_init(l)

/* include/linux/lockdep.h */
#define lockdep_assert_in_softirq() \
	WARN_ON_ONCE(!in_softirq() || in_hardirq() || in_nmi())

/*
 * local_lock()/local_unlock(): on PREEMPT_RT migrate_disable() and the
 * CPU's spinlock_t (rt_spin_lock(): its might_resched check, an RCU reader),
 * as RT's BH disable takes softirq_ctrl.lock (kernel/softirq.c); on !RT
 * preemption off.  No explorer point, as below.
 */
#ifdef CONFIG_PREEMPT_RT
#define local_lock(lock)                                                      \
	do {                                                                  \
		migrate_disable();                                            \
		sim_spin_lock(this_cpu_ptr(lock), #lock, __FILE__, __LINE__); \
	} while (0)
#define local_unlock(lock)                                               \
	do {                                                             \
		sim_spin_unlock(this_cpu_ptr(lock), __FILE__, __LINE__); \
		migrate_enable();                                        \
		sim_preempt_point("local_unlock(): migrate_enable()");   \
	} while (0)
#else
#define local_lock(lock)                                                      \
	do {                                                                  \
		preempt_disable();                                            \
		sim_spin_lock(this_cpu_ptr(lock), #lock, __FILE__, __LINE__); \
	} while (0)
#define local_unlock(lock)                                               \
	do {                                                             \
		sim_spin_unlock(this_cpu_ptr(lock), __FILE__, __LINE__); \
		preempt_enable();                                        \
	} while (0)
#endif

#define local_lock_nested_bh(lock)                                            \
	do {                                                                  \
		lockdep_assert_in_softirq();                                  \
		sim_spin_lock(this_cpu_ptr(lock), #lock, __FILE__, __LINE__); \
	} while (0)
#define local_unlock_nested_bh(lock) \
	sim_spin_unlock(this_cpu_ptr(lock), __FILE__, __LINE__)

#endif
