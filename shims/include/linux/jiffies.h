/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/jiffies.h: simulated time, advanced only by sim_tick(). */
#ifndef SHIM_LINUX_JIFFIES_H
#define SHIM_LINUX_JIFFIES_H

#define HZ 1000
#define USEC_PER_SEC 1000000L
extern unsigned long volatile jiffies;
#define msecs_to_jiffies(m) ((unsigned long)(m)*HZ / 1000)
#define usecs_to_jiffies(us) ((unsigned long)((us)*HZ / USEC_PER_SEC))
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)

#endif
