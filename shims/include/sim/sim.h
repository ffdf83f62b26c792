/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated machine: NR_CPUS CPUs, one of which executes at a time
 * (sim_cpu_id()).  Each CPU has the context the kernel keeps in
 * preempt_count and the irq flags, its pending softirq word, its csd queue
 * and its current task.  Tests drive it through the sim_*() calls and read
 * the counters to assert on what the extracted code did.
 */
#ifndef SHIM_SIM_SIM_H
#define SHIM_SIM_SIM_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/llist.h>

#ifndef NR_CPUS
#define NR_CPUS 4
#endif

struct task_struct;
struct __call_single_data;

/* An IPI sent and not yet taken, per vector. */
#define SIM_IPI_CALL_FUNC 1 /* CALL_FUNCTION_SINGLE_VECTOR */
#define SIM_IPI_RESCHEDULE 2 /* RESCHEDULE_VECTOR */

enum sim_preempt_model {
	SIM_PREEMPT_NONE,
	SIM_PREEMPT_VOLUNTARY,
	SIM_PREEMPT_FULL,
	SIM_PREEMPT_RT,
};

/* What a test can count.  Per CPU; sim_total() sums them. */
struct sim_counters {
	/*
	 * IPIs sent to this CPU, as /proc/interrupts counts them: function
	 * calls (CAL: arch_send_call_function_single_ipi(), for a csd or a
	 * queued wakeup alike; none to a polling idle CPU) and reschedules
	 * (RES: smp_send_reschedule() from resched_curr()).
	 */
	unsigned long ipis;
	unsigned long resched_ipis;
	unsigned long csd_run; /* csd callbacks run on this CPU */
	unsigned long
		ttwu_queued; /* wakeups queued on its wake list (TTWU_QUEUE) */
	unsigned long net_rx_raises; /* NET_RX_SOFTIRQ raised on this CPU */
	unsigned long raises_in_smp_call; /* any softirq raised from a csd */
	unsigned long softirq_runs; /* softirq handler loop entries */
	unsigned long warns;
	unsigned long pr_warn_once;
	unsigned long cond_resched;
	unsigned long wakeups; /* wake_up_process() that woke a task */
	unsigned long migrations; /* pulled here by load_balance() */
	unsigned long rcu_qs;
	unsigned long skbs_freed;
	unsigned long
		skbs_delivered; /* handed to the stack (__netif_receive_skb) */
};

struct sim_cpu {
	int id;
	bool online;
	bool inactive; /* !cpu_active(): going down or not up yet */
	/* Context, as the kernel keeps it in preempt_count and irq flags. */
	unsigned int hardirq; /* HARDIRQ_OFFSET nesting */
	unsigned int serving_softirq; /* SOFTIRQ_OFFSET: in the softirq loop */
	unsigned int bh_disable; /* local_bh_disable() nesting */
	unsigned int preempt_disable;
	int rcu_read_nesting; /* rcu_read_lock() depth (-1: one unlock too many) */
	bool irqs_off;
	bool softirq_ctrl_locked; /* RT: the BH lock and its RCU reader */
	unsigned int in_csd_flush; /* in kernel/smp.c's flush of its queue */
	bool in_smp_call; /* running a csd callback of that flush */
	unsigned long softirq_pending; /* irq_stat.__softirq_pending */
	struct task_struct *curr;
	struct task_struct *idle;
	unsigned int ipi_pending; /* SIM_IPI_*: sent, not yet taken */
	/*
	 * Its idle loop polls TIF_NEED_RESCHED (TIF_POLLING_NRFLAG: mwait or
	 * poll idle) rather than halting; the default.  Under the explorer
	 * each idle period's choice instead.
	 */
	bool idle_poll;
	bool idle_need_resched; /* set on its idle task by set_nr_if_polling() */
	/*
	 * The head of its call-single queue as its idle loop's last flush left
	 * it (NULL: emptied, as the tree's flush takes the whole queue), and
	 * the tree's line that flush ended at (shims/sim/kernel/smp.c).
	 */
	const void *flush_left;
	const char *flush_left_file;
	int flush_left_line;
	struct sim_counters cnt;
};

extern struct sim_cpu sim_cpus[NR_CPUS];
extern int sim_cur_cpu;
extern enum sim_preempt_model sim_preempt;
extern unsigned long sim_seed;
unsigned long sim_random(unsigned long n); /* 0 unless NAPITEST_SEED is set */

static inline int sim_cpu_id(void)
{
	return sim_cur_cpu;
}

static inline struct sim_cpu *sim_this(void)
{
	return &sim_cpus[sim_cur_cpu];
}

/* Machine control. */
void sim_reset(unsigned int nr_online);
/*
 * Make the boot step name (dev_proc_init, netdev_kobject_init,
 * register_pernet_subsys) fail with -ENOMEM until the next sim_reset();
 * sim_init_step() is what those stand-ins return.
 */
void sim_fail_init_step(const char *name);
int sim_init_step(const char *name);
int sim_switch_cpu(int cpu); /* returns the previous CPU */
struct sim_counters sim_total(void);
#define sim_count(cpu, field) (sim_cpus[cpu].cnt.field)

/* Context transitions a test (or the simulator) drives. */
void sim_hardirq_enter(void);
void sim_hardirq_exit(void); /* irq_exit(): may run softirqs */
void sim_run_softirqs(void); /* __do_softirq() on this CPU */
void sim_deliver_ipi(int cpu); /* the pending IPIs, in hardirq */
void sim_idle_flush(int cpu); /* idle loop: flush_smp_call_function_queue() */

bool sim_csd_pending(int cpu); /* a csd callback queued (not a wakeup) */
bool sim_call_queue_pending(int cpu); /* anything queued, wakeups too */
/* queued since its idle loop's last flush: what wakes it from the model */
bool sim_call_queue_new(int cpu);
/* its idle loop goes idle with its queue not empty: the first entry, or NULL */
const char *sim_call_queue_stranded(int cpu);
/* A preemption point; what names the kernel function it stands for. */
void sim_preempt_point(const char *what);
void sim_watchdog(void);
/*
 * CPU hotplug (shims/sim/kernel/cpu.c): cpu_down() from control_cpu, ending in
 * the CPUHP_NET_DEV_DEAD callback there; cpu_up().  Under the explorer,
 * cpu_down() is a step of the control CPU's program and the outgoing CPU
 * runs sim_cpu_idle() as its program.
 */
void sim_cpu_down(int cpu, int control_cpu);
void sim_cpu_up(int cpu);
void sim_cpu_idle(int cpu);

/* WARN / printk capture. */
struct sim_warn {
	const char *file;
	int line;
	char msg[256];
};
#define SIM_MAX_WARNS 16
extern struct sim_warn sim_warns[SIM_MAX_WARNS];
extern unsigned int sim_nr_warns;
extern char sim_last_pr_warn[256];

void sim_record_warn(const char *file, int line, const char *cond);
void sim_record_pr_warn(const char *fmt, ...) __printf(1, 2);
/*
 * A report of the kernel's debug checks (might_sleep, DEBUG_PREEMPT,
 * schedule_debug): printed as the kernel prints it, and counted as a WARN,
 * as the kernel taints (TAINT_WARN).  file:line is the call site.
 */
void sim_report(const char *file, int line, const char *fmt, ...)
	__printf(3, 4);
/* file as the kernel names it: relative to the tree's root (or shims/...). */
const char *sim_tree_path(const char *file);

/* Once-flags of WARN_ON_ONCE / pr_warn_once sites, cleared by sim_reset(). */
struct sim_once {
	bool done;
	bool listed; /* on the reset list (next is NULL at its tail) */
	struct sim_once *next;
};
bool sim_once_first(struct sim_once *once);

/* rcu_read_lock()/rcu_read_unlock() (linux/rcupdate.h). */
void sim_rcu_read_lock(void);
void sim_rcu_read_unlock(void);
int sim_rcu_preempt_depth(void);

/* Per-CPU areas (see linux/percpu.h). */
extern uintptr_t sim_percpu_offset[NR_CPUS];

/* Extracted globals: saved at first reset, restored at every reset. */
void extracted_save_globals(void);
void extracted_restore_globals(void);

#endif
