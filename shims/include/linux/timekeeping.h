/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/timekeeping.h: ktime_get_real(), which
 * net_timestamp_check() calls only once netstamp_needed_key is enabled
 * (net_enable_timestamp()); receive timestamps are not simulated and
 * nothing enables the key.
 */
#ifndef SHIM_LINUX_TIMEKEEPING_H
#define SHIM_LINUX_TIMEKEEPING_H

#include <linux/types.h>

static inline ktime_t ktime_get_real(void)
{
	return 0;
}

#endif
