/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/kthread.h. */
#ifndef SHIM_LINUX_KTHREAD_H
#define SHIM_LINUX_KTHREAD_H

#include <linux/sched.h>

bool kthread_should_stop(void);
bool kthread_should_park(void);
/* kernel/kthread.c: whether k is asked to park. */
#define __kthread_should_park(k) ((k)->should_park)
void kthread_parkme(void);
int kthread_park(struct task_struct *k);
void kthread_unpark(struct task_struct *k);
int kthread_stop(struct task_struct *k);
int kthread_stop_put(struct task_struct *k);
struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data,
					  unsigned int cpu, const char *name);
void kthread_set_per_cpu(struct task_struct *k, int cpu);
#define kthread_run(fn, data, fmt, ...)                              \
	({                                                           \
		struct task_struct *__k = sim_task_create(           \
			fn, data, sim_cpu_id(), fmt, ##__VA_ARGS__); \
		wake_up_process(__k);                                \
		__k;                                                 \
	})

#endif
