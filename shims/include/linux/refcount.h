/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/refcount.h: a plain counter (one simulated CPU
 * runs at a time), no saturation.
 */
#ifndef SHIM_LINUX_REFCOUNT_H
#define SHIM_LINUX_REFCOUNT_H

typedef struct {
	int refs;
} refcount_t;

#define refcount_set(r, n) ((r)->refs = (n))
#define refcount_read(r) ((r)->refs)
#define refcount_inc(r) ((r)->refs++)
#define refcount_dec_and_test(r) (--(r)->refs == 0)

#endif
