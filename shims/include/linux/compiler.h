/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/compiler.h, compiler_types.h, compiler_attributes.h. */
#ifndef SHIM_LINUX_COMPILER_H
#define SHIM_LINUX_COMPILER_H

#include <stddef.h>
#include <sim/explore.h>

/*
 * The kernel builds with gnu_inline semantics (compiler_types.h): a plain
 * "inline" function with external linkage is an external definition.
 * raise_softirq_irqoff() in kernel/softirq.c relies on it.
 */
#define inline \
	inline __attribute__((__gnu_inline__)) __attribute__((__unused__))
#define __inline__ inline
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __cold __attribute__((__cold__))
#define __latent_entropy
#define __init
#define __exit
#define __initdata
#define __read_mostly
#define __ro_after_init
#define __rcu
#define __percpu
#define __iomem
#define __user
#define __force
#define __must_check __attribute__((__warn_unused_result__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __acquires(x)
#define __releases(x)
#define __must_hold(x)
#define notrace
#define fallthrough __attribute__((__fallthrough__))

#define SMP_CACHE_BYTES 64
#define ____cacheline_aligned __aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __cacheline_aligned_in_smp ____cacheline_aligned
#define __cacheline_aligned ____cacheline_aligned

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" : : : "memory")

/*
 * READ_ONCE()/WRITE_ONCE(): volatile accesses, as in the kernel.  They are
 * also the points where another simulated CPU could observe the value
 * (none when it is on the accessing task's own stack: sim/explore.h), and
 * under x86-TSO they go through the CPU's store buffer.
 */
#define READ_ONCE(x)              \
	(__EXPLORE_HOOK_AT(&(x)), \
	 *(const volatile __typeof__(x) *)__EXPLORE_TSO_SRC(&(x), sizeof(x)))
#define WRITE_ONCE(x, val)                                            \
	do {                                                          \
		__EXPLORE_HOOK_AT(&(x));                              \
		{                                                     \
			__typeof__(x) __wo_val = (val);               \
                                                                      \
			*(volatile __typeof__(x) *)__EXPLORE_TSO_DST( \
				&(x), sizeof(x)) = __wo_val;          \
		}                                                     \
	} while (0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr)-offsetof(type, member)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

#endif
