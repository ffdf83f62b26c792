/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What include/linux/netpoll.h's definitions need that no other shim
 * provides: the types inside struct netpoll and struct netpoll_info, which
 * the seed-netpoll extraction takes from the tree's own netpoll.h (so
 * struct netpoll has the seed's refill_wq).  Not guarded by the kernel's
 * _LINUX_NETPOLL_H: the extracted definitions are.
 */
#ifndef SHIM_LINUX_NETPOLL_H
#define SHIM_LINUX_NETPOLL_H

#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/refcount.h>

/* include/uapi/linux/types.h */
typedef u32 __be32;

/* include/uapi/linux/in.h, in6.h */
struct in_addr {
	__be32 s_addr;
};
struct in6_addr {
	u8 s6_addr[16];
};

/* include/uapi/linux/if.h, if_ether.h */
#ifndef IFNAMSIZ
#define IFNAMSIZ 16
#endif
#define ETH_ALEN 6

/* include/linux/netdevice.h: the reference tracker is not simulated. */
typedef struct {
} netdevice_tracker;

struct net_device;
struct netpoll_info;

/* include/linux/netdevice.h: the netpoll hooks of struct net_device_ops. */
struct net_device_ops {
	int (*ndo_netpoll_setup)(struct net_device *dev,
				 struct netpoll_info *info);
	void (*ndo_netpoll_cleanup)(struct net_device *dev);
};

/* include/linux/semaphore.h: netpoll_info::dev_lock, never contended here. */
struct semaphore {
	int count;
};
#define sema_init(s, n) ((s)->count = (n))

/* include/linux/workqueue.h: delayed work, its timer not simulated. */
struct delayed_work {
	struct work_struct work;
};
#define INIT_DELAYED_WORK(w, f) INIT_WORK(&(w)->work, (f))
#define cancel_delayed_work_sync(w) cancel_work_sync(&(w)->work)

#endif
