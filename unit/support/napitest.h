/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every suite includes: cmocka, the shims, the declarations of the
 * extracted code of the tree under test, and the boot and assertion
 * helpers.  The extracted code itself is one translation unit per
 * configuration (extracted/all.c) linked into every suite binary; its static
 * functions and variables are given external linkage by the extraction, so
 * the prototypes in extracted/defs.h reach them.  Seed suites compile it
 * into their own translation unit instead (NAPITEST_SINGLE_TU).
 */
#ifndef NAPITEST_H
#define NAPITEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kernel_prelude.h>
#include "extracted/present.h"
#ifdef NAPITEST_SINGLE_TU
/*
 * Seed suites (unit/seed/): the seed's code needs definitions from the rest
 * of the kernel that the suite makes before this include, so the extracted
 * code is compiled into the suite's own translation unit.
 */
#include "extracted/all.c"
#endif

/* The configuration under test (CMake passes these; see unit/README.md). */
#ifndef NAPITEST_BACKLOG_THREADS
#define NAPITEST_BACKLOG_THREADS 0
#endif

/*
 * A tree without a definition the test needs fails the test, naming what
 * is missing: on base, tests of what the series adds fail rather than skip.
 */
#define require_definition(name)					\
	do {								\
		if (!EXTRACTED_HAVE_##name)				\
			fail_msg("%s() is not in this tree (%s)",	\
				 #name, EXTRACTED_TREE);		\
	} while (0)

/* Boot the simulated machine: the kernel command line, then net_dev_init(). */
static inline void napitest_boot(unsigned int nr_cpus)
{
	sim_reset(nr_cpus);
#if EXTRACTED_HAVE_setup_backlog_napi_threads && !defined(CONFIG_PREEMPT_RT)
	if (NAPITEST_BACKLOG_THREADS)
		setup_backlog_napi_threads(NULL);	/* thread_backlog_napi */
#endif
	assert_int_equal(net_dev_init(), 0);
	/* Let the per-CPU threads run their setup(). */
	sim_run_all(1000);
}

/* netif_napi_add() for a test device: an idle NAPI with poll as callback. */
static inline void napitest_napi_init(struct napi_struct *n,
				      struct net_device *dev,
				      int (*poll)(struct napi_struct *, int))
{
	memset(n, 0, sizeof(*n));
	INIT_LIST_HEAD(&n->poll_list);
	init_gro_hash(n);
	n->poll = poll;
	n->weight = 64;
	n->dev = dev;
}

/*
 * A threaded driver NAPI on cpu: netif_napi_add() and
 * dev_set_threaded(dev, true).  The thread runs until it sleeps in
 * napi_thread_wait().
 */
static inline void napitest_threaded_napi(struct napi_struct *napi,
					  struct net_device *dev,
					  int (*poll)(struct napi_struct *, int),
					  int cpu)
{
	int prev;

	napitest_napi_init(napi, dev, poll);
	prev = sim_switch_cpu(cpu);
	napi->thread = kthread_run(napi_threaded_poll, napi, "napi/%s-%d",
				   dev->name, 0);
	set_bit(NAPI_STATE_THREADED, &napi->state);
	sim_run_cpu(cpu, 16);
	sim_switch_cpu(prev);
	assert_int_equal(READ_ONCE(napi->thread->__state), TASK_INTERRUPTIBLE);
}

/* The device interrupt on cpu: napi_schedule() in hardirq context. */
static inline void napitest_device_irq(int cpu, struct napi_struct *napi)
{
	int prev = sim_switch_cpu(cpu);

	sim_hardirq_enter();
	napi_schedule(napi);
	sim_hardirq_exit();
	sim_switch_cpu(prev);
}

/* cpu's backlog_napi thread, or NULL (no threads, or a tree without them). */
static inline struct task_struct *napitest_backlog_thread(int cpu)
{
#if EXTRACTED_HAVE_backlog_napi
	return per_cpu(backlog_napi, cpu);
#else
	(void)cpu;
	return NULL;
#endif
}

/* A packet of dev allocated on cpu (skb->alloc_cpu), as a driver there would. */
static inline struct sk_buff *napitest_skb_on(int cpu, struct net_device *dev)
{
	int prev = sim_switch_cpu(cpu);
	struct sk_buff *skb = sim_skb_alloc(dev);

	sim_switch_cpu(prev);
	return skb;
}

/* Print the seed and every WARN on failure. */
static inline void napitest_report(void)
{
	unsigned int i;

	for (i = 0; i < sim_nr_warns; i++)
		print_message("  %s\n", sim_warns[i].msg);
	if (sim_last_pr_warn[0])
		print_message("  last pr_warn: %s", sim_last_pr_warn);
}

#define assert_no_warn()						\
	do {								\
		if (sim_total().warns) {				\
			napitest_report();				\
			fail_msg("%lu WARN(s)", sim_total().warns);	\
		}							\
	} while (0)

#endif
