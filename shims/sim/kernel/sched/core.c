// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/sched/core.c: tasks and the scheduler of the simulated
 * machine.  Each task is a coroutine (ucontext) bound to a CPU;
 * sim_run_cpu() is that CPU's scheduler.  Only one coroutine runs at a time,
 * and every choice is deterministic (FIFO within a class, or seeded), so a
 * run is reproducible.  Under the interleaving explorer the choices of a
 * CPU's scheduler (which task next, whether to preempt) are the explorer's
 * (explore_choose()).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "sim_internal.h"
#include "extracted/present.h"

#define STACK_SIZE (128 * 1024)
#define MAX_TASKS 64

struct sim_coroutine {
	struct sim_fiber fib;
	void *fake_stack; /* AddressSanitizer's, while switched out */
	void *stack;
};

static struct task_struct *tasks[MAX_TASKS];
static unsigned int nr_tasks;
static struct task_struct idle_tasks[NR_CPUS];
static struct list_head runqueue[NR_CPUS];
static struct sim_fiber sched_fib[NR_CPUS];
static void *sched_fake_stack[NR_CPUS];
/* Per CPU: under the explorer each CPU's scheduler runs on its own stack. */
static const void *sched_stack_bottom[NR_CPUS];
static size_t sched_stack_size[NR_CPUS];

struct task_struct *sim_current(void)
{
	return sim_this()->curr;
}

/* addr is on the stack of the task running on this CPU (explorer's POR). */
bool sim_on_task_stack(const volatile void *addr)
{
	struct sim_coroutine *co = sim_this()->curr->ctx;
	const char *a = (const char *)(uintptr_t)addr;

	return co && a >= (const char *)co->stack &&
	       a < (const char *)co->stack + STACK_SIZE;
}

static void enqueue(struct task_struct *p)
{
	if (p->on_rq)
		return;
	p->on_rq = true;
	list_add_tail(&p->run_list, &runqueue[p->cpu]);
}

static void dequeue(struct task_struct *p)
{
	if (!p->on_rq)
		return;
	p->on_rq = false;
	list_del_init(&p->run_list);
}

/* activate_task()/deactivate_task(): the load balancer's (fair.c) moves. */
void sim_activate_task(struct task_struct *p)
{
	enqueue(p);
}

void sim_deactivate_task(struct task_struct *p)
{
	dequeue(p);
}

/*
 * cpu's idle task runs its idle loop (do_idle()): no task is current and
 * no program of the explorer executes code there.  Only there is
 * TIF_POLLING_NRFLAG ever set; a task woken there and not yet scheduled
 * leaves it polling until it sees TIF_NEED_RESCHED.
 */
static bool cpu_in_idle_loop(int cpu)
{
	struct sim_cpu *c = &sim_cpus[cpu];

	return c->curr == c->idle && !explore_cpu_running(cpu);
}

/*
 * Whether cpu's idle loop polls TIF_NEED_RESCHED (mwait or poll idle) or
 * halts: the CPU's setting (sim_cpu.idle_poll), or under the explorer a
 * choice (polling by default).
 */
static void describe_idle_poll(char *buf, unsigned long len, unsigned int o,
			       const struct explore_words *w)
{
	snprintf(buf, len < 48 ? len : 48,
		 o ? "CPU%d idle halted (IPI)" : "CPU%d idle polls (no IPI)",
		 w->i);
}

static bool idle_polls(int cpu)
{
	const struct explore_words w = { .i = cpu };

	if (!explore_in_program())
		return sim_cpus[cpu].idle_poll;
	return explore_choose_described(EXPLORE_POLL, 2, describe_idle_poll,
					&w) == 0;
}

/*
 * set_nr_if_polling(rq->idle) (kernel/sched/core.c): a polling idle CPU is
 * woken by setting TIF_NEED_RESCHED on its idle task, no IPI.
 */
static bool set_nr_if_polling(int cpu)
{
	struct sim_cpu *c = &sim_cpus[cpu];

	if (!cpu_in_idle_loop(cpu))
		return false;
	if (c->idle_need_resched)
		return true;
	if (!idle_polls(cpu))
		return false;
	c->idle_need_resched = true;
	return true;
}

/*
 * call_function_single_prep_ipi() (kernel/sched/core.c, 6.12): the IPI is
 * needed unless the target idles polling.
 */
bool call_function_single_prep_ipi(int cpu)
{
	/* else trace_sched_wake_idle_without_ipi() */
	return !set_nr_if_polling(cpu);
}

#if !EXTRACTED_HAVE_send_call_function_single_ipi
/*
 * send_call_function_single_ipi() (kernel/sched/core.c, 6.1; later trees
 * have it in kernel/smp.c, extracted, around the function above).
 */
void send_call_function_single_ipi(int cpu)
{
	if (call_function_single_prep_ipi(cpu))
		arch_send_call_function_single_ipi(cpu);
}
#endif

/*
 * resched_curr() of a remote CPU (kernel/sched/core.c): set
 * TIF_NEED_RESCHED on its current task and send the reschedule IPI, unless
 * that task is a polling idle task (set_nr_and_not_polling()).
 * Simplified: a reschedule IPI still pending stands for
 * test_tsk_need_resched(); a local resched_curr() is left to the
 * preemption points, which choose.
 */
static void resched_curr(int cpu)
{
	struct sim_cpu *c = &sim_cpus[cpu];

	if (cpu == sim_cpu_id() || (c->ipi_pending & SIM_IPI_RESCHEDULE))
		return;
	if (c->curr == c->idle && set_nr_if_polling(cpu))
		return;
	c->ipi_pending |= SIM_IPI_RESCHEDULE;
	c->cnt.resched_ipis++;
}

/*
 * ttwu_do_activate() (kernel/sched/core.c): the task is runnable on cpu;
 * check_preempt_curr() asks for a reschedule when it preempts what runs
 * there: always the idle task (check_preempt_curr_idle()), and a normal
 * task for an RT one (the classes' order).  Simplified: a normal task
 * woken over a normal one is left to the preemption points.
 */
static void ttwu_do_activate(struct task_struct *p, int cpu)
{
	struct task_struct *curr = sim_cpus[cpu].curr;
	bool idle = curr == sim_cpus[cpu].idle && list_empty(&runqueue[cpu]);

	p->cpu = cpu;
	WRITE_ONCE(p->__state, TASK_RUNNING);
	enqueue(p);
	if (idle || (sim_task_is_rt(p) && !sim_task_is_rt(curr)))
		resched_curr(cpu);
}

/*
 * ttwu_queue_cond() (kernel/sched/core.c, 6.1): queue the wakeup on cpu's
 * wake list when cpu is active (cpu_active(): not while it goes down), allowed, another CPU than this one, and
 * has nothing to run (nr_running == 0).  All simulated CPUs share a
 * cache (cpus_share_cache()).
 */
static bool ttwu_queue_cond(struct task_struct *p, int cpu)
{
	if (!cpu_online(cpu) || sim_cpus[cpu].inactive)
		return false;
	if (p->nr_cpus_allowed == 1 && p->cpu != cpu)
		return false;
	if (cpu == sim_cpu_id())
		return false;
	return list_empty(&runqueue[cpu]);
}

/*
 * ttwu_queue() (kernel/sched/core.c): TTWU_QUEUE is a scheduler feature
 * that kernel/sched/features.h turns off on PREEMPT_RT; where on,
 * ttwu_queue_wakelist() puts the wakeup on the target's call-single queue
 * (__ttwu_queue_wakelist(): CSD_TYPE_TTWU), whose IPI, or the polling idle
 * loop's flush, activates it there (sched_ttwu_pending()).  Otherwise the
 * waker activates it at once.
 */
static void ttwu_queue(struct task_struct *p, int cpu)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && ttwu_queue_cond(p, cpu)) {
		p->cpu = cpu;
		p->wake_entry.u_flags = CSD_TYPE_TTWU;
		sim_cpus[cpu].cnt.ttwu_queued++;
		__smp_call_single_queue(cpu, &p->wake_entry.llist);
		return;
	}
	ttwu_do_activate(p, cpu);
}

/* sched_ttwu_pending() (kernel/sched/core.c): the queued wakeups, here. */
void sched_ttwu_pending(void *arg)
{
	struct llist_node *llist = arg;
	struct task_struct *p, *t;

	llist_for_each_entry_safe(p, t, llist, wake_entry.llist) {
		if (WARN_ON_ONCE(p->cpu != sim_cpu_id()))
			p->cpu = sim_cpu_id();
		ttwu_do_activate(p, sim_cpu_id());
	}
}

/*
 * select_task_rq() (kernel/sched/core.c): a task bound to its CPU
 * (kthread_bind(), is_percpu_thread()) or with migration disabled is woken
 * there; an unbound one (kthread_run()'s, the driver NAPI threads) on any
 * active CPU: under the explorer a choice (its previous CPU by default;
 * select_task_rq_fair() weighs load the simulator does not have), outside
 * it the previous CPU.
 */
static int select_task_rq(struct task_struct *p)
{
	char buf[NR_CPUS][48];
	const char *what[NR_CPUS];
	int cand[NR_CPUS], cpu;
	unsigned int n = 0;

	if (p->nr_cpus_allowed == 1 || p->migration_disabled ||
	    !explore_in_program())
		return p->cpu;
	for (cpu = p->cpu; n < NR_CPUS; cpu = (cpu + 1) % NR_CPUS) {
		if (n && cpu == p->cpu)
			break;
		if (!cpu_online(cpu) ||
		    (sim_cpus[cpu].inactive && cpu != p->cpu))
			continue;
		snprintf(buf[n], sizeof(buf[n]),
			 "select_task_rq(): %s on CPU%d", p->comm, cpu);
		what[n] = buf[n];
		cand[n++] = cpu;
	}
	return cand[explore_choose(EXPLORE_MIGRATE, n, what)];
}

/*
 * try_to_wake_up(p, state): wakes p only if it sleeps in one of state
 * (ttwu_state_match()).  A task still on its runqueue (it set its state
 * and has not scheduled out) is only made TASK_RUNNING (ttwu_runnable());
 * otherwise it is TASK_WAKING until ttwu_queue() activates it.
 */
int wake_up_state(struct task_struct *p, unsigned int state)
{
	explore_hook(__FILE__, __LINE__);
	/* raw_spin_lock_irqsave(&p->pi_lock); smp_mb__after_spinlock(). */
	explore_tso_mb();
	if (!p || p->exited)
		return 0;
	/*
	 * ttwu_state_match() on RT: a task blocked on an rtlock keeps the
	 * state it had in saved_state; a wakeup for that state is recorded
	 * there, and the task is TASK_RUNNING once it has the lock.
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT) &&
	    READ_ONCE(p->__state) == TASK_RTLOCK_WAIT &&
	    state != TASK_RTLOCK_WAIT) {
		if (!(p->saved_state & state))
			return 0;
		p->saved_state = TASK_RUNNING;
		return 1;
	}
	if (!(READ_ONCE(p->__state) & state))
		return 0;
	sim_cpus[p->cpu].cnt.wakeups++;
	if (p->on_rq) {
		WRITE_ONCE(p->__state, TASK_RUNNING);
		return 1;
	}
	WRITE_ONCE(p->__state, TASK_WAKING);
	ttwu_queue(p, select_task_rq(p));
	if (p->cpu == sim_cpu_id())
		sim_preempt_point("try_to_wake_up()'s preempt_enable()");
	return 1;
}

/* TASK_NORMAL: a parked kthread is woken by kthread_unpark() only. */
int wake_up_process(struct task_struct *p)
{
	return wake_up_state(p, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
}

static void task_entry(unsigned int hi, unsigned int lo)
{
	struct task_struct *p =
		(struct task_struct *)(((uintptr_t)hi << 32) | (uintptr_t)lo);

	fiber_finish(NULL, &sched_stack_bottom[p->cpu],
		     &sched_stack_size[p->cpu]);
	sim_kthread(p);
	p->exited = true;
	WRITE_ONCE(p->__state, TASK_DEAD);
	dequeue(p);
	fiber_start(NULL, sched_stack_bottom[p->cpu], sched_stack_size[p->cpu]);
	sim_fiber_exit(&sched_fib[p->cpu]);
}

/*
 * Tasks, their coroutines and stacks are kept for the next task, not
 * freed: the explorer resets the machine and creates its kthreads again
 * for every schedule.  A freed 128 KiB stack made malloc give the heap
 * back and fault it in again each time (most of an exploration's CPU
 * time), and the allocation of the rest a tenth of it.
 */
static struct sim_coroutine *co_pool[MAX_TASKS];
static struct task_struct *task_pool[MAX_TASKS];
static unsigned int nr_co_pooled, nr_task_pooled;

/* A coroutine with its stack (its fiber is made by the caller). */
static struct sim_coroutine *co_get(void)
{
	struct sim_coroutine *co;

	if (nr_co_pooled)
		return co_pool[--nr_co_pooled];
	co = calloc(1, sizeof(*co));
	if (co)
		co->stack = malloc(STACK_SIZE);
	if (!co || !co->stack)
		sim_bug(__FILE__, __LINE__, "out of memory");
	return co;
}

static void co_put(struct sim_coroutine *co)
{
	co->fake_stack = NULL;
	if (nr_co_pooled < MAX_TASKS) {
		co_pool[nr_co_pooled++] = co;
		return;
	}
	free(co->stack);
	free(co);
}

/* A zeroed task_struct. */
static struct task_struct *task_get(void)
{
	struct task_struct *p;

	if (!nr_task_pooled)
		return calloc(1, sizeof(*p));
	p = task_pool[--nr_task_pooled];
	memset(p, 0, sizeof(*p));
	return p;
}

static void task_put(struct task_struct *p)
{
#ifndef __SANITIZE_ADDRESS__ /* there a stale task pointer is reported */
	if (nr_task_pooled < MAX_TASKS)
		task_pool[nr_task_pooled++] = p;
	else
#endif
		free(p);
}

const char *sim_percpu_name(const char *fmt, int cpu)
{
	static struct {
		const char *fmt;
		int cpu;
		char comm[TASK_COMM_LEN];
	} names[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names) && names[i].fmt; i++)
		if (names[i].fmt == fmt && names[i].cpu == cpu)
			return names[i].comm;
	if (i == ARRAY_SIZE(names))
		i = 0; /* more formats than a boot has: reuse a slot */
	names[i].fmt = fmt;
	names[i].cpu = cpu;
	snprintf(names[i].comm, sizeof(names[i].comm), fmt, cpu);
	return names[i].comm;
}

struct task_struct *sim_task_create(int (*fn)(void *), void *data, int cpu,
				    const char *fmt, ...)
{
	char comm[TASK_COMM_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(comm, sizeof(comm), fmt, ap);
	va_end(ap);
	return sim_task_create_named(fn, data, cpu, comm);
}

struct task_struct *sim_task_create_named(int (*fn)(void *), void *data,
					  int cpu, const char *comm)
{
	struct task_struct *p = task_get();
	struct sim_coroutine *co;
	uintptr_t addr = (uintptr_t)p;
	size_t n;

	if (!p || nr_tasks >= MAX_TASKS)
		sim_bug(__FILE__, __LINE__, "out of simulated tasks");
	co = co_get();
	sim_fiber_make(&co->fib, co->stack, STACK_SIZE, task_entry,
		       (unsigned int)(addr >> 32), (unsigned int)addr);
	n = strnlen(comm, sizeof(p->comm) - 1);
	memcpy(p->comm, comm, n);
	p->comm[n] = '\0';
	p->pid = (int)nr_tasks + NR_CPUS + 1;
	p->cpu = cpu;
	/* kthread_create(): any CPU, until kthread_bind(). */
	p->nr_cpus_allowed = NR_CPUS;
	p->flags = PF_KTHREAD;
	p->threadfn = fn;
	p->data = data;
	p->is_kthread = true;
	p->ctx = co;
	/* kthread_create(): the new thread sleeps until woken. */
	p->__state = TASK_UNINTERRUPTIBLE;
	INIT_LIST_HEAD(&p->run_list);
	tasks[nr_tasks++] = p;
	return p;
}

/*
 * wait_task_inactive(): p is off its CPU in state match_state.  The
 * simulator does not wait: its only caller, __smpboot_create_thread() for
 * a thread with a create() callback, calls it once kthread_park() has
 * returned, so the thread is off its CPU or never will be.
 */
unsigned long wait_task_inactive(struct task_struct *p,
				 unsigned int match_state)
{
	return READ_ONCE(p->__state) == match_state && !p->on_rq &&
	       sim_cpus[p->cpu].curr != p;
}

/*
 * kthread_bind() (kernel/kthread.c): bound to cpu for good, as smpboot's
 * per-CPU threads and the per-CPU kworkers are (is_percpu_thread()).
 */
void sim_kthread_bind(struct task_struct *p, int cpu)
{
	p->cpu = cpu;
	p->nr_cpus_allowed = 1;
	p->flags |= PF_NO_SETAFFINITY;
}

/*
 * An RT task, or one an RT task waiting for its rt_mutex boosts
 * (rt_mutex_setprio(): priority inheritance).
 */
bool sim_task_is_rt(const struct task_struct *p)
{
	return p->rt || p->pi_boost;
}

/*
 * The next task: RT (or boosted) before normal; within a class the first queued, or,
 * with a schedule seed, any of them, or under the explorer the one it
 * chooses.  A task that gave the CPU up while still runnable
 * (need_resched) is not picked again while another task of its class
 * waits: that is why it was asked to yield.
 */
static struct task_struct *pick_next(int cpu, struct task_struct *prev)
{
	struct task_struct *p, *cand[16];
	const char *what[16];
	unsigned int n = 0, k;
	bool rt = false, skip_prev;

	list_for_each_entry(p, &runqueue[cpu], run_list)
		rt |= sim_task_is_rt(p);
	list_for_each_entry(p, &runqueue[cpu], run_list)
		n += sim_task_is_rt(p) == rt;
	skip_prev = prev && prev->on_rq && sim_task_is_rt(prev) == rt && n > 1;
	n = 0;
	list_for_each_entry(p, &runqueue[cpu], run_list) {
		if (sim_task_is_rt(p) != rt || (skip_prev && p == prev))
			continue;
		if (n < ARRAY_SIZE(cand)) {
			what[n] = p->comm;
			cand[n++] = p;
		}
	}
	if (!n)
		return NULL;
	if (explore_in_program())
		k = explore_choose(EXPLORE_PICK, n, what);
	else
		k = (unsigned int)sim_random(n);
	return cand[k];
}

/* Run task p on its CPU until it gives the CPU back. */
static void run_task(struct task_struct *p)
{
	struct sim_coroutine *const co = p->ctx;
	struct sim_cpu *c = &sim_cpus[p->cpu];

	c->curr = p;
	p->switches++;
	fiber_start(&sched_fake_stack[p->cpu], co->stack, STACK_SIZE);
	sim_fiber_switch(&sched_fib[p->cpu], &co->fib);
	fiber_finish(sched_fake_stack[p->cpu], NULL, NULL);
	c = &sim_cpus[p->cpu];
	c->curr = c->idle;
	/* A task still runnable goes to the back of the queue. */
	if (p->on_rq) {
		list_del(&p->run_list);
		list_add_tail(&p->run_list, &runqueue[p->cpu]);
		sim_load_balance(p);
	}
}

/*
 * The CPU goes idle: entries its flush left in its queue with nothing to
 * wake it never run (CONFIG_CSD_LOCK_WAIT_DEBUG's "csd: Detected
 * non-responsive CSD lock" is the kernel's report, when a sender waits).
 * Outside the explorer nothing runs concurrently, so this is final; under
 * it a sender may be between llist_add() and its IPI, and the explorer
 * checks it at quiescence instead (check_properties()).
 */
static void idle_stranded(int cpu)
{
	const char *msg;

	if (explore_executing() || !(msg = sim_call_queue_stranded(cpu)))
		return;
	sim_fail_at(sim_cpus[cpu].flush_left_file,
		    sim_cpus[cpu].flush_left_line, msg);
}

/*
 * The scheduler of one CPU: deliver queued csds (an idle CPU takes them in
 * its idle-loop flush, a busy one by IPI), then run tasks until none is
 * runnable or max_switches context switches were made.
 */
unsigned long sim_run_cpu(int cpu, unsigned long max_switches)
{
	int prev = sim_switch_cpu(cpu);
	unsigned long n = 0;

	struct task_struct *prev_task = NULL;

	/* A pending takedown: the stopper gets the CPU at the next switch. */
	while (n < max_switches && sim_cpus[cpu].online &&
	       !sim_takedown_pending(cpu)) {
		struct task_struct *p;

		/* IRQs on between tasks: the IPIs sent meanwhile arrive. */
		if (sim_cpus[cpu].ipi_pending)
			sim_deliver_ipi(cpu);
		/* Queued without an IPI: the polling idle loop's flush. */
		if (sim_call_queue_new(cpu) || sim_cpus[cpu].idle_need_resched)
			sim_idle_flush(cpu);
		p = pick_next(cpu, prev_task);
		/* do_idle() loops while its flushes queued more work. */
		if (!p &&
		    (sim_cpus[cpu].ipi_pending || sim_call_queue_new(cpu)))
			continue;
		if (!p) {
			idle_stranded(cpu);
			break;
		}
		run_task(p);
		prev_task = p;
		n++;
	}
	sim_switch_cpu(prev);
	return n;
}

/* Run every CPU in turn until the whole machine is quiescent. */
unsigned long sim_run_all(unsigned long max_switches)
{
	unsigned long total = 0, n;
	int cpu;

	do {
		int first = (int)sim_random(NR_CPUS);

		n = 0;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			n += sim_run_cpu((first + cpu) % NR_CPUS,
					 max_switches - total);
		total += n;
	} while (n && total < max_switches);
	return total;
}

static void switch_to_scheduler(void)
{
	struct task_struct *const p = current;
	struct sim_coroutine *const co = p->ctx;

	fiber_start(&co->fake_stack, sched_stack_bottom[p->cpu],
		    sched_stack_size[p->cpu]);
	sim_fiber_switch(&co->fib, &sched_fib[p->cpu]);
	fiber_finish(co->fake_stack, &sched_stack_bottom[p->cpu],
		     &sched_stack_size[p->cpu]);
}

/*
 * In atomic context: preempt_count() != 0 (preemption, BH, softirq,
 * hardirq, and RCU readers, which !PREEMPT_RCU counts there) or IRQs off.
 * Under PREEMPT_RCU (FULL, RT) a reader is preemptible: its depth is the
 * task's (saved and restored at each switch, __schedule()).  RT keeps BH
 * per task (softirq_disable_cnt), outside preempt_count: a BH-disabled
 * section is preemptible there.
 */
/* __schedule()'s modes (kernel/sched/core.c). */
#define SM_NONE 0
#define SM_PREEMPT 1
#define SM_RTLOCK_WAIT 2

static bool sim_in_atomic(void)
{
	struct sim_cpu *c = sim_this();

	return c->hardirq || c->serving_softirq || c->preempt_disable ||
	       c->bh_disable || c->irqs_off ||
	       (sim_preempt < SIM_PREEMPT_FULL && c->rcu_read_nesting);
}

/*
 * preempt_count() as the kernel composes it (include/linux/preempt.h):
 * on RT, BH and softirq state live in the task, not in preempt_count;
 * without PREEMPT_RCU, rcu_read_lock() is preempt_disable().
 */
unsigned int sim_preempt_count(void)
{
	struct sim_cpu *c = sim_this();
	unsigned int count = c->hardirq * HARDIRQ_OFFSET + c->preempt_disable;

	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		count += c->serving_softirq * SOFTIRQ_OFFSET +
			 c->bh_disable * SOFTIRQ_DISABLE_OFFSET;
	if (sim_preempt < SIM_PREEMPT_FULL)
		count += c->rcu_read_nesting;
	return count;
}

/*
 * migrate_disable()/migrate_enable() (kernel/sched/core.c): per task.  On
 * 6.1-rt (CONFIG_PREEMPT_LAZY, which Debian's rt-amd64 config has) the
 * outermost pair also does preempt_lazy_disable()/preempt_lazy_enable()
 * (the RT series' "sched: Add support for lazy preemption"): inside an RT
 * spinlock, local lock or BH-disabled section only a reschedule that is
 * not lazy (an RT task woken) preempts.  preempt_lazy_enable()'s
 * should_resched() is left to the preemption point that follows each
 * caller's migrate_enable() (the unlock's).
 */
void migrate_disable(void)
{
	if (!current->migration_disabled++ && IS_ENABLED(CONFIG_PREEMPT_RT))
		current->preempt_lazy_count++;
}

void migrate_enable(void)
{
	if (WARN_ON_ONCE(!current->migration_disabled))
		return;
	if (!--current->migration_disabled && IS_ENABLED(CONFIG_PREEMPT_RT))
		current->preempt_lazy_count--;
}

static unsigned long might_resched_prev_jiffy;

/*
 * __might_resched() (kernel/sched/core.c, CONFIG_DEBUG_ATOMIC_SLEEP):
 * sleeping is valid only with preempt_count() and the RCU nesting equal
 * to what the caller expects (offsets: 0 for a plain sleep, the RCU depth
 * for an RT spinlock) and IRQs on.  Rate-limited to one report per HZ, as
 * there.  Not modelled: the idle-task and system_state exemptions (the
 * test's own context stands for a task bound to its CPU).
 */
void __might_resched(const char *file, int line, unsigned int offsets)
{
	unsigned int nested = preempt_count() +
			      (rcu_preempt_depth() << MIGHT_RESCHED_RCU_SHIFT);
	bool preempt_rcu = sim_preempt >= SIM_PREEMPT_FULL;
	char rcu[64] = "";

	if (nested == offsets && !irqs_disabled())
		return;
	if (time_before(jiffies, might_resched_prev_jiffy + HZ) &&
	    might_resched_prev_jiffy)
		return;
	might_resched_prev_jiffy = jiffies;
	if (preempt_rcu)
		snprintf(rcu, sizeof(rcu), "RCU nest depth: %u, expected: %u\n",
			 rcu_preempt_depth(),
			 offsets >> MIGHT_RESCHED_RCU_SHIFT);
	sim_report(
		file, line,
		"BUG: sleeping function called from invalid context at %s:%d\n"
		"in_atomic(): %d, irqs_disabled(): %d, non_block: 0, pid: %d, name: %s\n"
		"preempt_count: %x, expected: %x\n%s",
		sim_tree_path(file), line, in_atomic(), irqs_disabled(),
		current->pid, current->comm, preempt_count(),
		offsets & MIGHT_RESCHED_PREEMPT_MASK, rcu);
}

/*
 * __might_sleep(): what every sleeping primitive calls first.  The
 * "do not call blocking ops when !TASK_RUNNING" check is not modelled.
 */
void __might_sleep(const char *file, int line)
{
	__might_resched(file, line, 0);
}

/*
 * schedule_debug() (kernel/sched/core.c) and rcu_note_context_switch()
 * (kernel/rcu/tree_plugin.h), at the caller's site: "scheduling while
 * atomic" with a non-zero preempt_count(); under PREEMPT_RCU a voluntary
 * switch in an RCU reader (on RT also a BH-disabled section or a spinlock
 * held).  With IRQs off the kernel has no check of its own in schedule():
 * the sleeping primitive's might_sleep() reports it, and so here.
 */
static void schedule_debug(struct task_struct *prev, const char *file, int line)
{
	if (in_atomic()) {
		sim_report(file, line,
			   "BUG: scheduling while atomic: %s/%d/0x%08x\n"
			   "at %s:%d\n",
			   prev->comm, prev->pid, preempt_count(),
			   sim_tree_path(file), line);
	} else if (sim_preempt >= SIM_PREEMPT_FULL && rcu_preempt_depth()) {
		sim_report(
			file, line,
			"WARNING: CPU: %d PID: %d at kernel/rcu/tree_plugin.h: "
			"Voluntary context switch within RCU read-side critical section!\n"
			"at %s:%d\n",
			sim_cpu_id(), prev->pid, sim_tree_path(file), line);
	} else if (irqs_disabled()) {
		__might_resched(file, line, 0);
	}
}

/*
 * __schedule(): a task that is not TASK_RUNNING leaves the runqueue,
 * unless it is preempted (SM_PREEMPT: it set its state on the way to a
 * sleep and stays runnable).  A preemption or an rtlock wait
 * (schedule_rtlock(), SM_RTLOCK_WAIT) is no voluntary switch for RCU.
 * Under PREEMPT_RCU the task's reader depth goes with it.
 */
static void __schedule(int mode, const char *file, int line)
{
	bool preempt = mode != SM_NONE;
	struct task_struct *p = current;
	bool preempt_rcu = sim_preempt >= SIM_PREEMPT_FULL;

	explore_hook(file, line);
	explore_tso_mb(); /* the runqueue lock */
	if (!p->ctx)
		sim_bug(file, line, "schedule() from the test's own context");
	if (!preempt)
		schedule_debug(p, file, line);
	if (mode != SM_PREEMPT && READ_ONCE(p->__state) != TASK_RUNNING)
		dequeue(p);
	if (preempt_rcu) {
		p->rcu_read_lock_nesting = sim_this()->rcu_read_nesting;
		sim_this()->rcu_read_nesting = 0;
	}
	switch_to_scheduler();
	if (preempt_rcu)
		sim_this()->rcu_read_nesting = p->rcu_read_lock_nesting;
}

void sim_schedule(const char *file, int line)
{
	__schedule(SM_NONE, file, line);
}

/* schedule_rtlock() (kernel/sched/core.c): an rt_mutex wait. */
void sim_schedule_rtlock(const char *file, int line)
{
	__schedule(SM_RTLOCK_WAIT, file, line);
}

/* Another task is waiting for this CPU. */
bool need_resched(void)
{
	struct task_struct *p = current;
	struct task_struct *q;

	list_for_each_entry(q, &runqueue[sim_cpu_id()], run_list)
		if (q != p)
			return true;
	return false;
}

/* An RT (or boosted) task waits for this CPU, and current is not one. */
static bool rt_waits(void)
{
	struct task_struct *p = current, *q;

	if (sim_task_is_rt(p))
		return false;
	list_for_each_entry(q, &runqueue[sim_cpu_id()], run_list)
		if (q != p && sim_task_is_rt(q))
			return true;
	return false;
}

/*
 * Whether a runnable task takes the CPU from current here.  Outside the
 * explorer it always does (need_resched() is taken to be set); under the
 * explorer it is a choice, "no" by default and counted against the
 * preemption bound when taken: in the kernel it depends on the woken
 * task's vruntime (check_preempt_wakeup()) or on the tick.  An RT (or
 * boosted) task over a normal one is no choice: check_preempt_curr()
 * set TIF_NEED_RESCHED at its wakeup.
 */
static void describe_preempt(char *buf, unsigned long len, unsigned int o,
			     const struct explore_words *w)
{
	if (len > 128)
		len = 128;
	if (o)
		snprintf(buf, len, "%s preempted (%s runnable) at %s", w->s[0],
			 w->s[1], w->s[2]);
	else
		snprintf(buf, len, "%s keeps the CPU at %s", w->s[0], w->s[2]);
}

static bool preempt_here(const char *where)
{
	struct task_struct *p = current, *q;
	struct explore_words w;

	if (!explore_in_program() || rt_waits())
		return true;
	list_for_each_entry(q, &runqueue[sim_cpu_id()], run_list)
		if (q != p)
			break;
	/* Task names last until the next boot, where is a literal. */
	w.s[0] = p->comm;
	w.s[1] = q->comm;
	w.s[2] = where;
	return explore_choose_described(EXPLORE_PREEMPT, 2, describe_preempt,
					&w) == 1;
}

/*
 * cond_resched(): counted on every call.  Under NONE and VOLUNTARY it is
 * the only place a running kthread gives the CPU to another task; under
 * FULL and RT the kernel's cond_resched() is empty, preemption happens at
 * preemption points instead (sim_preempt_point()).
 */
int sim_cond_resched(void)
{
	sim_watchdog();
	sim_this()->cnt.cond_resched++;
	if (sim_preempt >= SIM_PREEMPT_FULL)
		return 0;
	/*
	 * __might_resched() at the call site (the cond_resched() macro) has
	 * reported it; should_resched() is false with a non-zero
	 * preempt_count.
	 */
	if (sim_in_atomic())
		return 0;
	if (!current->ctx || !need_resched())
		return 0;
	if (!preempt_here("cond_resched()"))
		return 0;
	schedule();
	return 1;
}

/*
 * Which flag the wakeup of the waiting tasks set (kernel/sched/core.c,
 * 6.1-rt): TIF_NEED_RESCHED (resched_curr()) for an RT or boosted task
 * over a normal one, otherwise, under PREEMPT_LAZY (RT),
 * TIF_NEED_RESCHED_LAZY (resched_curr_lazy()), which should_resched()
 * honours only with preempt_lazy_count 0 (asm/preempt.h).  FULL has no
 * lazy flag.
 */
static bool resched_now(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || !current->preempt_lazy_count)
		return true;
	return rt_waits();
}

/*
 * Preemption points under FULL/RT, where the kernel has them, in task
 * context (not serving softirqs) with preemption and IRQs on (what names
 * the kernel function):
 * local_bh_enable(), spin_unlock(), preempt_enable() reaching zero,
 * spin_unlock_irq*() after the IRQ restore, the end of try_to_wake_up(),
 * the return from an interrupt (the explorer's and the IPIs) and the tick.
 * On RT that includes BH-disabled sections and RT spinlock sections (with
 * PREEMPT_LAZY only for an RT waker: resched_now()); another task of the
 * CPU then blocks on the lock (shims/sim/kernel/locking/rtmutex.c).
 */
void sim_preempt_point(const char *what)
{
	sim_watchdog();
	if (sim_preempt < SIM_PREEMPT_FULL || sim_in_atomic())
		return;
	/*
	 * A forced-threaded handler whose hardirq came while preemption (or
	 * BH, or an RT lock's RCU section) held its thread off: its thread
	 * (SCHED_FIFO) preempts here (the explorer's choice).
	 */
	explore_async_point(EXPLORE_ASYNC_PREEMPT, what, __FILE__, __LINE__);
	if (!current->ctx)
		return;
	if (need_resched() && resched_now() && preempt_here(what))
		__schedule(SM_PREEMPT, __FILE__, __LINE__);
}

/*
 * preempt_enable(): reaching zero, a preemption point
 * (preempt_schedule() under CONFIG_PREEMPTION).
 */
void sim_preempt_enable(void)
{
	if (!--sim_this()->preempt_disable)
		sim_preempt_point("preempt_enable(): preempt_schedule()");
}

/*
 * The tick on cpu; on the running CPU its interrupt's return is a
 * preemption point (scheduler_tick() may have set TIF_NEED_RESCHED).
 */
void sim_tick(int cpu)
{
	jiffies++;
	if (cpu == sim_cpu_id())
		sim_preempt_point("the tick's irqentry_exit_cond_resched()");
}

bool sim_runqueue_empty(int cpu)
{
	return list_empty(&runqueue[cpu]);
}

unsigned int sim_nr_tasks(void)
{
	return nr_tasks;
}

struct task_struct *sim_task(unsigned int i)
{
	return tasks[i];
}

void sim_sched_reset(void)
{
	unsigned int i;

	for (i = 0; i < nr_tasks; i++) {
		struct sim_coroutine *co = tasks[i]->ctx;

		/*
		 * A per-CPU kthread is smpboot's (the only caller of
		 * kthread_set_per_cpu() here): its data is the tree's
		 * smpboot_thread_data, freed by the thread itself when
		 * stopped.
		 */
		if (tasks[i]->per_cpu && !tasks[i]->exited)
			free(tasks[i]->data);
		co_put(co);
		task_put(tasks[i]);
	}
	nr_tasks = 0;
	sim_rtlock_reset();
	might_resched_prev_jiffy = 0;
	sim_cpuhp_reset();
	sim_workqueue_reset();
}

/* Boot: idle tasks, ksoftirqd and a kworker on every CPU. */
void sim_sched_boot(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *idle = &idle_tasks[cpu];

		memset(idle, 0, sizeof(*idle));
		strcpy(idle->comm, sim_percpu_name("swapper/%d", cpu));
		idle->cpu = cpu;
		/* init_idle(): bound to its CPU; pid 0 is swapper/0's. */
		idle->pid = cpu;
		idle->nr_cpus_allowed = 1;
		idle->flags = PF_IDLE | PF_KTHREAD | PF_NO_SETAFFINITY;
		INIT_LIST_HEAD(&idle->run_list);
		sim_cpus[cpu].idle = idle;
		sim_cpus[cpu].curr = idle;
		INIT_LIST_HEAD(&runqueue[cpu]);
	}
	sim_softirq_boot();
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		sim_workqueue_boot(cpu);
		sim_cpus[cpu].cnt.wakeups = 0;
	}
	/* Let them reach their first sleep. */
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (sim_cpus[cpu].online)
			sim_run_cpu(cpu, 16);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		memset(&sim_cpus[cpu].cnt, 0, sizeof(sim_cpus[cpu].cnt));
}
