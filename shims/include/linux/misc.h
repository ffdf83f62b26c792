/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small stand-ins the code under test reaches but that no invariant is
 * about.  Each names what it stands for.
 */
#ifndef SHIM_LINUX_MISC_H
#define SHIM_LINUX_MISC_H

#include <sim/sim.h>
#include <errno.h>

/* include/linux/jiffies.h: simulated time, advanced only by sim_tick(). */
#define HZ			1000
#define USEC_PER_SEC		1000000L
extern unsigned long volatile jiffies;
#define usecs_to_jiffies(us)	((unsigned long)((us) * HZ / USEC_PER_SEC))
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)

/*
 * include/linux/rcupdate.h: readers are counted per CPU, as
 * !PREEMPT_RCU's rcu_read_lock() counts in preempt_count; a reader left
 * open is reported where the kernel reports it (the softirq loop's
 * preempt_count check, a voluntary schedule()).  Grace periods are not
 * modelled.  Out of line (shims/sim/sim.c): a branch expanded in the
 * tree's lines would count in its coverage.
 */
#define rcu_read_lock()			sim_rcu_read_lock()
#define rcu_read_unlock()		sim_rcu_read_unlock()
#define rcu_dereference(p)		(p)
#define rcu_access_pointer(p)		(p)
#define rcu_assign_pointer(p, v)	((p) = (v))
/*
 * include/linux/rcupdate.h: quiescent-state report every 100 ms (counted,
 * for rcu_softirq_qs()); compiled out on PREEMPT_RT, as there.
 */
#define rcu_softirq_qs_periodic(old_ts)					\
	do {								\
		if (!IS_ENABLED(CONFIG_PREEMPT_RT) &&			\
		    time_after(jiffies, (old_ts) + HZ / 10)) {		\
			sim_this()->cnt.rcu_qs++;			\
			(old_ts) = jiffies;				\
		}							\
	} while (0)

/* include/linux/hrtimer.h: the GRO flush timer is not simulated. */
struct hrtimer {
	int unused;
};
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED };
#define ns_to_ktime(ns)			((ktime_t)(ns))
#define hrtimer_start(t, k, m)		do { (void)(t); (void)(k); } while (0)
#define hrtimer_cancel(t)		0

/* include/linux/cpuhotplug.h: the dead callback is kept for sim_cpu_down(). */
enum cpuhp_state { CPUHP_NET_DEV_DEAD = 1 };
int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu));

/* include/net/net_namespace.h: pernet registration always succeeds. */
struct pernet_operations {
	int unused;
};
#define register_pernet_subsys(ops)	((void)(ops), 0)
#define register_pernet_device(ops)	((void)(ops), 0)
extern struct pernet_operations netdev_net_ops, loopback_net_ops,
	default_device_ops;

/* net/core/net-procfs.c, net-sysfs.c: nothing to create. */
#define dev_proc_init()		0
#define netdev_kobject_init()	0

/* include/trace/events/napi.h: tracepoints compiled out. */
#define trace_napi_poll(n, w, b)	do { } while (0)

/* include/linux/init.h */
#define subsys_initcall(fn)
#define early_param(str, fn)
#define __setup(str, fn)

/* include/linux/static_key.h: a plain boolean, flipped at "boot". */
struct static_key_false {
	bool enabled;
};
struct static_key_true {
	bool enabled;
};
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { false }
#define DEFINE_STATIC_KEY_TRUE(name)	struct static_key_true name = { true }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name
#define static_branch_enable(k)		((k)->enabled = true)
#define static_branch_disable(k)	((k)->enabled = false)
#define static_branch_unlikely(k)	unlikely((k)->enabled)
#define static_branch_likely(k)		likely((k)->enabled)
#define static_key_enabled(k)		((k)->enabled)

#endif
