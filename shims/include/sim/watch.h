/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The watch: where the tree under test last changed a word a test asserts
 * on (a NAPI's state, a softnet_data's defer_list, a CPU's IPI count...),
 * so that a failing assertion names the tree's file:line instead of a bare
 * value.  Every shim hook (sim/explore.h: locks, bit operations,
 * READ_ONCE/WRITE_ONCE, softirq raises, wakeups) calls sim_watch_point()
 * while the watch is active; it compares the watched words with their last
 * value and, on a change, records the CPU and the tree's lines around it:
 * the last hook in the tree's code before the change and the first one
 * after it.  A bit operation's hook precedes it, so for set_bit() and its
 * kind "before" is the line itself; a plain store (napi->state = 0) lies
 * between the two.  The hooks' code addresses are kept too: hooks of the
 * shims' inline functions (list_del_init()...) are inlined into the
 * tree's function, and the debug information (addr2line, on a failure
 * only) gives the tree's line of that call, closer than the last hook of a
 * tree macro.  No wall clock, no effect on what the code does.
 */
#ifndef SHIM_SIM_WATCH_H
#define SHIM_SIM_WATCH_H

#include <stddef.h>

struct sim_site {
	const char *file; /* NULL: none yet */
	int line;
};

struct sim_watch {
	const volatile void *addr;
	size_t size; /* 1, 2, 4 or 8 bytes */
	unsigned long last; /* value at the last check */
	unsigned long changes;
	char what[48]; /* "backlog of CPU 1" */
	int cpu; /* the CPU that made the last change */
	struct sim_site before, after; /* the tree's lines around it */
	int pending_after;
	/* Code addresses of the hooks around it, resolved on demand. */
	void *before_pc, *after_pc;
	/* The call chain at the hook after it (not under the explorer). */
	void *stack[8];
	int depth;
};

#define SIM_MAX_WATCHES 64

/* Forget every watch; the tree's files are those under tree (its path). */
void sim_watch_reset(const char *tree);
/* Watch size bytes at addr, described by what (printf-style). */
void sim_watch(const volatile void *addr, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The same, described by what as it is: no formatting, for a boot that
 * registers the same watches many times (the explorer's executions).
 */
void sim_watch_named(const volatile void *addr, size_t size, const char *what);
/* Suspend (1) or resume (0) the checks; watches are kept either way. */
void sim_watch_suspend(int on);
/* Check every watch now (an assertion is about to read them). */
void sim_watch_sync(void);
/* The watch of addr, or NULL. */
const struct sim_watch *sim_watch_of(const volatile void *addr);
/*
 * "last changed on CPU 1 after net/core/dev.c:6144, before
 * net/core/dev.c:6160", or, when no hook saw it change, "the same at every
 * hook since it was watched (...); the tree's last line run: FILE:LINE";
 * returns buf.
 */
const char *sim_watch_describe(const volatile void *addr, char *buf,
			       size_t len);
/*
 * "the tree's last line run: net/core/dev.c:6296" (the last hook met in
 * the tree's code, on any CPU, its file relative to the tree), or "the
 * tree's code has not run"; returns buf.
 */
const char *sim_watch_last_line(char *buf, size_t len);

#endif
