// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer: stateless, CHESS-style model checking of the
 * simulated machine.  A scenario gives each simulated CPU a program (a
 * coroutine with its own stack); one runs at a time.  At every scheduling
 * point (sim/explore.h) the running program yields to the explorer, which
 * chooses what runs next: a program (the same one, or another: a context
 * switch between CPUs) or the delivery of one of the scenario's interrupts
 * on its CPU.
 *
 * Inside a program, the simulated scheduler of its CPU makes choices too
 * (explore_choose(), shims/sim/kernel/sched/core.c): which runnable task runs next, and
 * whether a running task is preempted at a preemption point by another
 * runnable one.  They are steps of the schedule like the switches.
 *
 * A schedule is the list of those choices.  The default policy keeps the
 * running program running (and, when it blocks or ends, takes the lowest
 * enabled one; when none is, delivers the first interrupt that can be),
 * lets each CPU pick its tasks FIFO and never preempts a task; a schedule
 * is written as its deviations from that policy: "STEP:CHOICE,...", CHOICE
 * a program index, "iN" for interrupt N, "pN" for the Nth runnable task,
 * "y" for a preemption.  Exploration is a depth-first search over
 * re-executions (sim_reset() and the scenario's setup each time), bounded
 * by the number of preemptions (a switch away from a program, or from a
 * task, that could have continued; CHESS), followed by optional seeded
 * random walks.
 *
 * A scenario's invariant() is checked after every step.  After each
 * schedule the machine is run to quiescence (sim_run_all()) and the
 * properties are checked: every program ended (no deadlock or
 * livelock), no packet outstanding, no WARN, no pr_warn_once, the context
 * checker clean, no softirq raised from SMP-call context under RT, plus the
 * scenario's own check() (queues, defer_lists, NAPIs left scheduled).
 */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <sim/explore.h>
#include <sim/watch.h>
#include "sim_internal.h"

int sim_explore_active;

#define EXP_STACK (256 * 1024)
#define EXP_MAX_STEPS 4096
/*
 * Options of a step: a program, an interrupt, a CPU's oldest store, or
 * the IPIs pending for a CPU.
 */
#define EXP_OPT_DRAIN (EXPLORE_MAX_THREADS + EXPLORE_MAX_IRQS)
#define EXP_OPT_IPI (EXP_OPT_DRAIN + NR_CPUS)
#define EXP_NR_OPTS (EXP_OPT_IPI + NR_CPUS)

struct exp_thread {
	const struct explore_actor *a;
	struct sim_fiber fib;
	void *fake_stack; /* AddressSanitizer's, while switched out */
	void *stack;
	const void *bottom; /* the stack it was on when it yielded */
	size_t size;
	bool done;
	int *wait_owner; /* spinning on this lock */
	int (*wait_cond)(void *); /* explore_wait_until() */
	void *wait_arg;
	unsigned int wait_flags;
	char wait_what[56];
	const char *label; /* explore_point_named() */
	int saved_cpu; /* sim_cur_cpu when it yielded */
	int pending_irq; /* to deliver when it resumes */
	int pending_ipi; /* the CPU whose IPIs it takes then */
	const char *file; /* where it yielded */
	int line;
	const char *tree_file; /* the last point outside the shims */
	int tree_line;
};

/* What a step chooses: the next program, or a choice of a CPU's scheduler. */
#define STEP_SWITCH 0
#define STEP_PICK EXPLORE_PICK
#define STEP_PREEMPT EXPLORE_PREEMPT
#define STEP_POLL EXPLORE_POLL
#define STEP_MIGRATE EXPLORE_MIGRATE

struct exp_step {
	unsigned char kind; /* STEP_* */
	unsigned char choice; /* option index */
	unsigned char cur; /* program running before (0xff: none) */
	unsigned char preempt; /* preemptions before this step */
	unsigned short enabled; /* option mask */
	unsigned short tried;
};

/* What ran in each step, for the counterexample. */
struct exp_event {
	unsigned char thread;
	signed char irq; /* -1, or the interrupt that started here */
	const char *file; /* where it yielded next */
	int line;
	const char *tree_file; /* and the tree's code it was in */
	int tree_line;
	char what[72]; /* a scheduler choice: what it chose */
};

static const struct explore_scenario *scn;
static struct exp_thread thr[EXPLORE_MAX_THREADS];
static int cur = -1; /* running program, -1: the explorer */
static struct sim_fiber main_fib; /* the explorer's side */
static void *main_fake_stack;
static const void *main_bottom;
static size_t main_size;
static bool irq_done[EXPLORE_MAX_IRQS];

static struct exp_step trace[EXP_MAX_STEPS];
static unsigned int nr_steps; /* steps of the current execution */
static unsigned int prefix_len; /* steps forced from trace[] */
static struct exp_event events[EXP_MAX_STEPS];
static bool overflow;
static unsigned int bound;
static unsigned int preempts; /* in the current execution */
static bool replay_broken;
static bool task_choices = true; /* NAPITEST_EXPLORE_TASKS */
static bool por = true; /* NAPITEST_EXPLORE_POR */
static unsigned long por_skipped;
static bool random_mode;
static unsigned long rng;

static void violate(const char *fmt, const char *arg);
static const char *short_path(const char *file);

/* ---- x86-TSO store buffers (sim/explore.h) ---- */

#define TSO_ENTRIES 16

struct tso_store {
	volatile void *addr;
	unsigned long size;
	const char *file; /* where the tree stored it */
	unsigned char bytes[8] __aligned(8);
};

int sim_tso_active;
static struct tso_store tso_buf[NR_CPUS][TSO_ENTRIES];
static unsigned int tso_len[NR_CPUS];

/* The oldest store of cpu's buffer reaches memory. */
static const char *tso_drain_one(int cpu)
{
	struct tso_store *e = &tso_buf[cpu][0];
	const char *file = e->file;

	memcpy((void *)(uintptr_t)e->addr, e->bytes, e->size);
	memmove(e, e + 1, --tso_len[cpu] * sizeof(*e));
	return file;
}

static void tso_drain(int cpu)
{
	while (tso_len[cpu])
		tso_drain_one(cpu);
}

void explore_tso_fence(void)
{
	tso_drain(sim_cur_cpu);
}

static bool on_own_stack(const volatile void *addr);

volatile void *explore_tso_store_slot(volatile void *addr, unsigned long size,
				      const char *file)
{
	int cpu = sim_cur_cpu;
	struct tso_store *e;

	/* The tree's stores, to memory others can see, from a program. */
	if (cur < 0 || size > sizeof(e->bytes) || strstr(file, "/shims/") ||
	    strstr(file, "/unit/") || on_own_stack(addr))
		return addr;
	if (tso_len[cpu] == TSO_ENTRIES)
		tso_drain_one(cpu);
	e = &tso_buf[cpu][tso_len[cpu]++];
	e->addr = addr;
	e->size = size;
	e->file = file;
	return e->bytes;
}

/* Store forwarding: this CPU's newest buffered store to addr, if any. */
const volatile void *explore_tso_load_slot(const volatile void *addr,
					   unsigned long size)
{
	const char *a = (const char *)(uintptr_t)addr;
	int cpu = sim_cur_cpu;
	unsigned int i = tso_len[cpu];

	while (i--) {
		struct tso_store *e = &tso_buf[cpu][i];
		const char *b = (const char *)(uintptr_t)e->addr;

		if (b == a && e->size == size)
			return e->bytes;
		/* A partial overlap: the hardware waits for the drain. */
		if (a < b + e->size && b < a + size) {
			tso_drain(cpu);
			break;
		}
	}
	return addr;
}

static void tso_reset(void)
{
	memset(tso_len, 0, sizeof(tso_len));
}

/* ---- The programs' side ---- */

/*
 * An interrupt's handler: in hardirq; or, for a device interrupt on
 * PREEMPT_RT (threaded), as 6.1-rt's forced-threaded handler runs it
 * (irq_forced_thread_fn()): in task context, between local_bh_disable()
 * and local_bh_enable(), which then runs the softirqs it raised.
 */
static void run_irq(const struct explore_actor *irq)
{
	explore_tso_mb(); /* taken as serializing: no reordering across */
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && irq->threaded) {
		local_bh_disable();
		irq->fn();
		local_bh_enable();
		return;
	}
	sim_hardirq_enter();
	irq->fn();
	sim_hardirq_exit();
	sim_preempt_point(); /* the interrupt return (irqentry_exit()) */
}

/*
 * Where the interrupt can arrive on c: IRQs on and not in hardirq; a
 * forced-threaded one where its thread can preempt the program: nothing
 * holds preemption off, and no BH-disabled section, spinlock or RCU reader
 * is open there (the thread would block on the BH lock or a spinlock and
 * run after it; the explorer takes that later point instead).
 */
static bool irq_can_arrive(const struct explore_actor *irq,
			   const struct sim_cpu *c)
{
	if (c->irqs_off || c->hardirq)
		return false;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || !irq->threaded)
		return true;
	return !c->preempt_disable && !c->bh_disable && !c->serving_softirq &&
	       !c->rcu_read_nesting;
}

static void yield_to_explorer(const char *file, int line)
{
	struct exp_thread *const t = &thr[cur];

	t->file = file;
	t->line = line;
	if (!strstr(file, "/shims/")) {
		t->tree_file = file;
		t->tree_line = line;
	}
	t->saved_cpu = sim_cur_cpu;
	fiber_start(&t->fake_stack, main_bottom, main_size);
	sim_fiber_switch(&t->fib, &main_fib);
	fiber_finish(t->fake_stack, &main_bottom, &main_size);
	/* The explorer chose this program again (cur was set by it). */
	sim_cur_cpu = t->saved_cpu;
	t->label = NULL;
	if (t->pending_irq >= 0) {
		const struct explore_actor *irq = &scn->irqs[t->pending_irq];
		int (*cond)(void *) = t->wait_cond;

		/* The handler runs (and yields) as itself, not as the wait. */
		t->pending_irq = -1;
		t->wait_cond = NULL;
		run_irq(irq);
		t->wait_cond = cond;
	}
	if (t->pending_ipi >= 0) {
		int (*cond)(void *) = t->wait_cond;
		int cpu = t->pending_ipi;

		t->pending_ipi = -1;
		t->wait_cond = NULL;
		sim_deliver_ipi(cpu);
		t->wait_cond = cond;
	}
}

void explore_point(const char *file, int line)
{
	if (cur < 0)
		return;
	yield_to_explorer(file, line);
}

/* The stack the running program is on: its own, or its CPU's task's. */
static bool on_own_stack(const volatile void *addr)
{
	const char *a = (const char *)(uintptr_t)addr;
	const char *lo = thr[cur].stack;

	if (a >= lo && a < lo + EXP_STACK)
		return true;
	return sim_on_task_stack(addr);
}

void explore_point_at(const volatile void *addr, const char *file, int line)
{
	if (cur < 0)
		return;
	if (por && on_own_stack(addr)) {
		por_skipped++;
		return;
	}
	yield_to_explorer(file, line);
}

void explore_lock_wait(int *owner, const char *file, int line)
{
	if (cur < 0)
		return;
	yield_to_explorer(file, line);
	while (*owner >= 0 && *owner != sim_cpu_id()) {
		thr[cur].wait_owner = owner;
		yield_to_explorer(file, line);
	}
	thr[cur].wait_owner = NULL;
}

int explore_in_program(void)
{
	return sim_explore_active && cur >= 0;
}

void explore_wait_until(int (*cond)(void *arg), void *arg, unsigned int flags,
			const char *what)
{
	struct exp_thread *t;

	if (cur < 0)
		sim_bug(__FILE__, __LINE__,
			"explore_wait_until() outside a program");
	t = &thr[cur];
	t->wait_cond = cond;
	t->wait_arg = arg;
	t->wait_flags = flags;
	snprintf(t->wait_what, sizeof(t->wait_what), "%s", what);
	do {
		/* An interrupt taken meanwhile runs here, then the test again. */
		yield_to_explorer(__FILE__, __LINE__);
		t = &thr[cur];
	} while (!cond(arg));
	t->wait_cond = NULL;
}

void explore_point_named(const char *what)
{
	if (cur < 0)
		return;
	thr[cur].label = what;
	yield_to_explorer(__FILE__, __LINE__);
}

static int rng_next(unsigned int n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (int)((rng >> 33) % n);
}

/* The cost of option o at step s against the preemption bound. */
static bool step_preempts(const struct exp_step *s, int o);

unsigned int explore_choose(int kind, unsigned int n, const char *const *what)
{
	struct exp_step *s;
	struct exp_event *e;
	unsigned short en;
	unsigned int o;

	if (cur < 0 || !sim_explore_active || !task_choices || n < 2)
		return 0;
	if (n > 16)
		n = 16;
	if (nr_steps >= EXP_MAX_STEPS) {
		overflow = true; /* the explorer ends the schedule */
		return 0;
	}
	en = (unsigned short)((1u << n) - 1);
	s = &trace[nr_steps];
	if (nr_steps < prefix_len) {
		o = s->choice;
		if (s->kind != kind || s->enabled != en ||
		    s->cur != (unsigned char)cur) {
			violate("%s", "schedule does not replay "
				      "(the scheduler's choice differs here)");
			replay_broken = true;
			o = 0;
		}
	} else {
		o = random_mode ? (unsigned int)rng_next(n) : 0;
		s->choice = (unsigned char)o;
		s->tried = (unsigned short)(1u << o);
	}
	s->kind = (unsigned char)kind;
	s->cur = (unsigned char)cur;
	s->enabled = en;
	s->preempt = (unsigned char)preempts;
	if (step_preempts(s, (int)o))
		preempts++;
	e = &events[nr_steps];
	e->thread = (unsigned char)cur;
	e->irq = -1;
	e->file = NULL;
	e->line = 0;
	e->tree_file = thr[cur].tree_file;
	e->tree_line = thr[cur].tree_line;
	if (kind == STEP_PICK)
		snprintf(e->what, sizeof(e->what), "sched: picks %s (of %u)",
			 what[o], n);
	else if (kind == STEP_POLL)
		snprintf(e->what, sizeof(e->what), "idle: %s", what[o]);
	else if (kind == STEP_MIGRATE)
		snprintf(e->what, sizeof(e->what), "migrate: %s", what[o]);
	else
		snprintf(e->what, sizeof(e->what), "sched: %s", what[o]);
	nr_steps++;
	return o;
}

static void thread_entry(unsigned int hi, unsigned int lo)
{
	struct exp_thread *t =
		(struct exp_thread *)(((uintptr_t)hi << 32) | (uintptr_t)lo);

	fiber_finish(NULL, &main_bottom, &main_size);
	sim_cur_cpu = t->a->cpu;
	t->a->fn();
	t->done = true;
	t->file = "(end)";
	t->line = 0;
	fiber_start(NULL, main_bottom, main_size);
	sim_fiber_exit(&main_fib);
}

/* ---- The explorer's side ---- */

static bool thread_waiting(const struct exp_thread *t)
{
	if (t->wait_owner && *t->wait_owner >= 0)
		return true;
	return t->wait_cond && !t->wait_cond(t->wait_arg);
}

static bool thread_enabled(int i)
{
	struct exp_thread *t = &thr[i];

	return !t->done && !thread_waiting(t);
}

/* Its CPU can take an interrupt: running, or waiting interruptibly. */
static bool thread_interruptible(int i)
{
	struct exp_thread *t = &thr[i];

	if (t->done)
		return false;
	return !thread_waiting(t) ||
	       (t->wait_cond && (t->wait_flags & EXPLORE_WAIT_IRQS));
}

/* The program of cpu, or -1. */
static int cpu_thread(int cpu)
{
	int i;

	for (i = 0; i < scn->nr_threads; i++)
		if (scn->threads[i].cpu == cpu)
			return i;
	return -1;
}

/*
 * A program of cpu is executing code there (not ended, not waiting idle):
 * the CPU is not in its idle loop (shims/sim/kernel/sched/core.c).
 */
bool explore_cpu_running(int cpu)
{
	int t;

	if (!sim_explore_active || !scn)
		return false;
	t = cpu_thread(cpu);
	if (t < 0 || thr[t].done)
		return false;
	return !(thr[t].wait_cond && (thr[t].wait_flags & EXPLORE_WAIT_IDLE));
}

/* cpu can take its pending IPIs now, on its program. */
static bool ipi_can_arrive(int cpu)
{
	const struct sim_cpu *c = &sim_cpus[cpu];
	int t = cpu_thread(cpu);

	/*
	 * A reschedule IPI alone is scheduler_ipi() folding a flag the
	 * preemption points already read: no choice of its own.
	 */
	if (!(c->ipi_pending & SIM_IPI_CALL_FUNC) || !c->online ||
	    c->irqs_off || c->hardirq)
		return false;
	if (t < 0 || !thread_interruptible(t) || !thr[t].file)
		return false;
	return thr[t].pending_irq < 0 && thr[t].pending_ipi < 0 &&
	       thr[t].saved_cpu == cpu;
}

/* The program an option runs: itself, or the program of the IRQ's CPU. */
static int opt_thread(int o)
{
	int i;

	if (o < EXPLORE_MAX_THREADS)
		return o;
	if (o >= EXP_OPT_IPI)
		return cpu_thread(o - EXP_OPT_IPI);
	if (o >= EXP_OPT_DRAIN)
		return -1; /* a drain runs no program */
	for (i = 0; i < scn->nr_threads; i++)
		if (scn->threads[i].cpu ==
		    scn->irqs[o - EXPLORE_MAX_THREADS].cpu)
			return i;
	return -1;
}

static unsigned short enabled_mask(void)
{
	unsigned short m = 0;
	int i;

	for (i = 0; i < scn->nr_threads; i++)
		if (thread_enabled(i))
			m |= 1u << i;
	for (i = 0; i < scn->nr_irqs; i++) {
		int t = opt_thread(EXPLORE_MAX_THREADS + i);
		const struct sim_cpu *c;

		if (irq_done[i] || t < 0 || !thread_interruptible(t))
			continue;
		c = &sim_cpus[scn->irqs[i].cpu];
		if (!irq_can_arrive(&scn->irqs[i], c) ||
		    thr[t].pending_irq >= 0)
			continue;
		/* Not before the program started: nothing to interrupt. */
		if (!thr[t].file)
			continue;
		m |= 1u << (EXPLORE_MAX_THREADS + i);
	}
	for (i = 0; sim_tso_active && i < NR_CPUS; i++)
		if (tso_len[i])
			m |= 1u << (EXP_OPT_DRAIN + i);
	for (i = 0; i < NR_CPUS; i++)
		if (ipi_can_arrive(i))
			m |= 1u << (EXP_OPT_IPI + i);
	return m;
}

static int default_choice(int running, unsigned short en)
{
	int i;

	if (running >= 0 && (en & (1u << running)))
		return running;
	for (i = 0; i < EXP_NR_OPTS; i++)
		if (en & (1u << i))
			return i;
	return -1;
}

static bool is_preemption(int running, unsigned short en, int o)
{
	return running >= 0 && (en & (1u << running)) &&
	       opt_thread(o) != running;
}

static int step_default(const struct exp_step *s)
{
	if (s->kind != STEP_SWITCH)
		return 0;
	return default_choice(s->cur == 0xff ? -1 : s->cur, s->enabled);
}

static bool step_preempts(const struct exp_step *s, int o)
{
	if (s->kind == STEP_PREEMPT)
		return o == 1;
	if (s->kind == STEP_PICK || s->kind == STEP_POLL ||
	    s->kind == STEP_MIGRATE)
		return false; /* the previous task blocked or was preempted */
	return is_preemption(s->cur == 0xff ? -1 : s->cur, s->enabled, o);
}

static void resume(int o)
{
	int t = opt_thread(o);
	struct exp_thread *const th = &thr[t];

	if (o >= EXP_OPT_IPI) {
		th->pending_ipi = o - EXP_OPT_IPI;
	} else if (o >= EXPLORE_MAX_THREADS) {
		irq_done[o - EXPLORE_MAX_THREADS] = true;
		th->pending_irq = o - EXPLORE_MAX_THREADS;
	}
	cur = t;
	sim_cur_cpu = th->file ? th->saved_cpu : th->a->cpu;
	fiber_start(&main_fake_stack, th->bottom, th->size);
	sim_fiber_switch(&main_fib, &th->fib);
	fiber_finish(main_fake_stack, &th->bottom, &th->size);
	cur = -1;
}

static char violation[256];
static bool bugged;

static void reset_thread(struct exp_thread *t)
{
	t->done = false;
	t->wait_owner = NULL;
	t->wait_cond = NULL;
	t->label = NULL;
	t->pending_irq = -1;
	t->pending_ipi = -1;
	t->file = NULL;
	t->line = 0;
	t->tree_file = NULL;
	t->tree_line = 0;
}

static void violate(const char *fmt, const char *arg)
{
	if (!violation[0])
		snprintf(violation, sizeof(violation), fmt, arg);
}

/*
 * One execution: the first prefix_len choices come from trace[], the rest
 * from the default policy (or the random walk).  Returns with the steps in
 * trace[0..nr_steps) and violation[] set if a property failed.
 */
static void execute(void)
{
	int running = -1, i;

	violation[0] = '\0';
	overflow = false;
	replay_broken = false;
	preempts = 0;
	memset(irq_done, 0, sizeof(irq_done));
	scn->setup();
	for (i = 0; i < scn->nr_threads; i++) {
		struct exp_thread *t = &thr[i];
		uintptr_t addr = (uintptr_t)t;

		t->a = &scn->threads[i];
		reset_thread(t);
		if (!t->stack)
			t->stack = malloc(EXP_STACK);
		sim_fiber_make(&t->fib, t->stack, EXP_STACK, thread_entry,
			       (unsigned int)(addr >> 32), (unsigned int)addr);
		t->bottom = t->stack;
		t->size = EXP_STACK;
	}
	tso_reset();
	sim_tso_active = scn->tso;
	sim_explore_active = 1;
	nr_steps = 0;
	for (;;) {
		unsigned short en = enabled_mask();
		unsigned int idx;
		struct exp_step *s;
		int o;

		if (!en) {
			/* Idle CPUs waiting for work do not keep it going. */
			for (i = 0; i < scn->nr_threads; i++)
				if (!thr[i].done &&
				    !(thr[i].wait_cond &&
				      (thr[i].wait_flags & EXPLORE_WAIT_IDLE)))
					break;
			if (i < scn->nr_threads && thr[i].wait_cond) {
				static char msg[160];

				snprintf(msg, sizeof(msg), "%s waits for %s",
					 thr[i].a->name, thr[i].wait_what);
				violate("deadlock: %s, which never comes", msg);
			} else if (i < scn->nr_threads) {
				violate("deadlock: %s spins on a lock nobody releases",
					thr[i].a->name);
			}
			break;
		}
		if (overflow || nr_steps >= EXP_MAX_STEPS) {
			overflow = true;
			violate("%s", "livelock: no end after the step limit");
			break;
		}
		s = &trace[nr_steps];
		if (nr_steps < prefix_len) {
			o = s->choice;
			if (s->kind != STEP_SWITCH || !(en & (1u << o)) ||
			    s->cur != (unsigned char)running) {
				violate("%s",
					"schedule does not replay (choice not enabled here)");
				break;
			}
		} else {
			o = default_choice(running, en);
			if (random_mode) {
				int opts[EXP_NR_OPTS], n = 0;

				for (i = 0; i < EXP_NR_OPTS; i++)
					if (en & (1u << i))
						opts[n++] = i;
				o = opts[rng_next((unsigned int)n)];
			}
			s->choice = (unsigned char)o;
			s->tried = (unsigned short)(1u << o);
		}
		s->kind = STEP_SWITCH;
		s->cur = (unsigned char)running;
		s->enabled = en;
		s->preempt = (unsigned char)preempts;
		if (is_preemption(running, en, o))
			preempts++;
		idx = nr_steps++;
		if (o >= EXP_OPT_DRAIN && o < EXP_OPT_IPI) {
			/* The program of that CPU shows the drain. */
			int cpu = o - EXP_OPT_DRAIN, t;
			const char *file = tso_drain_one(cpu);

			for (t = 0; t < scn->nr_threads - 1; t++)
				if (thr[t].a->cpu == cpu)
					break;
			events[idx].thread = (unsigned char)t;
			events[idx].irq = -1;
			events[idx].file = NULL;
			events[idx].line = 0;
			events[idx].tree_file = NULL;
			snprintf(events[idx].what, sizeof(events[idx].what),
				 "x86-TSO: CPU%d's store (%s) drains", cpu,
				 short_path(file));
			goto check;
		}
		resume(o);
		running = opt_thread(o);
		events[idx].thread = (unsigned char)running;
		events[idx].irq =
			o >= EXPLORE_MAX_THREADS && o < EXP_OPT_DRAIN ?
				(signed char)(o - EXPLORE_MAX_THREADS) :
				-1;
		events[idx].file = thr[running].file;
		events[idx].line = thr[running].line;
		events[idx].tree_file = thr[running].tree_file;
		events[idx].tree_line = thr[running].tree_line;
		events[idx].what[0] = '\0';
		if (o >= EXP_OPT_IPI)
			snprintf(events[idx].what, sizeof(events[idx].what),
				 "IPI> CPU%d's pending IPIs, then %s:%d",
				 o - EXP_OPT_IPI, short_path(thr[running].file),
				 thr[running].line);
		else if (thr[running].wait_cond)
			snprintf(events[idx].what, sizeof(events[idx].what),
				 "waits for %s", thr[running].wait_what);
		else if (thr[running].label)
			snprintf(events[idx].what, sizeof(events[idx].what),
				 "%s", thr[running].label);
		if (replay_broken)
			break;
check:
		if (scn->invariant && !violation[0]) {
			const char *msg = scn->invariant();

			if (msg) {
				violate("%s", msg);
				break;
			}
		}
	}
	sim_explore_active = 0;
	sim_tso_active = 0;
	if (violation[0])
		return; /* the machine is left as it is: reset next */
	/* The stores still buffered reach memory. */
	for (i = 0; i < NR_CPUS; i++)
		tso_drain(i);
	/* Interrupts never chosen arrive after the programs. */
	for (i = 0; i < scn->nr_irqs; i++) {
		if (irq_done[i])
			continue;
		{
			int prev = sim_switch_cpu(scn->irqs[i].cpu);

			run_irq(&scn->irqs[i]);
			sim_switch_cpu(prev);
		}
	}
	sim_run_all(100000);
	{
		struct sim_counters t = sim_total();
		const char *msg;
		static char buf[200];

		if (sim_skbs_outstanding()) {
			snprintf(buf, sizeof(buf), "%lu",
				 sim_skbs_outstanding());
			violate("packet lost: %s packet(s) neither delivered nor freed after quiescence",
				buf);
		}
		if (t.warns)
			violate("WARN: %s",
				sim_nr_warns ? sim_warns[0].msg : "?");
		if (t.pr_warn_once)
			violate("pr_warn_once: %s", sim_last_pr_warn);
		if (!sim_lockdep_clean())
			violate("context checker: %s", sim_lockdep_report());
		if (IS_ENABLED(CONFIG_PREEMPT_RT) && t.raises_in_smp_call)
			violate("%s",
				"RT: softirq raised from SMP-call context");
		if (scn->check && (msg = scn->check()))
			violate("%s", msg);
	}
}

/* The schedule as its deviations from the default policy. */
static void schedule_string(char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < nr_steps && n + 16 < len; i++) {
		const struct exp_step *s = &trace[i];

		if (s->choice == step_default(s))
			continue;
		if (s->kind == STEP_PICK)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:p%d",
					      n ? "," : "", i, s->choice);
		else if (s->kind == STEP_PREEMPT)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:y",
					      n ? "," : "", i);
		else if (s->kind == STEP_POLL)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:h",
					      n ? "," : "", i);
		else if (s->kind == STEP_MIGRATE)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:m%d",
					      n ? "," : "", i, s->choice);
		else if (s->choice >= EXP_OPT_IPI)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:c%d",
					      n ? "," : "", i,
					      s->choice - EXP_OPT_IPI);
		else if (s->choice >= EXP_OPT_DRAIN)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:d%d",
					      n ? "," : "", i,
					      s->choice - EXP_OPT_DRAIN);
		else if (s->choice >= EXPLORE_MAX_THREADS)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:i%d",
					      n ? "," : "", i,
					      s->choice - EXPLORE_MAX_THREADS);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u:%d",
					      n ? "," : "", i, s->choice);
	}
	if (!n)
		snprintf(buf, len, "-");
}

/* Parse "STEP:CHOICE,..." into a forced prefix (defaults in between). */
static bool parse_schedule(const char *str)
{
	unsigned int want[EXP_MAX_STEPS / 8][3], n = 0, i;

	if (!strcmp(str, "-")) {
		prefix_len = 0;
		return true;
	}
	while (*str && n < EXP_MAX_STEPS / 8) {
		unsigned int step, c;
		char *end;

		step = (unsigned int)strtoul(str, &end, 10);
		if (*end != ':')
			return false;
		str = end + 1;
		want[n][2] = STEP_SWITCH;
		if (*str == 'i') {
			c = EXPLORE_MAX_THREADS +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'd') {
			c = EXP_OPT_DRAIN +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'p') {
			c = (unsigned int)strtoul(str + 1, &end, 10);
			want[n][2] = STEP_PICK;
		} else if (*str == 'c') {
			c = EXP_OPT_IPI +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'y') {
			c = 1;
			end = (char *)str + 1;
			want[n][2] = STEP_PREEMPT;
		} else if (*str == 'h') {
			c = 1;
			end = (char *)str + 1;
			want[n][2] = STEP_POLL;
		} else if (*str == 'm') {
			c = (unsigned int)strtoul(str + 1, &end, 10);
			want[n][2] = STEP_MIGRATE;
		} else {
			c = (unsigned int)strtoul(str, &end, 10);
		}
		if (end == str || (*end && *end != ','))
			return false;
		str = *end == ',' ? end + 1 : end;
		want[n][0] = step;
		want[n][1] = c;
		n++;
	}
	/*
	 * Replay step by step: run the default policy, forcing the listed
	 * choices.  Done by re-executing with a growing prefix.
	 */
	prefix_len = 0;
	for (i = 0; i < n; i++) {
		unsigned int step = want[i][0];

		execute();
		if (nr_steps <= step || trace[step].kind != want[i][2] ||
		    !(trace[step].enabled & (1u << want[i][1])))
			return false;
		trace[step].choice = (unsigned char)want[i][1];
		prefix_len = step + 1;
	}
	return true;
}

/* net/core/dev.c:LINE of the tree, shims/..., unit/...: the short form. */
static const char *short_path(const char *file)
{
	static const char *const roots[] = { "/net/", "/kernel/", "/shims/",
					     "/unit/", "/include/" };
	const char *best = NULL;
	unsigned int i;

	if (!file)
		return "?";
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		const char *p = strstr(file, roots[i]);

		/* The first root after the tree's directory. */
		if (p && (!best || p < best))
			best = p;
	}
	return best ? best + 1 : file;
}

static void print_counterexample(FILE *f)
{
	char sched[512];
	unsigned int i, shown = 0;
	int ncol = scn->nr_threads;

	schedule_string(sched, sizeof(sched));
	if (violation[0] || bugged)
		fprintf(f, "  counterexample in scenario %s: %s\n", scn->name,
			violation[0] ? violation : "BUG (above)");
	else
		fprintf(f, "  schedule of scenario %s\n", scn->name);
	fprintf(f, "  replay: NAPITEST_SCHEDULE='%s/%s'\n", scn->name, sched);
	fprintf(f,
		"  each row: where that CPU stopped, about to do the operation at that\n"
		"  location (\"A > list.h:N\": a shim's point, reached after tree line A);\n"
		"  \"sched:\" rows: a choice of that CPU's scheduler on its way there\n");
	fprintf(f, "  %-6s", "step");
	for (i = 0; i < (unsigned int)ncol; i++)
		fprintf(f, " %-46s", thr[i].a ? thr[i].a->name : "?");
	fprintf(f, "\n");
	for (i = 0; i < nr_steps; i++) {
		const struct exp_event *e = &events[i];
		const struct exp_step *s = &trace[i];
		char loc[96];
		int c;

		/* Long runs of one program: show its switch points only. */
		if (shown > 400) {
			fprintf(f, "  ... %u more steps\n", nr_steps - i);
			break;
		}
		if (e->what[0])
			snprintf(loc, sizeof(loc), "%s%s",
				 e->irq >= 0 ? "IRQ> " : "", e->what);
		else if (e->file && strstr(e->file, "/shims/") && e->tree_file)
			/* A shim's point: name the tree's line it was reached from. */
			snprintf(loc, sizeof(loc), "%s%s:%d > %s:%d",
				 e->irq >= 0 ? "IRQ> " : "",
				 short_path(e->tree_file), e->tree_line,
				 strrchr(e->file, '/') + 1, e->line);
		else
			snprintf(loc, sizeof(loc), "%s%s:%d",
				 e->irq >= 0 ? "IRQ> " : "",
				 short_path(e->file), e->line);
		fprintf(f, "  %-6u", i);
		for (c = 0; c < ncol; c++)
			fprintf(f, " %-46s", c == e->thread ? loc : "");
		if (s->choice != step_default(s))
			fprintf(f, " <- %s",
				step_preempts(s, s->choice) ? "preempted" :
				s->kind == STEP_SWITCH	    ? "switch" :
							      "choice");
		fprintf(f, "\n");
		shown++;
	}
	fprintf(f, "  violated: %s\n",
		violation[0] ? violation : "(none: this schedule is clean)");
	/* Whole, before cmocka's failure lines on stderr. */
	fflush(f);
}

void explore_on_bug(void)
{
	if (!scn || !sim_explore_active)
		return;
	sim_explore_active = 0;
	bugged = true;
	/* The event of the step in progress. */
	if (cur >= 0 && nr_steps) {
		events[nr_steps - 1].thread = (unsigned char)cur;
		events[nr_steps - 1].file = "(BUG)";
		events[nr_steps - 1].line = 0;
		events[nr_steps - 1].what[0] = '\0';
	}
	fprintf(stderr, "  BUG while exploring:\n");
	print_counterexample(stderr);
}

/* CPU time of the process: printed for information, never a budget. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Next prefix of the bounded DFS; false when the tree is exhausted. */
static bool backtrack(void)
{
	int j;

	for (j = (int)nr_steps - 1; j >= 0; j--) {
		struct exp_step *s = &trace[j];
		unsigned short cand = s->enabled & ~s->tried;
		int o;

		for (o = 0; o < 16; o++) {
			if (!(cand & (1u << o)))
				continue;
			if (s->preempt + step_preempts(s, o) > bound) {
				s->tried |= (unsigned short)(1u << o);
				continue;
			}
			s->choice = (unsigned char)o;
			s->tried |= (unsigned short)(1u << o);
			prefix_len = (unsigned int)j + 1;
			return true;
		}
	}
	return false;
}

static void record(struct explore_result *r)
{
	r->schedules++;
	r->steps += nr_steps;
	if (!violation[0])
		return;
	if (!r->violations++) {
		schedule_string(r->first_schedule, sizeof(r->first_schedule));
		snprintf(r->first_violation, sizeof(r->first_violation), "%s",
			 violation);
		print_counterexample(stdout);
	}
}

static void run_scenario(const struct explore_scenario *s,
			 struct explore_result *r)
{
	const char *env = getenv("NAPITEST_SCHEDULE"), *only;
	double t0 = cpu_seconds();
	unsigned int walks = s->random_walks, nwalks;
	unsigned long max_schedules, seed;
	bool all;

	memset(r, 0, sizeof(*r));
	scn = s;
	bound = s->bound ? s->bound : 2;
	if (getenv("NAPITEST_EXPLORE_BOUND"))
		bound = (unsigned int)atoi(getenv("NAPITEST_EXPLORE_BOUND"));
	if (getenv("NAPITEST_EXPLORE_WALKS"))
		walks = (unsigned int)atoi(getenv("NAPITEST_EXPLORE_WALKS"));
	all = getenv("NAPITEST_EXPLORE_ALL") != NULL;
	task_choices = !getenv("NAPITEST_EXPLORE_TASKS") ||
		       atoi(getenv("NAPITEST_EXPLORE_TASKS")) != 0;
	por = !getenv("NAPITEST_EXPLORE_POR") ||
	      atoi(getenv("NAPITEST_EXPLORE_POR")) != 0;
	por_skipped = 0;
	max_schedules = s->max_schedules ? s->max_schedules : 200000;
	if (getenv("NAPITEST_EXPLORE_SCHEDULES"))
		max_schedules =
			strtoul(getenv("NAPITEST_EXPLORE_SCHEDULES"), NULL, 0);
	if (getenv("NAPITEST_EXPLORE_SECONDS"))
		printf("  %s: NAPITEST_EXPLORE_SECONDS is ignored: budgets are counted "
		       "in schedules (NAPITEST_EXPLORE_SCHEDULES)\n",
		       s->name);
	seed = getenv("NAPITEST_EXPLORE_SEED") ?
		       strtoul(getenv("NAPITEST_EXPLORE_SEED"), NULL, 0) :
		       1;
	rng = seed;
	random_mode = false;

	only = getenv("NAPITEST_EXPLORE_ONLY");
	if (only && *only && strcmp(only, s->name)) {
		printf("  %s: skipped (NAPITEST_EXPLORE_ONLY=%s)\n", s->name,
		       only);
		r->complete = 1;
		return;
	}
	if (env && *env) {
		const char *slash = strchr(env, '/');
		size_t nl = slash ? (size_t)(slash - env) : 0;

		if (slash &&
		    (strlen(s->name) != nl || strncmp(env, s->name, nl))) {
			printf("  %s: skipped (NAPITEST_SCHEDULE names another scenario)\n",
			       s->name);
			r->complete = 1;
			return;
		}
		if (!parse_schedule(slash ? slash + 1 : env)) {
			printf("  %s: NAPITEST_SCHEDULE does not parse or replay\n",
			       s->name);
			r->violations = 1;
			return;
		}
		execute();
		r->schedules = 1;
		r->steps = nr_steps;
		print_counterexample(stdout);
		if (violation[0]) {
			r->violations = 1;
			schedule_string(r->first_schedule,
					sizeof(r->first_schedule));
			snprintf(r->first_violation, sizeof(r->first_violation),
				 "%s", violation);
		}
		return;
	}

	prefix_len = 0;
	for (;;) {
		execute();
		record(r);
		/* One counterexample is enough unless all are wanted. */
		if (r->violations && !all)
			break;
		if (!backtrack()) {
			r->complete = 1;
			break;
		}
		/* The budget: a count, so the verdict is the same at any load. */
		if (r->schedules >= max_schedules)
			break;
	}
	random_mode = true;
	nwalks = 0;
	while (walks-- && !(r->violations && !all)) {
		prefix_len = 0;
		execute();
		record(r);
		nwalks++;
	}
	random_mode = false;
	r->seconds = cpu_seconds() - t0;
	printf("  %s: bound %u, %lu schedules%s + %u random walks (seed %lu), "
	       "%lu steps (%lu stack-local points skipped), %lu violating "
	       "[%.2f s CPU]\n",
	       s->name, bound, r->schedules - nwalks,
	       r->complete ? " (exhaustive)" :
	       r->violations && !all ?
			     " (stopped at the first counterexample)" :
			     " (INCOMPLETE: schedule budget reached)",
	       nwalks, seed, r->steps, por_skipped, r->violations, r->seconds);
	if (!r->complete && !r->violations)
		printf("  %s: INCOMPLETE: the bounded search was not exhausted "
		       "within %lu schedules (max_schedules, "
		       "NAPITEST_EXPLORE_SCHEDULES): not a pass\n",
		       s->name, max_schedules);
}

/*
 * The watch (sim/watch.h) is off during an exploration: a counterexample
 * says more than a last change, and the watch's checks at every point
 * would make the search four times slower.
 */
void explore_run(const struct explore_scenario *s, struct explore_result *r)
{
	sim_watch_suspend(1);
	run_scenario(s, r);
	sim_watch_suspend(0);
}

#ifdef SIM_EXPLORE_OUT_OF_LINE
volatile void *explore_tso_dst(volatile void *addr, unsigned long size,
			       const char *file)
{
	return sim_tso_active ? explore_tso_store_slot(addr, size, file) : addr;
}

const volatile void *explore_tso_src(const volatile void *addr,
				     unsigned long size)
{
	return sim_tso_active ? explore_tso_load_slot(addr, size) : addr;
}

void explore_tso_mb(void)
{
	if (sim_tso_active)
		explore_tso_fence();
}

void explore_hook(const char *file, int line)
{
	sim_step_at(file, line);
	if (sim_watch_active)
		sim_watch_point(file, line);
	if (sim_explore_active)
		explore_point(file, line);
}

void explore_hook_at(const volatile void *addr, const char *file, int line)
{
	sim_step_at(file, line);
	if (sim_watch_active)
		sim_watch_point(file, line);
	if (sim_explore_active)
		explore_point_at(addr, file, line);
}

void explore_hook_lock(int *owner, const char *file, int line)
{
	sim_step_at(file, line);
	if (sim_watch_active)
		sim_watch_point(file, line);
	if (sim_explore_active)
		explore_lock_wait(owner, file, line);
}
#endif
