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
 * get_rps_cpu(): RPS steering, its rps_map arm.  The simulated devices
 * have one rx queue (skb_rx_queue_recorded() is false) and no RFS flow
 * tables (rps_flow_table and rps_sock_flow_table stay NULL, *rflowp is
 * left alone), so what the kernel does is: no map, or a zero hash, is no
 * target (-1, netif_rx_internal() keeps the packet on this CPU);
 * otherwise map->cpus[reciprocal_scale(hash, map->len)], if that CPU is
 * online, else -1.  The map is the device's rps_map_len / rps_map_cpus
 * (linux/netdevice.h); store_rps_map() enables rps_needed when it writes
 * one, a test does both.
 */
int get_rps_cpu(struct net_device *dev, struct sk_buff *skb,
		struct rps_dev_flow **rflowp)
{
	u32 hash, tcpu;

	(void)rflowp;
	if (!dev->rps_map_len)
		return -1;
	hash = skb_get_hash(skb);
	if (!hash)
		return -1;
	/* reciprocal_scale(hash, map->len) */
	tcpu = dev->rps_map_cpus[((u64)hash * dev->rps_map_len) >> 32];
	if (cpu_online(tcpu))
		return tcpu;
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
