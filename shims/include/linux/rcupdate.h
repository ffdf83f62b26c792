/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/rcupdate.h: readers are counted per CPU, as
 * !PREEMPT_RCU's rcu_read_lock() counts in preempt_count; a reader left
 * open is reported where the kernel reports it (the softirq loop's
 * preempt_count check, a voluntary schedule()).  Grace periods are not
 * modelled.  Out of line (shims/sim/sim.c): a branch expanded in the
 * tree's lines would count in its coverage.
 */
#ifndef SHIM_LINUX_RCUPDATE_H
#define SHIM_LINUX_RCUPDATE_H

#include <sim/sim.h>
#include <linux/kconfig.h>
#include <linux/jiffies.h>

#define rcu_read_lock() sim_rcu_read_lock()
#define rcu_read_unlock() sim_rcu_read_unlock()
/* PREEMPT_RCU's reader depth; 0 without it (readers are preempt_count). */
#define rcu_preempt_depth() sim_rcu_preempt_depth()
#define rcu_dereference(p) (p)
#define rcu_access_pointer(p) (p)
#define rcu_assign_pointer(p, v) ((p) = (v))
/*
 * Quiescent-state report every 100 ms (counted, for rcu_softirq_qs());
 * compiled out on PREEMPT_RT, as there.
 */
/* rcu_softirq_qs(): ksoftirqd's quiescent state (handle_softirqs()), counted. */
#define rcu_softirq_qs() (sim_this()->cnt.rcu_qs++)
#define rcu_softirq_qs_periodic(old_ts)                        \
	do {                                                   \
		if (!IS_ENABLED(CONFIG_PREEMPT_RT) &&          \
		    time_after(jiffies, (old_ts) + HZ / 10)) { \
			sim_this()->cnt.rcu_qs++;              \
			(old_ts) = jiffies;                    \
		}                                              \
	} while (0)

#endif
