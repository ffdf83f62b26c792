// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer, the programs' side: what runs on each
 * simulated CPU's coroutine, its scheduling points (sim/explore.h) and the
 * scheduler's choices (explore_choose()), each a yield to the explorer.
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

struct exp_thread exp_thr[EXPLORE_MAX_THREADS];
int exp_cur = -1; /* running program, -1: the explorer */
struct sim_fiber exp_main_fib; /* the explorer's side */
void *exp_main_fake_stack;
const void *exp_main_bottom;
size_t exp_main_size;
bool exp_irq_done[EXPLORE_MAX_IRQS];

/*
 * An interrupt's handler: in hardirq; or, for a device interrupt on
 * PREEMPT_RT (threaded), as 6.1-rt's forced-threaded handler runs it
 * (irq_forced_thread_fn()): in task context, between local_bh_disable()
 * and local_bh_enable(), which then runs the softirqs it raised.
 */
void exp_run_irq(const struct explore_actor *irq)
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
	sim_preempt_point("the interrupt return: irqentry_exit_cond_resched()");
}

/*
 * Where the interrupt can arrive on c: IRQs on and not in hardirq; a
 * forced-threaded one where its thread can preempt the program: nothing
 * holds preemption off, and no BH-disabled section, spinlock or RCU reader
 * is open there (the thread would block on the BH lock or a spinlock and
 * run after it; the explorer takes that later point instead).
 */
bool exp_irq_can_arrive(const struct explore_actor *irq,
			const struct sim_cpu *c)
{
	if (c->irqs_off || c->hardirq)
		return false;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || !irq->threaded)
		return true;
	return !c->preempt_disable && !c->bh_disable && !c->serving_softirq &&
	       !c->rcu_read_nesting;
}

/*
 * A file of the shims, not the tree's: __FILE__ strings are few and
 * constant, so each one's answer is remembered by its address.
 */
static bool shim_file(const char *file)
{
	static struct {
		const char *file;
		bool shim;
	} cache[128];
	unsigned int i = (unsigned int)(((uintptr_t)file >> 3) % 128);

	if (cache[i].file != file) {
		cache[i].file = file;
		cache[i].shim = strstr(file, "/shims/") != NULL;
	}
	return cache[i].shim;
}

static void yield_to_explorer(const char *file, int line)
{
	struct exp_thread *const t = &exp_thr[exp_cur];

	t->file = file;
	t->line = line;
	if (!shim_file(file)) {
		t->tree_file = file;
		t->tree_line = line;
	}
	t->saved_cpu = sim_cur_cpu;
	fiber_start(&t->fake_stack, exp_main_bottom, exp_main_size);
	sim_fiber_switch(&t->fib, &exp_main_fib);
	fiber_finish(t->fake_stack, &exp_main_bottom, &exp_main_size);
	/* The explorer chose this program again (cur was set by it). */
	sim_cur_cpu = t->saved_cpu;
	t->label = NULL;
	t->async_kind = 0;
	if (t->pending_irq >= 0) {
		const struct explore_actor *irq =
			&exp_scn->irqs[t->pending_irq];
		int (*cond)(void *) = t->wait_cond;

		/* The handler runs (and yields) as itself, not as the wait. */
		t->pending_irq = -1;
		t->wait_cond = NULL;
		exp_run_irq(irq);
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
	if (exp_cur < 0)
		return;
	yield_to_explorer(file, line);
}

void explore_async_point(int kind, const char *what, const char *file, int line)
{
	struct exp_thread *t;

	if (exp_cur < 0 || !sim_explore_active || !(exp_async & kind))
		return;
	t = &exp_thr[exp_cur];
	/* On its own CPU (not another CPU's code it runs, as cpu_down()'s). */
	if (sim_cur_cpu != t->a->cpu || !exp_async_options(exp_cur, kind))
		return;
	t->async_kind = kind;
	t->label = what;
	yield_to_explorer(file, line);
}

/* The stack the running program is on: its own, or its CPU's task's. */
bool exp_on_own_stack(const volatile void *addr)
{
	const char *a = (const char *)(uintptr_t)addr;
	const char *lo = exp_thr[exp_cur].stack;

	if (a >= lo && a < lo + EXP_STACK)
		return true;
	return sim_on_task_stack(addr);
}

void explore_point_at(const volatile void *addr, const char *file, int line)
{
	if (exp_cur < 0)
		return;
	if (exp_por && exp_on_own_stack(addr)) {
		exp_por_skipped++;
		return;
	}
	yield_to_explorer(file, line);
}

void explore_lock_wait(int *owner, const char *file, int line)
{
	if (exp_cur < 0)
		return;
	yield_to_explorer(file, line);
	while (*owner >= 0 && *owner != sim_cpu_id()) {
		exp_thr[exp_cur].wait_owner = owner;
		yield_to_explorer(file, line);
	}
	exp_thr[exp_cur].wait_owner = NULL;
}

int explore_in_program(void)
{
	return sim_explore_active && exp_cur >= 0;
}

static void wait_until(int (*cond)(void *arg), void *arg, unsigned int flags)
{
	struct exp_thread *t = &exp_thr[exp_cur];

	t->wait_cond = cond;
	t->wait_arg = arg;
	t->wait_flags = flags;
	do {
		/* An interrupt taken meanwhile runs here, then the test again. */
		yield_to_explorer(__FILE__, __LINE__);
		t = &exp_thr[exp_cur];
	} while (!cond(arg));
	t->wait_cond = NULL;
}

void explore_wait_until(int (*cond)(void *arg), void *arg, unsigned int flags,
			const char *what)
{
	if (exp_cur < 0)
		sim_bug(__FILE__, __LINE__,
			"explore_wait_until() outside a program");
	exp_copy_text(exp_thr[exp_cur].wait_what, what,
		      sizeof(exp_thr[exp_cur].wait_what));
	wait_until(cond, arg, flags);
}

void explore_wait_until_of(int (*cond)(void *arg), void *arg,
			   unsigned int flags, const char *who,
			   const char *what)
{
	char *buf;
	size_t n, size;

	if (exp_cur < 0)
		sim_bug(__FILE__, __LINE__,
			"explore_wait_until() outside a program");
	/* snprintf(wait_what, "%s %s", who, what) */
	buf = exp_thr[exp_cur].wait_what;
	size = sizeof(exp_thr[exp_cur].wait_what);
	exp_copy_text(buf, who, size);
	n = strlen(buf);
	if (n + 1 < size) {
		buf[n++] = ' ';
		exp_copy_text(buf + n, what, size - n);
	}
	wait_until(cond, arg, flags);
}

void explore_point_named(const char *what)
{
	if (exp_cur < 0)
		return;
	exp_thr[exp_cur].label = what;
	yield_to_explorer(__FILE__, __LINE__);
}

/* A choice among n of kind: the option, its event recorded but described. */
static unsigned int choose(int kind, unsigned int n, struct exp_event **ep)
{
	struct exp_step *s;
	struct exp_event *e;
	unsigned short en;
	unsigned int o;

	if (exp_nr_steps >= EXP_MAX_STEPS) {
		exp_overflow = true; /* the explorer ends the schedule */
		return 0;
	}
	en = (unsigned short)((1u << n) - 1);
	s = &exp_trace[exp_nr_steps];
	if (exp_nr_steps < exp_prefix_len) {
		o = s->choice;
		if (s->kind != kind || s->enabled != en ||
		    s->cur != (unsigned char)exp_cur) {
			exp_violate("%s",
				    "schedule does not replay "
				    "(the scheduler's choice differs here)");
			exp_replay_broken = true;
			o = 0;
		}
	} else {
		o = exp_random_mode ? (unsigned int)exp_rng_next(n) : 0;
		s->choice = (unsigned char)o;
		s->tried = (unsigned short)(1u << o);
	}
	s->kind = (unsigned char)kind;
	s->cur = (unsigned char)exp_cur;
	s->enabled = en;
	s->preempt = (unsigned char)exp_preempts;
	if (exp_step_preempts(s, (int)o))
		exp_preempts++;
	e = &exp_events[exp_nr_steps];
	e->thread = (unsigned char)exp_cur;
	e->irq = -1;
	e->file = NULL;
	e->line = 0;
	e->tree_file = exp_thr[exp_cur].tree_file;
	e->tree_line = exp_thr[exp_cur].tree_line;
	e->step_kind = (unsigned char)kind;
	e->nr_options = (unsigned char)n;
	*ep = e;
	exp_nr_steps++;
	return o;
}

unsigned int explore_choose(int kind, unsigned int n, const char *const *what)
{
	struct exp_event *e = NULL;
	unsigned int o;

	if (exp_cur < 0 || !sim_explore_active || !exp_task_choices || n < 2)
		return 0;
	if (n > 16)
		n = 16;
	o = choose(kind, n, &e);
	if (!e)
		return o;
	e->what_kind = kind == STEP_PICK    ? EXP_WHAT_PICK :
		       kind == STEP_POLL    ? EXP_WHAT_POLL :
		       kind == STEP_MIGRATE ? EXP_WHAT_MIGRATE :
					      EXP_WHAT_PREEMPT;
	e->what_arg = (int)n;
	exp_copy_text(e->text, what[o], sizeof(e->text));
	return o;
}

unsigned int explore_choose_described(int kind, unsigned int n,
				      explore_describe_fn describe,
				      const struct explore_words *words)
{
	struct exp_event *e = NULL;
	unsigned int o;

	if (exp_cur < 0 || !sim_explore_active || !exp_task_choices || n < 2)
		return 0;
	if (n > 16)
		n = 16;
	o = choose(kind, n, &e);
	if (!e)
		return o;
	e->what_kind = EXP_WHAT_DESCRIBED;
	e->what_arg = (int)o;
	e->describe = describe;
	e->words = *words;
	return o;
}

void exp_thread_entry(unsigned int hi, unsigned int lo)
{
	struct exp_thread *t =
		(struct exp_thread *)(((uintptr_t)hi << 32) | (uintptr_t)lo);

	fiber_finish(NULL, &exp_main_bottom, &exp_main_size);
	sim_cur_cpu = t->a->cpu;
	t->a->fn();
	t->done = true;
	t->file = "(end)";
	t->line = 0;
	fiber_start(NULL, exp_main_bottom, exp_main_size);
	sim_fiber_exit(&exp_main_fib);
}

#ifdef SIM_EXPLORE_OUT_OF_LINE

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
