/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/llist.h: the lock-less NULL-terminated list of
 * the call-single queue and the scheduler's wake list.  One simulated CPU
 * runs at a time, so llist_add()'s cmpxchg() loop and llist_del_all()'s
 * xchg() are single steps here: each an explorer point and, as a locked
 * read-modify-write, a store-buffer drain (none in a simulator file that
 * defines SIM_RAW_ONCE).
 */
#ifndef SHIM_LINUX_LLIST_H
#define SHIM_LINUX_LLIST_H

#include <linux/compiler.h>
#include <linux/smp_types.h>

struct llist_head {
	struct llist_node *first;
};

/*
 * container_of() as integer arithmetic: the same address, but the
 * iterators below compute it from the NULL that ends a list (the kernel's
 * member_address_is_nonnull() trick), which UBSan's pointer-overflow
 * check (make check SANITIZE=1) reports as an offset applied to NULL.
 */
#define llist_entry(ptr, type, member) \
	((type *)((uintptr_t)(ptr)-offsetof(type, member)))

#define member_address_is_nonnull(ptr, member) \
	((uintptr_t)(ptr) + offsetof(typeof(*(ptr)), member) != 0)

#define llist_for_each_entry(pos, node, member)                   \
	for ((pos) = llist_entry((node), typeof(*(pos)), member); \
	     member_address_is_nonnull(pos, member);              \
	     (pos) = llist_entry((pos)->member.next, typeof(*(pos)), member))

#define llist_for_each_entry_safe(pos, n, node, member)                     \
	for (pos = llist_entry((node), typeof(*pos), member);               \
	     member_address_is_nonnull(pos, member) &&                      \
	     (n = llist_entry(pos->member.next, typeof(*n), member), true); \
	     pos = n)

static inline bool __sim_llist_empty(const struct llist_head *head)
{
	return head->first == NULL;
}

/*
 * llist_empty(): the kernel's READ_ONCE(head->first), a plain read here
 * (not an explorer point); its call site goes in the trail, so that a
 * queue left behind is reported at the tree's test that left it
 * (flush_smp_call_function_queue(): shims/sim/kernel/smp.c).
 */
#define llist_empty(head) \
	(sim_trail_note(__FILE__, __LINE__), __sim_llist_empty(head))

/*
 * llist_add(): true if the list was empty before.  The point is the call
 * site's (a macro), so that it names the tree's file:line.
 */
static inline bool __sim_llist_add(struct llist_node *new,
				   struct llist_head *head)
{
	struct llist_node *first = head->first;

	new->next = first;
	head->first = new;
	return first == NULL;
}

#define llist_add(new, head) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), __sim_llist_add(new, head))

static inline struct llist_node *__sim_llist_del_all(struct llist_head *head)
{
	struct llist_node *first = head->first;

	head->first = NULL;
	return first;
}

#define llist_del_all(head) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), __sim_llist_del_all(head))

/* lib/llist.c: the entries in the order they were added. */
static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = head->next;
		tmp->next = new_head;
		new_head = tmp;
	}
	return new_head;
}

#endif
