/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/lockdep.h and debug_locks.h, as far as
 * kernel/softirq.c and net/core/dev.c use them.  The simulator's lock checker
 * (shims/sim/kernel/locking/lockdep.c) works from the CPU's counts, so
 * lockdep's own softirq-state tracking (lockdep_softirqs_on/off()) and the
 * RT BH lock map (bh_lock_map, CONFIG_DEBUG_LOCK_ALLOC) are not kept; their
 * arguments are not evaluated.  DEBUG_LOCKS_WARN_ON() is a WARN, as with
 * debug_locks on.
 */
#ifndef SHIM_LINUX_LOCKDEP_H
#define SHIM_LINUX_LOCKDEP_H

#include <linux/bug.h>

#define lockdep_softirqs_on(ip) \
	do {                    \
	} while (0)
#define lockdep_softirqs_off(ip) \
	do {                     \
	} while (0)
#define lock_map_acquire_read(l) \
	do {                     \
	} while (0)
#define lock_map_release(l) \
	do {                \
	} while (0)
#define DEBUG_LOCKS_WARN_ON(c) WARN_ON(c)
/* With debug_locks on (__netif_rx()'s context check). */
#define lockdep_assert_once(cond) WARN_ON_ONCE(!(cond))

#endif
