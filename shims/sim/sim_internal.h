/* SPDX-License-Identifier: GPL-2.0 */
/* Between the simulator's files only. */
#ifndef SHIM_SIM_INTERNAL_H
#define SHIM_SIM_INTERNAL_H

void sim_sched_reset(void);
void sim_sched_boot(void);
void sim_skb_reset(void);
void sim_lockdep_reset(void);
void sim_run_ksoftirqd(void);

#endif
