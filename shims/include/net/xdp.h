/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/net/xdp.h: net_dev_init()'s cleanup of page pools. */
#ifndef SHIM_NET_XDP_H
#define SHIM_NET_XDP_H

#include <net/page_pool/types.h>

/* net/core/xdp.c (shims/sim/net/core/xdp.c) */
void xdp_unreg_page_pool(const struct page_pool *pool);

#endif
