/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SHIM_SIM_INTERNAL_H
#define SHIM_SIM_INTERNAL_H

/*
 * Between the simulator's files only.  Each line names the file that
 * defines it (shims/sim/, at the path of the kernel file it stands for).
 */
#define SIM_MAX_HOTPLUG_THREADS	8

/* kernel/sched/core.c */
void sim_sched_reset(void);
void sim_sched_boot(void);
bool sim_on_task_stack(const volatile void *addr);
bool sim_runqueue_empty(int cpu);
/* kernel/softirq.c */
void sim_softirq_boot(int cpu);
/* kernel/smp.c */
void sim_dying_flush(int cpu);
/* kernel/smpboot.c */
unsigned int sim_smpboot_threads(int cpu, struct task_struct **t);
bool sim_is_smpboot_thread(const struct task_struct *p);
void sim_smpboot_reset(void);
/* kernel/workqueue.c */
void sim_workqueue_boot(int cpu);
void sim_workqueue_reset(void);
/* kernel/cpu.c */
bool sim_takedown_pending(int cpu);
void sim_cpuhp_reset(void);
/* lib/smp_processor_id.c */
void sim_debug_preempt_reset(void);
/* kernel/locking/lockdep.c */
void sim_lockdep_reset(void);
/* net/core/skbuff.c */
void sim_skb_reset(void);

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
