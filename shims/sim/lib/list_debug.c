// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for lib/list_debug.c (CONFIG_DEBUG_LIST): __list_add_valid() and
 * __list_del_entry_valid().  A NULL or corrupted neighbourhood, a node
 * added next to itself (a double add: it is still on the list) or a node
 * deleted twice is reported in lib/list_debug.c's words, as a WARN at the
 * list operation's call site (the tree's line in extracted code), and the
 * operation is skipped, as CHECK_DATA_CORRUPTION() does without
 * CONFIG_BUG_ON_DATA_CORRUPTION.  A model, not the tree's code: the
 * prepared trees hold no lib/, and the kernel's functions do not know the
 * call site.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

#define SIM_LIST_CORRUPTION(file, line, fmt, ...)                          \
	sim_report(file, line, fmt "\nWARNING: at %s:%d\n", ##__VA_ARGS__, \
		   file, line)

bool __list_add_valid(struct list_head *new, struct list_head *prev,
		      struct list_head *next, const char *file, int line)
{
	if (!prev || !next) {
		SIM_LIST_CORRUPTION(file, line,
				    "list_add corruption. %s is NULL.",
				    prev ? "next" : "prev");
		return false;
	}
	if (next->prev != prev) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_add corruption. next->prev should be prev (%p), but was %p. (next=%p).",
			(void *)prev, (void *)next->prev, (void *)next);
		return false;
	}
	if (prev->next != next) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_add corruption. prev->next should be next (%p), but was %p. (prev=%p).",
			(void *)next, (void *)prev->next, (void *)prev);
		return false;
	}
	if (new == prev || new == next) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_add double add: new=%p, prev=%p, next=%p.",
			(void *)new, (void *)prev, (void *)next);
		return false;
	}
	return true;
}

bool __list_del_entry_valid(struct list_head *entry, const char *file, int line)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	if (!next || !prev) {
		SIM_LIST_CORRUPTION(file, line,
				    "list_del corruption, %p->%s is NULL",
				    (void *)entry, next ? "prev" : "next");
		return false;
	}
	if (next == LIST_POISON1) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_del corruption, %p->next is LIST_POISON1 (%p)",
			(void *)entry, LIST_POISON1);
		return false;
	}
	if (prev == LIST_POISON2) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_del corruption, %p->prev is LIST_POISON2 (%p)",
			(void *)entry, LIST_POISON2);
		return false;
	}
	if (prev->next != entry) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_del corruption. prev->next should be %p, but was %p. (prev=%p)",
			(void *)entry, (void *)prev->next, (void *)prev);
		return false;
	}
	if (next->prev != entry) {
		SIM_LIST_CORRUPTION(
			file, line,
			"list_del corruption. next->prev should be %p, but was %p. (next=%p)",
			(void *)entry, (void *)next->prev, (void *)next);
		return false;
	}
	return true;
}
