/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every suite includes: cmocka, the shims, the declarations of the
 * extracted code of the tree under test, and the boot and assertion
 * helpers (their code: support/napitest.c, one object per configuration
 * linked into every suite binary of it).  The extracted code itself is one translation unit per
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
#include <sim/watch.h>
#include "extracted/present.h"
#ifdef NAPITEST_SINGLE_TU
/*
 * Seed suites (unit/seed/): the seed's code needs definitions from the rest
 * of the kernel that the suite makes before this include, so the extracted
 * code is compiled into the suite's own translation unit.
 */
#include "extracted/all.c"
#endif

/*
 * The sysctls the suites read and tune: variables of net/core/dev.c up to
 * v6.8, fields of net_hotdata (net/core/hotdata.c) since v6.9.  The suites
 * use the variables' names.
 */
#if EXTRACTED_HAVE_net_hotdata
#define netdev_budget net_hotdata.netdev_budget
#define netdev_budget_usecs net_hotdata.netdev_budget_usecs
#define netdev_max_backlog net_hotdata.max_backlog
#define sysctl_skb_defer_max net_hotdata.sysctl_skb_defer_max
#endif

/*
 * softnet_data.dropped: an unsigned int up to v6.9, an atomic_t since
 * v6.10 (enqueue_to_backlog()'s atomic_inc()).  sd_dropped(sd) reads
 * either; only the reader of the tree's type is called.
 */
unsigned int napitest_read_atomic(const atomic_t *v);

unsigned int napitest_read_uint(const unsigned int *v);

/* clang-format off */
#define sd_dropped(sd)							\
	_Generic((sd)->dropped, atomic_t: napitest_read_atomic,		\
		 default: napitest_read_uint)(&(sd)->dropped)
/* clang-format on */

/*
 * The boot parameter thread_backlog_napi (patch 14's early_param): true in
 * the configurations booted with it, whose names end in "-threads"
 * (rps-threads, norps-threads; see unit/README.md).  Their kernel is that
 * of the configuration without the suffix, as in a kernel, where the
 * parameter is read at boot: SUITE-rps-threads runs the binary of
 * SUITE-rps, and this reads the name the binary was started by.
 */
bool napitest_thread_backlog_napi(void);

/*
 * A tree without a definition the test needs fails the test, naming what
 * is missing: on base, tests of what the series adds fail rather than skip.
 */
#define require_definition(name)                                         \
	do {                                                             \
		if (!EXTRACTED_HAVE_##name)                              \
			fail_msg("%s() is not in this tree (%s)", #name, \
				 EXTRACTED_TREE);                        \
	} while (0)

/*
 * The same for a definition the tree has under some CONFIG_ options only (a
 * #ifdef of the tree): the support code references it weakly, so that a
 * configuration whose #ifdef leaves it out still links, and the test that
 * needs it fails naming it.
 */
bool napitest_linked(const void *addr);

#define require_linked_definition(name)                                \
	do {                                                           \
		require_definition(name);                              \
		if (!napitest_linked(&name))                           \
			fail_msg("%s() is not in this tree in this "   \
				 "configuration (%s): the tree's #if " \
				 "around it leaves it out",            \
				 #name, EXTRACTED_TREE);               \
	} while (0)

/* Boot the simulated machine: the kernel command line, then net_dev_init(). */
void napitest_boot(unsigned int nr_cpus);

/* netif_napi_add() for a test device: an idle NAPI with poll as callback. */
void napitest_napi_init(struct napi_struct *n, struct net_device *dev,
			int (*poll)(struct napi_struct *, int));

/*
 * Name a test's NAPI in the assertions' messages ("napi_c of sim0"), before
 * napitest_napi_init(): several NAPIs of one device are otherwise all
 * "NAPI of sim0".
 */
void napitest_napi_name_as(struct napi_struct *n, const char *name,
			   const struct net_device *dev);

/*
 * A threaded driver NAPI on cpu: netif_napi_add() and
 * dev_set_threaded(dev, true).  The thread runs until it sleeps in
 * napi_thread_wait().
 */
void napitest_threaded_napi(struct napi_struct *napi, struct net_device *dev,
			    int (*poll)(struct napi_struct *, int), int cpu);

/* The device interrupt on cpu: napi_schedule() in hardirq context. */
void napitest_device_irq(int cpu, struct napi_struct *napi);

/* cpu's backlog_napi thread, or NULL (no threads, or a tree without them). */
struct task_struct *napitest_backlog_thread(int cpu);

/* A packet of dev allocated on cpu (skb->alloc_cpu), as a driver there would. */
struct sk_buff *napitest_skb_on(int cpu, struct net_device *dev);

/* Print the seed and every WARN on failure. */
void napitest_report(void);

/*
 * Assertions in kernel terms: a failure names the state by name, the CPU,
 * and where the tree last changed it (sim/watch.h), e.g.
 *   NAPI_STATE_THREADED clear on backlog of CPU 1, expected set (state:
 *   none; last changed on CPU 1 after net/core/dev.c:6144, before
 *   net/core/dev.c:6160)
 * never a bare "0 != 0x1".
 */
void napitest_assert_state_bit(const struct napi_struct *napi, int bit,
			       bool expect, const char *file, int line);

/* The bit (NAPI_STATE_SCHED...) of napi's state is set / clear. */
#define assert_napi_state_set(napi, bit) \
	napitest_assert_state_bit(napi, bit, true, __FILE__, __LINE__)
#define assert_napi_state_clear(napi, bit) \
	napitest_assert_state_bit(napi, bit, false, __FILE__, __LINE__)
#define assert_napi_state(napi, bit, expect) \
	napitest_assert_state_bit(napi, bit, !!(expect), __FILE__, __LINE__)

void napitest_assert_defer_list(int cpu, bool empty, const char *file,
				int line);

#define assert_defer_list_empty(cpu) \
	napitest_assert_defer_list(cpu, true, __FILE__, __LINE__)
#define assert_defer_list_not_empty(cpu) \
	napitest_assert_defer_list(cpu, false, __FILE__, __LINE__)

/*
 * A CPU's simulator counter (struct sim_counters: ipis, net_rx_raises,
 * wakeups, csd_run, raises_in_smp_call, warns, ...) went from base to
 * base + expect:
 *   1 IPIs to CPU 1 in this step, expected 0 (last changed on CPU 0 after
 *   net/core/dev.c:4851, before net/core/dev.c:4862)
 */
void napitest_assert_count(int cpu, const unsigned long *field,
			   const char *name, unsigned long base,
			   unsigned long expect, bool delta, const char *file,
			   int line);

#define assert_cpu_count(cpu, field, expect)                            \
	napitest_assert_count(cpu, &sim_cpus[cpu].cnt.field, #field, 0, \
			      (unsigned long)(expect), false, __FILE__, \
			      __LINE__)
/* The counter grew by expect since it read base. */
#define assert_cpu_count_delta(cpu, field, base, expect)                      \
	napitest_assert_count(cpu, &sim_cpus[cpu].cnt.field, #field,          \
			      (unsigned long)(base), (unsigned long)(expect), \
			      true, __FILE__, __LINE__)

/* TASK_RUNNING, TASK_PARKED, ...: a task's __state by name. */
const char *napitest_task_state_name(unsigned int state);
void napitest_assert_task_state(const struct task_struct *t,
				unsigned int expect, const char *file,
				int line);

/* A kthread's __state (TASK_RUNNING, TASK_INTERRUPTIBLE, TASK_PARKED). */
#define assert_task_state(t, expect) \
	napitest_assert_task_state(t, expect, __FILE__, __LINE__)

/*
 * The tree's file:line of an extracted function's definition (the line of
 * its name, from the extraction's #line), e.g. "net/core/dev.c:6162", into
 * buf; "<func> is not extracted" if the tree's extraction lacks it.
 */
const char *napitest_site(const char *func, char *buf, size_t len);

/*
 * sd->poll_list of cpu empty or not; after: the extracted function the
 * test called last (or NULL), which the message names with its own line
 * (napitest_site()) next to the tree's line that ran last.
 */
void napitest_assert_poll_list(int cpu, bool empty, const char *after,
			       const char *file, int line);

#define assert_poll_list_empty(cpu) \
	napitest_assert_poll_list(cpu, true, NULL, __FILE__, __LINE__)
#define assert_poll_list_not_empty(cpu) \
	napitest_assert_poll_list(cpu, false, NULL, __FILE__, __LINE__)
#define assert_poll_list_not_empty_after(cpu, func) \
	napitest_assert_poll_list(cpu, false, func, __FILE__, __LINE__)

/* napi's whole state word is expect (NAPIF_STATE_* bits; 0: none set). */
void napitest_assert_state_is(const struct napi_struct *napi,
			      unsigned long expect, const char *file, int line);

/* A NAPI state word the test kept (what: "state of napi_c at its poll"). */
void napitest_assert_state_word(unsigned long state, unsigned long expect,
				const char *what, const char *file, int line);

#define assert_state_word(state, expect, what)                              \
	napitest_assert_state_word((unsigned long)(state),                  \
				   (unsigned long)(expect), what, __FILE__, \
				   __LINE__)

#define assert_napi_state_is(napi, expect)                                \
	napitest_assert_state_is(napi, (unsigned long)(expect), __FILE__, \
				 __LINE__)

/* Softirq nr (NET_RX_SOFTIRQ...) is pending on cpu, or not. */
void napitest_assert_softirq(int cpu, unsigned int nr, bool expect,
			     const char *file, int line);

#define assert_softirq_pending(cpu, nr) \
	napitest_assert_softirq(cpu, nr, true, __FILE__, __LINE__)
#define assert_softirq_not_pending(cpu, nr) \
	napitest_assert_softirq(cpu, nr, false, __FILE__, __LINE__)
/* On the current CPU: local_softirq_pending() & BIT(NET_RX_SOFTIRQ). */
#define assert_net_rx_pending(expect)                                       \
	napitest_assert_softirq(sim_this()->id, NET_RX_SOFTIRQ, !!(expect), \
				__FILE__, __LINE__)

/* The first NAPI on cpu's sd->poll_list is napi. */
void napitest_assert_poll_list_first(int cpu, const struct napi_struct *napi,
				     const char *file, int line);

#define assert_poll_list_first(cpu, napi) \
	napitest_assert_poll_list_first(cpu, napi, __FILE__, __LINE__)

/*
 * A value the test names (what: "->poll() calls of napi_c",
 * "sd->time_squeeze on CPU 0", "netif_rx()'s return value") is expect;
 * a failure names it and the tree's line that ran last:
 *   ->poll() calls of napi_c: 2, expected 1 (the tree's last line run:
 *   net/core/dev.c:6789)
 */
void napitest_assert_value(long got, long expect, const char *what,
			   const char *file, int line);

#define assert_value(got, expect, what)                                    \
	napitest_assert_value((long)(got), (long)(expect), what, __FILE__, \
			      __LINE__)

/* No WARN on any CPU; a failure names the first one and where it fired. */
#define assert_no_warn()                                                 \
	do {                                                             \
		if (sim_total().warns) {                                 \
			napitest_report();                               \
			fail_msg("%lu WARN(s), the first: %s",           \
				 sim_total().warns,                      \
				 sim_nr_warns ? sim_warns[0].msg : "?"); \
		}                                                        \
	} while (0)

#endif
