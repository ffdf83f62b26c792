/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/bitops.h and asm/bitops.h.  The atomic variants
 * use the compiler's atomics; the __ variants are plain read-modify-write,
 * as on x86.
 */
#ifndef SHIM_LINUX_BITOPS_H
#define SHIM_LINUX_BITOPS_H

#include <linux/types.h>
#include <sim/explore.h>

#define BITS_PER_LONG (8 * (int)sizeof(long))
#define BIT(nr) (1UL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)

static inline void sim_set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void sim_clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline bool sim_test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

static inline bool sim_test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

static inline void sim___set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void sim___clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool sim___test_and_set_bit(long nr, volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline bool sim___test_and_clear_bit(long nr,
					    volatile unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old & ~BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline void sim_change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void sim___change_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline bool sim_test_and_change_bit(long nr,
					   volatile unsigned long *addr)
{
	return __atomic_fetch_xor(addr + BIT_WORD(nr), BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

/* The _lock/_unlock variants: acquire and release ordering. */
static inline bool sim_test_and_set_bit_lock(long nr,
					     volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr),
				 __ATOMIC_ACQUIRE) &
	       BIT_MASK(nr);
}

static inline void sim_clear_bit_unlock(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_RELEASE);
}

static inline bool sim_test_bit(long nr, const volatile unsigned long *addr)
{
	return 1UL & (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG));
}

/*
 * Each operation is a scheduling point of the interleaving explorer
 * (sim/explore.h), located at the caller's file:line; a no-op otherwise.
 * Under x86-TSO each but test_bit() drains the CPU's store buffer first:
 * the atomic ones are locked instructions; the __ ones write memory
 * directly, and must not pass the stores still buffered.
 */
#define set_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_set_bit(nr, addr))
#define clear_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_clear_bit(nr, addr))
#define test_and_set_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_test_and_set_bit(nr, addr))
#define test_and_clear_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_test_and_clear_bit(nr, addr))
#define __set_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim___set_bit(nr, addr))
#define __clear_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim___clear_bit(nr, addr))
#define __test_and_set_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim___test_and_set_bit(nr, addr))
#define __test_and_clear_bit(nr, addr)         \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 sim___test_and_clear_bit(nr, addr))
#define change_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_change_bit(nr, addr))
#define __change_bit(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim___change_bit(nr, addr))
#define test_and_change_bit(nr, addr)          \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 sim_test_and_change_bit(nr, addr))
#define test_and_set_bit_lock(nr, addr)        \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), \
	 sim_test_and_set_bit_lock(nr, addr))
#define clear_bit_unlock(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_clear_bit_unlock(nr, addr))
#define __clear_bit_unlock(nr, addr) \
	(__EXPLORE_HOOK(), __EXPLORE_TSO_MB(), sim_clear_bit_unlock(nr, addr))
#define test_bit(nr, addr) (__EXPLORE_HOOK(), sim_test_bit(nr, addr))

#define BITS_PER_BYTE 8
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

/* asm/bitops.h's bit searches in one word (__ffs/__fls: word != 0). */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

static inline unsigned long ffz(unsigned long word)
{
	return __ffs(~word);
}

/* ffs(): the C library's (strings.h) is the kernel's. */
#include <strings.h>
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

#endif
