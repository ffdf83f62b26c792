// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer: one execution of a scenario under a schedule,
 * and the properties checked after it.
 */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sim/explore.h>
#include <sim/watch.h>
#include "../sim_internal.h"
#include "explore_internal.h"

struct exp_step exp_trace[EXP_MAX_STEPS];
unsigned int exp_nr_steps; /* steps of the current execution */
unsigned int exp_prefix_len; /* steps forced from exp_trace[] */
struct exp_event exp_events[EXP_MAX_STEPS];
bool exp_overflow;
unsigned int exp_preempts; /* in the current execution */
bool exp_replay_broken;
char exp_violation[256];
bool exp_bugged;

static void reset_thread(struct exp_thread *t)
{
	t->done = false;
	t->wait_owner = NULL;
	t->wait_cond = NULL;
	t->label = NULL;
	t->async_kind = 0;
	t->pending_irq = -1;
	t->pending_ipi = -1;
	t->file = NULL;
	t->line = 0;
	t->tree_file = NULL;
	t->tree_line = 0;
}

void exp_violate(const char *fmt, const char *arg)
{
	if (!exp_violation[0])
		snprintf(exp_violation, sizeof(exp_violation), fmt, arg);
}

/* A fresh machine (the scenario's setup) and each program at its start. */
static void start_execution(void)
{
	int i;

	exp_violation[0] = '\0';
	exp_overflow = false;
	exp_replay_broken = false;
	exp_preempts = 0;
	memset(exp_irq_done, 0, sizeof(exp_irq_done));
	exp_map_programs();
	exp_scn->setup();
	for (i = 0; i < exp_scn->nr_threads; i++) {
		struct exp_thread *t = &exp_thr[i];
		uintptr_t addr = (uintptr_t)t;

		t->a = &exp_scn->threads[i];
		reset_thread(t);
		if (!t->stack)
			t->stack = malloc(EXP_STACK);
		sim_fiber_make(&t->fib, t->stack, EXP_STACK, exp_thread_entry,
			       (unsigned int)(addr >> 32), (unsigned int)addr);
		t->bottom = t->stack;
		t->size = EXP_STACK;
	}
	exp_tso_reset();
	sim_tso_active = exp_scn->tso;
	sim_explore_active = 1;
	exp_nr_steps = 0;
}

/* No option is left: a deadlock, unless every CPU waits idle or ended. */
static void check_no_option(void)
{
	int i;

	/* Idle CPUs waiting for work do not keep it going. */
	for (i = 0; i < exp_scn->nr_threads; i++)
		if (!exp_thr[i].done &&
		    !(exp_thr[i].wait_cond &&
		      (exp_thr[i].wait_flags & EXPLORE_WAIT_IDLE)))
			break;
	if (i < exp_scn->nr_threads && exp_thr[i].wait_cond) {
		static char msg[160];

		snprintf(msg, sizeof(msg), "%s waits for %s",
			 exp_thr[i].a->name, exp_thr[i].wait_what);
		exp_violate("deadlock: %s, which never comes", msg);
	} else if (i < exp_scn->nr_threads) {
		exp_violate("deadlock: %s spins on a lock nobody releases",
			    exp_thr[i].a->name);
	}
}

/*
 * The option of this step: forced by the prefix, or the default policy's
 * (or the random walk's).  -1: the prefix does not replay.
 */
static int choose_option(int running, unsigned short en)
{
	struct exp_step *s = &exp_trace[exp_nr_steps];
	int o, i;

	if (exp_nr_steps < exp_prefix_len) {
		o = s->choice;
		if (s->kind != STEP_SWITCH || !(en & (1u << o)) ||
		    s->cur != (unsigned char)running) {
			exp_violate(
				"%s",
				"schedule does not replay (choice not enabled here)");
			return -1;
		}
	} else {
		o = exp_default_choice(running, en);
		if (exp_random_mode) {
			int opts[EXP_NR_OPTS], n = 0;

			for (i = 0; i < EXP_NR_OPTS; i++)
				if (en & (1u << i))
					opts[n++] = i;
			o = opts[exp_rng_next((unsigned int)n)];
		}
		s->choice = (unsigned char)o;
		s->tried = (unsigned short)(1u << o);
	}
	s->kind = STEP_SWITCH;
	s->cur = (unsigned char)running;
	s->enabled = en;
	s->preempt = (unsigned char)exp_preempts;
	if (exp_is_preemption(running, en, o))
		exp_preempts++;
	return o;
}

/* Step idx drains CPU o - EXP_OPT_DRAIN's oldest store. */
static void drain_step(unsigned int idx, int o)
{
	struct exp_event *e = &exp_events[idx];
	int cpu = o - EXP_OPT_DRAIN, t;
	const char *file = exp_tso_drain_one(cpu);

	/* The program of that CPU shows the drain. */
	for (t = 0; t < exp_scn->nr_threads - 1; t++)
		if (exp_thr[t].a->cpu == cpu)
			break;
	e->thread = (unsigned char)t;
	e->irq = -1;
	e->file = NULL;
	e->line = 0;
	e->tree_file = NULL;
	e->what_kind = EXP_WHAT_DRAIN;
	e->what_arg = cpu;
	e->what_str = file;
}

/* Step idx ran option o on program running: where it stopped. */
static void record_event(unsigned int idx, int o, int running)
{
	struct exp_event *e = &exp_events[idx];
	const struct exp_thread *t = &exp_thr[running];

	e->thread = (unsigned char)running;
	e->irq = o >= EXPLORE_MAX_THREADS && o < EXP_OPT_DRAIN ?
			 (signed char)(o - EXPLORE_MAX_THREADS) :
			 -1;
	e->file = t->file;
	e->line = t->line;
	e->tree_file = t->tree_file;
	e->tree_line = t->tree_line;
	if (o >= EXP_OPT_IPI) {
		e->what_kind = EXP_WHAT_IPI;
		e->what_arg = o - EXP_OPT_IPI;
	} else if (t->wait_cond) {
		e->what_kind = EXP_WHAT_WAIT;
		exp_copy_text(e->text, t->wait_what, sizeof(e->text));
	} else if (t->label) {
		e->what_kind = EXP_WHAT_LABEL;
		e->what_str = t->label;
	} else {
		e->what_kind = EXP_WHAT_NONE;
	}
}

/* The scenario's invariant after a step; false when it fails. */
static bool check_invariant(void)
{
	const char *msg;

	if (!exp_scn->invariant || exp_violation[0])
		return true;
	msg = exp_scn->invariant();
	if (!msg)
		return true;
	exp_violate("%s", msg);
	return false;
}

/* The schedule's steps, until no option is left or a property fails. */
static void run_steps(void)
{
	int running = -1;

	for (;;) {
		unsigned short en = exp_enabled_mask();
		unsigned int idx;
		int o;

		if (!en) {
			check_no_option();
			break;
		}
		if (exp_overflow || exp_nr_steps >= EXP_MAX_STEPS) {
			exp_overflow = true;
			exp_violate("%s",
				    "livelock: no end after the step limit");
			break;
		}
		o = choose_option(running, en);
		if (o < 0)
			break;
		idx = exp_nr_steps++;
		if (o >= EXP_OPT_DRAIN && o < EXP_OPT_IPI) {
			drain_step(idx, o);
		} else {
			exp_resume(o);
			running = exp_opt_thread(o);
			record_event(idx, o, running);
			if (exp_replay_broken)
				break;
		}
		if (!check_invariant())
			break;
	}
}

/* After the programs: buffered stores, interrupts never chosen, the rest. */
static void run_to_quiescence(void)
{
	int i;

	/* The stores still buffered reach memory. */
	for (i = 0; i < NR_CPUS; i++)
		exp_tso_drain(i);
	/* Interrupts never chosen arrive after the programs. */
	for (i = 0; i < exp_scn->nr_irqs; i++) {
		int prev;

		if (exp_irq_done[i])
			continue;
		prev = sim_switch_cpu(exp_scn->irqs[i].cpu);
		exp_run_irq(&exp_scn->irqs[i]);
		sim_switch_cpu(prev);
	}
	sim_run_all(100000);
}

/* The properties every schedule must keep, at quiescence. */
static void check_properties(void)
{
	struct sim_counters t = sim_total();
	const char *msg;
	static char buf[200];
	int i;

	if (sim_skbs_outstanding()) {
		snprintf(buf, sizeof(buf), "%lu", sim_skbs_outstanding());
		exp_violate(
			"packet lost: %s packet(s) neither delivered nor freed after quiescence",
			buf);
	}
	if (t.warns)
		exp_violate("WARN: %s", sim_nr_warns ? sim_warns[0].msg : "?");
	if (t.pr_warn_once)
		exp_violate("pr_warn_once: %s", sim_last_pr_warn);
	if (!sim_lockdep_clean())
		exp_violate("context checker: %s", sim_lockdep_report());
	if (IS_ENABLED(CONFIG_PREEMPT_RT) && t.raises_in_smp_call)
		exp_violate("%s", "RT: softirq raised from SMP-call context");
	for (i = 0; i < NR_CPUS; i++)
		if ((msg = sim_call_queue_stranded(i)))
			exp_violate("%s", msg);
	if (exp_scn->check && (msg = exp_scn->check()))
		exp_violate("%s", msg);
}

/*
 * One execution: the first exp_prefix_len choices come from exp_trace[],
 * the rest from the default policy (or the random walk).  Returns with the
 * steps in exp_trace[0..exp_nr_steps) and exp_violation[] set if a
 * property failed.
 */
static bool executing;

bool explore_executing(void)
{
	return executing;
}

void exp_execute(void)
{
	start_execution(); /* the scenario's setup: nothing runs concurrently */
	executing = true;
	run_steps();
	sim_explore_active = 0;
	sim_tso_active = 0;
	if (!exp_violation[0]) {
		run_to_quiescence();
		check_properties();
	}
	/* else the machine is left as it is: reset next */
	executing = false;
}
