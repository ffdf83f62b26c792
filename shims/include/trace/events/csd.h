/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/trace/events/csd.h: tracepoints compiled out. */
#ifndef SHIM_TRACE_EVENTS_CSD_H
#define SHIM_TRACE_EVENTS_CSD_H

#define trace_csd_queue_cpu_enabled() false
#define trace_csd_queue_cpu(cpu, callsite, func, csd) \
	((void)(cpu), (void)(callsite), (void)(func), (void)(csd))
#define trace_csd_function_entry(func, csd) ((void)(func), (void)(csd))
#define trace_csd_function_exit(func, csd) ((void)(func), (void)(csd))

#endif
