/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/types.h. */
#ifndef SHIM_LINUX_TYPES_H
#define SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u32 __u32;
typedef u16 __be16;
typedef unsigned int gfp_t;
typedef s64 ktime_t;

/* Copied from include/linux/types.h (tools/check-shim-copies) */
/* clang-format off */
typedef struct {
	int counter;
} atomic_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};
/* clang-format on */

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

#endif
