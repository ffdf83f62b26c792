/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/filter.h's BPF network context (v6.11+):
 * net_rx_action() and napi_threaded_poll_loop() install one per task for
 * the duration of a poll.  As there, bpf_net_ctx_set() installs it only if
 * the task has none (a nested caller gets NULL and must not clear it), and
 * bpf_net_ctx_clear() removes it.  No XDP redirect runs in the simulator,
 * so only kern_flags of the redirect info is kept.
 */
#ifndef SHIM_LINUX_FILTER_H
#define SHIM_LINUX_FILTER_H

#include <linux/sched.h>

struct bpf_redirect_info {
	u32 kern_flags;
};

struct bpf_net_context {
	struct bpf_redirect_info ri;
};

static inline struct bpf_net_context *
bpf_net_ctx_set(struct bpf_net_context *bpf_net_ctx)
{
	struct task_struct *tsk = current;

	if (tsk->bpf_net_context != NULL)
		return NULL;
	bpf_net_ctx->ri.kern_flags = 0;

	tsk->bpf_net_context = bpf_net_ctx;
	return bpf_net_ctx;
}

static inline void bpf_net_ctx_clear(struct bpf_net_context *bpf_net_ctx)
{
	if (bpf_net_ctx)
		current->bpf_net_context = NULL;
}

static inline struct bpf_net_context *bpf_net_ctx_get(void)
{
	return current->bpf_net_context;
}

/* include/linux/filter.h: no XDP program, so no map to flush. */
#define xdp_do_check_flushed(napi) \
	do {                       \
		(void)(napi);      \
	} while (0)

#endif
