/* SPDX-License-Identifier: GPL-2.0 */
/* Stands for include/linux/err.h: error values in pointers. */
#ifndef SHIM_LINUX_ERR_H
#define SHIM_LINUX_ERR_H

#include <stdbool.h>

/* As include/linux/err.h defines them. */
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) \
	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

#endif
