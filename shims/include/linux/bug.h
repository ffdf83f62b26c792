/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/asm-generic/bug.h.  WARN_ON() records the site
 * (file:line of the tree, thanks to the extraction's #line) and counts; it
 * does not abort, as in the kernel.  BUG_ON() aborts the test.
 */
#ifndef SHIM_LINUX_BUG_H
#define SHIM_LINUX_BUG_H

#include <sim/sim.h>
#include <stdlib.h>

#define WARN_ON(cond)                                               \
	({                                                          \
		bool __ret = !!(cond);                              \
		if (unlikely(__ret))                                \
			sim_record_warn(__FILE__, __LINE__, #cond); \
		unlikely(__ret);                                    \
	})

#define WARN_ON_ONCE(cond)                                          \
	({                                                          \
		static struct sim_once __once;                      \
		bool __ret = !!(cond);                              \
		if (unlikely(__ret) && sim_once_first(&__once))     \
			sim_record_warn(__FILE__, __LINE__, #cond); \
		unlikely(__ret);                                    \
	})

#define WARN_ONCE(cond, ...) WARN_ON_ONCE(cond)
#define WARN(cond, ...) WARN_ON(cond)

void sim_bug(const char *file, int line, const char *cond)
	__attribute__((noreturn));
#define BUG_ON(cond)                                        \
	do {                                                \
		if (unlikely(cond))                         \
			sim_bug(__FILE__, __LINE__, #cond); \
	} while (0)
#define BUG() sim_bug(__FILE__, __LINE__, "BUG()")

#define DEBUG_NET_WARN_ON_ONCE(cond)              \
	do {                                      \
		if (IS_ENABLED(CONFIG_DEBUG_NET)) \
			WARN_ON_ONCE(cond);       \
		else                              \
			(void)(cond);             \
	} while (0)

#endif
