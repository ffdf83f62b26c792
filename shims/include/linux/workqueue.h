/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/workqueue.h.  Work items run on the kworker
 * task of the CPU they are queued on (schedule_work_on()), so a CPU that
 * never schedules never runs them: the starvation the seed-yield patch fixes.
 */
#ifndef SHIM_LINUX_WORKQUEUE_H
#define SHIM_LINUX_WORKQUEUE_H

#include <sim/sim.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;
	work_func_t func;
	bool pending;
	int cpu;
};

#define INIT_WORK(_work, _func)                  \
	do {                                     \
		INIT_LIST_HEAD(&(_work)->entry); \
		(_work)->func = (_func);         \
		(_work)->pending = false;        \
	} while (0)

bool schedule_work_on(int cpu, struct work_struct *work);
bool schedule_work(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);
bool flush_work(struct work_struct *work);
bool work_pending(struct work_struct *work);
/* Simulator: items run by the kworker of cpu so far. */
unsigned long sim_work_runs(int cpu);

#endif
