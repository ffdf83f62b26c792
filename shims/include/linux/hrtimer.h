/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/hrtimer.h.  The NAPI's GRO flush timer is armed
 * as the kernel arms it (hrtimer_start(), kernel/time/hrtimer.c), so a test
 * can see that it was and for how long; its expiry (napi_watchdog()) is not
 * simulated.
 */
#ifndef SHIM_LINUX_HRTIMER_H
#define SHIM_LINUX_HRTIMER_H

#include <linux/types.h>

struct hrtimer {
	bool armed; /* started and not cancelled since */
	ktime_t expires; /* the relative expiry it was started with */
	unsigned long starts; /* hrtimer_start() calls */
};
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED };
#define ns_to_ktime(ns) ((ktime_t)(ns))

static inline void hrtimer_start(struct hrtimer *timer, ktime_t tim,
				 enum hrtimer_mode mode)
{
	(void)mode;
	timer->armed = true;
	timer->expires = tim;
	timer->starts++;
}

static inline int hrtimer_cancel(struct hrtimer *timer)
{
	int was_armed = timer->armed;

	timer->armed = false;
	return was_armed;
}

#endif
