// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks, the scheduler, kthreads, smpboot, workqueues and CPU hotplug of the
 * simulated machine.  Each task is a coroutine (ucontext) bound to a CPU;
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

#define STACK_SIZE	(128 * 1024)
#define MAX_TASKS	64

struct sim_coroutine {
	ucontext_t uc;
	void *stack;
};

static struct task_struct *tasks[MAX_TASKS];
static unsigned int nr_tasks;
static struct task_struct idle_tasks[NR_CPUS];
static struct list_head runqueue[NR_CPUS];
static ucontext_t sched_ctx[NR_CPUS];
/* Per CPU: under the explorer each CPU's scheduler runs on its own stack. */
static const void *sched_stack_bottom[NR_CPUS];
static size_t sched_stack_size[NR_CPUS];

/* Workqueues: one kworker per CPU, FIFO. */
static struct list_head work_list[NR_CPUS];
static struct task_struct *kworker[NR_CPUS];
static unsigned long work_runs[NR_CPUS];

/* smpboot */
static struct smp_hotplug_thread *hotplug_threads[8];
static unsigned int nr_hotplug_threads;
static unsigned int setup_runs[NR_CPUS];
static int (*cpu_dead_cb)(unsigned int cpu);

/* CPU hotplug: stop_machine(take_cpu_down) requested on this CPU. */
static bool takedown_pending[NR_CPUS];

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

/* try_to_wake_up(p, state): wakes p only if it sleeps in one of state. */
static int wake_up_state(struct task_struct *p, unsigned int state)
{
	explore_hook(__FILE__, __LINE__);
	if (!p || p->exited)
		return 0;
	if (!(READ_ONCE(p->__state) & state))
		return 0;
	WRITE_ONCE(p->__state, TASK_RUNNING);
	enqueue(p);
	sim_cpus[p->cpu].cnt.wakeups++;
	return 1;
}

/* TASK_NORMAL: a parked kthread is woken by kthread_unpark() only. */
int wake_up_process(struct task_struct *p)
{
	return wake_up_state(p, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
}

static void task_entry(unsigned int hi, unsigned int lo)
{
	struct task_struct *p = (struct task_struct *)
		(((uintptr_t)hi << 32) | (uintptr_t)lo);

	fiber_finish(NULL, &sched_stack_bottom[p->cpu], &sched_stack_size[p->cpu]);
	p->threadfn(p->data);
	p->exited = true;
	WRITE_ONCE(p->__state, TASK_DEAD);
	dequeue(p);
	fiber_start(NULL, sched_stack_bottom[p->cpu], sched_stack_size[p->cpu]);
	setcontext(&sched_ctx[p->cpu]);
}

struct task_struct *sim_task_create(int (*fn)(void *), void *data, int cpu,
				    const char *fmt, ...)
{
	struct task_struct *p = calloc(1, sizeof(*p));
	struct sim_coroutine *co = calloc(1, sizeof(*co));
	uintptr_t addr = (uintptr_t)p;
	va_list ap;

	if (!p || !co || nr_tasks >= MAX_TASKS)
		sim_bug(__FILE__, __LINE__, "out of simulated tasks");
	co->stack = malloc(STACK_SIZE);
	if (!co->stack)
		sim_bug(__FILE__, __LINE__, "out of memory");
	getcontext(&co->uc);
	co->uc.uc_stack.ss_sp = co->stack;
	co->uc.uc_stack.ss_size = STACK_SIZE;
	co->uc.uc_link = NULL;
	makecontext(&co->uc, (void (*)(void))task_entry, 2,
		    (unsigned int)(addr >> 32), (unsigned int)addr);
	va_start(ap, fmt);
	vsnprintf(p->comm, sizeof(p->comm), fmt, ap);
	va_end(ap);
	p->cpu = cpu;
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
 * The next task: RT before normal; within a class the first queued, or,
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
		rt |= p->rt;
	list_for_each_entry(p, &runqueue[cpu], run_list)
		n += p->rt == rt;
	skip_prev = prev && prev->on_rq && prev->rt == rt && n > 1;
	n = 0;
	list_for_each_entry(p, &runqueue[cpu], run_list) {
		if (p->rt != rt || (skip_prev && p == prev))
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
	struct sim_coroutine *co = p->ctx;
	struct sim_cpu *c = &sim_cpus[p->cpu];
	void *fake = NULL;

	c->curr = p;
	p->switches++;
	fiber_start(&fake, co->stack, STACK_SIZE);
	swapcontext(&sched_ctx[p->cpu], &co->uc);
	fiber_finish(fake, NULL, NULL);
	c = &sim_cpus[p->cpu];
	c->curr = c->idle;
	/* A task still runnable goes to the back of the queue. */
	if (p->on_rq) {
		list_del(&p->run_list);
		list_add_tail(&p->run_list, &runqueue[p->cpu]);
	}
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
	       !takedown_pending[cpu]) {
		struct task_struct *p;

		if (sim_csd_pending(cpu)) {
			if (list_empty(&runqueue[cpu]))
				sim_idle_flush(cpu);
			else
				sim_deliver_ipi(cpu);
		}
		p = pick_next(cpu, prev_task);
		if (!p)
			break;
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
	struct task_struct *p = current;
	struct sim_coroutine *co = p->ctx;
	void *fake = NULL;

	fiber_start(&fake, sched_stack_bottom[p->cpu], sched_stack_size[p->cpu]);
	swapcontext(&co->uc, &sched_ctx[p->cpu]);
	fiber_finish(fake, &sched_stack_bottom[p->cpu], &sched_stack_size[p->cpu]);
}

/*
 * In atomic context: preempt_count() != 0 (preemption, BH, softirq,
 * hardirq, and RCU readers, which !PREEMPT_RCU counts there) or IRQs off.
 * RT nests BH and RCU per task and may preempt inside them; the simulator
 * counts them per CPU and so never switches tasks there.
 */
static bool sim_in_atomic(void)
{
	struct sim_cpu *c = sim_this();

	return c->hardirq || c->serving_softirq || c->preempt_disable ||
	       c->bh_disable || c->rcu_read_nesting || c->irqs_off;
}

/* __schedule(): a task that is not TASK_RUNNING leaves the runqueue. */
void schedule(void)
{
	struct task_struct *p = current;

	explore_hook(__FILE__, __LINE__);
	if (!p->ctx)
		sim_bug(__FILE__, __LINE__,
			"schedule() from the test's own context");
	if (READ_ONCE(p->__state) != TASK_RUNNING) {
		/*
		 * schedule_debug()'s "scheduling while atomic", and
		 * rcu_note_context_switch() for an open RCU reader.
		 */
		WARN_ON_ONCE(sim_in_atomic());
		dequeue(p);
	}
	switch_to_scheduler();
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

/*
 * Whether a runnable task takes the CPU from current here.  Outside the
 * explorer it always does (need_resched() is taken to be set); under the
 * explorer it is a choice, "no" by default and counted against the
 * preemption bound when taken: in the kernel it depends on the woken
 * task's vruntime (check_preempt_wakeup()) or on the tick.
 */
static bool preempt_here(void)
{
	struct task_struct *p = current, *q;
	char no[64], yes[64];
	const char *what[2] = { no, yes };

	if (!explore_in_program())
		return true;
	list_for_each_entry(q, &runqueue[sim_cpu_id()], run_list)
		if (q != p)
			break;
	snprintf(no, sizeof(no), "%s keeps the CPU", p->comm);
	snprintf(yes, sizeof(yes), "%s preempted (%s runnable)", p->comm,
		 q->comm);
	return explore_choose(EXPLORE_PREEMPT, 2, what) == 1;
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
	 * __might_resched() (CONFIG_DEBUG_ATOMIC_SLEEP) reports it, and
	 * should_resched() is false with a non-zero preempt_count.
	 */
	if (WARN_ON_ONCE(sim_in_atomic()))
		return 0;
	if (!current->ctx || !need_resched())
		return 0;
	if (!preempt_here())
		return 0;
	schedule();
	return 1;
}

/*
 * Preemption points under FULL/RT: local_bh_enable() and spin_unlock() in
 * task context (not serving softirqs) with nothing held.  Simplified: the
 * kernel also preempts on the tick and on return from interrupt, and on RT
 * inside BH-disabled sections too (another task then blocks on the BH lock
 * at its own local_bh_disable(), which this model folds into "not
 * preempted").
 */
void sim_preempt_point(void)
{
	sim_watchdog();
	if (sim_preempt < SIM_PREEMPT_FULL || !current->ctx || sim_in_atomic())
		return;
	if (need_resched() && preempt_here())
		schedule();
}

void sim_tick(int cpu)
{
	(void)cpu;
	jiffies++;
}

bool kthread_should_stop(void)
{
	return current->should_stop;
}

bool kthread_should_park(void)
{
	return current->should_park;
}

void kthread_parkme(void)
{
	for (;;) {
		set_current_state(TASK_PARKED);
		if (!current->should_park)
			break;
		current->parked = true;
		schedule();
	}
	current->parked = false;
	__set_current_state(TASK_RUNNING);
}

/* kthread_unpark(): the parked thread runs again (kernel/kthread.c). */
static void kthread_unpark(struct task_struct *k)
{
	k->should_park = false;
	wake_up_state(k, TASK_PARKED);
}

int kthread_stop(struct task_struct *k)
{
	k->should_stop = true;
	kthread_unpark(k);
	wake_up_process(k);
	sim_run_cpu(k->cpu, 1000);
	return 0;
}

struct task_struct *kthread_create_on_cpu(int (*fn)(void *), void *data,
					  unsigned int cpu, const char *name)
{
	return sim_task_create(fn, data, (int)cpu, name, cpu);
}

/* Workqueues */
static int kworker_fn(void *data)
{
	int cpu = (int)(uintptr_t)data;

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(&work_list[cpu])) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		while (!list_empty(&work_list[cpu])) {
			struct work_struct *w = list_first_entry(&work_list[cpu],
								 struct work_struct,
								 entry);

			list_del_init(&w->entry);
			w->pending = false;
			work_runs[cpu]++;
			w->func(w);
			cond_resched();
		}
	}
	return 0;
}

bool schedule_work_on(int cpu, struct work_struct *work)
{
	if (work->pending)
		return false;
	work->pending = true;
	work->cpu = cpu;
	list_add_tail(&work->entry, &work_list[cpu]);
	wake_up_process(kworker[cpu]);
	return true;
}

bool schedule_work(struct work_struct *work)
{
	return schedule_work_on(sim_cpu_id(), work);
}

bool work_pending(struct work_struct *work)
{
	return work->pending;
}

bool cancel_work_sync(struct work_struct *work)
{
	bool was = work->pending;

	if (was) {
		list_del_init(&work->entry);
		work->pending = false;
	}
	return was;
}

bool flush_work(struct work_struct *work)
{
	bool was = work->pending;

	if (was)
		sim_run_cpu(work->cpu, 1000);
	return was;
}

unsigned long sim_work_runs(int cpu)
{
	return work_runs[cpu];
}

/* smpboot_thread_fn() (kernel/smpboot.c). */
struct smpboot_thread_data {
	unsigned int cpu;
	unsigned int status;	/* HP_THREAD_NONE, _ACTIVE, _PARKED */
	struct smp_hotplug_thread *ht;
};

enum { HP_THREAD_NONE, HP_THREAD_ACTIVE, HP_THREAD_PARKED };

static int smpboot_thread_fn(void *data)
{
	struct smpboot_thread_data *td = data;
	struct smp_hotplug_thread *ht = td->ht;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			if (ht->cleanup && td->status != HP_THREAD_NONE)
				ht->cleanup(td->cpu, cpu_online(td->cpu));
			free(td);
			return 0;
		}
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			if (ht->park && td->status == HP_THREAD_ACTIVE) {
				ht->park(td->cpu);
				td->status = HP_THREAD_PARKED;
			}
			kthread_parkme();
			continue;
		}
		BUG_ON(td->cpu != (unsigned int)smp_processor_id());
		switch (td->status) {
		case HP_THREAD_NONE:
			__set_current_state(TASK_RUNNING);
			setup_runs[td->cpu]++;
			if (ht->setup)
				ht->setup(td->cpu);
			td->status = HP_THREAD_ACTIVE;
			continue;
		case HP_THREAD_PARKED:
			__set_current_state(TASK_RUNNING);
			if (ht->unpark)
				ht->unpark(td->cpu);
			td->status = HP_THREAD_ACTIVE;
			continue;
		}
		if (!ht->thread_should_run(td->cpu)) {
			schedule();
		} else {
			__set_current_state(TASK_RUNNING);
			ht->thread_fn(td->cpu);
		}
	}
}

static struct task_struct *smpboot_create(struct smp_hotplug_thread *ht,
					  unsigned int cpu)
{
	struct smpboot_thread_data *td = calloc(1, sizeof(*td));
	struct task_struct *tsk;

	if (!td)
		sim_bug(__FILE__, __LINE__, "out of memory");
	td->cpu = cpu;
	td->ht = ht;
	tsk = sim_task_create(smpboot_thread_fn, td, (int)cpu,
			      ht->thread_comm, cpu);
	*per_cpu_ptr(ht->store, cpu) = tsk;
	if (ht->create)
		ht->create(cpu);
	return tsk;
}

/*
 * smpboot_register_percpu_thread(): a thread per online CPU, started (it
 * runs setup() the first time its CPU schedules it).
 */
int smpboot_register_percpu_thread(struct smp_hotplug_thread *ht)
{
	unsigned int cpu;

	if (nr_hotplug_threads >= ARRAY_SIZE(hotplug_threads))
		return -ENOMEM;
	hotplug_threads[nr_hotplug_threads++] = ht;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		wake_up_process(smpboot_create(ht, cpu));
	}
	return 0;
}

void smpboot_unregister_percpu_thread(struct smp_hotplug_thread *ht)
{
	unsigned int cpu, i;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *tsk = *per_cpu_ptr(ht->store, cpu);

		if (tsk)
			kthread_stop(tsk);
	}
	for (i = 0; i < nr_hotplug_threads; i++)
		if (hotplug_threads[i] == ht)
			hotplug_threads[i] = hotplug_threads[--nr_hotplug_threads];
}

unsigned int sim_smpboot_setup_runs(int cpu)
{
	return setup_runs[cpu];
}

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu))
{
	(void)name;
	(void)startup;
	if (state == CPUHP_NET_DEV_DEAD)
		cpu_dead_cb = teardown;
	return 0;
}

/*
 * CPU hotplug, as kernel/cpu.c runs it for cpu_down(cpu) and cpu_up(cpu),
 * reduced to the states the code under test depends on:
 *
 *   CPUHP_AP_SMPBOOT_THREADS  smpboot_park_threads(): kthread_park() each
 *                             per-CPU thread of the outgoing CPU, last
 *                             registered first (backlog_napi before
 *                             ksoftirqd), waiting for each to park
 *   CPUHP_TEARDOWN_CPU        takedown_cpu(): stop_machine(take_cpu_down)
 *                             on the outgoing CPU; the control CPU waits
 *                             with IRQs off until it is dead
 *   CPUHP_NET_DEV_DEAD        dev_cpu_dead() on the control CPU
 *
 * and back up: online, smpboot_unpark_threads() in registration order.
 *
 * Simplified: in the kernel the parking is done by the outgoing CPU's
 * cpuhp/N thread, here by the control side (the threads see the same
 * requests); the stopper takes the CPU at its next context switch, not at
 * the next preemption point; tasks left runnable on a dead CPU are not
 * migrated but wait for it to come back (the per-CPU kworker; nothing the
 * code under test queues); the other DEAD and DYING states (timers, RCU,
 * the scheduler's own) are not modelled; a dead CPU's pending softirq bits
 * stay set until it is back, as in irq_stat.
 *
 * Under the explorer, cpu_down() is a program on the control CPU and the
 * outgoing CPU runs sim_cpu_idle() as its program; outside it the control
 * side runs the outgoing CPU's scheduler itself.
 */

/* The per-CPU threads in smpboot registration order: ksoftirqd first. */
static unsigned int percpu_threads(int cpu, struct task_struct **t)
{
	unsigned int i, n = 0;

	t[n++] = per_cpu(ksoftirqd, cpu);
	for (i = 0; i < nr_hotplug_threads; i++) {
		struct task_struct *tsk = *per_cpu_ptr(hotplug_threads[i]->store, cpu);

		if (tsk)
			t[n++] = tsk;
	}
	return n;
}

static int task_parked(void *arg)
{
	struct task_struct *p = arg;

	return p->parked && !p->on_rq;
}

/* kthread_park(): ask, wake, wait until it sleeps in kthread_parkme(). */
static void kthread_park(struct task_struct *p)
{
	p->should_park = true;
	wake_up_process(p);
	if (explore_in_program()) {
		char what[48];

		snprintf(what, sizeof(what), "%s to park", p->comm);
		explore_wait_until(task_parked, p, EXPLORE_WAIT_IRQS, what);
		return;
	}
	sim_run_cpu(p->cpu, 1000);
	if (!task_parked(p))
		sim_bug(__FILE__, __LINE__, "kthread_park(): the thread did not park");
}

/*
 * take_cpu_down() (kernel/cpu.c), the stopper on the outgoing CPU with
 * IRQs off: __cpu_disable() takes it out of cpu_online_mask, then the
 * DYING states run, of which smpcfd_dying_cpu() runs the csds still queued
 * for it (__flush_smp_call_function_queue(false)): their raises are never
 * run there.  Then the CPU is dead.
 */
static void take_cpu_down(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();

	c->irqs_off = true;
	WRITE_ONCE(c->online, false);
	sim_dying_flush(cpu);
	WRITE_ONCE(takedown_pending[cpu], false);
	sim_switch_cpu(prev);
}

static int cpu_dead(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	return !READ_ONCE(sim_cpus[cpu].online) && !READ_ONCE(takedown_pending[cpu]);
}

/* cpu_down(cpu) from the current (control) CPU. */
void sim_cpu_down(int cpu, int control_cpu)
{
	struct task_struct *t[ARRAY_SIZE(hotplug_threads) + 1];
	int prev = sim_switch_cpu(control_cpu);
	unsigned int n = percpu_threads(cpu, t);

	while (n--)
		kthread_park(t[n]);
	if (explore_in_program()) {
		WRITE_ONCE(takedown_pending[cpu], true);
		/* multi_cpu_stop(): the control CPU waits with IRQs off. */
		explore_wait_until(cpu_dead, (void *)(uintptr_t)cpu, 0,
				   "take_cpu_down() on the outgoing CPU");
	} else {
		take_cpu_down(cpu);
	}
	if (cpu_dead_cb) {
		explore_point_named("CPUHP_NET_DEV_DEAD: dev_cpu_dead()");
		cpu_dead_cb((unsigned int)cpu);
	}
	sim_switch_cpu(prev);
}

/* cpu_up(cpu): online, unpark; outside the explorer, let it run. */
void sim_cpu_up(int cpu)
{
	struct task_struct *t[ARRAY_SIZE(hotplug_threads) + 1];
	unsigned int i, n = percpu_threads(cpu, t);

	sim_cpus[cpu].irqs_off = false;
	WRITE_ONCE(sim_cpus[cpu].online, true);
	for (i = 0; i < n; i++)
		kthread_unpark(t[i]);
	if (!explore_in_program())
		sim_run_cpu(cpu, 1000);
}

static int cpu_has_work(void *arg)
{
	int cpu = (int)(uintptr_t)arg;

	return !list_empty(&runqueue[cpu]) || sim_csd_pending(cpu) ||
	       READ_ONCE(takedown_pending[cpu]);
}

/*
 * An explorer program: the life of cpu until it is taken down.  Its
 * scheduler runs whatever is runnable; idle, it waits for work (taking
 * interrupts meanwhile, do_idle()); when cpu_down() asks for it, the
 * stopper runs take_cpu_down() here and the program ends.
 */
void sim_cpu_idle(int cpu)
{
	while (READ_ONCE(sim_cpus[cpu].online)) {
		explore_point_named("idle loop, about to schedule");
		if (READ_ONCE(takedown_pending[cpu])) {
			take_cpu_down(cpu);
			break;
		}
		if (sim_run_cpu(cpu, 1000) || cpu_has_work((void *)(uintptr_t)cpu))
			continue;
		if (!explore_in_program())
			break;
		explore_wait_until(cpu_has_work, (void *)(uintptr_t)cpu,
				   EXPLORE_WAIT_IRQS | EXPLORE_WAIT_IDLE,
				   "work");
	}
}

/* smpboot_thread_fn() with softirq_threads (kernel/softirq.c). */
static int ksoftirqd_fn(void *data)
{
	(void)data;
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		/* smpboot parks before running anything. */
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			kthread_parkme();
			continue;
		}
		if (!local_softirq_pending()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		sim_run_ksoftirqd();
		cond_resched();
	}
	return 0;
}

void sim_sched_reset(void)
{
	unsigned int i;

	for (i = 0; i < nr_tasks; i++) {
		struct sim_coroutine *co = tasks[i]->ctx;

		if (tasks[i]->threadfn == smpboot_thread_fn && !tasks[i]->exited)
			free(tasks[i]->data);
		free(co->stack);
		free(co);
		free(tasks[i]);
	}
	nr_tasks = 0;
	nr_hotplug_threads = 0;
	cpu_dead_cb = NULL;
	memset(takedown_pending, 0, sizeof(takedown_pending));
	memset(setup_runs, 0, sizeof(setup_runs));
	memset(work_runs, 0, sizeof(work_runs));
}

/* Boot: idle tasks, ksoftirqd and a kworker on every CPU. */
void sim_sched_boot(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *idle = &idle_tasks[cpu];

		memset(idle, 0, sizeof(*idle));
		snprintf(idle->comm, sizeof(idle->comm), "swapper/%u", (unsigned int)cpu % 1000U);
		idle->cpu = cpu;
		INIT_LIST_HEAD(&idle->run_list);
		sim_cpus[cpu].idle = idle;
		sim_cpus[cpu].curr = idle;
		INIT_LIST_HEAD(&runqueue[cpu]);
		INIT_LIST_HEAD(&work_list[cpu]);
		per_cpu(ksoftirqd, cpu) = sim_task_create(ksoftirqd_fn, NULL,
							  cpu, "ksoftirqd/%d",
							  cpu);
		kworker[cpu] = sim_task_create(kworker_fn,
					       (void *)(uintptr_t)cpu, cpu,
					       "kworker/%d:0", cpu);
		wake_up_process(per_cpu(ksoftirqd, cpu));
		wake_up_process(kworker[cpu]);
		sim_cpus[cpu].cnt.wakeups = 0;
	}
	/* Let them reach their first sleep. */
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (sim_cpus[cpu].online)
			sim_run_cpu(cpu, 16);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		memset(&sim_cpus[cpu].cnt, 0, sizeof(sim_cpus[cpu].cnt));
}
