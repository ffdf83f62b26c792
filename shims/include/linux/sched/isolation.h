/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/sched/isolation.h without CONFIG_CPU_ISOLATION
 * (no isolcpus= or nohz_full=): housekeeping is never enabled, as there.
 * net_dev_init() (v6.9+) asks before net_enable_timestamp().
 */
#ifndef SHIM_LINUX_SCHED_ISOLATION_H
#define SHIM_LINUX_SCHED_ISOLATION_H

/* Copied from include/linux/sched/isolation.h (tools/check-shim-copies) */
/* clang-format off */
enum hk_type {
	HK_TYPE_TIMER,
	HK_TYPE_RCU,
	HK_TYPE_MISC,
	HK_TYPE_SCHED,
	HK_TYPE_TICK,
	HK_TYPE_DOMAIN,
	HK_TYPE_WQ,
	HK_TYPE_MANAGED_IRQ,
	HK_TYPE_KTHREAD,
	HK_TYPE_MAX
};

static inline bool housekeeping_enabled(enum hk_type type)
{
	return false;
}
/* clang-format on */

#endif
