/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/cpu.h: cpus_read_lock()/cpus_read_unlock()
 * (kernel/cpu.c: cpu_hotplug_lock, a percpu rwsem), held around
 * smpboot_register_percpu_thread().  Modelled as its might_sleep() only:
 * the simulator registers the per-CPU threads at boot, never while CPU
 * hotplug runs (shims/sim/kernel/cpu.c).
 */
#ifndef SHIM_LINUX_CPU_H
#define SHIM_LINUX_CPU_H

void cpus_read_lock(void);
void cpus_read_unlock(void);

#endif
