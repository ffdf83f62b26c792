// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer's side: which options a step has (a program,
 * an interrupt, a store buffer's drain, a CPU's pending IPIs), the default
 * policy, what counts as a preemption, and switching to the chosen one.
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

static bool thread_waiting(const struct exp_thread *t)
{
	if (t->wait_owner && *t->wait_owner >= 0)
		return true;
	return t->wait_cond && !t->wait_cond(t->wait_arg);
}

/* Its CPU can take an interrupt: running, or waiting interruptibly. */
static bool thread_interruptible(int i)
{
	struct exp_thread *t = &exp_thr[i];

	if (t->done)
		return false;
	return !thread_waiting(t) ||
	       (t->wait_cond && (t->wait_flags & EXPLORE_WAIT_IRQS));
}

/*
 * The program of each CPU and of each interrupt's CPU (the first program
 * on that CPU, or -1), from the scenario at each execution's start: they
 * are asked at every step.
 */
static signed char cpu_thr[NR_CPUS];
static signed char irq_thr[EXPLORE_MAX_IRQS];

void exp_map_programs(void)
{
	int cpu, i;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		cpu_thr[cpu] = -1;
		for (i = exp_scn->nr_threads - 1; i >= 0; i--)
			if (exp_scn->threads[i].cpu == cpu)
				cpu_thr[cpu] = (signed char)i;
	}
	for (i = 0; i < exp_scn->nr_irqs; i++) {
		cpu = exp_scn->irqs[i].cpu;
		irq_thr[i] = cpu >= 0 && cpu < NR_CPUS ? cpu_thr[cpu] : -1;
	}
}

/* The program of cpu, or -1. */
static inline int cpu_thread(int cpu)
{
	return cpu_thr[cpu];
}

/*
 * A program of cpu is executing code there (not ended, not waiting idle):
 * the CPU is not in its idle loop (shims/sim/kernel/sched/core.c).
 */
bool explore_cpu_running(int cpu)
{
	int t;

	if (!sim_explore_active || !exp_scn)
		return false;
	t = cpu_thread(cpu);
	if (t < 0 || exp_thr[t].done)
		return false;
	return !(exp_thr[t].wait_cond &&
		 (exp_thr[t].wait_flags & EXPLORE_WAIT_IDLE));
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
	if (t < 0 || !thread_interruptible(t) || !exp_thr[t].file)
		return false;
	return exp_thr[t].pending_irq < 0 && exp_thr[t].pending_ipi < 0 &&
	       exp_thr[t].saved_cpu == cpu;
}

/* The program an option runs: itself, or the program of the IRQ's CPU. */
int exp_opt_thread(int o)
{
	if (o < EXPLORE_MAX_THREADS)
		return o;
	if (o >= EXP_OPT_IPI)
		return cpu_thread(o - EXP_OPT_IPI);
	if (o >= EXP_OPT_DRAIN)
		return -1; /* a drain runs no program */
	return irq_thr[o - EXPLORE_MAX_THREADS];
}

unsigned short exp_enabled_mask(void)
{
	unsigned short m = 0, intr = 0;
	int i;

	/* Each program's wait tested once (a wait_cond() call). */
	for (i = 0; i < exp_scn->nr_threads; i++) {
		const struct exp_thread *t = &exp_thr[i];
		bool waiting;

		if (t->done)
			continue;
		waiting = thread_waiting(t);
		if (!waiting)
			m |= 1u << i;
		/* thread_interruptible() */
		if (!waiting ||
		    (t->wait_cond && (t->wait_flags & EXPLORE_WAIT_IRQS)))
			intr |= 1u << i;
	}
	for (i = 0; i < exp_scn->nr_irqs; i++) {
		int t = exp_opt_thread(EXPLORE_MAX_THREADS + i);
		const struct sim_cpu *c;

		if (exp_irq_done[i] || t < 0 || !(intr & (1u << t)))
			continue;
		c = &sim_cpus[exp_scn->irqs[i].cpu];
		if (!exp_irq_can_arrive(&exp_scn->irqs[i], c) ||
		    exp_thr[t].pending_irq >= 0)
			continue;
		/* Not before the program started: nothing to interrupt. */
		if (!exp_thr[t].file)
			continue;
		m |= 1u << (EXPLORE_MAX_THREADS + i);
	}
	for (i = 0; sim_tso_active && i < NR_CPUS; i++)
		if (exp_tso_len[i])
			m |= 1u << (EXP_OPT_DRAIN + i);
	for (i = 0; i < NR_CPUS; i++)
		if (ipi_can_arrive(i))
			m |= 1u << (EXP_OPT_IPI + i);
	/* At an explore_async_point(): that CPU's hardirq work, or go on. */
	for (i = 0; i < exp_scn->nr_threads; i++)
		if (exp_thr[i].async_kind)
			return m &
			       ((1u << i) |
				exp_async_options(i, exp_thr[i].async_kind));
	return m;
}

/*
 * The hardirq work program t's CPU can take at an explore_async_point()
 * of kind, as exp_enabled_mask() offers it there: with IRQs back on, its
 * interrupts not yet delivered and its pending IPIs; at a preemption
 * point, on PREEMPT_RT, its forced-threaded interrupts (their threads
 * preempt there).  Evaluated by the program before it yields (t has
 * yielded before: an interrupt needs something to interrupt).
 */
unsigned short exp_async_options(int t, int kind)
{
	const struct exp_thread *th = &exp_thr[t];
	int cpu = th->a->cpu, i;
	const struct sim_cpu *c = &sim_cpus[cpu];
	unsigned short m = 0;

	if (!th->file || th->pending_irq >= 0 || th->pending_ipi >= 0)
		return 0;
	for (i = 0; i < exp_scn->nr_irqs; i++) {
		const struct explore_actor *irq = &exp_scn->irqs[i];

		if (irq->cpu != cpu || exp_irq_done[i] ||
		    !exp_irq_can_arrive(irq, c))
			continue;
		if (kind == EXPLORE_ASYNC_PREEMPT &&
		    !(IS_ENABLED(CONFIG_PREEMPT_RT) && irq->threaded))
			continue;
		m |= 1u << (EXPLORE_MAX_THREADS + i);
	}
	if (kind == EXPLORE_ASYNC_IRQS_ON &&
	    (c->ipi_pending & SIM_IPI_CALL_FUNC) && c->online && !c->irqs_off &&
	    !c->hardirq)
		m |= 1u << (EXP_OPT_IPI + cpu);
	return m;
}

int exp_default_choice(int running, unsigned short en)
{
	int i;

	if (running >= 0 && (en & (1u << running)))
		return running;
	for (i = 0; i < EXP_NR_OPTS; i++)
		if (en & (1u << i))
			return i;
	return -1;
}

bool exp_is_preemption(int running, unsigned short en, int o)
{
	return running >= 0 && (en & (1u << running)) &&
	       exp_opt_thread(o) != running;
}

int exp_step_default(const struct exp_step *s)
{
	if (s->kind != STEP_SWITCH)
		return 0;
	return exp_default_choice(s->cur == 0xff ? -1 : s->cur, s->enabled);
}

bool exp_step_preempts(const struct exp_step *s, int o)
{
	if (s->kind == STEP_PREEMPT)
		return o == 1;
	if (s->kind == STEP_PICK || s->kind == STEP_POLL ||
	    s->kind == STEP_MIGRATE)
		return false; /* the previous task blocked or was preempted */
	return exp_is_preemption(s->cur == 0xff ? -1 : s->cur, s->enabled, o);
}

void exp_resume(int o)
{
	int t = exp_opt_thread(o);
	struct exp_thread *const th = &exp_thr[t];

	if (o >= EXP_OPT_IPI) {
		th->pending_ipi = o - EXP_OPT_IPI;
	} else if (o >= EXPLORE_MAX_THREADS) {
		exp_irq_done[o - EXPLORE_MAX_THREADS] = true;
		th->pending_irq = o - EXPLORE_MAX_THREADS;
	}
	exp_cur = t;
	sim_cur_cpu = th->file ? th->saved_cpu : th->a->cpu;
	fiber_start(&exp_main_fake_stack, th->bottom, th->size);
	sim_fiber_switch(&exp_main_fib, &th->fib);
	fiber_finish(exp_main_fake_stack, &th->bottom, &th->size);
	exp_cur = -1;
}
