// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/smpboot.c: per-CPU hotplug threads running
 * smpboot_thread_fn(), their registration, and the list of them that CPU
 * hotplug parks and unparks (shims/sim/kernel/cpu.c).
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdlib.h>
#include <string.h>
#include "sim_internal.h"

static struct smp_hotplug_thread *hotplug_threads[SIM_MAX_HOTPLUG_THREADS];
static unsigned int nr_hotplug_threads;
static unsigned int setup_runs[NR_CPUS];

/* smpboot_thread_fn() (kernel/smpboot.c). */
struct smpboot_thread_data {
	unsigned int cpu;
	unsigned int status; /* HP_THREAD_NONE, _ACTIVE, _PARKED */
	struct smp_hotplug_thread *ht;
};

enum { HP_THREAD_NONE, HP_THREAD_ACTIVE, HP_THREAD_PARKED };

static int smpboot_thread_fn(void *data)
{
	struct smpboot_thread_data *td = data;
	struct smp_hotplug_thread *ht = td->ht;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			if (ht->cleanup && td->status != HP_THREAD_NONE)
				ht->cleanup(td->cpu, cpu_online(td->cpu));
			free(td);
			return 0;
		}
		if (kthread_should_park()) {
			__set_current_state(TASK_RUNNING);
			if (ht->park && td->status == HP_THREAD_ACTIVE) {
				ht->park(td->cpu);
				td->status = HP_THREAD_PARKED;
			}
			kthread_parkme();
			continue;
		}
		BUG_ON(td->cpu != (unsigned int)smp_processor_id());
		switch (td->status) {
		case HP_THREAD_NONE:
			__set_current_state(TASK_RUNNING);
			setup_runs[td->cpu]++;
			if (ht->setup)
				ht->setup(td->cpu);
			td->status = HP_THREAD_ACTIVE;
			continue;
		case HP_THREAD_PARKED:
			__set_current_state(TASK_RUNNING);
			if (ht->unpark)
				ht->unpark(td->cpu);
			td->status = HP_THREAD_ACTIVE;
			continue;
		}
		if (!ht->thread_should_run(td->cpu)) {
			schedule();
		} else {
			__set_current_state(TASK_RUNNING);
			ht->thread_fn(td->cpu);
		}
	}
}

static struct task_struct *smpboot_create(struct smp_hotplug_thread *ht,
					  unsigned int cpu)
{
	struct smpboot_thread_data *td = calloc(1, sizeof(*td));
	struct task_struct *tsk;

	if (!td)
		sim_bug(__FILE__, __LINE__, "out of memory");
	td->cpu = cpu;
	td->ht = ht;
	tsk = kthread_create_on_cpu(smpboot_thread_fn, td, cpu,
				    ht->thread_comm);
	*per_cpu_ptr(ht->store, cpu) = tsk;
	if (ht->create)
		ht->create(cpu);
	return tsk;
}

/*
 * smpboot_register_percpu_thread(): a thread per online CPU, started (it
 * runs setup() the first time its CPU schedules it).
 */
int smpboot_register_percpu_thread(struct smp_hotplug_thread *ht)
{
	unsigned int cpu;

	if (nr_hotplug_threads >= ARRAY_SIZE(hotplug_threads))
		return -ENOMEM;
	hotplug_threads[nr_hotplug_threads++] = ht;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		wake_up_process(smpboot_create(ht, cpu));
	}
	return 0;
}

void smpboot_unregister_percpu_thread(struct smp_hotplug_thread *ht)
{
	unsigned int cpu, i;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *tsk = *per_cpu_ptr(ht->store, cpu);

		if (tsk)
			kthread_stop(tsk);
	}
	for (i = 0; i < nr_hotplug_threads; i++)
		if (hotplug_threads[i] == ht)
			hotplug_threads[i] =
				hotplug_threads[--nr_hotplug_threads];
}

unsigned int sim_smpboot_setup_runs(int cpu)
{
	return setup_runs[cpu];
}

/*
 * The per-CPU threads of cpu in smpboot registration order: ksoftirqd
 * first.  t has room for SIM_MAX_HOTPLUG_THREADS + 1.
 */
unsigned int sim_smpboot_threads(int cpu, struct task_struct **t)
{
	unsigned int i, n = 0;

	t[n++] = per_cpu(ksoftirqd, cpu);
	for (i = 0; i < nr_hotplug_threads; i++) {
		struct task_struct *tsk =
			*per_cpu_ptr(hotplug_threads[i]->store, cpu);

		if (tsk)
			t[n++] = tsk;
	}
	return n;
}

bool sim_is_smpboot_thread(const struct task_struct *p)
{
	return p->threadfn == smpboot_thread_fn;
}

void sim_smpboot_reset(void)
{
	nr_hotplug_threads = 0;
	memset(setup_runs, 0, sizeof(setup_runs));
}
