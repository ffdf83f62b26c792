/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/mutex.h: a sleeping lock owned by a task
 * (shims/sim/kernel/locking/mutex.c).  The only mutex the extracted code
 * takes is kernel/smpboot.c's smpboot_threads_lock, around registration and
 * CPU hotplug, which the simulator never runs concurrently.
 */
#ifndef SHIM_LINUX_MUTEX_H
#define SHIM_LINUX_MUTEX_H

struct task_struct;

struct mutex {
	struct task_struct *owner;
};

#define DEFINE_MUTEX(name) struct mutex name = { .owner = NULL }

void sim_mutex_lock(struct mutex *lock, const char *file, int line);
void mutex_unlock(struct mutex *lock);
#define mutex_lock(lock) sim_mutex_lock(lock, __FILE__, __LINE__)

#endif
