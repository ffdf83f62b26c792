// SPDX-License-Identifier: GPL-2.0
/*
 * V28, the seed-rt-softirq patch (CONFIG_RT_SOFTIRQ_OPTIMIZATION): with an RT task current,
 * the tree's own handle_softirqs() (via __do_softirq(), extracted from
 * kernel/softirq.c) leaves NET_TX, NET_RX, BLOCK and IRQ_POLL pending and
 * wakes ksoftirqd; the other vectors still run; no pending bit is lost.
 *
 * The RT task is a simulated SCHED_FIFO kthread (task_struct::rt) that
 * raises the vectors and enters __do_softirq() with IRQs off, as
 * irq_exit() or local_bh_enable() would on its CPU.
 */
#include <string.h> /* ffs(), as the kernel's bitops provide it */
#include <kernel_prelude.h>

/* include/linux/sched/rt.h: rt_task(), a SCHED_FIFO/RR task. */
#define rt_task(p) ((p)->rt)

#include "support/napitest.h"

#define LONG_MASK                                                         \
	(BIT(NET_TX_SOFTIRQ) | BIT(NET_RX_SOFTIRQ) | BIT(BLOCK_SOFTIRQ) | \
	 BIT(IRQ_POLL_SOFTIRQ))

/* Every vector's handler: counts its runs on this CPU. */
static unsigned long handler_runs[NR_SOFTIRQS];

static void count_action(struct softirq_action *h)
{
	handler_runs[h - softirq_vec]++;
}

/* What the task saw around __do_softirq(). */
struct defer_case {
	bool rt;
	unsigned long raise;
	unsigned long pending_after;
	unsigned long runs_in_do_softirq[NR_SOFTIRQS];
	bool ksoftirqd_was_running;
	bool ksoftirqd_woken;
};

static int raise_and_do_softirq(void *data)
{
	struct defer_case *dc = data;
	struct task_struct *ksd = this_cpu_read(ksoftirqd);
	unsigned long bits = dc->raise;

	local_irq_disable();
	while (bits) {
		int nr = __builtin_ctzl(bits);

		bits &= ~BIT(nr);
		__raise_softirq_irqoff(nr); /* no wakeup of its own */
	}
	dc->ksoftirqd_was_running = task_is_running(ksd);
	__do_softirq();
	dc->pending_after = local_softirq_pending();
	memcpy(dc->runs_in_do_softirq, handler_runs, sizeof(handler_runs));
	dc->ksoftirqd_woken = task_is_running(ksd);
	local_irq_enable();
	return 0;
}

/* Boot, hand every vector to count_action(), run the task on CPU 0 once. */
static void run_case(struct defer_case *dc)
{
	struct task_struct *p;
	int nr;

#if !EXTRACTED_HAVE_softirq_deferred_for_rt
	fail_msg("softirq_deferred_for_rt() is not in this tree (%s)",
		 EXTRACTED_TREE);
#endif
	napitest_boot(2);
	for (nr = 0; nr < NR_SOFTIRQS; nr++)
		softirq_vec[nr].action = count_action;
	memset(handler_runs, 0, sizeof(handler_runs));
	p = sim_task_create(raise_and_do_softirq, dc, 0, "rt-task");
	p->rt = dc->rt;
	wake_up_process(p);
	assert_int_equal(sim_run_cpu(0, 1), 1); /* the RT task, only */
	assert_true(p->exited);
	assert_false(dc->ksoftirqd_was_running);
}

static void v28_rt_current_leaves_long_softirqs_pending(void **state)
{
	struct defer_case dc = { .rt = true, .raise = LONG_MASK };

	run_case(&dc);
	assert_int_equal(dc.runs_in_do_softirq[NET_TX_SOFTIRQ], 0);
	assert_int_equal(dc.runs_in_do_softirq[NET_RX_SOFTIRQ], 0);
	assert_int_equal(dc.runs_in_do_softirq[BLOCK_SOFTIRQ], 0);
	assert_int_equal(dc.runs_in_do_softirq[IRQ_POLL_SOFTIRQ], 0);
	assert_int_equal(dc.pending_after, LONG_MASK);
	assert_no_warn();
}

static void v28_rt_current_wakes_ksoftirqd_for_deferred_only(void **state)
{
	/* Only deferred work: nothing is left in 'pending' after masking. */
	struct defer_case dc = { .rt = true, .raise = BIT(NET_RX_SOFTIRQ) };

	run_case(&dc);
	assert_int_equal(dc.pending_after, BIT(NET_RX_SOFTIRQ));
	assert_true(dc.ksoftirqd_woken);
	assert_no_warn();
}

static void v28_rt_current_still_runs_other_softirqs(void **state)
{
	struct defer_case dc = {
		.rt = true,
		.raise = BIT(TIMER_SOFTIRQ) | BIT(TASKLET_SOFTIRQ) |
			 BIT(NET_RX_SOFTIRQ),
	};

	run_case(&dc);
	assert_int_equal(dc.runs_in_do_softirq[TIMER_SOFTIRQ], 1);
	assert_int_equal(dc.runs_in_do_softirq[TASKLET_SOFTIRQ], 1);
	assert_int_equal(dc.runs_in_do_softirq[NET_RX_SOFTIRQ], 0);
	assert_int_equal(dc.pending_after, BIT(NET_RX_SOFTIRQ));
	assert_no_warn();
}

static void v28_deferred_softirqs_run_in_ksoftirqd_none_lost(void **state)
{
	struct defer_case dc = {
		.rt = true,
		.raise = LONG_MASK | BIT(TIMER_SOFTIRQ),
	};
	int nr;

	run_case(&dc);
	/* Now ksoftirqd (not RT) gets the CPU and runs what was deferred. */
	sim_run_cpu(0, 100);
	for (nr = 0; nr < NR_SOFTIRQS; nr++)
		assert_int_equal(handler_runs[nr], !!(dc.raise & BIT(nr)));
	assert_int_equal(local_softirq_pending(), 0);
	assert_no_warn();
}

static void v28_non_rt_current_runs_every_softirq(void **state)
{
	struct defer_case dc = {
		.rt = false,
		.raise = LONG_MASK | BIT(TIMER_SOFTIRQ),
	};
	int nr;

	run_case(&dc);
	for (nr = 0; nr < NR_SOFTIRQS; nr++)
		assert_int_equal(dc.runs_in_do_softirq[nr],
				 !!(dc.raise & BIT(nr)));
	assert_int_equal(dc.pending_after, 0);
	assert_false(dc.ksoftirqd_woken);
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v28_rt_current_leaves_long_softirqs_pending),
		cmocka_unit_test(
			v28_rt_current_wakes_ksoftirqd_for_deferred_only),
		cmocka_unit_test(v28_rt_current_still_runs_other_softirqs),
		cmocka_unit_test(
			v28_deferred_softirqs_run_in_ksoftirqd_none_lost),
		cmocka_unit_test(v28_non_rt_current_runs_every_softirq),
	};

	return cmocka_run_group_tests_name("seed-rt-softirq (V28)", tests, NULL,
					   NULL);
}
