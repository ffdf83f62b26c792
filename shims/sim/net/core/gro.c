// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for net/core/gro.c: napi_gro_flush(), as net/core/dev.c's
 * napi_complete_done() and __napi_poll() call it.  GRO itself is not
 * simulated: no packet sits in napi->gro_hash; a test marks the buckets
 * that would hold packets in napi->gro_bitmask.  As in the kernel, a
 * bucket's bit is cleared once its chain is flushed empty
 * (__napi_gro_flush_chain()); with flush_old only packets that arrived
 * before this jiffy go, and the marked ones arrived in it
 * (NAPI_GRO_CB(skb)->age == jiffies): they stay.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

static unsigned long flushes[2]; /* by flush_old */

void napi_gro_flush(struct napi_struct *napi, bool flush_old)
{
	flushes[flush_old]++;
	if (!flush_old)
		napi->gro_bitmask = 0;
}

/* The calls of napi_gro_flush() so far with this flush_old. */
unsigned long sim_gro_flushes(bool flush_old)
{
	return flushes[flush_old];
}
