// SPDX-License-Identifier: GPL-2.0
/*
 * Differential scenarios: the same setups as the KUnit cases of
 * kunit/dev_backlog_kunit.c (V17, V18, V20, V21, V25), printing the same
 * observables as "napitest-diff" lines.  tools/differential compares them
 * with the KUnit run (one CPU, threads on, no RPS: the norps-threads
 * configuration here), so a shim that drifts from the kernel shows up.
 * Each case also asserts the invariant, as its KUnit counterpart does.
 */
#include "support/napitest.h"

static struct net_device test_dev = { .name = "napitest", .running = true };

/* Whether this configuration boots with backlog threads (RT always does). */
#define WANT_THREADS \
	(IS_ENABLED(CONFIG_PREEMPT_RT) || napitest_thread_backlog_napi())

static int setup(void **state)
{
	(void)state;
	napitest_boot(1); /* UML is uniprocessor */
	sim_switch_cpu(0);
	return 0;
}

#define diff(fmt, ...) print_message("napitest-diff " fmt "\n", ##__VA_ARGS__)

/* The backlog's links in sd->poll_list. */
static int count_on(struct list_head *head, struct napi_struct *napi)
{
	struct list_head *pos;
	int n = 0;

	list_for_each(pos, head)
		n += pos == &napi->poll_list;
	return n;
}

static bool thread_sleeping(int cpu)
{
	struct task_struct *t = napitest_backlog_thread(cpu);

	return t && READ_ONCE(t->__state) == TASK_INTERRUPTIBLE;
}

static void v20_diff_boot_poll_list(void **state)
{
	struct list_head *l = &per_cpu(softnet_data, 0).backlog.poll_list;

	(void)state;
	diff("v20 initialised=%d empty=%d", l->next != NULL,
	     l->next == l && l->prev == l);
	assert_ptr_equal(l->next, l);
	assert_no_warn();
}

static void v17_diff_local_enqueue(void **state)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	bool was_sleeping, woken, pending, sched_threaded;
	unsigned int qtail = 0;
	int ret, on_list;

	(void)state;
	local_bh_disable();
	was_sleeping = thread_sleeping(0);
	ret = enqueue_to_backlog(sim_skb_alloc(&test_dev), 0, &qtail);
	on_list = count_on(&sd->poll_list, &sd->backlog);
	pending = local_softirq_pending() & BIT(NET_RX_SOFTIRQ);
	sched_threaded =
		test_bit(NAPI_STATE_SCHED_THREADED, &sd->backlog.state);
	woken = was_sleeping && !thread_sleeping(0);
	local_bh_enable();

	diff("v17 ret=%d on_list=%d pending=%d sched_threaded=%d woken=%d", ret,
	     on_list, pending, sched_threaded, woken);
	assert_int_equal(on_list, 1);
	assert_cpu_count(0, skbs_delivered, 1);
	assert_no_warn();
}

static void v18_diff_completion(void **state)
{
	unsigned int qtail = 0;
	unsigned long st;
	int ret;

	(void)state;
	local_bh_disable();
	ret = enqueue_to_backlog(sim_skb_alloc(&test_dev), 0, &qtail);
	local_bh_enable(); /* process_backlog() completes */
	sim_run_all(1000);
	st = READ_ONCE(this_cpu_ptr(&softnet_data)->backlog.state);

	diff("v18 ret=%d threaded=%d sched=%d sched_threaded=%d", ret,
	     !!(st & NAPIF_STATE_THREADED), !!(st & NAPIF_STATE_SCHED),
	     !!(st & NAPIF_STATE_SCHED_THREADED));
	assert_cpu_count(0, skbs_delivered, 1);
	assert_false(st & NAPIF_STATE_SCHED);
	assert_int_equal(!!(st & NAPIF_STATE_THREADED), WANT_THREADS);
	assert_no_warn();
}

static void v21_diff_threads(void **state)
{
	struct task_struct *t = napitest_backlog_thread(0);
	bool own_thread, threaded;
	int threads = 0;

	(void)state;
#if EXTRACTED_HAVE_use_backlog_threads
	threads = use_backlog_threads();
#endif
	own_thread = t && !strcmp(t->comm, "backlog_napi/0") && t->cpu == 0;
	threaded = test_bit(NAPI_STATE_THREADED,
			    &per_cpu(softnet_data, 0).backlog.state);
	diff("v21 threads=%d per_cpu=%d cpu0_threaded=%d", threads, own_thread,
	     threaded);
	assert_int_equal(threads, WANT_THREADS);
	assert_int_equal(own_thread, WANT_THREADS);
	assert_int_equal(threaded, WANT_THREADS);
	assert_no_warn();
}

static void v25_diff_kick_with_sched_set(void **state)
{
	(void)state;
#if EXTRACTED_HAVE_kick_defer_list_purge
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned int qtail = 0;
	bool sched_threaded;
	int on_list;

	local_bh_disable();
	assert_int_equal(enqueue_to_backlog(sim_skb_alloc(&test_dev), 0,
					    &qtail),
			 NET_RX_SUCCESS);
	kick_defer_list_purge(sd, smp_processor_id());
	on_list = count_on(&sd->poll_list, &sd->backlog);
	sched_threaded =
		test_bit(NAPI_STATE_SCHED_THREADED, &sd->backlog.state);
	local_bh_enable();

	diff("v25 on_list=%d sched_threaded=%d", on_list, sched_threaded);
	assert_int_equal(on_list, 1);
	assert_false(sched_threaded);
	assert_no_warn(); /* CONFIG_DEBUG_LIST: no double list_add() */
#else
	fail_msg("kick_defer_list_purge() is not in this tree (%s)",
		 EXTRACTED_TREE);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v20_diff_boot_poll_list, setup),
		cmocka_unit_test_setup(v17_diff_local_enqueue, setup),
		cmocka_unit_test_setup(v18_diff_completion, setup),
		cmocka_unit_test_setup(v21_diff_threads, setup),
		cmocka_unit_test_setup(v25_diff_kick_with_sched_set, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
