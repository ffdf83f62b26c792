// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for lib/smp_processor_id.c: the CONFIG_DEBUG_PREEMPT variant of
 * smp_processor_id(), this_cpu_ptr() and __this_cpu_*().  A CPU number is
 * stable where preemption or IRQs are off, in a per-CPU-bound kthread
 * (smpboot threads, per-CPU kworkers; not the NAPI threads, which
 * kthread_run() leaves unbound), or with migration disabled (on RT, a
 * spinlock or a BH-disabled section).  Anywhere else the task may migrate
 * and the kernel reports the use, rate-limited as printk_ratelimit() is
 * (10 per 5 seconds).  The caller is named by the call site.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

static unsigned long ratelimit_begin;
static unsigned int ratelimit_printed;

static bool printk_ratelimit(void)
{
	if (!ratelimit_printed ||
	    time_after_eq(jiffies, ratelimit_begin + 5 * HZ)) {
		ratelimit_begin = jiffies;
		ratelimit_printed = 0;
	}
	return ratelimit_printed++ < 10;
}

unsigned int sim_check_preemption_disabled(const char *what1, const char *what2,
					   const char *file, int line,
					   const char *func)
{
	int this_cpu = sim_cpu_id();

	if (preempt_count() || irqs_disabled() || is_percpu_thread() ||
	    current->migration_disabled)
		return (unsigned int)this_cpu;
	if (!printk_ratelimit())
		return (unsigned int)this_cpu;
	sim_report(file, line,
		   "BUG: using %s%s() in preemptible [%08x] code: %s/%d\n"
		   "caller is %s at %s:%d\n",
		   what1, what2, preempt_count(), current->comm, current->pid,
		   func, sim_tree_path(file), line);
	return (unsigned int)this_cpu;
}

void sim_debug_preempt_reset(void)
{
	ratelimit_begin = 0;
	ratelimit_printed = 0;
}
