/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/trace/events/napi.h: tracepoints compiled out. */
#ifndef SHIM_TRACE_EVENTS_NAPI_H
#define SHIM_TRACE_EVENTS_NAPI_H

#define trace_napi_poll(n, w, b) \
	do {                     \
	} while (0)

#endif
