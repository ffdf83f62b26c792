/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the extracted code sees in place of the kernel's headers.
 * The extracted definitions from the tree's own headers (struct
 * softnet_data, struct napi_struct, NAPI bits, inline helpers) come last.
 */
#ifndef SHIM_KERNEL_PRELUDE_H
#define SHIM_KERNEL_PRELUDE_H

#include <linux/kconfig.h>
#include <errno.h> /* include/linux/errno.h: the E* codes */
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
#include <linux/lockdep.h>
#include <linux/bottom_half.h>
#include <linux/interrupt.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/local_lock.h>
#include <linux/sched.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/cpu.h>
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
#include <trace/events/irq.h>
#include <trace/events/net.h>
#include <trace/events/ipi.h>
#include <trace/events/csd.h>
#include <linux/timekeeping.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/filter.h>
#include <linux/sched/isolation.h>
#include <net/proto_memory.h>
#include <net/xdp.h>
/* Seed trees: __do_softirq()'s attributes, struct netpoll's types. */
#include <linux/linkage.h>
#include <linux/netpoll.h>

#include "extracted/defs.h"

/*
 * kernel/softirq.c: the handler table, of the tree's struct softirq_action.
 * softirq_handler_call() calls a handler of either signature: with the
 * softirq_action (up to v6.9) or without (v6.10+, "softirq: Remove unused
 * 'action' parameter").  Only the branch of the tree's type is taken.
 */
extern struct softirq_action softirq_vec[NR_SOFTIRQS];
#define SOFTIRQ_HANDLER_TAKES_VOID                                      \
	__builtin_types_compatible_p(__typeof__(softirq_vec[0].action), \
				     void (*)(void))
#define softirq_handler_call(h)                                              \
	do {                                                                 \
		if (SOFTIRQ_HANDLER_TAKES_VOID)                              \
			((void (*)(void))(h)->action)();                     \
		else                                                         \
			((void (*)(struct softirq_action *))(h)->action)(h); \
	} while (0)
/* net/core/dev.c's net_tx_action, of the type open_softirq() takes. */
#define net_tx_action                                                      \
	__builtin_choose_expr(SOFTIRQ_HANDLER_TAKES_VOID, net_tx_action_v, \
			      net_tx_action_h)

/* kernel/softirq.c and kernel/smpboot.c per-CPU tasks. */
DECLARE_PER_CPU(struct task_struct *, ksoftirqd);

#endif
