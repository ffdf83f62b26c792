/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for asm/barrier.h, asm/cmpxchg.h and linux/atomic.h.  One simulated
 * CPU runs at a time, so these only need the compiler's ordering; they are
 * kept as real atomics so that the code reads as in the kernel.
 */
#ifndef SHIM_ASM_BARRIER_H
#define SHIM_ASM_BARRIER_H

#include <linux/compiler.h>

/*
 * Under the explorer's x86-TSO mode (sim/explore.h) smp_mb() and the locked
 * operations drain the CPU's store buffer; smp_rmb()/smp_wmb() are compiler
 * barriers on x86; a release store drains too (stronger than x86, which
 * only keeps it behind the older stores).
 */
#define smp_mb() (__EXPLORE_TSO_MB(), __atomic_thread_fence(__ATOMIC_SEQ_CST))
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_store_release(p, v)                           \
	do {                                              \
		__EXPLORE_HOOK();                         \
		__EXPLORE_TSO_MB();                       \
		__atomic_store_n(p, v, __ATOMIC_RELEASE); \
	} while (0)
#define smp_load_acquire(p)                                                 \
	(__EXPLORE_HOOK(),                                                  \
	 __atomic_load_n((__typeof__(p))__EXPLORE_TSO_SRC(p, sizeof(*(p))), \
			 __ATOMIC_ACQUIRE))

#define cmpxchg(ptr, old, new)                                       \
	({                                                           \
		__typeof__(*(ptr)) __old = (old);                    \
		__EXPLORE_HOOK();                                    \
		__EXPLORE_TSO_MB();                                  \
		__atomic_compare_exchange_n(ptr, &__old, new, false, \
					    __ATOMIC_SEQ_CST,        \
					    __ATOMIC_SEQ_CST);       \
		__old;                                               \
	})
#define try_cmpxchg(ptr, pold, new)                                           \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(),                                \
	 __atomic_compare_exchange_n(ptr, pold, new, false, __ATOMIC_SEQ_CST, \
				     __ATOMIC_SEQ_CST))
#define xchg(ptr, v)                           \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 __atomic_exchange_n(ptr, v, __ATOMIC_SEQ_CST))

#define ATOMIC_INIT(i) \
	{              \
		(i)    \
	}
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_set_release(v, i) smp_store_release(&(v)->counter, (i))
#define atomic_inc(v)                          \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 __atomic_fetch_add(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_dec(v)                          \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 __atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_SEQ_CST))

#endif
