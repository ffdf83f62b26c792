/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Glue for include/linux/netdevice.h.  struct napi_struct, struct
 * softnet_data, the NAPI state bits and the inline helpers are NOT defined
 * here: they are extracted from the tree under test (extracted/defs.h), so
 * that the series' field changes are tested as written.  This file provides
 * what those definitions need around them.
 */
#ifndef SHIM_LINUX_NETDEVICE_H
#define SHIM_LINUX_NETDEVICE_H

#include <linux/skbuff.h>
#include <linux/smp.h>
#include <linux/hrtimer.h>

struct Qdisc;
struct sd_flow_limit;
struct softnet_data;
struct napi_struct;

enum netdev_reg_state {
	NETREG_UNINITIALIZED = 0,
	NETREG_REGISTERED,
	NETREG_UNREGISTERING,
	NETREG_UNREGISTERED,
};

/* Only what the code under test reads of a device. */
struct net_device {
	char name[16];
	bool running;
	enum netdev_reg_state reg_state;
	unsigned long rx_dropped;
	unsigned long gro_flush_timeout;
	int napi_defer_hard_irqs;
	/* netpoll (seed-netpoll suites; linux/netpoll.h shim). */
	unsigned int priv_flags;
	const struct net_device_ops *netdev_ops;
	struct netpoll_info *npinfo;
	/*
	 * RPS: rx queue 0's rps_map (struct rps_map's len and cpus[]), read
	 * by get_rps_cpu() (shims/sim/net/core/dev.c); len 0 is no map.
	 */
	unsigned int rps_map_len;
	u16 rps_map_cpus[NR_CPUS];
};

#define NET_RX_SUCCESS 0
#define NET_RX_DROP 1

static inline bool netif_running(const struct net_device *dev)
{
	return dev->running;
}

static inline void dev_core_stats_rx_dropped_inc(struct net_device *dev)
{
	dev->rx_dropped++;
}

/* net/core/dev.c: the protocol layers, where a packet leaves our scope. */
int sim_netif_receive_skb(struct sk_buff *skb, const char *file, int line);
#define __netif_receive_skb(skb) sim_netif_receive_skb(skb, __FILE__, __LINE__)
int netif_rx(struct sk_buff *skb);
/* net/core/dev.c's RPS steering (shims/sim/net/core/dev.c): the map arm. */
struct rps_dev_flow;
int get_rps_cpu(struct net_device *dev, struct sk_buff *skb,
		struct rps_dev_flow **rflowp);

/*
 * dev_proc_init() (net/core/net-procfs.c, declared here in the kernel) and
 * netdev_kobject_init() (net/core/net-sysfs.h): nothing to create; each
 * fails with -ENOMEM when a test makes it (sim_fail_init_step()).
 */
int sim_init_step(const char *name);
#define dev_proc_init() sim_init_step("dev_proc_init")
#define netdev_kobject_init() sim_init_step("netdev_kobject_init")

/*
 * net/core/gro.c: napi_gro_flush() (shims/sim/net/core/gro.c).  GRO lists
 * are not simulated; a test marks the buckets that hold packets in
 * napi->gro_bitmask, and sim_gro_flushes() counts the calls by flush_old.
 * include/net/gro.h's gro_normal_list(): nothing is batched.
 */
void napi_gro_flush(struct napi_struct *napi, bool flush_old);
unsigned long sim_gro_flushes(bool flush_old);

#define gro_normal_list(napi) \
	do {                  \
		(void)(napi); \
	} while (0)

/* include/linux/netpoll.h: no netpoll client owns a NAPI. */
static inline void *netpoll_poll_lock(struct napi_struct *napi)
{
	(void)napi;
	return NULL;
}

static inline void netpoll_poll_unlock(void *have)
{
	(void)have;
}

/*
 * net/core/dev.c: the TX softirq is registered but never simulated.  Its
 * type follows the tree's softirq handler (kernel_prelude.h).
 */
void net_tx_action_h(struct softirq_action *h);
void net_tx_action_v(void);

/*
 * net/core/dev.c's net_dev_struct_check() (v6.8+): build-time asserts on
 * struct net_device's cacheline groups, which the stand-in above has not.
 */
#define net_dev_struct_check() \
	do {                   \
	} while (0)

/* net/core/dev.c: reached only with housekeeping (linux/sched/isolation.h). */
void net_enable_timestamp(void);

#define PTYPE_HASH_SIZE 16
extern struct list_head ptype_all;
extern struct list_head ptype_base[PTYPE_HASH_SIZE];

#endif
