/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/sched.h and the parts of kernel/sched/ the code
 * under test reaches.  Tasks are coroutines bound to a simulated CPU; the
 * simulator's scheduler (sim_run_cpu()) runs one at a time.  Simplified:
 * an unbound task migrates only under the explorer (woken on another
 * CPU, or pulled there runnable after a preemption), priorities are "RT
 * before normal, FIFO within a class", and with SIM_PREEMPT_NONE/VOLUNTARY a task only leaves
 * the CPU in schedule() or cond_resched(), which is what makes the
 * starvation the seed-yield patch fixes observable.
 */
#ifndef SHIM_LINUX_SCHED_H
#define SHIM_LINUX_SCHED_H

#include <sim/sim.h>
#include <linux/kernel.h>
#include <linux/smp_types.h>

#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_PARKED 0x0040
#define TASK_DEAD 0x0080
#define TASK_WAKING 0x0200
#define TASK_RTLOCK_WAIT 0x1000 /* blocked on an RT spinlock_t */
#define TASK_COMM_LEN 16

/* include/linux/sched.h: the PF_* flags the checks read. */
#define PF_IDLE 0x00000002
#define PF_MEMALLOC 0x00000800
#define PF_KTHREAD 0x00200000
#define PF_NO_SETAFFINITY 0x04000000

struct task_struct {
	unsigned int __state;
	char comm[TASK_COMM_LEN];
	int pid;
	int cpu;
	int nr_cpus_allowed; /* 1: bound (kthread_bind()) */
	unsigned short migration_disabled;
	/*
	 * PREEMPT_LAZY (6.1-rt): migrate_disable() nesting; a lazy
	 * reschedule (a normal task woken over a normal one) waits for 0.
	 */
	int preempt_lazy_count;
	/* PREEMPT_RCU: rcu_read_lock() depth while switched out */
	int rcu_read_lock_nesting;
	bool rt; /* SCHED_FIFO: runs before normal tasks */
	/* RT rtmutex: the lock it waits for, since when (FIFO among equals) */
	const void *blocked_on;
	unsigned long blocked_seq;
	unsigned int saved_state; /* its state while in TASK_RTLOCK_WAIT */
	/* priority inheritance: RT waiters boosting it; the owner it boosts */
	unsigned int pi_boost;
	struct task_struct *pi_boosting;
	unsigned int flags; /* PF_*: handle_softirqs() masks PF_MEMALLOC */
	/* RT: the task's BH-disable count (kernel/softirq.c), in SOFTIRQ_* units */
	int softirq_disable_cnt;
	bool on_rq;
	bool is_kthread;
	bool should_stop;
	bool should_park;
	bool parked;
	bool per_cpu; /* kthread_set_per_cpu(): KTHREAD_IS_PER_CPU */
	bool exited;
	int (*threadfn)(void *data);
	void *data;
	struct list_head run_list;
	/* try_to_wake_up()'s entry on another CPU's wake list (TTWU_QUEUE) */
	struct __call_single_node wake_entry;
	void *ctx; /* the coroutine (shims/sim/kernel/sched/core.c) */
	unsigned long switches;
	/* include/linux/filter.h's bpf_net_ctx_set() (v6.11+) */
	struct bpf_net_context *bpf_net_context;
};

extern struct task_struct *sim_current(void);
#define current sim_current()

int wake_up_process(struct task_struct *p);
int wake_up_state(struct task_struct *p, unsigned int state);
bool need_resched(void);

/*
 * schedule(), with schedule_debug()'s checks reported at the call site;
 * cond_resched() with __might_resched() there, in every preemption model,
 * as include/linux/sched.h has it (CONFIG_DEBUG_ATOMIC_SLEEP).
 */
void sim_schedule(const char *file, int line);
#define schedule() sim_schedule(__FILE__, __LINE__)
int sim_cond_resched(void);
#define cond_resched()                                  \
	({                                              \
		__might_resched(__FILE__, __LINE__, 0); \
		sim_cond_resched();                     \
	})

/*
 * include/linux/sched/task.h: a task's reference count.  The simulator
 * frees its tasks only at its reset, so a reference changes nothing.
 */
static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	(void)t;
}

/* kernel/sched/core.c: wait until p is off its CPU in state match_state. */
unsigned long wait_task_inactive(struct task_struct *p,
				 unsigned int match_state);

/* is_percpu_thread(): bound to one CPU, and the binding cannot change. */
static inline bool is_percpu_thread(void)
{
	return (current->flags & PF_NO_SETAFFINITY) &&
	       current->nr_cpus_allowed == 1;
}
#define current_restore_flags(orig_flags, f)          \
	do {                                          \
		current->flags &= ~(f);               \
		current->flags |= (orig_flags) & (f); \
	} while (0)
#define is_idle_task(p) (((p)->flags & PF_IDLE) != 0)

/*
 * set_current_state() is smp_store_mb(): the store, then a full barrier
 * (under x86-TSO the barrier drains the store buffer; __set_current_state()
 * leaves the store buffered).  The explorer's point is WRITE_ONCE()'s: one
 * switch point, not two.
 */
#define set_current_state(s)                       \
	do {                                       \
		WRITE_ONCE(current->__state, (s)); \
		smp_mb();                          \
	} while (0)
#define __set_current_state(s) WRITE_ONCE(current->__state, (s))
#define task_is_running(t) (READ_ONCE((t)->__state) == TASK_RUNNING)

/*
 * Simulator control of tasks.  A new task may run on any CPU
 * (kthread_run()); sim_kthread_bind() binds it as kthread_bind() does.
 */
struct task_struct *sim_task_create(int (*fn)(void *), void *data, int cpu,
				    const char *fmt, ...) __printf(4, 5);
/* The same, named comm as it is (no formatting: a boot's per-CPU threads). */
struct task_struct *sim_task_create_named(int (*fn)(void *), void *data,
					  int cpu, const char *comm);
/*
 * The name fmt (one %u or %d conversion) gives cpu, formatted once per
 * process: the names of the per-CPU threads every boot creates.
 */
const char *sim_percpu_name(const char *fmt, int cpu);
void sim_kthread_bind(struct task_struct *p, int cpu);
unsigned long sim_run_cpu(int cpu, unsigned long max_switches);
unsigned long sim_run_all(unsigned long max_switches);
void sim_tick(int cpu);

#endif
