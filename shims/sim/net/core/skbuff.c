// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for net/core/skbuff.c: packets, their allocation and freeing, with
 * exactly-once accounting (a packet delivered or freed twice is a BUG); and
 * the stack's receive entry point, __netif_receive_skb() of net/core/dev.c,
 * where a packet is consumed and so counted.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdlib.h>
#include "sim_internal.h"

#define SIM_MAX_SKBS 4096

static struct sk_buff *skbs[SIM_MAX_SKBS];
static unsigned long nr_skbs, outstanding;

struct sk_buff *sim_skb_alloc(struct net_device *dev)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb));

	if (!skb || nr_skbs >= SIM_MAX_SKBS)
		sim_bug(__FILE__, __LINE__, "out of simulated packets");
	skb->dev = dev;
	skb->alloc_cpu = sim_cpu_id();
	skb->seq = nr_skbs;
	skb->freed_on_cpu = -1;
	skb->delivered_on_cpu = -1;
	skbs[nr_skbs++] = skb;
	outstanding++;
	return skb;
}

/* The end of every free path (kfree_skb(), napi_consume_skb(), ...). */
void sim_skb_free(struct sk_buff *skb, const char *how, int reason,
		  const char *file, int line)
{
	if (!skb)
		return;
	if (skb->freed_on_cpu >= 0)
		sim_bug(file, line, "double free of a packet");
	skb->freed_on_cpu = sim_cpu_id();
	skb->freed_by = how;
	skb->drop_reason = reason;
	sim_this()->cnt.skbs_freed++;
	if (skb->delivered_on_cpu < 0)
		outstanding--;
}

/*
 * napi_consume_skb() (net/core/skbuff.c, 6.1.192): a zero budget (netpoll)
 * frees through dev_consume_skb_any(); otherwise the caller must be in
 * softirq context or have BH disabled, which CONFIG_DEBUG_NET checks.  A
 * defer_list flushed after local_bh_enable() trips it.
 */
void sim_napi_consume_skb(struct sk_buff *skb, int budget, const char *file,
			  int line)
{
	if (unlikely(!budget)) {
		sim_skb_free(skb, "dev_consume_skb_any", SKB_CONSUMED, file,
			     line);
		return;
	}
	DEBUG_NET_WARN_ON_ONCE(!in_softirq());
	sim_skb_free(skb, "napi_consume_skb", SKB_CONSUMED, file, line);
}

/*
 * __napi_kfree_skb() (net/core/skbuff.c): releases the skb into this
 * CPU's NAPI cache; since v6.11 napi_skb_cache_put() takes the cache's
 * local_lock_nested_bh(), whose lockdep_assert_in_softirq() is kept.
 */
void sim_napi_kfree_skb(struct sk_buff *skb, enum skb_drop_reason reason,
			const char *file, int line)
{
	lockdep_assert_in_softirq();
	sim_skb_free(skb, "__napi_kfree_skb", reason, file, line);
}

/* The stack above the backlog: the packet is consumed here. */
int sim_netif_receive_skb(struct sk_buff *skb, const char *file, int line)
{
	/*
	 * The protocol handlers behind it take BH-disabling locks, and
	 * local_bh_enable() asserts that IRQs are on (lockdep): a packet
	 * delivered with hard IRQs off is a bug the kernel would report.
	 */
	lockdep_assert_irqs_enabled();
	if (skb->delivered_on_cpu >= 0 || skb->freed_on_cpu >= 0)
		sim_bug(file, line, "packet delivered twice");
	skb->delivered_on_cpu = sim_cpu_id();
	sim_this()->cnt.skbs_delivered++;
	outstanding--;
	return 0;
}

struct sk_buff *skb_dequeue(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *skb;

	spin_lock_irqsave(&list->lock, flags);
	skb = __skb_dequeue(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return skb;
}

struct sk_buff *skb_dequeue_tail(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *skb;

	spin_lock_irqsave(&list->lock, flags);
	skb = __skb_dequeue_tail(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return skb;
}

void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(list)) != NULL)
		kfree_skb(skb);
}

void skb_queue_head(struct sk_buff_head *list, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_head(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

void skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_tail(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

void skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_unlink(skb, list);
	spin_unlock_irqrestore(&list->lock, flags);
}

unsigned long sim_skbs_outstanding(void)
{
	return outstanding;
}

void sim_skb_reset(void)
{
	unsigned long i;

	for (i = 0; i < nr_skbs; i++)
		free(skbs[i]);
	nr_skbs = 0;
	outstanding = 0;
}
