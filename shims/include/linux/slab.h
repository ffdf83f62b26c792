/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/slab.h: kzalloc_node() and kfree() on the C
 * heap (kernel/smpboot.c's per-thread data).  A failed allocation is the
 * simulator's bug, not a path of the code under test.
 */
#ifndef SHIM_LINUX_SLAB_H
#define SHIM_LINUX_SLAB_H

#include <stddef.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL 0U

void *sim_kzalloc(size_t size, const char *file, int line);
void kfree(const void *p);
#define kzalloc_node(size, gfp, node) \
	((void)(gfp), (void)(node), sim_kzalloc(size, __FILE__, __LINE__))
#define kzalloc(size, gfp) ((void)(gfp), sim_kzalloc(size, __FILE__, __LINE__))

/* include/linux/topology.h: one memory node. */
#define cpu_to_node(cpu) ((void)(cpu), 0)

#endif
