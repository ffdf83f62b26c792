// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/locking/mutex.c: mutex_lock() with its might_sleep()
 * (CONFIG_DEBUG_ATOMIC_SLEEP), reported at the call site, and the owner
 * checks of CONFIG_DEBUG_MUTEXES.  Contention is not modelled: the one
 * mutex of the extracted code (kernel/smpboot.c's smpboot_threads_lock)
 * is taken by registration at boot and by CPU hotplug, never at once.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

void sim_mutex_lock(struct mutex *lock, const char *file, int line)
{
	__might_sleep(file, line);
	if (lock->owner == current)
		sim_bug(file, line, "mutex_lock(): recursive locking");
	if (lock->owner)
		sim_bug(file, line,
			"mutex_lock(): contended (not modelled by the simulator)");
	lock->owner = current;
}

void mutex_unlock(struct mutex *lock)
{
	/* DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current) */
	WARN_ON_ONCE(lock->owner != current);
	lock->owner = NULL;
}
