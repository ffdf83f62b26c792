// SPDX-License-Identifier: GPL-2.0
/*
 * Self-tests of the simulator's debug checks (ctest -L sim): each rule
 * the shims take from the kernel, exercised directly, with the case it
 * must report and the case it must not.  A rule removed from the shims
 * fails its test here.
 *
 * The cases live along the shims they test, one file per shim file at its
 * path (shims/tests/kernel/sched/core.c tests shims/sim/kernel/sched/core.c),
 * each with the list of its areas; this file runs them all as one suite.
 */
#include <stdlib.h>
#include <unistd.h>

#include "sim_checks.h"

int check_site;

char *output_of(int fd, void (*fn)(void *), void *arg)
{
	FILE *tmp = tmpfile(), *f = fd == STDERR_FILENO ? stderr : stdout;
	int saved;
	long len;
	char *out;

	assert_non_null(tmp);
	fflush(f);
	saved = dup(fd);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), fd) >= 0);
	fn(arg);
	fflush(f);
	dup2(saved, fd);
	close(saved);
	len = ftell(tmp);
	out = calloc(1, (size_t)len + 1);
	assert_non_null(out);
	rewind(tmp);
	assert_int_equal(fread(out, 1, (size_t)len, tmp), (size_t)len);
	fclose(tmp);
	return out;
}

int check_setup(void **state)
{
	(void)state;
	sim_reset(2);
	return 0;
}

void run_task(int (*fn)(void *), bool bound)
{
	struct task_struct *p;

	if (bound)
		p = kthread_create_on_cpu(fn, NULL, 1, "bound/%u");
	else
		p = sim_task_create(fn, NULL, 1, "unbound");
	wake_up_process(p);
	sim_run_cpu(1, 100);
	assert_true(p->exited);
}

void check_one_report(const char *what, const char *file)
{
	if (sim_total().warns != 1 || !strstr(sim_warns[0].msg, what))
		fail_msg("expected one report \"%s\", got %lu: %s", what,
			 sim_total().warns,
			 sim_nr_warns ? sim_warns[0].msg : "(none)");
	if (sim_warns[0].line != check_site || strcmp(sim_warns[0].file, file))
		fail_msg("reported at %s:%d, not at %s:%d", sim_warns[0].file,
			 sim_warns[0].line, file, check_site);
}

void assert_no_report(void)
{
	if (sim_total().warns)
		fail_msg("unexpected report: %s", sim_warns[0].msg);
}

/*
 * The explorer's options are the user's, for explore_napi: a replay
 * (NAPITEST_SCHEDULE=... make check) or a smaller budget must not turn
 * these self-tests red.  The cases that explore set what they need.
 */
static void drop_explorer_options(void)
{
	static const char *const names[] = {
		"NAPITEST_SCHEDULE",	      "NAPITEST_EXPLORE_BOUND",
		"NAPITEST_EXPLORE_WALKS",     "NAPITEST_EXPLORE_ALL",
		"NAPITEST_EXPLORE_TASKS",     "NAPITEST_EXPLORE_POR",
		"NAPITEST_EXPLORE_SCHEDULES", "NAPITEST_EXPLORE_SECONDS",
		"NAPITEST_EXPLORE_SEED",      "NAPITEST_EXPLORE_ONLY",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!getenv(names[i]))
			continue;
		fprintf(stderr,
			"sim_checks: %s ignored: the self-tests choose "
			"their own explorer options\n",
			names[i]);
		unsetenv(names[i]);
	}
}

#define AREA(area)                                         \
	{                                                  \
		sim_checks_##area, &sim_checks_##area##_nr \
	}

int main(void)
{
	static const struct {
		const struct CMUnitTest *cases;
		const size_t *nr;
	} areas[] = {
		/* First: the console prints a process's first lines only. */
		AREA(printk),	  AREA(sched_core), AREA(lockdep),
		AREA(rtmutex),	  AREA(softirq),    AREA(smp_processor_id),
		AREA(list_debug), AREA(smp),	    AREA(explore),
		AREA(watch),	  AREA(smpboot),    AREA(sched_fair),
		AREA(rcu_read),
	};
	static struct CMUnitTest tests[128];
	size_t i, j, n = 0;

	drop_explorer_options();
	for (i = 0; i < ARRAY_SIZE(areas); i++) {
		for (j = 0; j < *areas[i].nr; j++) {
			if (n == ARRAY_SIZE(tests)) {
				fprintf(stderr,
					"sim_checks: more than %zu cases: "
					"grow tests[]\n",
					ARRAY_SIZE(tests));
				return 2;
			}
			tests[n++] = areas[i].cases[j];
		}
	}
	return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
