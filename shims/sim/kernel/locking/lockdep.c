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

/*
 * The report names both sites, as lockdep's "inconsistent lock state"
 * does: where the lock is taken now, and where the other usage was
 * registered.
 */
static void complain(const struct sim_lock_class *c, const char *what,
		     enum sim_lock_usage then, const char *file, int line)
{
	if (report[0])
		return;
	snprintf(
		report, sizeof(report),
		"inconsistent lock state: %s on CPU %d for lock class %s at %s:%d; the other usage was registered at %s:%d",
		what, sim_cpu_id(), c->name, sim_tree_path(file), line,
		sim_tree_path(c->usage_file[then]), c->usage_line[then]);
}

static void mark_usage(struct sim_lock_class *c, enum sim_lock_usage u,
		       bool *used, const char *file, int line)
{
	if (*used)
		return;
	*used = true;
	c->usage_file[u] = file;
	c->usage_line[u] = line;
}

static void check_usage(struct sim_lock_class *c, const char *file, int line)
{
	struct sim_cpu *cpu = sim_this();
	bool softirq_on;

	if (in_hardirq())
		mark_usage(c, SIM_USED_IN_HARDIRQ, &c->used_in_hardirq, file,
			   line);
	else if (!cpu->irqs_off)
		mark_usage(c, SIM_USED_IRQS_ON, &c->used_irqs_on, file, line);
	/* On RT, BH-disabled sections and softirqs are preemptible task
	 * context and spinlock_t sleeps: the softirq rule does not apply. */
	softirq_on = !IS_ENABLED(CONFIG_PREEMPT_RT) && !cpu->irqs_off &&
		     !in_softirq() && !in_hardirq();
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && in_serving_softirq())
		mark_usage(c, SIM_USED_IN_SOFTIRQ, &c->used_in_softirq, file,
			   line);
	else if (softirq_on)
		mark_usage(c, SIM_USED_BH_ON, &c->used_bh_on, file, line);
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && c->used_in_hardirq &&
	    c->used_irqs_on)
		complain(c, "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}",
			 in_hardirq() ? SIM_USED_IRQS_ON : SIM_USED_IN_HARDIRQ,
			 file, line);
	if (c->used_in_softirq && c->used_bh_on)
		complain(c, "{IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W}",
			 in_serving_softirq() ? SIM_USED_BH_ON :
						SIM_USED_IN_SOFTIRQ,
			 file, line);
}

/*
 * rt_spin_lock() (kernel/locking/spinlock_rt.c): rtlock_might_resched(),
 * __might_resched() with the RCU nesting allowed (a spinlock may nest in
 * an RCU reader), the rt_mutex (owned by a task; a task of this CPU
 * holding it preempted makes this one block: kernel/locking/rtmutex.c),
 * then rcu_read_lock() and migrate_disable() for the section.  !RT:
 * spin_lock() is preempt_disable() and the raw lock, owned by this CPU.
 */
void sim_spin_lock(spinlock_t *lock, const char *site, const char *file,
		   int line)
{
	const char *name = lock->name ? lock->name : site;
	bool rt = IS_ENABLED(CONFIG_PREEMPT_RT);

	explore_tso_mb(); /* a locked instruction */
	if (rt)
		__might_resched(file, line,
				rcu_preempt_depth() << MIGHT_RESCHED_RCU_SHIFT);
	check_usage(class_of(name), file, line);
	if (rt ? lock->owner_task == current : lock->owner == sim_cpu_id()) {
		snprintf(report, sizeof(report),
			 "possible recursive locking of %s on CPU %d", name,
			 sim_cpu_id());
		sim_bug(file, line, report);
	}
	if (rt) {
		rtlock_lock(lock, file, line);
	} else {
		if (lock->owner >= 0)
			sim_bug(file, line,
				"lock held by another simulated CPU that is not running");
		lock->owner = sim_cpu_id();
		lock->owner_task = current;
	}
	lock->acquisitions++;
	if (rt) {
		rcu_read_lock();
		migrate_disable();
	} else {
		preempt_disable();
	}
}

/*
 * rt_spin_unlock(): migrate_enable(), rcu_read_unlock(), the release
 * (rt_mutex_slowunlock(): the top waiter woken); !RT the release and
 * preempt_enable().
 */
void sim_spin_unlock(spinlock_t *lock, const char *file, int line)
{
	bool rt = IS_ENABLED(CONFIG_PREEMPT_RT);

	explore_tso_mb();
	if (rt ? lock->owner_task != current : lock->owner != sim_cpu_id())
		sim_bug(file, line,
			rt ? "unlock of a lock this task does not hold" :
			     "unlock of a lock this CPU does not hold");
	if (rt) {
		migrate_enable();
		rcu_read_unlock();
		rtlock_unlock(lock);
	} else {
		lock->owner = -1;
		lock->owner_task = NULL;
		preempt_enable();
	}
	sim_preempt_point(rt ? "rt_spin_unlock(): migrate_enable()" :
			       "spin_unlock(): preempt_enable()");
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
