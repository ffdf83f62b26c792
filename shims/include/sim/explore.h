/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interleaving explorer (shims/sim/explore/): CHESS-style systematic
 * exploration of the schedules of a few simulated CPUs, each running a
 * "program" (a coroutine) on the shared simulated machine.
 *
 * The shims call explore_hook(__FILE__, __LINE__) at every operation where
 * another CPU could observe or interfere (locks, atomic and non-atomic bit
 * operations, READ_ONCE/WRITE_ONCE, smp_store_release/cmpxchg/xchg, softirq
 * raise, wake_up_process, set_current_state, schedule, csd queueing).  The
 * hook is a single test of sim_explore_active: outside an exploration it
 * does nothing.  Inside one, the explorer may switch to another CPU's
 * program there.  Extracted code carries #line directives, so the locations
 * name net/core/dev.c:LINE of the tree under test.
 *
 * Included by linux/compiler.h: keep it free of other includes.
 */
#ifndef SHIM_SIM_EXPLORE_H
#define SHIM_SIM_EXPLORE_H

extern int sim_explore_active;
/* The watch (sim/watch.h) sees every hook too: where the tree changed what. */
extern int sim_watch_active;
void sim_watch_point(const char *file, int line);

/*
 * The hang watchdog (shims/sim/sim.c).  Every hook below, and every list
 * operation (linux/list.h), is a step; a scheduler point (sim_watchdog(),
 * at each preemption point and cond_resched()) and sim_reset() renew the
 * budget of SIM_HANG_STEPS steps.  Code that loops without reaching one,
 * as a kernel loop with IRQs off would, exhausts it: sim_hang() fails the
 * running test with "hang: no progress since FILE:LINE", the last line of
 * the tree (not of the shims) that the steps passed, kept in a small ring.
 */
#define SIM_TRAIL 16
struct sim_trail {
	const char *file;
	int line;
};
extern long sim_hang_budget;
extern struct sim_trail sim_trail[SIM_TRAIL];
extern unsigned int sim_trail_pos;
void sim_hang(void);
/*
 * Note file:line in the trail without a step or a point (a plain read of the
 * tree that a report may have to name: llist_empty()).  Out of line: no
 * branch of it counts in the tree's coverage.
 */
void sim_trail_note(const char *file, int line);

static inline __attribute__((__always_inline__, __unused__)) void sim_step(void)
{
	if (__builtin_expect(--sim_hang_budget < 0, 0))
		sim_hang();
}

static inline __attribute__((__always_inline__, __unused__)) void
sim_step_at(const char *file, int line)
{
	struct sim_trail *t = &sim_trail[++sim_trail_pos % SIM_TRAIL];

	t->file = file;
	t->line = line;
	sim_step();
}

void explore_point(const char *file, int line);
void explore_point_at(const volatile void *addr, const char *file, int line);
void explore_lock_wait(int *owner, const char *file, int line);

#ifdef SIM_EXPLORE_OUT_OF_LINE
/*
 * Coverage builds: the hooks expand inside the tree's lines, so an inline
 * test would add a branch to every READ_ONCE() of net/core/dev.c in the
 * report.  Out of line, the test is counted in the simulator instead.
 */
void explore_hook(const char *file, int line);
void explore_hook_at(const volatile void *addr, const char *file, int line);
void explore_hook_lock(int *owner, const char *file, int line);
#else
static inline __attribute__((__always_inline__, __unused__)) void
explore_hook(const char *file, int line)
{
	sim_step_at(file, line);
	if (__builtin_expect(sim_watch_active, 0))
		sim_watch_point(file, line);
	if (__builtin_expect(sim_explore_active, 0))
		explore_point(file, line);
}

/*
 * READ_ONCE()/WRITE_ONCE() of addr: no point if addr is on the running
 * task's or program's own stack (partial-order reduction: nobody else
 * sees it, so a switch there equals a switch at the next point).
 */
static inline __attribute__((__always_inline__, __unused__)) void
explore_hook_at(const volatile void *addr, const char *file, int line)
{
	sim_step_at(file, line);
	if (__builtin_expect(sim_watch_active, 0))
		sim_watch_point(file, line);
	if (__builtin_expect(sim_explore_active, 0))
		explore_point_at(addr, file, line);
}

/* Before a spin_lock(): a point, then spin (yield) while another CPU holds it. */
static inline __attribute__((__always_inline__, __unused__)) void
explore_hook_lock(int *owner, const char *file, int line)
{
	sim_step_at(file, line);
	if (__builtin_expect(sim_watch_active, 0))
		sim_watch_point(file, line);
	if (__builtin_expect(sim_explore_active, 0))
		explore_lock_wait(owner, file, line);
}
#endif

/*
 * Where the kernel takes hardirq work that had to wait, a point of the
 * explorer offering only that work on the running program's CPU, or going
 * on (no switch to another CPU: nothing shared was touched since the last
 * point, so a switch here equals one at the next point).  what names the
 * kernel function.  No point, and no step, when no such work can arrive.
 *   EXPLORE_ASYNC_IRQS_ON   IRQs back on (local_irq_enable(),
 *                           local_irq_restore(), spin_unlock_irq*()): the
 *                           scenario's interrupts of that CPU not yet
 *                           delivered, and its pending IPIs (csds)
 *   EXPLORE_ASYNC_PREEMPT   a preemption point (preempt_enable() or
 *                           local_bh_enable() reaching zero:
 *                           preempt_schedule()): on PREEMPT_RT, the
 *                           forced-threaded interrupts whose thread could
 *                           not run before
 * NAPITEST_EXPLORE_ASYNC=N keeps the kinds whose bit is set in N (default
 * 3: both; 0: none, the work then arrives at the next point, as before
 * these points existed).
 */
#define EXPLORE_ASYNC_IRQS_ON 1
#define EXPLORE_ASYNC_PREEMPT 2
void explore_async_point(int kind, const char *what, const char *file,
			 int line);

/* Called by sim_bug() before it aborts: print the schedule that got there. */
void explore_on_bug(void);

/* True in a scenario's program (not in setup, check or quiescence). */
int explore_in_program(void);

/*
 * A scheduling decision made inside a program, which the explorer
 * enumerates like a switch between programs (shims/sim/kernel/sched/core.c):
 *   EXPLORE_PICK     which of n runnable tasks a CPU's scheduler runs next
 *                    (option 0: the simulator's FIFO pick; free)
 *   EXPLORE_PREEMPT  whether the running task is preempted here by a
 *                    runnable one (0: no; 1: yes, counted against the
 *                    preemption bound)
 *   EXPLORE_POLL     whether an idle CPU polls TIF_NEED_RESCHED (0: yes,
 *                    set_nr_if_polling() spares the IPI; 1: it halts and
 *                    needs one; free)
 *   EXPLORE_MIGRATE  the CPU an unbound task is woken on (select_task_rq())
 *                    or, runnable after a preemption, moved to
 *                    (load_balance()) (0: its present one; n: the nth
 *                    other active CPU; free)
 * what[o] describes option o for the counterexample.  Returns 0 outside a
 * program.
 */
#define EXPLORE_PICK 1
#define EXPLORE_PREEMPT 2
#define EXPLORE_POLL 3
#define EXPLORE_MIGRATE 4
unsigned int explore_choose(int kind, unsigned int n, const char *const *what);
/*
 * The same, option o described only if the counterexample is printed:
 * describe(buf, len, o, words) then, with a copy of *words (strings that
 * last until the next boot: task names, literals).  A schedule records
 * every choice and prints one.
 */
struct explore_words {
	const char *s[3];
	int i;
};
typedef void (*explore_describe_fn)(char *buf, unsigned long len,
				    unsigned int o,
				    const struct explore_words *words);
unsigned int explore_choose_described(int kind, unsigned int n,
				      explore_describe_fn describe,
				      const struct explore_words *words);

/* A point of the simulator's own, named in the counterexample. */
void explore_point_named(const char *what);

/*
 * Wait in a program until cond(arg) holds: the program is not runnable
 * meanwhile (a switch away from it is no preemption).  Flags:
 *   EXPLORE_WAIT_IRQS  its CPU takes the scenario's interrupts meanwhile
 *   EXPLORE_WAIT_IDLE  an idle CPU waiting for work: when nothing else can
 *                      run, the schedule ends (no deadlock)
 * what names the wait in the counterexample.  Only inside a program.
 */
#define EXPLORE_WAIT_IRQS 1
#define EXPLORE_WAIT_IDLE 2
void explore_wait_until(int (*cond)(void *arg), void *arg, unsigned int flags,
			const char *what);
/* The same, the wait named who (a task's name), a space and what. */
void explore_wait_until_of(int (*cond)(void *arg), void *arg,
			   unsigned int flags, const char *who,
			   const char *what);

/*
 * x86-TSO (a scenario with .tso set, shims/sim/explore/tso.c): each simulated
 * CPU has a FIFO store buffer.  The tree's own marked stores (WRITE_ONCE(),
 * __set_current_state(): those written in the tree's source lines) go to
 * the buffer of the CPU that makes them; that CPU's READ_ONCE() sees them
 * at once, the others only once they drain.  A buffer drains whole at a
 * full barrier (smp_mb(), set_current_state()), a locked read-modify-write
 * (the atomic bitops, cmpxchg(), xchg(), atomics), a lock operation,
 * schedule(), try_to_wake_up() and interrupt entry; its oldest store
 * drains at any point the explorer chooses.  Everything else (the
 * simulator's own state, plain accesses) stays sequentially consistent:
 * fewer reorderings than the hardware has, none it does not.
 */
extern int sim_tso_active;
volatile void *explore_tso_store_slot(volatile void *addr, unsigned long size,
				      const char *file);
const volatile void *explore_tso_load_slot(const volatile void *addr,
					   unsigned long size);
void explore_tso_fence(void); /* drains this CPU's buffer */

#ifdef SIM_EXPLORE_OUT_OF_LINE
volatile void *explore_tso_dst(volatile void *addr, unsigned long size,
			       const char *file);
const volatile void *explore_tso_src(const volatile void *addr,
				     unsigned long size);
void explore_tso_mb(void);
#else
/* Where WRITE_ONCE() stores: the variable, or a slot of the store buffer. */
static inline __attribute__((__always_inline__, __unused__)) volatile void *
explore_tso_dst(volatile void *addr, unsigned long size, const char *file)
{
	if (__builtin_expect(sim_tso_active, 0))
		return explore_tso_store_slot(addr, size, file);
	return addr;
}

/* Where READ_ONCE() loads from: a store of this CPU's buffer, or memory. */
static inline __attribute__((__always_inline__, __unused__))
const volatile void *
explore_tso_src(const volatile void *addr, unsigned long size)
{
	if (__builtin_expect(sim_tso_active, 0))
		return explore_tso_load_slot(addr, size);
	return addr;
}

static inline __attribute__((__always_inline__, __unused__)) void
explore_tso_mb(void)
{
	if (__builtin_expect(sim_tso_active, 0))
		explore_tso_fence();
}
#endif

/*
 * Hooks in shared headers use these; a simulator file that must not be
 * preempted inside its own bookkeeping defines SIM_RAW_ONCE before any
 * include and places its points explicitly (and drains store buffers
 * where its operations would).
 */
#ifdef SIM_RAW_ONCE
#define __EXPLORE_HOOK() ((void)0)
#define __EXPLORE_HOOK_AT(addr) ((void)0)
#define __EXPLORE_TSO_DST(addr, size) (addr)
#define __EXPLORE_TSO_SRC(addr, size) (addr)
#define __EXPLORE_TSO_MB() ((void)0)
#else
#define __EXPLORE_HOOK() explore_hook(__FILE__, __LINE__)
#define __EXPLORE_HOOK_AT(addr) explore_hook_at(addr, __FILE__, __LINE__)
#define __EXPLORE_TSO_DST(addr, size) explore_tso_dst(addr, size, __FILE__)
#define __EXPLORE_TSO_SRC(addr, size) explore_tso_src(addr, size)
#define __EXPLORE_TSO_MB() explore_tso_mb()
#endif

/* ---- The scenario API (suites: unit/explore_*.c) ---- */

#define EXPLORE_MAX_THREADS 4
#define EXPLORE_MAX_IRQS 2

struct explore_actor {
	int cpu; /* the simulated CPU it runs on */
	void (*fn)(void);
	const char *name;
	/*
	 * An interrupt that PREEMPT_RT force-threads (a device interrupt;
	 * not IRQF_NO_THREAD, the IPIs or timers): on RT its handler runs
	 * in task context with BH disabled, where its thread could preempt.
	 */
	bool threaded;
};

struct explore_scenario {
	const char *name;
	/* Boot and initial state; runs with exploration off. */
	void (*setup)(void);
	int nr_threads; /* one program per CPU */
	struct explore_actor threads[EXPLORE_MAX_THREADS];
	/*
	 * Interrupts: each delivered once, as a hardirq on its CPU at any
	 * point where that CPU has IRQs enabled and is not in hardirq (the
	 * explorer chooses when; undelivered ones arrive after the programs
	 * end).  The IPIs the machine sends (sim_cpu.ipi_pending) arrive the
	 * same way on the CPU of a program, as often as they are sent, or at
	 * its scheduler's next switch.  fn runs between sim_hardirq_enter() and sim_hardirq_exit();
	 * a threaded one on PREEMPT_RT inside local_bh_disable()/enable().
	 * A CPU whose program waits with EXPLORE_WAIT_IRQS takes them too;
	 * when no program can run, the default is to deliver the first one.
	 */
	int nr_irqs;
	struct explore_actor irqs[EXPLORE_MAX_IRQS];
	/*
	 * After the programs end, the machine is run to quiescence
	 * (sim_run_all()) and the generic properties are checked; check()
	 * adds the scenario's own: return NULL when they hold, else a
	 * description of the violated property.
	 */
	const char *(*check)(void);
	/*
	 * Checked at every point where the explorer chooses (after each
	 * step): a property of the state that must hold throughout, not
	 * only at quiescence.  NULL when it holds.
	 */
	const char *(*invariant)(void);
	unsigned int bound; /* preemption bound (0: default 2) */
	unsigned int random_walks; /* in addition to the bounded DFS */
	/*
	 * The budget of the bounded search, in schedules (0: 200000).  A
	 * search not exhausted within it leaves complete at 0: the caller
	 * fails (INCOMPLETE), it never passes.
	 */
	unsigned long max_schedules;
	/* Under x86-TSO: per-CPU store buffers, draining an explorer choice. */
	bool tso;
};

struct explore_result {
	unsigned long schedules;
	unsigned long steps;
	unsigned long violations;
	double seconds; /* CPU time: printed, never a budget */
	int complete; /* the bounded DFS was exhausted */
	/*
	 * Not explored: NAPITEST_EXPLORE_ONLY or NAPITEST_SCHEDULE names
	 * another scenario.  Neither complete nor a pass: the caller says
	 * skip().
	 */
	int skipped;
	char first_schedule[512]; /* replay string of the first counterexample */
	char first_violation[256];
};

/*
 * Explore s: exhaustive within the preemption bound, then random walks.
 * Environment:
 *   NAPITEST_SCHEDULE=[scenario/]STEP:CHOICE,...  replay one schedule
 *                               (CHOICE: program N, iN interrupt N, pN the
 *                               Nth runnable task, y preempt here, dN a
 *                               store of CPU N drains, cN CPU N takes its
 *                               pending IPIs, h an idle CPU halts, mN
 *                               a woken task goes to the Nth CPU)
 *   NAPITEST_EXPLORE_TASKS=0    no choices between the tasks of a CPU
 *   NAPITEST_EXPLORE_ONLY=NAME  explore that scenario only (the others
 *                               return r->skipped)
 *   NAPITEST_EXPLORE_POR=0      keep the points on stack-local data
 *   NAPITEST_EXPLORE_ASYNC=N    the points where IRQs (1) or preemption
 *                               (2) come back on, default 3
 *                               (explore_async_point())
 *   NAPITEST_EXPLORE_BOUND=N    preemption bound
 *   NAPITEST_EXPLORE_WALKS=N    random walks, NAPITEST_EXPLORE_SEED=S
 *                               (default 1; printed)
 *   NAPITEST_EXPLORE_SCHEDULES=N  the schedule budget (max_schedules)
 *   NAPITEST_EXPLORE_ALL=1      do not stop at the first counterexample
 * Every budget is a count (schedules, walks, steps), never a time: the same
 * inputs give the same verdict at any load.  Prints the figures (schedule
 * counts, then the CPU time in brackets, for information) and the first
 * counterexample (per CPU, step by step); a search cut off by the budget is
 * printed INCOMPLETE.
 */
void explore_run(const struct explore_scenario *s, struct explore_result *r);

/*
 * Why explore_run() would skip s (NAPITEST_EXPLORE_ONLY or
 * NAPITEST_SCHEDULE names another scenario), or NULL: a test checks what
 * its scenario needs of the tree only for a scenario it explores.
 */
const char *explore_skip_reason(const struct explore_scenario *s);

#endif
