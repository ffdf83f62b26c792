// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer (shims/sim/explore/), self-tests:
 *
 *   explore         a planted lost wakeup: a waiter whose wait loop sets
 *                   its state after testing the condition (the pattern
 *                   the kernel's set_current_state() comment warns about)
 *                   sleeps for good when the waker runs between the two.
 *                   The explorer must find that schedule within its bound
 *                   (one preemption), print it, and replaying the printed
 *                   schedule must reproduce it; with bound 0 it cannot be
 *                   reached; the kernel's own loop (state first, then the
 *                   condition) passes every schedule.
 */
#include <unistd.h>

#include "../sim_checks.h"

/* The waiter's wait loop: the kernel's, or the condition tested first. */
static bool lw_state_after_check;
static int lw_cond;
static struct task_struct *lw_waiter;

static int lw_wait(void *arg)
{
	(void)arg;
	if (lw_state_after_check) {
		/* Wrong: a wakeup between the test and the state is lost. */
		while (!READ_ONCE(lw_cond)) {
			set_current_state(TASK_INTERRUPTIBLE);
			schedule();
		}
		return 0;
	}
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(lw_cond))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void lw_setup(void)
{
	sim_reset(2);
	lw_cond = 0;
	lw_waiter = kthread_create_on_cpu(lw_wait, NULL, 1, "waiter/%u");
	wake_up_process(lw_waiter);
}

/* The waker: the condition, then the wakeup (wake_up_process()). */
static void lw_cpu0(void)
{
	WRITE_ONCE(lw_cond, 1);
	wake_up_process(lw_waiter);
}

static void lw_cpu1(void)
{
	sim_run_cpu(1, 100);
}

/* After quiescence: the waiter saw the condition and ended. */
static const char *lw_check(void)
{
	if (!lw_waiter->exited)
		return "lost wakeup: the waiter sleeps with its condition true";
	return NULL;
}

static const struct explore_scenario lw_scn = {
	.name = "lost_wakeup",
	.setup = lw_setup,
	.nr_threads = 2,
	.threads = {
		{ 0, lw_cpu0, "CPU0 waker" },
		{ 1, lw_cpu1, "CPU1 waiter" },
	},
	.check = lw_check,
};

struct explore_call {
	const struct explore_scenario *s;
	struct explore_result *r;
};

static void explore_call(void *arg)
{
	struct explore_call *c = arg;

	explore_run(c->s, c->r);
}

/* explore_run(): what it printed is returned (malloc()ed) and printed again. */
static char *explore_printing(const struct explore_scenario *s,
			      struct explore_result *r)
{
	struct explore_call c = { s, r };
	char *out = output_of(STDOUT_FILENO, explore_call, &c);

	fputs(out, stdout);
	return out;
}

static void replay(const char *schedule, struct explore_result *r)
{
	char env[600];

	snprintf(env, sizeof(env), "%s/%s", lw_scn.name, schedule);
	setenv("NAPITEST_SCHEDULE", env, 1);
	explore_run(&lw_scn, r);
	unsetenv("NAPITEST_SCHEDULE");
}

static void explore_finds_and_replays_lost_wakeup(void **state)
{
	struct explore_scenario s = lw_scn;
	struct explore_result r, again;
	char want[600];
	char *out;

	(void)state;
	lw_state_after_check = true;
	/*
	 * Bound 0 (only the environment sets it: a scenario's 0 is the
	 * default): the waker cannot run between the waiter's test and state.
	 */
	setenv("NAPITEST_EXPLORE_BOUND", "0", 1);
	explore_run(&s, &r);
	unsetenv("NAPITEST_EXPLORE_BOUND");
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	assert_true(r.schedules > 1);
	/* Bound 1: found, and printed as a replayable schedule. */
	s.bound = 1;
	out = explore_printing(&s, &r);
	assert_int_equal(r.violations, 1);
	assert_true(r.schedules <= 10);
	assert_non_null(strstr(r.first_violation, "lost wakeup"));
	assert_string_not_equal(r.first_schedule, "-");
	snprintf(want, sizeof(want), "replay: NAPITEST_SCHEDULE='%s/%s'\n",
		 lw_scn.name, r.first_schedule);
	if (!strstr(out, want))
		fail_msg("the counterexample does not print \"%s\"", want);
	free(out);
	/* The printed schedule reproduces it; the default schedule does not. */
	replay(r.first_schedule, &again);
	assert_int_equal(again.schedules, 1);
	assert_int_equal(again.violations, 1);
	assert_string_equal(again.first_violation, r.first_violation);
	assert_string_equal(again.first_schedule, r.first_schedule);
	replay("-", &again);
	assert_int_equal(again.violations, 0);
}

static void explore_kernel_wait_loop_passes(void **state)
{
	struct explore_result r;

	(void)state;
	lw_state_after_check = false;
	explore_run(&lw_scn, &r);
	assert_true(r.complete);
	assert_int_equal(r.violations, 0);
	assert_true(r.schedules > 1);
}

const struct CMUnitTest sim_checks_explore[] = {
	cmocka_unit_test_setup(explore_finds_and_replays_lost_wakeup,
			       check_setup),
	cmocka_unit_test_setup(explore_kernel_wait_loop_passes, check_setup),
};
const size_t sim_checks_explore_nr = ARRAY_SIZE(sim_checks_explore);
