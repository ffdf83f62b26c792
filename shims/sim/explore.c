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
 * A schedule is the list of those choices.  The default policy keeps the
 * running program running (and, when it blocks or ends, takes the lowest
 * enabled one), so a schedule is written as its deviations from that
 * policy: "STEP:CHOICE,...", CHOICE a program index or "iN" for interrupt
 * N.  Exploration is a depth-first search over re-executions (sim_reset()
 * and the scenario's setup each time), bounded by the number of preemptions
 * (a switch away from a program that could have continued; CHESS), followed
 * by optional seeded random walks.
 *
 * After each schedule the machine is run to quiescence (sim_run_all()) and
 * the properties are checked: every program ended (no deadlock or
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
#include "sim_internal.h"

int sim_explore_active;

#define EXP_STACK	(256 * 1024)
#define EXP_MAX_STEPS	4096
#define EXP_NR_OPTS	(EXPLORE_MAX_THREADS + EXPLORE_MAX_IRQS)

struct exp_thread {
	const struct explore_actor *a;
	ucontext_t ctx;
	void *stack;
	const void *bottom;		/* the stack it was on when it yielded */
	size_t size;
	bool done;
	int *wait_owner;		/* spinning on this lock */
	int saved_cpu;			/* sim_cur_cpu when it yielded */
	int pending_irq;		/* to deliver when it resumes */
	const char *file;		/* where it yielded */
	int line;
	const char *tree_file;		/* the last point outside the shims */
	int tree_line;
};

struct exp_step {
	unsigned char choice;		/* option index */
	unsigned char cur;		/* program running before (0xff: none) */
	unsigned char preempt;		/* preemptions before this step */
	unsigned short enabled;		/* option mask */
	unsigned short tried;
};

/* What ran in each step, for the counterexample. */
struct exp_event {
	unsigned char thread;
	signed char irq;		/* -1, or the interrupt that started here */
	const char *file;		/* where it yielded next */
	int line;
	const char *tree_file;		/* and the tree's code it was in */
	int tree_line;
};

static const struct explore_scenario *scn;
static struct exp_thread thr[EXPLORE_MAX_THREADS];
static int cur = -1;			/* running program, -1: the explorer */
static ucontext_t main_ctx;
static const void *main_bottom;
static size_t main_size;
static bool irq_done[EXPLORE_MAX_IRQS];

static struct exp_step trace[EXP_MAX_STEPS];
static unsigned int nr_steps;		/* steps of the current execution */
static unsigned int prefix_len;		/* steps forced from trace[] */
static struct exp_event events[EXP_MAX_STEPS];
static bool overflow;
static unsigned int bound;
static bool random_mode;
static unsigned long rng;

/* ---- The programs' side ---- */

static void yield_to_explorer(const char *file, int line)
{
	struct exp_thread *t = &thr[cur];
	void *fake = NULL;

	t->file = file;
	t->line = line;
	if (!strstr(file, "/shims/")) {
		t->tree_file = file;
		t->tree_line = line;
	}
	t->saved_cpu = sim_cur_cpu;
	fiber_start(&fake, main_bottom, main_size);
	swapcontext(&t->ctx, &main_ctx);
	fiber_finish(fake, &main_bottom, &main_size);
	/* The explorer chose this program again (cur was set by it). */
	sim_cur_cpu = t->saved_cpu;
	if (t->pending_irq >= 0) {
		const struct explore_actor *irq = &scn->irqs[t->pending_irq];

		t->pending_irq = -1;
		sim_hardirq_enter();
		irq->fn();
		sim_hardirq_exit();
	}
}

void explore_point(const char *file, int line)
{
	if (cur < 0)
		return;
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

static void thread_entry(unsigned int hi, unsigned int lo)
{
	struct exp_thread *t = (struct exp_thread *)
		(((uintptr_t)hi << 32) | (uintptr_t)lo);

	fiber_finish(NULL, &main_bottom, &main_size);
	sim_cur_cpu = t->a->cpu;
	t->a->fn();
	t->done = true;
	t->file = "(end)";
	t->line = 0;
	fiber_start(NULL, main_bottom, main_size);
	setcontext(&main_ctx);
}

/* ---- The explorer's side ---- */

static bool thread_enabled(int i)
{
	struct exp_thread *t = &thr[i];

	if (t->done)
		return false;
	if (t->wait_owner && *t->wait_owner >= 0)
		return false;
	return true;
}

/* The program an option runs: itself, or the program of the IRQ's CPU. */
static int opt_thread(int o)
{
	int i;

	if (o < EXPLORE_MAX_THREADS)
		return o;
	for (i = 0; i < scn->nr_threads; i++)
		if (scn->threads[i].cpu == scn->irqs[o - EXPLORE_MAX_THREADS].cpu)
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

		if (irq_done[i] || t < 0 || !thread_enabled(t))
			continue;
		c = &sim_cpus[scn->irqs[i].cpu];
		if (c->irqs_off || c->hardirq || thr[t].pending_irq >= 0)
			continue;
		/* Not before the program started: nothing to interrupt. */
		if (!thr[t].file)
			continue;
		m |= 1u << (EXPLORE_MAX_THREADS + i);
	}
	return m;
}

static int default_choice(int running, unsigned short en)
{
	int i;

	if (running >= 0 && (en & (1u << running)))
		return running;
	for (i = 0; i < scn->nr_threads; i++)
		if (en & (1u << i))
			return i;
	return -1;
}

static bool is_preemption(int running, unsigned short en, int o)
{
	return running >= 0 && (en & (1u << running)) &&
	       opt_thread(o) != running;
}

static void resume(int o)
{
	int t = opt_thread(o);
	struct exp_thread *th = &thr[t];
	void *fake = NULL;

	if (o >= EXPLORE_MAX_THREADS) {
		irq_done[o - EXPLORE_MAX_THREADS] = true;
		th->pending_irq = o - EXPLORE_MAX_THREADS;
	}
	cur = t;
	sim_cur_cpu = th->file ? th->saved_cpu : th->a->cpu;
	fiber_start(&fake, th->bottom, th->size);
	swapcontext(&main_ctx, &th->ctx);
	fiber_finish(fake, &th->bottom, &th->size);
	cur = -1;
}

static char violation[256];
static bool bugged;

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
	unsigned int preempt = 0;
	int running = -1, i;

	violation[0] = '\0';
	overflow = false;
	memset(irq_done, 0, sizeof(irq_done));
	scn->setup();
	for (i = 0; i < scn->nr_threads; i++) {
		struct exp_thread *t = &thr[i];
		uintptr_t addr = (uintptr_t)t;

		t->a = &scn->threads[i];
		t->done = false;
		t->wait_owner = NULL;
		t->pending_irq = -1;
		t->file = NULL;
		t->line = 0;
		t->tree_file = NULL;
		t->tree_line = 0;
		if (!t->stack)
			t->stack = malloc(EXP_STACK);
		getcontext(&t->ctx);
		t->ctx.uc_stack.ss_sp = t->stack;
		t->ctx.uc_stack.ss_size = EXP_STACK;
		t->ctx.uc_link = NULL;
		makecontext(&t->ctx, (void (*)(void))thread_entry, 2,
			    (unsigned int)(addr >> 32), (unsigned int)addr);
		t->bottom = t->stack;
		t->size = EXP_STACK;
	}
	sim_explore_active = 1;
	nr_steps = 0;
	for (;;) {
		unsigned short en = enabled_mask();
		struct exp_step *s;
		int o;

		if (!en) {
			for (i = 0; i < scn->nr_threads; i++)
				if (!thr[i].done)
					break;
			if (i < scn->nr_threads)
				violate("deadlock: %s spins on a lock nobody releases",
					thr[i].a->name);
			break;
		}
		if (nr_steps >= EXP_MAX_STEPS) {
			overflow = true;
			violate("%s", "livelock: no end after the step limit");
			break;
		}
		s = &trace[nr_steps];
		if (nr_steps < prefix_len) {
			o = s->choice;
			if (!(en & (1u << o)) || s->cur != (unsigned char)running) {
				violate("%s", "schedule does not replay (choice not enabled here)");
				break;
			}
		} else {
			o = default_choice(running, en);
			if (random_mode) {
				int opts[EXP_NR_OPTS], n = 0;

				for (i = 0; i < EXP_NR_OPTS; i++)
					if (en & (1u << i))
						opts[n++] = i;
				rng = rng * 6364136223846793005UL + 1442695040888963407UL;
				o = opts[(rng >> 33) % (unsigned long)n];
			}
			s->choice = (unsigned char)o;
			s->tried = (unsigned short)(1u << o);
		}
		s->cur = (unsigned char)running;
		s->enabled = en;
		s->preempt = (unsigned char)preempt;
		if (is_preemption(running, en, o))
			preempt++;
		nr_steps++;
		resume(o);
		running = opt_thread(o);
		events[nr_steps - 1].thread = (unsigned char)running;
		events[nr_steps - 1].irq = o >= EXPLORE_MAX_THREADS ?
			(signed char)(o - EXPLORE_MAX_THREADS) : -1;
		events[nr_steps - 1].file = thr[running].file;
		events[nr_steps - 1].line = thr[running].line;
		events[nr_steps - 1].tree_file = thr[running].tree_file;
		events[nr_steps - 1].tree_line = thr[running].tree_line;
	}
	sim_explore_active = 0;
	if (violation[0])
		return;		/* the machine is left as it is: reset next */
	/* Interrupts never chosen arrive after the programs. */
	for (i = 0; i < scn->nr_irqs; i++) {
		if (irq_done[i])
			continue;
		{
			int prev = sim_switch_cpu(scn->irqs[i].cpu);

			sim_hardirq_enter();
			scn->irqs[i].fn();
			sim_hardirq_exit();
			sim_switch_cpu(prev);
		}
	}
	sim_run_all(100000);
	{
		struct sim_counters t = sim_total();
		const char *msg;
		static char buf[200];

		if (sim_skbs_outstanding()) {
			snprintf(buf, sizeof(buf), "%lu", sim_skbs_outstanding());
			violate("packet lost: %s packet(s) neither delivered nor freed after quiescence", buf);
		}
		if (t.warns)
			violate("WARN: %s", sim_nr_warns ? sim_warns[0].msg : "?");
		if (t.pr_warn_once)
			violate("pr_warn_once: %s", sim_last_pr_warn);
		if (!sim_lockdep_clean())
			violate("context checker: %s", sim_lockdep_report());
		if (IS_ENABLED(CONFIG_PREEMPT_RT) && t.raises_in_smp_call)
			violate("%s", "RT: softirq raised from SMP-call context");
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
		int run = s->cur == 0xff ? -1 : s->cur;

		if (s->choice == default_choice(run, s->enabled))
			continue;
		if (s->choice >= EXPLORE_MAX_THREADS)
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
	unsigned int want[EXP_MAX_STEPS / 8][2], n = 0, i;

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
		if (*str == 'i') {
			c = EXPLORE_MAX_THREADS + (unsigned int)strtoul(str + 1, &end, 10);
		} else {
			c = (unsigned int)strtoul(str, &end, 10);
		}
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
		if (nr_steps <= step)
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
	fprintf(f, "  each row: where that CPU stopped, about to do the operation at that\n"
		   "  location (\"A > list.h:N\": a shim's point, reached after tree line A)\n");
	fprintf(f, "  %-6s", "step");
	for (i = 0; i < (unsigned int)ncol; i++)
		fprintf(f, " %-46s", thr[i].a ? thr[i].a->name : "?");
	fprintf(f, "\n");
	for (i = 0; i < nr_steps; i++) {
		const struct exp_event *e = &events[i];
		const struct exp_step *s = &trace[i];
		int run = s->cur == 0xff ? -1 : s->cur;
		char loc[96];
		int c;

		/* Long runs of one program: show its switch points only. */
		if (shown > 400) {
			fprintf(f, "  ... %u more steps\n", nr_steps - i);
			break;
		}
		if (e->file && strstr(e->file, "/shims/") && e->tree_file)
			/* A shim's point: name the tree's line it was reached from. */
			snprintf(loc, sizeof(loc), "%s%s:%d > %s:%d",
				 e->irq >= 0 ? "IRQ> " : "",
				 short_path(e->tree_file), e->tree_line,
				 strrchr(e->file, '/') + 1, e->line);
		else
			snprintf(loc, sizeof(loc), "%s%s:%d", e->irq >= 0 ? "IRQ> " : "",
				 short_path(e->file), e->line);
		fprintf(f, "  %-6u", i);
		for (c = 0; c < ncol; c++)
			fprintf(f, " %-46s", c == e->thread ? loc : "");
		if (s->choice != default_choice(run, s->enabled))
			fprintf(f, " <- %s", is_preemption(run, s->enabled, s->choice) ?
				"preempted" : "switch");
		fprintf(f, "\n");
		shown++;
	}
	fprintf(f, "  violated: %s\n", violation[0] ? violation : "(none: this schedule is clean)");
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
	}
	fprintf(stderr, "  BUG while exploring:\n");
	print_counterexample(stderr);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Next prefix of the bounded DFS; false when the tree is exhausted. */
static bool backtrack(void)
{
	int j;

	for (j = (int)nr_steps - 1; j >= 0; j--) {
		struct exp_step *s = &trace[j];
		int run = s->cur == 0xff ? -1 : s->cur;
		unsigned short cand = s->enabled & ~s->tried;
		int o;

		for (o = 0; o < EXP_NR_OPTS; o++) {
			if (!(cand & (1u << o)))
				continue;
			if (s->preempt + is_preemption(run, s->enabled, o) > bound) {
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

void explore_run(const struct explore_scenario *s, struct explore_result *r)
{
	const char *env = getenv("NAPITEST_SCHEDULE");
	double t0 = now();
	unsigned int walks = s->random_walks, nwalks;
	unsigned long max_schedules;
	double max_seconds;
	bool all;

	memset(r, 0, sizeof(*r));
	scn = s;
	bound = s->bound ? s->bound : 2;
	if (getenv("NAPITEST_EXPLORE_BOUND"))
		bound = (unsigned int)atoi(getenv("NAPITEST_EXPLORE_BOUND"));
	if (getenv("NAPITEST_EXPLORE_WALKS"))
		walks = (unsigned int)atoi(getenv("NAPITEST_EXPLORE_WALKS"));
	all = getenv("NAPITEST_EXPLORE_ALL") != NULL;
	max_schedules = s->max_schedules ? s->max_schedules : 200000;
	max_seconds = getenv("NAPITEST_EXPLORE_SECONDS") ?
		atof(getenv("NAPITEST_EXPLORE_SECONDS")) : 20.0;
	rng = getenv("NAPITEST_EXPLORE_SEED") ?
		strtoul(getenv("NAPITEST_EXPLORE_SEED"), NULL, 0) : 1;
	random_mode = false;

	if (env && *env) {
		const char *slash = strchr(env, '/');
		size_t nl = slash ? (size_t)(slash - env) : 0;

		if (slash && (strlen(s->name) != nl || strncmp(env, s->name, nl))) {
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
			schedule_string(r->first_schedule, sizeof(r->first_schedule));
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
		if (r->schedules >= max_schedules || now() - t0 > max_seconds)
			break;
		if (!backtrack()) {
			r->complete = 1;
			break;
		}
	}
	random_mode = true;
	nwalks = 0;
	while (walks-- && !(r->violations && !all) && now() - t0 <= max_seconds) {
		prefix_len = 0;
		execute();
		record(r);
		nwalks++;
	}
	random_mode = false;
	r->seconds = now() - t0;
	printf("  %s: bound %u, %lu schedules%s + %u random walks, %lu steps, "
	       "%.2f s, %.0f schedules/s, %lu violating\n",
	       s->name, bound, r->schedules - nwalks,
	       r->complete ? " (exhaustive)" :
	       r->violations && !all ? " (stopped at the first counterexample)" :
	       " (cut off: NAPITEST_EXPLORE_SECONDS or schedule limit)",
	       nwalks, r->steps, r->seconds,
	       r->seconds > 0 ? r->schedules / r->seconds : 0.0, r->violations);
}

#ifdef SIM_EXPLORE_OUT_OF_LINE
void explore_hook(const char *file, int line)
{
	if (sim_explore_active)
		explore_point(file, line);
}

void explore_hook_lock(int *owner, const char *file, int line)
{
	if (sim_explore_active)
		explore_lock_wait(owner, file, line);
}
#endif
