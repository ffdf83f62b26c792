/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/printk.h: pr_warn() and pr_err() (pr_warn_once()
 * and netdev_err_once() the first time) are counted, the last one kept
 * (sim_last_pr_warn) and printed on the console, stderr
 * (shims/sim/kernel/printk/printk.c); pr_info() and pr_debug() print nothing.
 */
#ifndef SHIM_LINUX_PRINTK_H
#define SHIM_LINUX_PRINTK_H

#include <sim/sim.h>

#define pr_warn_once(fmt, ...)                                  \
	({                                                      \
		static struct sim_once __once;                  \
		if (sim_once_first(&__once))                    \
			sim_record_pr_warn(fmt, ##__VA_ARGS__); \
	})
#define pr_warn(fmt, ...) sim_record_pr_warn(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) sim_record_pr_warn(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) \
	do {              \
	} while (0)
#define pr_debug(fmt, ...) \
	do {               \
	} while (0)
#define netdev_err_once(dev, fmt, ...) pr_warn_once(fmt, ##__VA_ARGS__)

#endif
