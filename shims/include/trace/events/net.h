/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/trace/events/net.h: tracepoints compiled out. */
#ifndef SHIM_TRACE_EVENTS_NET_H
#define SHIM_TRACE_EVENTS_NET_H

#define trace_netif_rx(skb) ((void)(skb))
#define trace_netif_rx_entry(skb) ((void)(skb))
#define trace_netif_rx_exit(ret) ((void)(ret))

#endif
