/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the extracted code sees in place of the kernel's headers.
 * The extracted definitions from the tree's own headers (struct
 * softnet_data, struct napi_struct, NAPI bits, inline helpers) come last.
 */
#ifndef SHIM_KERNEL_PRELUDE_H
#define SHIM_KERNEL_PRELUDE_H

#include <linux/kconfig.h>
#include <errno.h>		/* include/linux/errno.h: the E* codes */
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/list.h>
#include <linux/bitops.h>
#include <sim/sim.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include <linux/interrupt.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/smpboot.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/hrtimer.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <net/net_namespace.h>
#include <trace/events/napi.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
/* Seed trees: __do_softirq()'s attributes, struct netpoll's types. */
#include <linux/linkage.h>
#include <linux/netpoll.h>

#include "extracted/defs.h"

/* kernel/softirq.c and kernel/smpboot.c per-CPU tasks. */
DECLARE_PER_CPU(struct task_struct *, ksoftirqd);

#endif
