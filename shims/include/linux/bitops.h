/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/bitops.h and asm/bitops.h.  The atomic variants
 * use the compiler's atomics; the __ variants are plain read-modify-write,
 * as on x86.
 */
#ifndef SHIM_LINUX_BITOPS_H
#define SHIM_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG	(8 * (int)sizeof(long))
#define BIT(nr)		(1UL << (nr))
#define BIT_MASK(nr)	(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)	((nr) / BITS_PER_LONG)

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool __test_and_set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG));
}

#endif
