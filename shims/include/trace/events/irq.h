/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/trace/events/irq.h: tracepoints compiled out. */
#ifndef SHIM_TRACE_EVENTS_IRQ_H
#define SHIM_TRACE_EVENTS_IRQ_H

#define trace_softirq_entry(nr) ((void)(nr))
#define trace_softirq_exit(nr) ((void)(nr))

#endif
