// SPDX-License-Identifier: GPL-2.0
/*
 * The watch (shims/sim/watch.c), self-tests:
 *
 *   watch   what sim_watch_describe() says of a watched word: where the
 *           tree's code changed it, or, when no hook saw it change, that
 *           and the tree's last line run, never "unchanged since boot"
 *           for a word the code set and cleared between two hooks;
 *           what sim_watch_last_line() says (the poll-list and state
 *           assertions' "the tree's last line run"): the tree's file
 *           relative to the tree, never its absolute path
 *
 * The hooks are called as the tree's code calls them, with a file under a
 * made-up tree path.
 */
#include "../sim_checks.h"
#include <sim/watch.h>

#define TREE "/napitest-watch-tree"
#define DEV_C TREE "/net/core/dev.c"

static unsigned long word;

static int watch_setup(void **state)
{
	check_setup(state);
	sim_watch_reset(TREE);
	word = 0;
	sim_watch(&word, sizeof(word), "test word");
	return 0;
}

static int watch_teardown(void **state)
{
	(void)state;
	sim_watch_reset(NULL);
	return 0;
}

static void assert_says(const char *what)
{
	char buf[300];

	sim_watch_describe(&word, buf, sizeof(buf));
	if (!strstr(buf, what))
		fail_msg("sim_watch_describe(): \"%s\", expected \"%s\" in it",
			 buf, what);
}

static void watch_set_and_cleared_between_hooks(void **state)
{
	(void)state;
	sim_watch_point(DEV_C, 100);
	/* Plain stores: no hook between them (WRITE_ONCE() would be one). */
	word |= 1;
	barrier();
	word &= ~1UL;
	sim_watch_point(DEV_C, 102);
	assert_says("the same at every hook since it was watched "
		    "(a change undone between two hooks is not seen); "
		    "the tree's last line run: net/core/dev.c:102");
}

static void watch_change_seen(void **state)
{
	(void)state;
	sim_watch_point(DEV_C, 200);
	word = 1;
	sim_watch_point(DEV_C, 201);
	assert_says("last changed on CPU 0 after net/core/dev.c:200, before "
		    "net/core/dev.c:201");
}

static void watch_tree_not_run(void **state)
{
	(void)state;
	assert_says("the same at every hook since it was watched "
		    "(a change undone between two hooks is not seen); "
		    "the tree's code has not run");
}

static void assert_last_line(const char *want)
{
	char buf[300];

	sim_watch_last_line(buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("sim_watch_last_line(): \"%s\", expected \"%s\"", buf,
			 want);
}

static void watch_last_line_is_relative_to_the_tree(void **state)
{
	(void)state;
	assert_last_line("the tree's code has not run");
	sim_watch_point(DEV_C, 300);
	/* A hook in a file outside the tree (a shim's) is not the tree's. */
	sim_watch_point("/napitest-watch-shims/sim/softirq.c", 40);
	assert_last_line("the tree's last line run: net/core/dev.c:300");
}

const struct CMUnitTest sim_checks_watch[] = {
	cmocka_unit_test_setup_teardown(watch_set_and_cleared_between_hooks,
					watch_setup, watch_teardown),
	cmocka_unit_test_setup_teardown(watch_change_seen, watch_setup,
					watch_teardown),
	cmocka_unit_test_setup_teardown(watch_tree_not_run, watch_setup,
					watch_teardown),
	cmocka_unit_test_setup_teardown(watch_last_line_is_relative_to_the_tree,
					watch_setup, watch_teardown),
};
const size_t sim_checks_watch_nr = ARRAY_SIZE(sim_checks_watch);
