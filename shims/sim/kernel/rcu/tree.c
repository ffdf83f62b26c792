// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for the reader side of PREEMPT_RCU in kernel/rcu/tree_plugin.h
 * (which kernel/rcu/tree.c includes): rcu_read_lock() and
 * rcu_read_unlock() (linux/rcupdate.h) count the running task's reader
 * nesting (kept on its CPU while it runs; kernel/sched/core.c saves it
 * in the task at a switch, as current->rcu_read_lock_nesting);
 * rcu_preempt_depth() reports it where RCU readers are preemptible
 * (PREEMPT_RCU: the full and RT models).  Grace periods
 * are not modelled: nothing under test waits for one.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

/* __rcu_read_lock(): the task's reader nesting. */
void sim_rcu_read_lock(void)
{
	sim_this()->rcu_read_nesting++;
}

/*
 * __rcu_read_unlock(): an unlock without a lock is a WARN (the kernel's,
 * with CONFIG_PROVE_LOCKING, once its count went to -1; here the count,
 * unsigned, stays at 0).
 */
void sim_rcu_read_unlock(void)
{
	if (!WARN_ON_ONCE(!sim_this()->rcu_read_nesting))
		sim_this()->rcu_read_nesting--;
}

/* rcu_preempt_depth() (linux/rcupdate.h): 0 without PREEMPT_RCU. */
unsigned int sim_rcu_preempt_depth(void)
{
	return sim_preempt >= SIM_PREEMPT_FULL ? sim_this()->rcu_read_nesting :
						 0;
}
