// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for net/core/xdp.c's xdp_unreg_page_pool().  Without
 * CONFIG_PAGE_POOL no page pool exists (net_page_pool_create() creates
 * none), so net_dev_init()'s cleanup never has one to unregister: a call
 * is a simulator bug.
 */
#include <kernel_prelude.h>

void xdp_unreg_page_pool(const struct page_pool *pool)
{
	(void)pool;
	sim_bug(__FILE__, __LINE__,
		"xdp_unreg_page_pool(): no page pool exists without CONFIG_PAGE_POOL");
}
