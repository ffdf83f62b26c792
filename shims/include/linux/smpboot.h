/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/smpboot.h and kernel/smpboot.c: one thread per
 * CPU running smpboot_thread_fn(): setup() once, then thread_fn() whenever
 * thread_should_run() says so, sleeping in TASK_INTERRUPTIBLE otherwise;
 * park() on CPU offline and unpark() on online, without re-running setup.
 */
#ifndef SHIM_LINUX_SMPBOOT_H
#define SHIM_LINUX_SMPBOOT_H

#include <linux/sched.h>

/* Copied from include/linux/smpboot.h (tools/check-shim-copies) */
/* clang-format off */
struct smp_hotplug_thread {
	struct task_struct		* __percpu *store;
	struct list_head		list;
	int				(*thread_should_run)(unsigned int cpu);
	void				(*thread_fn)(unsigned int cpu);
	void				(*create)(unsigned int cpu);
	void				(*setup)(unsigned int cpu);
	void				(*cleanup)(unsigned int cpu, bool online);
	void				(*park)(unsigned int cpu);
	void				(*unpark)(unsigned int cpu);
	bool				selfparking;
	const char			*thread_comm;
};
/* clang-format on */

int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread);
void smpboot_unregister_percpu_thread(struct smp_hotplug_thread *plug_thread);

/* Simulator: how many times setup() ran for a CPU (setup-once check). */
unsigned int sim_smpboot_setup_runs(int cpu);

#endif
