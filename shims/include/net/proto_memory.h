/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/net/proto_memory.h: net_hotdata's initial
 * sysctl_mem_pcpu_rsv (net/core/hotdata.c, v6.9+), with 4 KiB pages.
 * No invariant reads it.
 */
#ifndef SHIM_NET_PROTO_MEMORY_H
#define SHIM_NET_PROTO_MEMORY_H

/* (1 << (20 - PAGE_SHIFT)), PAGE_SHIFT being 12 */
#define SK_MEMORY_PCPU_RESERVE (1 << (20 - 12))

#endif
