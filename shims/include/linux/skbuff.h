/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/skbuff.h.  An sk_buff here carries what the code
 * under test reads (list links, dev, alloc_cpu, dst, destructor) plus a
 * sequence number so tests can check that every packet is delivered or
 * freed exactly once.  Freeing and delivery are counted per CPU.
 */
#ifndef SHIM_LINUX_SKBUFF_H
#define SHIM_LINUX_SKBUFF_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/refcount.h>
#include <linux/bottom_half.h>

struct net_device;

struct sk_buff {
	struct sk_buff *next;
	struct sk_buff *prev;
	struct net_device *dev;
	int alloc_cpu;
	unsigned long _skb_refdst;
	void (*destructor)(struct sk_buff *skb);
	unsigned int hash;
	refcount_t users; /* set by netpoll's find_skb() */
	u8 fclone; /* SKB_FCLONE_UNAVAILABLE: no clones here */
	ktime_t tstamp; /* net_timestamp_check(): never set here */
	/* Simulator bookkeeping. */
	unsigned long seq;
	int freed_on_cpu;
	int delivered_on_cpu;
	const char *freed_by; /* the free function (kfree_skb_reason, ...) */
	int drop_reason; /* enum skb_drop_reason it was given */
};

/* Copied from include/linux/skbuff.h (tools/check-shim-copies) */
/* clang-format off */
enum {
	SKB_FCLONE_UNAVAILABLE,	/* skb has no fclone (from head_cache) */
	SKB_FCLONE_ORIG,	/* orig skb (from fclone_cache) */
	SKB_FCLONE_CLONE,	/* companion fclone skb (from fclone_cache) */
};
/* clang-format on */

struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
	spinlock_t lock;
};

enum skb_drop_reason {
	SKB_NOT_DROPPED_YET = 0,
	SKB_CONSUMED,
	SKB_DROP_REASON_NOT_SPECIFIED,
	SKB_DROP_REASON_CPU_BACKLOG,
	SKB_DROP_REASON_DEV_READY,
};

/* CONFIG_MAX_SKB_FRAGS's default: net_hotdata's sysctl_max_skb_frags. */
#define MAX_SKB_FRAGS 17

/* Copied from include/linux/skbuff.h (tools/check-shim-copies) */
/* clang-format off */
static inline void __skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}
/* clang-format on */

/* One lock class for every queue, as skb_queue_head_init()'s single key. */
static inline void skb_queue_head_init(struct sk_buff_head *list)
{
	list->lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(sk_buff_head.lock);
	__skb_queue_head_init(list);
}

static inline u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

static inline u32 skb_queue_len_lockless(const struct sk_buff_head *list)
{
	return READ_ONCE(list->qlen);
}

static inline int skb_queue_empty(const struct sk_buff_head *list)
{
	return list->next == (const struct sk_buff *)list;
}

static inline bool skb_queue_empty_lockless(const struct sk_buff_head *list)
{
	return READ_ONCE(list->next) == (const struct sk_buff *)list;
}

static inline bool skb_queue_is_last(const struct sk_buff_head *list,
				     const struct sk_buff *skb)
{
	return skb->next == (const struct sk_buff *)list;
}

static inline bool skb_queue_is_first(const struct sk_buff_head *list,
				      const struct sk_buff *skb)
{
	return skb->prev == (const struct sk_buff *)list;
}

static inline struct sk_buff *skb_queue_next(const struct sk_buff_head *list,
					     const struct sk_buff *skb)
{
	BUG_ON(skb_queue_is_last(list, skb));
	return skb->next;
}

static inline struct sk_buff *skb_queue_prev(const struct sk_buff_head *list,
					     const struct sk_buff *skb)
{
	BUG_ON(skb_queue_is_first(list, skb));
	return skb->prev;
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	if (skb == (struct sk_buff *)list)
		skb = NULL;
	return skb;
}

static inline struct sk_buff *__skb_peek(const struct sk_buff_head *list)
{
	return list->next;
}

static inline struct sk_buff *skb_peek_next(struct sk_buff *skb,
					    const struct sk_buff_head *list)
{
	struct sk_buff *next = skb->next;

	if (next == (struct sk_buff *)list)
		next = NULL;
	return next;
}

static inline struct sk_buff *skb_peek_tail(const struct sk_buff_head *list)
{
	struct sk_buff *skb = READ_ONCE(list->prev);

	if (skb == (struct sk_buff *)list)
		skb = NULL;
	return skb;
}

/*
 * The list operations below store plainly where the kernel's use
 * WRITE_ONCE() for lockless readers: the simulator's scheduling points on
 * queues are the lockless readers' READ_ONCE()s.
 */
static inline void __skb_insert(struct sk_buff *newsk, struct sk_buff *prev,
				struct sk_buff *next, struct sk_buff_head *list)
{
	sim_step(); /* the hang watchdog's (sim/explore.h) */
	newsk->next = next;
	newsk->prev = prev;
	next->prev = newsk;
	prev->next = newsk;
	list->qlen++;
}

static inline void __skb_queue_splice(const struct sk_buff_head *list,
				      struct sk_buff *prev,
				      struct sk_buff *next)
{
	struct sk_buff *first = list->next;
	struct sk_buff *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/* Splice list at the head of head (for stacks). */
static inline void skb_queue_splice(const struct sk_buff_head *list,
				    struct sk_buff_head *head)
{
	if (!skb_queue_empty(list)) {
		__skb_queue_splice(list, (struct sk_buff *)head, head->next);
		head->qlen += list->qlen;
	}
}

static inline void skb_queue_splice_init(struct sk_buff_head *list,
					 struct sk_buff_head *head)
{
	if (!skb_queue_empty(list)) {
		__skb_queue_splice(list, (struct sk_buff *)head, head->next);
		head->qlen += list->qlen;
		__skb_queue_head_init(list);
	}
}

/* Splice list at the tail of head (queues). */
static inline void skb_queue_splice_tail(const struct sk_buff_head *list,
					 struct sk_buff_head *head)
{
	if (!skb_queue_empty(list)) {
		__skb_queue_splice(list, head->prev, (struct sk_buff *)head);
		head->qlen += list->qlen;
	}
}

static inline void skb_queue_splice_tail_init(struct sk_buff_head *list,
					      struct sk_buff_head *head)
{
	if (!skb_queue_empty(list)) {
		__skb_queue_splice(list, head->prev, (struct sk_buff *)head);
		head->qlen += list->qlen;
		__skb_queue_head_init(list);
	}
}

static inline void __skb_queue_after(struct sk_buff_head *list,
				     struct sk_buff *prev,
				     struct sk_buff *newsk)
{
	__skb_insert(newsk, prev, prev->next, list);
}

static inline void __skb_queue_before(struct sk_buff_head *list,
				      struct sk_buff *next,
				      struct sk_buff *newsk)
{
	__skb_insert(newsk, next->prev, next, list);
}

static inline void __skb_queue_head(struct sk_buff_head *list,
				    struct sk_buff *newsk)
{
	__skb_queue_after(list, (struct sk_buff *)list, newsk);
}

static inline void __skb_queue_tail(struct sk_buff_head *list,
				    struct sk_buff *newsk)
{
	__skb_queue_before(list, (struct sk_buff *)list, newsk);
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	struct sk_buff *next, *prev;

	sim_step();
	list->qlen--;
	next = skb->next;
	prev = skb->prev;
	skb->next = skb->prev = NULL;
	next->prev = prev;
	prev->next = next;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	if (skb == (struct sk_buff *)list)
		return NULL;
	__skb_unlink(skb, list);
	return skb;
}

static inline struct sk_buff *__skb_dequeue_tail(struct sk_buff_head *list)
{
	struct sk_buff *skb = list->prev;

	if (skb == (struct sk_buff *)list)
		return NULL;
	__skb_unlink(skb, list);
	return skb;
}

/* The locked variants (net/core/skbuff.c; shims/sim/skb.c). */
struct sk_buff *skb_dequeue(struct sk_buff_head *list);
struct sk_buff *skb_dequeue_tail(struct sk_buff_head *list);
void skb_queue_head(struct sk_buff_head *list, struct sk_buff *newsk);
void skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk);
void skb_unlink(struct sk_buff *skb, struct sk_buff_head *list);
void skb_queue_purge(struct sk_buff_head *list);

#define skb_queue_walk(queue, skb)                                  \
	for (skb = (queue)->next; skb != (struct sk_buff *)(queue); \
	     skb = skb->next)

#define skb_queue_walk_safe(queue, skb, tmp)       \
	for (skb = (queue)->next, tmp = skb->next; \
	     skb != (struct sk_buff *)(queue);     \
	     sim_step(), skb = tmp, tmp = skb->next)

#define skb_queue_walk_from(queue, skb) \
	for (; skb != (struct sk_buff *)(queue); skb = skb->next)

#define skb_queue_walk_from_safe(queue, skb, tmp)               \
	for (tmp = skb->next; skb != (struct sk_buff *)(queue); \
	     skb = tmp, tmp = skb->next)

#define skb_queue_reverse_walk(queue, skb)                          \
	for (skb = (queue)->prev; skb != (struct sk_buff *)(queue); \
	     skb = skb->prev)

#define skb_queue_reverse_walk_safe(queue, skb, tmp) \
	for (skb = (queue)->prev, tmp = skb->prev;   \
	     skb != (struct sk_buff *)(queue); skb = tmp, tmp = skb->prev)

static inline unsigned long skb_dst(const struct sk_buff *skb)
{
	return skb->_skb_refdst;
}

static inline u32 skb_get_hash(struct sk_buff *skb)
{
	return skb->hash;
}

/*
 * Freeing: all end in sim_skb_free(), which checks for double frees and
 * records the function and the drop reason (shims/sim/net/core/skbuff.c).
 * A double free is a BUG at the freeing call site (the tree's line).
 */
void sim_skb_free(struct sk_buff *skb, const char *how, int reason,
		  const char *file, int line);
#define __sim_skb_free(skb, how, reason) \
	sim_skb_free(skb, how, reason, __FILE__, __LINE__)
#define kfree_skb(skb) \
	__sim_skb_free(skb, "kfree_skb", SKB_DROP_REASON_NOT_SPECIFIED)
#define kfree_skb_reason(skb, r) __sim_skb_free(skb, "kfree_skb_reason", r)
#define consume_skb(skb) __sim_skb_free(skb, "consume_skb", SKB_CONSUMED)
#define __kfree_skb(skb) __sim_skb_free(skb, "__kfree_skb", SKB_CONSUMED)
#define dev_kfree_skb_irq(skb) \
	__sim_skb_free(skb, "dev_kfree_skb_irq", SKB_CONSUMED)

/* Copied from include/linux/skbuff.h (tools/check-shim-copies) */
/* clang-format off */
static inline void __skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		kfree_skb(skb);
}
/* clang-format on */

/* net/core/skbuff.c: keeps its DEBUG_NET_WARN_ON_ONCE(!in_softirq()). */
void sim_napi_consume_skb(struct sk_buff *skb, int budget, const char *file,
			  int line);
#define napi_consume_skb(skb, budget) \
	sim_napi_consume_skb(skb, budget, __FILE__, __LINE__)

static inline void __skb_queue_purge_reason(struct sk_buff_head *list,
					    enum skb_drop_reason reason)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		kfree_skb_reason(skb, reason);
}

/*
 * net/core/skbuff.c: into this CPU's NAPI skb cache (trees after 6.1 reach it
 * from kfree_skb_napi_cache(), extracted).
 */
void sim_napi_kfree_skb(struct sk_buff *skb, enum skb_drop_reason reason,
			const char *file, int line);
#define __napi_kfree_skb(skb, reason) \
	sim_napi_kfree_skb(skb, reason, __FILE__, __LINE__)

/*
 * skb_attempt_defer_free() is not declared here: it is extracted from the
 * tree's net/core/skbuff.c (see kernel-src/manifest).
 */

/* Simulator: packets. */
struct sk_buff *sim_skb_alloc(struct net_device *dev);
unsigned long sim_skbs_outstanding(void);

#endif
