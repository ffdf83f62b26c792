/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/net/net_namespace.h: pernet registration always succeeds. */
#ifndef SHIM_NET_NET_NAMESPACE_H
#define SHIM_NET_NET_NAMESPACE_H

struct pernet_operations {
	int unused;
};
#define register_pernet_subsys(ops)	((void)(ops), 0)
#define register_pernet_device(ops)	((void)(ops), 0)
extern struct pernet_operations netdev_net_ops, loopback_net_ops,
	default_device_ops;

#endif
