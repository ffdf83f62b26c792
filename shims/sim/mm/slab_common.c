// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for mm/slab_common.c: kzalloc()/kfree() on the C heap.  A failed
 * allocation stops the simulator: the code under test is never given one.
 */
#include <kernel_prelude.h>
#include <stdlib.h>

void *sim_kzalloc(size_t size, const char *file, int line)
{
	void *p = calloc(1, size);

	if (!p)
		sim_bug(file, line, "out of memory");
	return p;
}

void kfree(const void *p)
{
	free((void *)p);
}
