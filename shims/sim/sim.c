// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated machine: CPUs and their context (the IRQ flag), seeded
 * schedules, the quiescence and hang watchdogs with the trail of steps
 * they name, the boot (sim_reset()), once-flags.  No kernel file stands
 * behind it; the kernel's files are modelled under shims/sim/ at their
 * kernel paths (per-CPU areas: mm/percpu.c, WARN: kernel/panic.c,
 * printk: kernel/printk/printk.c, RCU readers: kernel/rcu/tree.c).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stddef.h>
#include <cmocka.h>
#include "sim_internal.h"
#include "extracted/present.h"

struct sim_cpu sim_cpus[NR_CPUS];
int sim_cur_cpu;
enum sim_preempt_model sim_preempt = SIM_PREEMPT_NONE;
unsigned long sim_seed;
static unsigned long sim_rng;

/*
 * Seeded schedules: with NAPITEST_SEED=N (N != 0) the scheduler picks among
 * the runnable tasks of a class, and the order in which sim_run_all() visits
 * the CPUs, from a xorshift generator seeded with N; every valid schedule
 * must keep the invariants.  Without it every choice is FIFO.  The seed is
 * printed at every reset, so a failing run names it.
 */
unsigned long sim_random(unsigned long n)
{
	if (!sim_seed || n < 2)
		return 0;
	sim_rng ^= sim_rng << 13;
	sim_rng ^= sim_rng >> 7;
	sim_rng ^= sim_rng << 17;
	return sim_rng % n;
}

static void seed_reset(void)
{
	const char *env = getenv("NAPITEST_SEED");

	sim_seed = env ? strtoul(env, NULL, 0) : 0;
	sim_rng = sim_seed ? sim_seed : 1;
	if (sim_seed)
		fprintf(stderr,
			"napitest: schedule seed %lu (NAPITEST_SEED=%lu)\n",
			sim_seed, sim_seed);
}
unsigned long volatile jiffies;

static struct sim_once *once_list;
static unsigned long watchdog_steps;

/*
 * A simulation that never quiesces (a poll loop that repolls forever, two
 * CPUs handing work back and forth) fails with a message instead of
 * spinning until CTest's timeout.  Counted at every preemption point.
 */
#define SIM_WATCHDOG_STEPS 2000000UL
/*
 * The hang watchdog (sim/explore.h): steps (hooks, list and skb-queue
 * operations) between two scheduler points.  The suites' longest stretch
 * is some thousand steps; a loop with IRQs off that never reaches a
 * scheduler point runs through 20 million in well under a second of CPU.
 * A budget, not a clock: the verdict is the same on any machine.
 */
#define SIM_HANG_STEPS 20000000L
long sim_hang_budget = SIM_HANG_STEPS;
struct sim_trail sim_trail[SIM_TRAIL];
unsigned int sim_trail_pos;

/* The most recent step in the tree's code, or NULL. */
static const struct sim_trail *last_tree_step(void)
{
	unsigned int i;

	for (i = 0; i < SIM_TRAIL; i++) {
		const struct sim_trail *t =
			&sim_trail[(sim_trail_pos - i) % SIM_TRAIL];

		if (t->file && !strstr(t->file, "/shims/"))
			return t;
	}
	return NULL;
}

/*
 * Fail the running test, naming the last tree line reached: cmocka's
 * _fail() unwinds to the test runner (also from a task's stack), and the
 * next test boots a fresh machine.  Under the explorer the schedule is
 * printed and the run ends, as for a BUG.
 */
static void watchdog_fail(const char *what)
{
	const struct sim_trail *t = last_tree_step();
	const char *file = t ? t->file : __FILE__;
	int line = t ? t->line : __LINE__;
	char msg[512];

	sim_hang_budget = SIM_HANG_STEPS;
	watchdog_steps = 0;
	snprintf(msg, sizeof(msg), "%s %s:%d (CPU %d, irqs %s, seed %lu)", what,
		 file, line, sim_cpu_id(), sim_this()->irqs_off ? "off" : "on",
		 sim_seed);
	if (sim_explore_active)
		sim_bug(file, line, msg);
	fprintf(stderr, "%s\n", msg);
	fflush(stderr);
	_fail(file, line);
}

/*
 * local_irq_disable()/enable()/save()/restore() (linux/irqflags.h): the
 * CPU's IRQ flag.  IRQs coming back on is where the interrupts and IPIs
 * that came meanwhile are taken (the sti, or popf of an "on" state): an
 * explorer point offering them, named after what turned IRQs on.
 */
void sim_local_irq_set(bool off, const char *what, const char *file, int line)
{
	struct sim_cpu *c;

	sim_step_at(file, line);
	c = sim_this();
	if (off || !c->irqs_off) {
		c->irqs_off = off;
		return;
	}
	c->irqs_off = false;
	explore_async_point(EXPLORE_ASYNC_IRQS_ON, what, file, line);
}

void sim_watchdog(void)
{
	sim_hang_budget = SIM_HANG_STEPS;
	if (++watchdog_steps > SIM_WATCHDOG_STEPS)
		watchdog_fail(
			"watchdog: no quiescence after 2000000 preemption points, last at");
}

void sim_trail_note(const char *file, int line)
{
	struct sim_trail *t = &sim_trail[++sim_trail_pos % SIM_TRAIL];

	t->file = file;
	t->line = line;
}

/* The most recent step in the tree's code (file NULL if none). */
void sim_last_tree_step(const char **file, int *line)
{
	const struct sim_trail *t = last_tree_step();

	*file = t ? t->file : NULL;
	*line = t ? t->line : 0;
}

/*
 * Fail the running test at file:line of the tree, as the watchdog does
 * (outside the explorer: under it, a property of check_properties()).
 */
void sim_fail_at(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s (CPU %d, seed %lu)\n", msg, sim_cpu_id(), sim_seed);
	fflush(stderr);
	_fail(file, line);
}

/* The step budget is spent (sim/explore.h). */
void sim_hang(void)
{
	watchdog_fail("hang: no progress since");
}
static bool globals_saved;

/* The boot step a test makes fail, or NULL (sim_fail_init_step()). */
static const char *init_step_to_fail;

void sim_fail_init_step(const char *name)
{
	init_step_to_fail = name;
}

int sim_init_step(const char *name)
{
	if (init_step_to_fail && !strcmp(name, init_step_to_fail))
		return -ENOMEM;
	return 0;
}

void sim_reset(unsigned int nr_online)
{
	struct sim_once *o;
	int cpu;

	sim_sched_reset();
	seed_reset();
	if (!globals_saved) {
		extracted_save_globals();
		globals_saved = true;
	}
	extracted_restore_globals();
	for (o = once_list; o; o = o->next)
		o->done = false;
	memset(sim_cpus, 0, sizeof(sim_cpus));
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		sim_cpus[cpu].id = cpu;
		sim_cpus[cpu].online = (unsigned int)cpu < nr_online;
		/* mwait idle: the idle loop polls (sim_cpu.idle_poll). */
		sim_cpus[cpu].idle_poll = true;
	}
	sim_cur_cpu = 0;
	init_step_to_fail = NULL;
	jiffies = 0;
	watchdog_steps = 0;
	sim_hang_budget = SIM_HANG_STEPS;
	memset(sim_trail, 0, sizeof(sim_trail));
	sim_preempt = IS_ENABLED(CONFIG_PREEMPT_RT) ? SIM_PREEMPT_RT :
						      SIM_PREEMPT_NONE;
	sim_nr_warns = 0;
	sim_last_pr_warn[0] = '\0';
	memset(softirq_vec, 0, sizeof(softirq_vec));
	sim_skb_reset();
	sim_lockdep_reset();
	sim_debug_preempt_reset();
	sim_setup_per_cpu_areas();
	sim_sched_boot();
}

int sim_switch_cpu(int cpu)
{
	int prev = sim_cur_cpu;

	if (cpu < 0 || cpu >= NR_CPUS)
		sim_bug(__FILE__, __LINE__, "sim_switch_cpu: no such CPU");
	sim_cur_cpu = cpu;
	return prev;
}

struct sim_counters sim_total(void)
{
	struct sim_counters t = { 0 };
	unsigned long *dst = (unsigned long *)&t;
	size_t i, n = sizeof(t) / sizeof(unsigned long);
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		const unsigned long *src =
			(const unsigned long *)&sim_cpus[cpu].cnt;

		for (i = 0; i < n; i++)
			dst[i] += src[i];
	}
	return t;
}

bool sim_once_first(struct sim_once *once)
{
	if (once->done)
		return false;
	if (!once->listed) {
		once->listed = true;
		once->next = once_list;
		once_list = once;
	}
	once->done = true;
	return true;
}

const char *sim_tree_path(const char *file)
{
	size_t n = strlen(EXTRACTED_TREE);
	const char *s;

	if (!file)
		return "?";
	if (!strncmp(file, EXTRACTED_TREE, n) && file[n] == '/')
		return file + n + 1;
	s = strstr(file, "/shims/");
	if (!s)
		s = strstr(file, "/unit/");
	return s ? s + 1 : file;
}

void sim_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "kernel BUG at %s:%d: %s (CPU %d, seed %lu)\n",
		sim_tree_path(file), line, cond, sim_cpu_id(), sim_seed);
	explore_on_bug();
	abort();
}

#ifdef SIM_FIBER_TRAMPOLINE
/*
 * A fiber's first frame (sim_internal.h, sim_fiber_boot()): entered by a
 * jump with the fiber's stack in rsp (16-byte aligned), its function in
 * rdx and its arguments in edi and esi.  The return address is undefined
 * for unwinders (backtrace(), a debugger): the call chain ends here.  The
 * function never returns (a fiber ends with sim_fiber_exit()).
 */
__asm__(".text\n"
	".globl sim_fiber_trampoline\n"
	".hidden sim_fiber_trampoline\n"
	".type sim_fiber_trampoline, @function\n"
	"sim_fiber_trampoline:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	call *%rdx\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size sim_fiber_trampoline, .-sim_fiber_trampoline\n");
#endif

#ifdef __SANITIZE_ADDRESS__
/*
 * The explorer re-runs a scenario thousands of times, each with fresh
 * coroutine stacks; ASan's default 256 MiB quarantine of freed memory would
 * take a test process past the 64 MiB budget.  16 MiB still catches a use
 * after free within the recent schedules.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16";
}
#endif
