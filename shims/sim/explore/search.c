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
 * (explore_choose(), shims/sim/kernel/sched/core.c): which runnable task
 * runs next, and whether a running task is preempted at a preemption point
 * by another runnable one.  They are steps of the schedule like the switches.
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
 *
 * This file: the search (bounded depth-first, then random walks), its
 * options from the environment, and explore_run().
 */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sim/explore.h>
#include <sim/watch.h>
#include "../sim_internal.h"
#include "explore_internal.h"

int sim_explore_active;
const struct explore_scenario *exp_scn;
unsigned int exp_bound;
bool exp_task_choices = true; /* NAPITEST_EXPLORE_TASKS */
bool exp_por = true; /* NAPITEST_EXPLORE_POR */
unsigned int exp_async; /* NAPITEST_EXPLORE_ASYNC: EXPLORE_ASYNC_* kinds */
unsigned long exp_por_skipped;
bool exp_random_mode;
static unsigned long exp_rng;

int exp_rng_next(unsigned int n)
{
	exp_rng = exp_rng * 6364136223846793005UL + 1442695040888963407UL;
	return (int)((exp_rng >> 33) % n);
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

	for (j = (int)exp_nr_steps - 1; j >= 0; j--) {
		struct exp_step *s = &exp_trace[j];
		unsigned short cand = s->enabled & ~s->tried;
		int o;

		for (o = 0; o < 16; o++) {
			if (!(cand & (1u << o)))
				continue;
			if (s->preempt + exp_step_preempts(s, o) > exp_bound) {
				s->tried |= (unsigned short)(1u << o);
				continue;
			}
			s->choice = (unsigned char)o;
			s->tried |= (unsigned short)(1u << o);
			exp_prefix_len = (unsigned int)j + 1;
			return true;
		}
	}
	return false;
}

static void record_schedule(struct explore_result *r)
{
	r->schedules++;
	r->steps += exp_nr_steps;
	if (!exp_violation[0])
		return;
	if (!r->violations++) {
		exp_schedule_string(r->first_schedule,
				    sizeof(r->first_schedule));
		snprintf(r->first_violation, sizeof(r->first_violation), "%s",
			 exp_violation);
		exp_print_counterexample(stdout);
	}
}

const char *explore_skip_reason(const struct explore_scenario *s)
{
	const char *only = getenv("NAPITEST_EXPLORE_ONLY");
	const char *env = getenv("NAPITEST_SCHEDULE");
	const char *slash = env ? strchr(env, '/') : NULL;
	size_t nl = slash ? (size_t)(slash - env) : 0;

	if (only && *only && strcmp(only, s->name))
		return "NAPITEST_EXPLORE_ONLY names another scenario";
	if (slash && (strlen(s->name) != nl || strncmp(env, s->name, nl)))
		return "NAPITEST_SCHEDULE names another scenario";
	return NULL;
}

static void run_scenario(const struct explore_scenario *s,
			 struct explore_result *r)
{
	const char *env = getenv("NAPITEST_SCHEDULE"), *why;
	double t0 = cpu_seconds();
	unsigned int walks = s->random_walks, nwalks;
	unsigned long max_schedules, seed;
	bool all;

	memset(r, 0, sizeof(*r));
	exp_scn = s;
	exp_bound = s->bound ? s->bound : 2;
	if (getenv("NAPITEST_EXPLORE_BOUND"))
		exp_bound =
			(unsigned int)atoi(getenv("NAPITEST_EXPLORE_BOUND"));
	if (getenv("NAPITEST_EXPLORE_WALKS"))
		walks = (unsigned int)atoi(getenv("NAPITEST_EXPLORE_WALKS"));
	all = getenv("NAPITEST_EXPLORE_ALL") != NULL;
	exp_task_choices = !getenv("NAPITEST_EXPLORE_TASKS") ||
			   atoi(getenv("NAPITEST_EXPLORE_TASKS")) != 0;
	exp_por = !getenv("NAPITEST_EXPLORE_POR") ||
		  atoi(getenv("NAPITEST_EXPLORE_POR")) != 0;
	exp_async =
		getenv("NAPITEST_EXPLORE_ASYNC") ?
			(unsigned int)atoi(getenv("NAPITEST_EXPLORE_ASYNC")) :
			EXPLORE_ASYNC_IRQS_ON | EXPLORE_ASYNC_PREEMPT;
	exp_por_skipped = 0;
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
	exp_rng = seed;
	exp_random_mode = false;

	why = explore_skip_reason(s);
	if (why) {
		printf("  %s: skipped (%s)\n", s->name, why);
		r->skipped = 1;
		return;
	}
	if (env && *env) {
		const char *slash = strchr(env, '/');

		if (!exp_parse_schedule(slash ? slash + 1 : env)) {
			printf("  %s: NAPITEST_SCHEDULE does not parse or replay\n",
			       s->name);
			r->violations = 1;
			return;
		}
		exp_execute();
		r->schedules = 1;
		r->steps = exp_nr_steps;
		exp_print_counterexample(stdout);
		if (exp_violation[0]) {
			r->violations = 1;
			exp_schedule_string(r->first_schedule,
					    sizeof(r->first_schedule));
			snprintf(r->first_violation, sizeof(r->first_violation),
				 "%s", exp_violation);
		}
		return;
	}

	exp_prefix_len = 0;
	for (;;) {
		exp_execute();
		record_schedule(r);
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
	exp_random_mode = true;
	nwalks = 0;
	while (walks-- && !(r->violations && !all)) {
		exp_prefix_len = 0;
		exp_execute();
		record_schedule(r);
		nwalks++;
	}
	exp_random_mode = false;
	r->seconds = cpu_seconds() - t0;
	printf("  %s: bound %u, %lu schedules%s + %u random walks (seed %lu), "
	       "%lu steps (%lu stack-local points skipped), %lu violating "
	       "[%.2f s CPU]\n",
	       s->name, exp_bound, r->schedules - nwalks,
	       r->complete ? " (exhaustive)" :
	       r->violations && !all ?
			     " (stopped at the first counterexample)" :
			     " (INCOMPLETE: schedule budget reached)",
	       nwalks, seed, r->steps, exp_por_skipped, r->violations,
	       r->seconds);
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
