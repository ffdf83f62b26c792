/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/hrtimer.h: the GRO flush timer is not simulated. */
#ifndef SHIM_LINUX_HRTIMER_H
#define SHIM_LINUX_HRTIMER_H

#include <linux/types.h>

struct hrtimer {
	int unused;
};
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED };
#define ns_to_ktime(ns)			((ktime_t)(ns))
#define hrtimer_start(t, k, m)		do { (void)(t); (void)(k); } while (0)
#define hrtimer_cancel(t)		0

#endif
