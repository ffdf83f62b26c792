/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/net/page_pool/types.h without CONFIG_PAGE_POOL, as
 * there: net_page_pool_create() (net/core/dev.c, v6.9+) creates no pool,
 * and page_pool_destroy() is an empty inline.
 */
#ifndef SHIM_NET_PAGE_POOL_TYPES_H
#define SHIM_NET_PAGE_POOL_TYPES_H

struct page_pool;

static inline void page_pool_destroy(struct page_pool *pool)
{
	(void)pool;
}

#endif
