// SPDX-License-Identifier: GPL-2.0
/*
 * printk (shims/sim/kernel/printk/printk.c, linux/printk.h), self-tests:
 *
 *   printk      pr_warn() and pr_err() are counted, the last one kept and
 *               printed on the console (stderr); pr_info() and pr_debug()
 *               print nothing
 *
 * Its cases run first (sim_checks.c): the console prints the first
 * SIM_CONSOLE_MAX lines of a process only.
 */
#include <stdlib.h>
#include <unistd.h>
#include "../../sim_checks.h"
#include <linux/printk.h>

/* ---- printk ---- */

static void warn_and_err(void *arg)
{
	(void)arg;
	pr_warn("printk-check: warn %d\n", 1);
	pr_err("printk-check: err %d\n", 2);
}

static void info_and_debug(void *arg)
{
	(void)arg;
	pr_info("printk-check: info %d\n", 3);
	pr_debug("printk-check: debug %d\n", 4);
}

static void printk_warn_and_err_counted_kept_and_printed(void **state)
{
	unsigned long before = sim_total().pr_warn_once;
	char *out;

	(void)state;
	out = output_of(STDERR_FILENO, warn_and_err, NULL);
	assert_string_equal(out, "printk-check: warn 1\nprintk-check: err 2\n");
	free(out);
	assert_int_equal(sim_total().pr_warn_once, before + 2);
	assert_string_equal(sim_last_pr_warn, "printk-check: err 2\n");
}

static void printk_info_and_debug_print_nothing(void **state)
{
	unsigned long before = sim_total().pr_warn_once;
	char *out;

	(void)state;
	out = output_of(STDERR_FILENO, info_and_debug, NULL);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(sim_total().pr_warn_once, before);
}

const struct CMUnitTest sim_checks_printk[] = {
	cmocka_unit_test_setup(printk_warn_and_err_counted_kept_and_printed,
			       check_setup),
	cmocka_unit_test_setup(printk_info_and_debug_print_nothing,
			       check_setup),
};
const size_t sim_checks_printk_nr = ARRAY_SIZE(sim_checks_printk);
