// SPDX-License-Identifier: GPL-2.0
/*
 * The interleaving explorer: x86-TSO store buffers (sim/explore.h).  A
 * scenario with .tso set runs the tree's plain stores through a per-CPU
 * FIFO; a drain is an option of the schedule like a switch.
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

#define TSO_ENTRIES 16

struct tso_store {
	volatile void *addr;
	unsigned long size;
	const char *file; /* where the tree stored it */
	unsigned char bytes[8] __aligned(8);
};

int sim_tso_active;
static struct tso_store tso_buf[NR_CPUS][TSO_ENTRIES];
unsigned int exp_tso_len[NR_CPUS];

/* The oldest store of cpu's buffer reaches memory. */
const char *exp_tso_drain_one(int cpu)
{
	struct tso_store *e = &tso_buf[cpu][0];
	const char *file = e->file;

	memcpy((void *)(uintptr_t)e->addr, e->bytes, e->size);
	memmove(e, e + 1, --exp_tso_len[cpu] * sizeof(*e));
	return file;
}

void exp_tso_drain(int cpu)
{
	while (exp_tso_len[cpu])
		exp_tso_drain_one(cpu);
}

void explore_tso_fence(void)
{
	exp_tso_drain(sim_cur_cpu);
}

volatile void *explore_tso_store_slot(volatile void *addr, unsigned long size,
				      const char *file)
{
	int cpu = sim_cur_cpu;
	struct tso_store *e;

	/* The tree's stores, to memory others can see, from a program. */
	if (exp_cur < 0 || size > sizeof(e->bytes) || strstr(file, "/shims/") ||
	    strstr(file, "/unit/") || exp_on_own_stack(addr))
		return addr;
	if (exp_tso_len[cpu] == TSO_ENTRIES)
		exp_tso_drain_one(cpu);
	e = &tso_buf[cpu][exp_tso_len[cpu]++];
	e->addr = addr;
	e->size = size;
	e->file = file;
	return e->bytes;
}

/* Store forwarding: this CPU's newest buffered store to addr, if any. */
const volatile void *explore_tso_load_slot(const volatile void *addr,
					   unsigned long size)
{
	const char *a = (const char *)(uintptr_t)addr;
	int cpu = sim_cur_cpu;
	unsigned int i = exp_tso_len[cpu];

	while (i--) {
		struct tso_store *e = &tso_buf[cpu][i];
		const char *b = (const char *)(uintptr_t)e->addr;

		if (b == a && e->size == size)
			return e->bytes;
		/* A partial overlap: the hardware waits for the drain. */
		if (a < b + e->size && b < a + size) {
			exp_tso_drain(cpu);
			break;
		}
	}
	return addr;
}

void exp_tso_reset(void)
{
	memset(exp_tso_len, 0, sizeof(exp_tso_len));
}

#ifdef SIM_EXPLORE_OUT_OF_LINE
volatile void *explore_tso_dst(volatile void *addr, unsigned long size,
			       const char *file)
{
	return sim_tso_active ? explore_tso_store_slot(addr, size, file) : addr;
}

const volatile void *explore_tso_src(const volatile void *addr,
				     unsigned long size)
{
	return sim_tso_active ? explore_tso_load_slot(addr, size) : addr;
}

void explore_tso_mb(void)
{
	if (sim_tso_active)
		explore_tso_fence();
}
#endif
