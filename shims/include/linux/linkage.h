/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/linkage.h (asmlinkage), compiler_attributes.h
 * (__visible) and include/linux/interrupt.h (__softirq_entry): the
 * attributes on kernel/softirq.c's __do_softirq(), which the seed-rt-softirq
 * extraction prototypes in defs.h.
 */
#ifndef SHIM_LINUX_LINKAGE_H
#define SHIM_LINUX_LINKAGE_H

#define asmlinkage
#define __visible __attribute__((__externally_visible__))
#define __softirq_entry

#endif
