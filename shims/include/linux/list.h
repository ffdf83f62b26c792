/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/list.h: the same doubly linked list semantics.
 * list_del() poisons the node like the kernel (LIST_POISON1/2), so a test
 * that reaches a deleted node's pointers crashes as the kernel would.
 * A zeroed, never initialised node is NOT an empty list here either:
 * list_empty() compares next with the head, as the kernel does (V20).
 */
#ifndef SHIM_LINUX_LIST_H
#define SHIM_LINUX_LIST_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#define LIST_POISON1 ((void *)0x100)
#define LIST_POISON2 ((void *)0x122)

/* clang-format off */
#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
/* clang-format on */
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	WRITE_ONCE(list->prev, list);
}

/*
 * CONFIG_DEBUG_LIST's __list_add_valid() and __list_del_entry_valid(),
 * out of line in lib/list_debug.c as in the kernel (shims/sim/lib/
 * list_debug.c), with the list operation's call site: the operations are
 * macros so that it is known.  False: the corruption was reported and the
 * operation is skipped.
 */
bool __list_add_valid(struct list_head *new, struct list_head *prev,
		      struct list_head *next, const char *file, int line);
bool __list_del_entry_valid(struct list_head *entry, const char *file,
			    int line);

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next, const char *file,
			      int line)
{
	sim_step_at(file, line); /* the hang watchdog's (sim/explore.h) */
	if (!__list_add_valid(new, prev, next, file, line))
		return;
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

#define list_add(new, head) __sim_list_add(new, head, __FILE__, __LINE__)
static inline void __sim_list_add(struct list_head *new, struct list_head *head,
				  const char *file, int line)
{
	__list_add(new, head, head->next, file, line);
}

#define list_add_tail(new, head) \
	__sim_list_add_tail(new, head, __FILE__, __LINE__)
static inline void __sim_list_add_tail(struct list_head *new,
				       struct list_head *head, const char *file,
				       int line)
{
	__list_add(new, head->prev, head, file, line);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __sim_list_del_entry(struct list_head *entry,
					const char *file, int line)
{
	sim_step_at(file, line);
	if (!__list_del_entry_valid(entry, file, line))
		return;
	__list_del(entry->prev, entry->next);
}

#define list_del(entry) __sim_list_del(entry, __FILE__, __LINE__)
static inline void __sim_list_del(struct list_head *entry, const char *file,
				  int line)
{
	__sim_list_del_entry(entry, file, line);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

#define list_del_init(entry) __sim_list_del_init(entry, __FILE__, __LINE__)
static inline void __sim_list_del_init(struct list_head *entry,
				       const char *file, int line)
{
	__sim_list_del_entry(entry, file, line);
	INIT_LIST_HEAD(entry);
}

#define list_move_tail(list, head) \
	__sim_list_move_tail(list, head, __FILE__, __LINE__)
static inline void __sim_list_move_tail(struct list_head *list,
					struct list_head *head,
					const char *file, int line)
{
	__sim_list_del_entry(list, file, line);
	__sim_list_add_tail(list, head, file, line);
}

#define list_move(list, head) __sim_list_move(list, head, __FILE__, __LINE__)
static inline void __sim_list_move(struct list_head *list,
				   struct list_head *head, const char *file,
				   int line)
{
	__sim_list_del_entry(list, file, line);
	__sim_list_add(list, head, file, line);
}

/* net/core/dev.c's per-CPU lists check entry->prev instead of list_empty(). */
static inline void __list_del_clearprev(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	entry->prev = NULL;
}

static inline void list_replace(struct list_head *old, struct list_head *new)
{
	new->next = old->next;
	new->next->prev = new;
	new->prev = old->prev;
	new->prev->next = new;
}

static inline void list_replace_init(struct list_head *old,
				     struct list_head *new)
{
	list_replace(old, new);
	INIT_LIST_HEAD(old);
}

#define list_swap(entry1, entry2) \
	__sim_list_swap(entry1, entry2, __FILE__, __LINE__)
static inline void __sim_list_swap(struct list_head *entry1,
				   struct list_head *entry2, const char *file,
				   int line)
{
	struct list_head *pos = entry2->prev;

	__sim_list_del(entry2, file, line);
	list_replace(entry1, entry2);
	if (pos == entry1)
		pos = entry2;
	__sim_list_add(entry1, pos, file, line);
}

static inline void list_bulk_move_tail(struct list_head *head,
				       struct list_head *first,
				       struct list_head *last)
{
	first->prev->next = last->next;
	last->next->prev = first->prev;
	head->prev->next = first;
	first->prev = head->prev;
	last->next = head;
	head->prev = last;
}

static inline int list_is_first(const struct list_head *list,
				const struct list_head *head)
{
	return list->prev == head;
}

static inline int list_is_last(const struct list_head *list,
			       const struct list_head *head)
{
	return list->next == head;
}

static inline int list_is_head(const struct list_head *list,
			       const struct list_head *head)
{
	return list == head;
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

#define list_del_init_careful(entry) \
	__sim_list_del_init_careful(entry, __FILE__, __LINE__)
static inline void __sim_list_del_init_careful(struct list_head *entry,
					       const char *file, int line)
{
	__sim_list_del_entry(entry, file, line);
	WRITE_ONCE(entry->prev, entry);
	smp_store_release(&entry->next, entry);
}

static inline int list_empty_careful(const struct list_head *head)
{
	struct list_head *next = smp_load_acquire(&head->next);

	return list_is_head(next, head) && (next == READ_ONCE(head->prev));
}

#define list_rotate_left(head) __sim_list_rotate_left(head, __FILE__, __LINE__)
static inline void __sim_list_rotate_left(struct list_head *head,
					  const char *file, int line)
{
	if (!list_empty(head))
		__sim_list_move_tail(head->next, head, file, line);
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && (head->next == head->prev);
}

static inline void __list_cut_position(struct list_head *list,
				       struct list_head *head,
				       struct list_head *entry)
{
	struct list_head *new_first = entry->next;

	list->next = head->next;
	list->next->prev = list;
	list->prev = entry;
	entry->next = list;
	head->next = new_first;
	new_first->prev = head;
}

static inline void list_cut_position(struct list_head *list,
				     struct list_head *head,
				     struct list_head *entry)
{
	if (list_empty(head))
		return;
	if (list_is_singular(head) && !list_is_head(entry, head) &&
	    entry != head->next)
		return;
	if (list_is_head(entry, head))
		INIT_LIST_HEAD(list);
	else
		__list_cut_position(list, head, entry);
}

/* Copied from include/linux/list.h (tools/check-shim-copies) */
/* clang-format off */
static inline void list_cut_before(struct list_head *list,
				   struct list_head *head,
				   struct list_head *entry)
{
	if (head->next == entry) {
		INIT_LIST_HEAD(list);
		return;
	}
	list->next = head->next;
	list->next->prev = list;
	list->prev = entry->prev;
	list->prev->next = list;
	head->next = entry;
	entry->prev = head;
}

static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev,
				 struct list_head *next)
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;

	first->prev = prev;
	prev->next = first;

	last->next = next;
	next->prev = last;
}

static inline void list_splice(const struct list_head *list,
				struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

static inline void list_splice_tail(struct list_head *list,
				struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}
/* clang-format on */

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member) \
	(!list_empty(ptr) ? list_first_entry(ptr, type, member) : NULL)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&pos->member == (head))
#define list_prepare_entry(pos, head, member) \
	((pos) ?: list_entry(head, __typeof__(*pos), member))
#define list_for_each(pos, head) \
	for (pos = (head)->next; !list_is_head(pos, (head)); pos = pos->next)
#define list_for_each_continue(pos, head) \
	for (pos = pos->next; !list_is_head(pos, (head)); pos = pos->next)
#define list_for_each_prev(pos, head) \
	for (pos = (head)->prev; !list_is_head(pos, (head)); pos = pos->prev)
#define list_for_each_safe(pos, n, head)                                    \
	for (pos = (head)->next, n = pos->next; !list_is_head(pos, (head)); \
	     pos = n, n = pos->next)
#define list_for_each_prev_safe(pos, n, head)                               \
	for (pos = (head)->prev, n = pos->prev; !list_is_head(pos, (head)); \
	     pos = n, n = pos->prev)
#define list_for_each_entry(pos, head, member)                       \
	for (pos = list_first_entry(head, __typeof__(*pos), member); \
	     !list_entry_is_head(pos, head, member);                 \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)              \
	for (pos = list_last_entry(head, __typeof__(*pos), member); \
	     !list_entry_is_head(pos, head, member);                \
	     pos = list_prev_entry(pos, member))
#define list_for_each_entry_continue(pos, head, member) \
	for (pos = list_next_entry(pos, member);        \
	     !list_entry_is_head(pos, head, member);    \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_from(pos, head, member)    \
	for (; !list_entry_is_head(pos, head, member); \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)               \
	for (pos = list_first_entry(head, __typeof__(*pos), member), \
	    n = list_next_entry(pos, member);                        \
	     !list_entry_is_head(pos, head, member);                 \
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)      \
	for (pos = list_last_entry(head, __typeof__(*pos), member), \
	    n = list_prev_entry(pos, member);                       \
	     !list_entry_is_head(pos, head, member);                \
	     pos = n, n = list_prev_entry(n, member))

static inline size_t list_count_nodes(struct list_head *head)
{
	struct list_head *pos;
	size_t count = 0;

	list_for_each(pos, head)
		count++;
	return count;
}

/* hlist: the kernel's singly headed lists. */
/* clang-format off */
#define HLIST_HEAD_INIT		{ .first = NULL }
/* clang-format on */
#define HLIST_HEAD(name) struct hlist_head name = { .first = NULL }
#define INIT_HLIST_HEAD(ptr) ((ptr)->first = NULL)

/* Copied from include/linux/list.h (tools/check-shim-copies) */
/* clang-format off */
static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	h->next = NULL;
	h->pprev = NULL;
}

static inline int hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

static inline int hlist_unhashed_lockless(const struct hlist_node *h)
{
	return !READ_ONCE(h->pprev);
}

static inline int hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
}

static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	n->next = LIST_POISON1;
	n->pprev = LIST_POISON2;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	WRITE_ONCE(n->next, first);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
	WRITE_ONCE(h->first, n);
	WRITE_ONCE(n->pprev, &h->first);
}
/* clang-format on */

#define hlist_entry(ptr, type, member) container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member)                          \
	({                                                           \
		__typeof__(ptr) ____ptr = (ptr);                     \
		____ptr ? hlist_entry(____ptr, type, member) : NULL; \
	})
#define hlist_for_each(pos, head) \
	for (pos = (head)->first; pos; pos = pos->next)
#define hlist_for_each_safe(pos, n, head)                \
	for (pos = (head)->first; pos && ({              \
					  n = pos->next; \
					  1;             \
				  });                    \
	     pos = n)
#define hlist_for_each_entry(pos, head, member)                        \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), \
				    member);                           \
	     pos; pos = hlist_entry_safe((pos)->member.next,           \
					 __typeof__(*(pos)), member))
#define hlist_for_each_entry_safe(pos, n, head, member)                       \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member); \
	     pos && ({                                                        \
		     n = pos->member.next;                                    \
		     1;                                                       \
	     });                                                              \
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

#endif
