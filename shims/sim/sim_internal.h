/* SPDX-License-Identifier: GPL-2.0 */
/* Between the simulator's files only. */
#ifndef SHIM_SIM_INTERNAL_H
#define SHIM_SIM_INTERNAL_H

void sim_sched_reset(void);
void sim_sched_boot(void);
void sim_skb_reset(void);
void sim_lockdep_reset(void);
void sim_run_ksoftirqd(void);
void sim_dying_flush(int cpu);
bool sim_on_task_stack(const volatile void *addr);

/* Coroutine switches, annotated for AddressSanitizer's stack tracking. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#define fiber_start(save, bottom, size) \
	__sanitizer_start_switch_fiber(save, bottom, size)
#define fiber_finish(save, bottom, size) \
	__sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define fiber_start(save, bottom, size)	((void)(save), (void)(bottom), (void)(size))
#define fiber_finish(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

#endif
