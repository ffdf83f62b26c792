// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for kernel/panic.c's __warn(): a WARN_ON() or WARN_ON_ONCE()
 * (linux/bug.h) that fires prints "WARNING: CPU: N at FILE:LINE" with the
 * tree's path, taints the kernel (TAINT_WARN: counted per CPU, cnt.warns)
 * and goes on; the simulator keeps the first SIM_MAX_WARNS for the suites
 * (sim_warns[]).  The reports of the kernel's debug checks (might_sleep,
 * DEBUG_PREEMPT, schedule_debug: sim_report()) are counted the same way.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sim_internal.h"

struct sim_warn sim_warns[SIM_MAX_WARNS];
unsigned int sim_nr_warns;

/* Counted as the kernel taints (TAINT_WARN); the first ones kept. */
static void record_warn(const char *file, int line, const char *msg)
{
	struct sim_warn *w;

	sim_this()->cnt.warns++;
	sim_console(msg);
	if (sim_nr_warns >= SIM_MAX_WARNS)
		return;
	w = &sim_warns[sim_nr_warns++];
	w->file = file;
	w->line = line;
	snprintf(w->msg, sizeof(w->msg), "%.*s", (int)strcspn(msg, "\n"), msg);
}

void sim_report(const char *file, int line, const char *fmt, ...)
{
	char text[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	record_warn(file, line, text);
}

void sim_record_warn(const char *file, int line, const char *cond)
{
	char msg[sizeof(sim_warns[0].msg)];

	snprintf(msg, sizeof(msg), "WARNING: CPU: %d at %s:%d: %s",
		 sim_cpu_id(), sim_tree_path(file), line, cond);
	record_warn(file, line, msg);
}
