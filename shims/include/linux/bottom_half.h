/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/bottom_half.h (kernel/softirq.c's
 * __local_bh_disable_ip() / __local_bh_enable_ip()).  Enabling BH runs
 * pending softirqs: on !RT when no longer in interrupt context, on RT when
 * the last BH-disable of the task is dropped (both as in 6.1).
 */
#ifndef SHIM_LINUX_BOTTOM_HALF_H
#define SHIM_LINUX_BOTTOM_HALF_H

void local_bh_disable(void);
void local_bh_enable(void);
#define local_bh_enable_ip(ip)	local_bh_enable()
#define _local_bh_enable()	local_bh_enable()

#endif
