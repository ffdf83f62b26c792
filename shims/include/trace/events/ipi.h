/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/trace/events/ipi.h: tracepoints compiled out. */
#ifndef SHIM_TRACE_EVENTS_IPI_H
#define SHIM_TRACE_EVENTS_IPI_H

#define trace_ipi_send_cpu(cpu, callsite, callback) \
	((void)(cpu), (void)(callsite), (void)(callback))

#endif
