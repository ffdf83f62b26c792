// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer: a schedule as a string ("STEP:CHOICE,...",
 * sim/explore.h), its parser for a replay, and the counterexample's table.
 */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sim/explore.h>
#include <sim/watch.h>
#include "../sim_internal.h"
#include "explore_internal.h"

/* The schedule as its deviations from the default policy. */
void exp_schedule_string(char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < exp_nr_steps && n + 16 < len; i++) {
		const struct exp_step *s = &exp_trace[i];

		if (s->choice == exp_step_default(s))
			continue;
		if (s->kind == STEP_PICK)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:p%d",
					      n ? "," : "", i, s->choice);
		else if (s->kind == STEP_PREEMPT)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:y",
					      n ? "," : "", i);
		else if (s->kind == STEP_POLL)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:h",
					      n ? "," : "", i);
		else if (s->kind == STEP_MIGRATE)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:m%d",
					      n ? "," : "", i, s->choice);
		else if (s->choice >= EXP_OPT_IPI)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:c%d",
					      n ? "," : "", i,
					      s->choice - EXP_OPT_IPI);
		else if (s->choice >= EXP_OPT_DRAIN)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:d%d",
					      n ? "," : "", i,
					      s->choice - EXP_OPT_DRAIN);
		else if (s->choice >= EXPLORE_MAX_THREADS)
			n += (size_t)snprintf(buf + n, len - n, "%s%u:i%d",
					      n ? "," : "", i,
					      s->choice - EXPLORE_MAX_THREADS);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u:%d",
					      n ? "," : "", i, s->choice);
	}
	if (!n)
		snprintf(buf, len, "-");
}

/* Parse "STEP:CHOICE,..." into a forced prefix (defaults in between). */
bool exp_parse_schedule(const char *str)
{
	unsigned int want[EXP_MAX_STEPS / 8][3], n = 0, i;

	if (!strcmp(str, "-")) {
		exp_prefix_len = 0;
		return true;
	}
	while (*str && n < EXP_MAX_STEPS / 8) {
		unsigned int step, c;
		char *end;

		step = (unsigned int)strtoul(str, &end, 10);
		if (*end != ':')
			return false;
		str = end + 1;
		want[n][2] = STEP_SWITCH;
		if (*str == 'i') {
			c = EXPLORE_MAX_THREADS +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'd') {
			c = EXP_OPT_DRAIN +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'p') {
			c = (unsigned int)strtoul(str + 1, &end, 10);
			want[n][2] = STEP_PICK;
		} else if (*str == 'c') {
			c = EXP_OPT_IPI +
			    (unsigned int)strtoul(str + 1, &end, 10);
		} else if (*str == 'y') {
			c = 1;
			end = (char *)str + 1;
			want[n][2] = STEP_PREEMPT;
		} else if (*str == 'h') {
			c = 1;
			end = (char *)str + 1;
			want[n][2] = STEP_POLL;
		} else if (*str == 'm') {
			c = (unsigned int)strtoul(str + 1, &end, 10);
			want[n][2] = STEP_MIGRATE;
		} else {
			c = (unsigned int)strtoul(str, &end, 10);
		}
		if (end == str || (*end && *end != ','))
			return false;
		str = *end == ',' ? end + 1 : end;
		want[n][0] = step;
		want[n][1] = c;
		n++;
	}
	/*
	 * Replay step by step: run the default policy, forcing the listed
	 * choices.  Done by re-executing with a growing prefix.
	 */
	exp_prefix_len = 0;
	for (i = 0; i < n; i++) {
		unsigned int step = want[i][0];

		exp_execute();
		if (exp_nr_steps <= step ||
		    exp_trace[step].kind != want[i][2] ||
		    !(exp_trace[step].enabled & (1u << want[i][1])))
			return false;
		exp_trace[step].choice = (unsigned char)want[i][1];
		exp_prefix_len = step + 1;
	}
	return true;
}

/* net/core/dev.c:LINE of the tree, shims/..., unit/...: the short form. */
const char *exp_short_path(const char *file)
{
	static const char *const roots[] = { "/net/", "/kernel/", "/shims/",
					     "/unit/", "/include/" };
	const char *best = NULL;
	unsigned int i;

	if (!file)
		return "?";
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		const char *p = strstr(file, roots[i]);

		/* The first root after the tree's directory. */
		if (p && (!best || p < best))
			best = p;
	}
	return best ? best + 1 : file;
}

void exp_event_what(const struct exp_event *e, char *buf, size_t len)
{
	switch (e->what_kind) {
	case EXP_WHAT_LABEL:
		snprintf(buf, len, "%s", e->what_str);
		break;
	case EXP_WHAT_WAIT:
		snprintf(buf, len, "waits for %s", e->text);
		break;
	case EXP_WHAT_IPI:
		snprintf(buf, len, "IPI> CPU%d's pending IPIs, then %s:%d",
			 e->what_arg, exp_short_path(e->file), e->line);
		break;
	case EXP_WHAT_DRAIN:
		snprintf(buf, len, "x86-TSO: CPU%d's store (%s) drains",
			 e->what_arg, exp_short_path(e->what_str));
		break;
	case EXP_WHAT_PICK:
		snprintf(buf, len, "sched: picks %s (of %d)", e->text,
			 e->what_arg);
		break;
	case EXP_WHAT_POLL:
		snprintf(buf, len, "idle: %s", e->text);
		break;
	case EXP_WHAT_MIGRATE:
		snprintf(buf, len, "migrate: %s", e->text);
		break;
	case EXP_WHAT_PREEMPT:
		snprintf(buf, len, "sched: %s", e->text);
		break;
	case EXP_WHAT_DESCRIBED: {
		char text[sizeof(e->text)];

		e->describe(text, sizeof(text), (unsigned int)e->what_arg,
			    &e->words);
		if (e->step_kind == STEP_PICK)
			snprintf(buf, len, "sched: picks %s (of %u)", text,
				 e->nr_options);
		else
			snprintf(buf, len, "%s%s",
				 e->step_kind == STEP_POLL    ? "idle: " :
				 e->step_kind == STEP_MIGRATE ? "migrate: " :
								"sched: ",
				 text);
		break;
	}
	default:
		buf[0] = '\0';
	}
}

void exp_print_counterexample(FILE *f)
{
	char sched[512];
	unsigned int i, shown = 0;
	int ncol = exp_scn->nr_threads;

	exp_schedule_string(sched, sizeof(sched));
	if (exp_violation[0] || exp_bugged)
		fprintf(f, "  counterexample in scenario %s: %s\n",
			exp_scn->name,
			exp_violation[0] ? exp_violation : "BUG (above)");
	else
		fprintf(f, "  schedule of scenario %s\n", exp_scn->name);
	fprintf(f, "  replay: NAPITEST_SCHEDULE='%s/%s'\n", exp_scn->name,
		sched);
	fprintf(f,
		"  each row: where that CPU stopped, about to do the operation at that\n"
		"  location (\"A > list.h:N\": a shim's point, reached after tree line A);\n"
		"  \"sched:\" rows: a choice of that CPU's scheduler on its way there\n");
	fprintf(f, "  %-6s", "step");
	for (i = 0; i < (unsigned int)ncol; i++)
		fprintf(f, " %-46s", exp_thr[i].a ? exp_thr[i].a->name : "?");
	fprintf(f, "\n");
	for (i = 0; i < exp_nr_steps; i++) {
		const struct exp_event *e = &exp_events[i];
		const struct exp_step *s = &exp_trace[i];
		char loc[96];
		size_t plen;
		int c;

		/* Long runs of one program: show its switch points only. */
		if (shown > 400) {
			fprintf(f, "  ... %u more steps\n", exp_nr_steps - i);
			break;
		}
		plen = (size_t)snprintf(loc, sizeof(loc), "%s",
					e->irq >= 0 ? "IRQ> " : "");
		exp_event_what(e, loc + plen, sizeof(loc) - plen);
		/* Undescribed: where it stopped. */
		if (!loc[plen] && e->file && strstr(e->file, "/shims/") &&
		    e->tree_file)
			/* A shim's point: name the tree's line it was reached from. */
			snprintf(loc, sizeof(loc), "%s%s:%d > %s:%d",
				 e->irq >= 0 ? "IRQ> " : "",
				 exp_short_path(e->tree_file), e->tree_line,
				 strrchr(e->file, '/') + 1, e->line);
		else if (!loc[plen])
			snprintf(loc, sizeof(loc), "%s%s:%d",
				 e->irq >= 0 ? "IRQ> " : "",
				 exp_short_path(e->file), e->line);
		fprintf(f, "  %-6u", i);
		for (c = 0; c < ncol; c++)
			fprintf(f, " %-46s", c == e->thread ? loc : "");
		if (s->choice != exp_step_default(s))
			fprintf(f, " <- %s",
				exp_step_preempts(s, s->choice) ? "preempted" :
				s->kind == STEP_SWITCH		? "switch" :
								  "choice");
		fprintf(f, "\n");
		shown++;
	}
	fprintf(f, "  violated: %s\n",
		exp_violation[0] ? exp_violation :
				   "(none: this schedule is clean)");
	/* Whole, before cmocka's failure lines on stderr. */
	fflush(f);
}

void explore_on_bug(void)
{
	if (!exp_scn || !sim_explore_active)
		return;
	sim_explore_active = 0;
	exp_bugged = true;
	/* The event of the step in progress. */
	if (exp_cur >= 0 && exp_nr_steps) {
		exp_events[exp_nr_steps - 1].thread = (unsigned char)exp_cur;
		exp_events[exp_nr_steps - 1].file = "(BUG)";
		exp_events[exp_nr_steps - 1].line = 0;
		exp_events[exp_nr_steps - 1].what_kind = EXP_WHAT_NONE;
	}
	fprintf(stderr, "  BUG while exploring:\n");
	exp_print_counterexample(stderr);
}
