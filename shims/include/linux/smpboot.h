/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/smpboot.h and kernel/smpboot.h: the per-CPU
 * hotplug thread descriptor and the functions of kernel/smpboot.c, which
 * is extracted from the tree (kernel-src/manifest).
 */
#ifndef SHIM_LINUX_SMPBOOT_H
#define SHIM_LINUX_SMPBOOT_H

#include <linux/list.h>
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

/* kernel/smpboot.h: what CPU hotplug calls (shims/sim/kernel/cpu.c). */
int smpboot_create_threads(unsigned int cpu);
int smpboot_park_threads(unsigned int cpu);
int smpboot_unpark_threads(unsigned int cpu);

#endif
