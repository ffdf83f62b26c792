/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/cpuhotplug.h: the dead callback is kept for
 * sim_cpu_down() (shims/sim/kernel/cpu.c).
 */
#ifndef SHIM_LINUX_CPUHOTPLUG_H
#define SHIM_LINUX_CPUHOTPLUG_H

enum cpuhp_state { CPUHP_NET_DEV_DEAD = 1 };
int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu));

#endif
