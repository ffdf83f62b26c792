/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/smp_types.h: the node that a csd and a task's
 * wake_entry put on a CPU's call-single queue, with the csd type in its
 * flags (CSD_TYPE_TTWU for a queued wakeup).
 */
#ifndef SHIM_LINUX_SMP_TYPES_H
#define SHIM_LINUX_SMP_TYPES_H

struct llist_node {
	struct llist_node *next;
};

enum {
	CSD_FLAG_LOCK = 0x01,
	IRQ_WORK_PENDING = 0x01,
	IRQ_WORK_BUSY = 0x02,
	IRQ_WORK_LAZY = 0x04,
	IRQ_WORK_HARD_IRQ = 0x08,
	IRQ_WORK_CLAIMED = (IRQ_WORK_PENDING | IRQ_WORK_BUSY),
	CSD_TYPE_ASYNC = 0x00,
	CSD_TYPE_SYNC = 0x10,
	CSD_TYPE_IRQ_WORK = 0x20,
	CSD_TYPE_TTWU = 0x30,
	CSD_FLAG_TYPE_MASK = 0xF0,
};

struct __call_single_node {
	struct llist_node llist;
	unsigned int u_flags;
	unsigned short src, dst;
};

#endif
