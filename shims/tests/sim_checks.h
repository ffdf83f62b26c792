/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the simulator's self-tests (shims/tests/, ctest -L sim) share: one
 * file per shim file whose checks they exercise, at that file's path, and
 * sim_checks.c's main(), which runs them all as one suite.
 */
#ifndef SHIM_TESTS_SIM_CHECKS_H
#define SHIM_TESTS_SIM_CHECKS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kernel_prelude.h>

/* The line a task's report must name (in the file that reports). */
extern int check_site;

/* Each case's setup: a fresh two-CPU machine. */
int check_setup(void **state);

/* Run fn as a task on CPU 1: unbound (kthread_run()) or bound to it. */
void run_task(int (*fn)(void *), bool bound);

/* Exactly one report, about what, at the calling file's line check_site. */
#define assert_one_report(what) check_one_report(what, __FILE__)
void check_one_report(const char *what, const char *file);

void assert_no_report(void);

/*
 * What fn(arg) wrote on fd, STDOUT_FILENO or STDERR_FILENO (malloc()ed);
 * the fd is restored.
 */
char *output_of(int fd, void (*fn)(void *), void *arg);

/* Each file's cases. */
#define SIM_CHECKS_AREA(area)                               \
	extern const struct CMUnitTest sim_checks_##area[]; \
	extern const size_t sim_checks_##area##_nr
SIM_CHECKS_AREA(sched_core);
SIM_CHECKS_AREA(sched_fair);
SIM_CHECKS_AREA(lockdep);
SIM_CHECKS_AREA(rtmutex);
SIM_CHECKS_AREA(softirq);
SIM_CHECKS_AREA(smp_processor_id);
SIM_CHECKS_AREA(list_debug);
SIM_CHECKS_AREA(smp);
SIM_CHECKS_AREA(explore);
SIM_CHECKS_AREA(watch);
SIM_CHECKS_AREA(smpboot);
SIM_CHECKS_AREA(rcu_read);
SIM_CHECKS_AREA(printk);

#endif /* SHIM_TESTS_SIM_CHECKS_H */
