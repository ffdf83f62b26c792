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
#include <limits.h>

/* __rcu_read_lock(): the task's reader nesting. */
void sim_rcu_read_lock(void)
{
	sim_this()->rcu_read_nesting++;
}

/* RCU_NEST_PMAX (kernel/rcu/tree_plugin.h): a nesting that deep is a bug. */
#define RCU_NEST_PMAX (INT_MAX / 2)

/*
 * __rcu_read_unlock(): rcu_preempt_read_exit() decrements the signed
 * count, to -1 for an unlock without a lock, and CONFIG_PROVE_LOCKING's
 * check then WARNs in the kernel's words.
 */
void sim_rcu_read_unlock(void)
{
	int rrln = --sim_this()->rcu_read_nesting;

	WARN_ON_ONCE(rrln < 0 || rrln > RCU_NEST_PMAX);
}

/* rcu_preempt_depth() (linux/rcupdate.h): 0 without PREEMPT_RCU. */
int sim_rcu_preempt_depth(void)
{
	return sim_preempt >= SIM_PREEMPT_FULL ? sim_this()->rcu_read_nesting :
						 0;
}
