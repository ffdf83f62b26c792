/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/net/net_namespace.h: pernet registration succeeds
 * unless a test makes it fail (sim_fail_init_step(), sim/sim.h), as an
 * allocation inside register_pernet_subsys() can.
 */
#ifndef SHIM_NET_NET_NAMESPACE_H
#define SHIM_NET_NET_NAMESPACE_H

int sim_init_step(const char *name);

struct pernet_operations {
	int unused;
};
#define register_pernet_subsys(ops) \
	((void)(ops), sim_init_step("register_pernet_subsys"))
#define register_pernet_device(ops) ((void)(ops), 0)
extern struct pernet_operations netdev_net_ops, loopback_net_ops,
	default_device_ops;

#endif
