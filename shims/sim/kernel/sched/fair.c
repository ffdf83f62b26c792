// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/sched/fair.c: the load balancer's pull of a runnable
 * task to another CPU (kernel/sched/core.c calls it when a task leaves
 * its CPU still runnable).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include "sim_internal.h"

/*
 * The load balancer (load_balance(), an idle CPU's
 * newidle_balance(), active balancing) moving p, runnable but not running:
 * detach_task()/attach_task() to another CPU's runqueue, if
 * can_migrate_task() allows it: p may run there (cpus_ptr; not a
 * per-CPU-bound kthread), its migration is not disabled
 * (is_migration_disabled()), the destination is active.  Under the
 * explorer a choice made where p leaves the CPU still runnable (it was
 * preempted or yielded); 0 leaves it where it is.  The weighing of load
 * is not modelled: any active CPU may pull it.
 */
void sim_load_balance(struct task_struct *p)
{
	char buf[NR_CPUS][48];
	const char *what[NR_CPUS];
	int cand[NR_CPUS], cpu;
	unsigned int n = 0, k;

	if (p->nr_cpus_allowed == 1 || p->migration_disabled ||
	    !explore_in_program())
		return;
	for (cpu = p->cpu; n < NR_CPUS; cpu = (cpu + 1) % NR_CPUS) {
		if (n && cpu == p->cpu)
			break;
		if (cpu != p->cpu &&
		    (!cpu_online(cpu) || sim_cpus[cpu].inactive))
			continue;
		snprintf(buf[n], sizeof(buf[n]), "load_balance(): %s %s CPU%d",
			 p->comm, n ? "pulled to" : "stays on", cpu);
		what[n] = buf[n];
		cand[n++] = cpu;
	}
	k = explore_choose(EXPLORE_MIGRATE, n, what);
	if (!k)
		return;
	sim_deactivate_task(p); /* detach_task() */
	p->cpu = cand[k];
	sim_activate_task(p); /* attach_task() */
	sim_cpus[cand[k]].cnt.migrations++;
}
