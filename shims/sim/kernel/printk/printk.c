// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/printk/printk.c: _printk() of pr_warn(), pr_err()
 * and their _once variants (linux/printk.h) formats the line, keeps the
 * last one (sim_last_pr_warn, for the suites) and counts it, and the
 * console prints it.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sim_internal.h"

char sim_last_pr_warn[256];

/*
 * The console: every WARN and pr_warn line is printed as the kernel prints
 * it, on stderr, where the test's output (and tools/results' KTAP and JUnit)
 * shows it with the test that caused it.  The explorer replays a scenario
 * many times, so a process prints the first SIM_CONSOLE_MAX lines only.
 */
#define SIM_CONSOLE_MAX 64
static unsigned int console_lines;

void sim_console(const char *line)
{
	size_t n = strlen(line);

	if (console_lines >= SIM_CONSOLE_MAX)
		return;
	if (++console_lines == SIM_CONSOLE_MAX) {
		fprintf(stderr,
			"napitest: console: %u lines printed, the rest are not\n",
			SIM_CONSOLE_MAX);
		return;
	}
	fprintf(stderr, "%s%s", line, n && line[n - 1] == '\n' ? "" : "\n");
}

void sim_record_pr_warn(const char *fmt, ...)
{
	va_list ap;

	sim_this()->cnt.pr_warn_once++;
	va_start(ap, fmt);
	vsnprintf(sim_last_pr_warn, sizeof(sim_last_pr_warn), fmt, ap);
	va_end(ap);
	sim_console(sim_last_pr_warn);
}
