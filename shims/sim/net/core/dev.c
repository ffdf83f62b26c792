// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for the parts of net/core/dev.c that the manifest does not
 * extract from the tree: what the extracted code calls or reads there.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include "sim_internal.h"

struct list_head ptype_all;
struct list_head ptype_base[PTYPE_HASH_SIZE];
struct pernet_operations netdev_net_ops, loopback_net_ops, default_device_ops;

/*
 * get_rps_cpu(): RPS steering by the device's rps_map and the flow
 * tables.  The simulated devices have neither (and nothing enables
 * rps_needed), so there is no target: -1, and netif_rx_internal() keeps
 * the packet on this CPU.  The suites steer with enqueue_to_backlog().
 */
int get_rps_cpu(struct net_device *dev, struct sk_buff *skb,
		struct rps_dev_flow **rflowp)
{
	(void)dev;
	(void)skb;
	(void)rflowp;
	return -1;
}

/*
 * The TX softirq: not simulated.  One per handler type (the argument went
 * in v6.10); kernel_prelude.h's net_tx_action names the tree's.
 */
void net_tx_action_h(struct softirq_action *h)
{
	(void)h;
}

void net_tx_action_v(void)
{
}

/*
 * net_enable_timestamp(): net_dev_init() (v6.9+) calls it only when
 * housekeeping is enabled, which it never is here
 * (linux/sched/isolation.h); receive timestamps are not simulated.
 */
void net_enable_timestamp(void)
{
}
