// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/locking/lockdep.c: the context checker, lockdep's
 * irq-usage rules, per lock class.  A class is the name given at
 * spin_lock_init() (e.g. "&sd->defer_lock"), as lockdep keys a class by
 * its init site.  Reported, as lockdep does:
 *   IN-HARDIRQ  and HARDIRQ-ON  (taken in hardirq, and elsewhere with IRQs on)
 *   IN-SOFTIRQ  and SOFTIRQ-ON  (taken in softirq, and elsewhere with BH on)
 * and recursive acquisition on one CPU (a self-deadlock).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_internal.h"

#define MAX_CLASSES 32

static struct sim_lock_class classes[MAX_CLASSES];
static unsigned int nr_classes;
static char report[512];

static struct sim_lock_class *class_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_classes; i++)
		if (!strcmp(classes[i].name, name))
			return &classes[i];
	if (nr_classes == MAX_CLASSES)
		sim_bug(__FILE__, __LINE__, "too many lock classes");
	classes[nr_classes].name = name;
	return &classes[nr_classes++];
}

static void complain(const struct sim_lock_class *c, const char *what)
{
	if (report[0])
		return;
	snprintf(report, sizeof(report),
		 "inconsistent lock state: %s on CPU %d for lock class %s",
		 what, sim_cpu_id(), c->name);
}

static void check_usage(struct sim_lock_class *c)
{
	struct sim_cpu *cpu = sim_this();
	bool softirq_on;

	if (in_hardirq())
		c->used_in_hardirq = true;
	else if (!cpu->irqs_off)
		c->used_irqs_on = true;
	/* On RT, BH-disabled sections and softirqs are preemptible task
	 * context and spinlock_t sleeps: the softirq rule does not apply. */
	softirq_on = !IS_ENABLED(CONFIG_PREEMPT_RT) && !cpu->irqs_off &&
		     !in_softirq() && !in_hardirq();
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && in_serving_softirq())
		c->used_in_softirq = true;
	else if (softirq_on)
		c->used_bh_on = true;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && c->used_in_hardirq &&
	    c->used_irqs_on)
		complain(c, "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}");
	if (c->used_in_softirq && c->used_bh_on)
		complain(c, "{IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W}");
}

void sim_spin_lock(spinlock_t *lock, const char *site)
{
	const char *name = lock->name ? lock->name : site;

	check_usage(class_of(name));
	if (lock->owner == sim_cpu_id()) {
		snprintf(report, sizeof(report),
			 "possible recursive locking of %s on CPU %d", name,
			 sim_cpu_id());
		sim_bug(__FILE__, __LINE__, report);
	}
	if (lock->owner >= 0)
		sim_bug(__FILE__, __LINE__,
			"lock held by another simulated CPU that is not running");
	lock->owner = sim_cpu_id();
	lock->acquisitions++;
}

void sim_spin_unlock(spinlock_t *lock)
{
	if (lock->owner != sim_cpu_id())
		sim_bug(__FILE__, __LINE__, "unlock of a lock this CPU does not hold");
	lock->owner = -1;
	sim_preempt_point();
}

bool sim_lockdep_clean(void)
{
	return report[0] == '\0';
}

const char *sim_lockdep_report(void)
{
	return report;
}

/* usage: "hardirq", "softirq", "irqs-on", "bh-on" */
bool sim_lockdep_class_used(const char *name, const char *usage)
{
	unsigned int i;

	for (i = 0; i < nr_classes; i++) {
		const struct sim_lock_class *c = &classes[i];

		if (strcmp(c->name, name))
			continue;
		if (!strcmp(usage, "hardirq"))
			return c->used_in_hardirq;
		if (!strcmp(usage, "softirq"))
			return c->used_in_softirq;
		if (!strcmp(usage, "irqs-on"))
			return c->used_irqs_on;
		if (!strcmp(usage, "bh-on"))
			return c->used_bh_on;
		if (!strcmp(usage, "any"))
			return true;
	}
	return false;
}

void sim_lockdep_reset(void)
{
	memset(classes, 0, sizeof(classes));
	nr_classes = 0;
	report[0] = '\0';
}
