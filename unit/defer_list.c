// SPDX-License-Identifier: GPL-2.0
/*
 * The skb defer_list: skb_attempt_defer_free() (net/core/skbuff.c), its
 * kick (kick_defer_list_purge() / the defer csd) and the flushes in
 * net_rx_action() and the threaded poll.  Patches 01 (revert of the -rt
 * "Avoid the IPI to free the" workaround), 02 (no irqsave in
 * skb_defer_free_flush()), 07 (DEBUG_NET checks), 08 (defer_lock BH-only),
 * 10 (threaded poll flushes the defer_list) and 13 (the kick wakes the
 * backlog thread instead of sending a csd).
 *
 * The matrix is built with CONFIG_DEBUG_NET (CMakeLists.txt), as the
 * kernel the checks of patch 07 are meant for.
 */
#include "support/napitest.h"

/* Backlog threads are used: always on RT, on request (thread_backlog_napi) else. */
#define THREADS_ON \
	(IS_ENABLED(CONFIG_PREEMPT_RT) || napitest_thread_backlog_napi())

#define DEFER_LOCK "&sd->defer_lock"

static struct net_device test_dev = { .name = "sim0", .running = true };

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	return 0;
}

static struct sk_buff *alloc_on(int cpu)
{
	int prev = sim_switch_cpu(cpu);
	struct sk_buff *skb = sim_skb_alloc(&test_dev);

	sim_switch_cpu(prev);
	return skb;
}

/*
 * From CPU 0 (task context, as tcp_recvmsg()), defer n skbs allocated on
 * CPU 1.  skb_attempt_defer_free() kicks when defer_count reaches
 * sysctl_skb_defer_max / 2, i.e. on the (defer_max / 2 + 1)-th skb.
 */
static void defer_from_cpu0(int n)
{
	int i;

	sim_switch_cpu(0);
	for (i = 0; i < n; i++)
		skb_attempt_defer_free(alloc_on(1));
}

static int kick_count(void)
{
	return (int)(READ_ONCE(sysctl_skb_defer_max) >> 1) + 1;
}

static void assert_defer_list_flushed(int cpu, int nr_freed)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);

	assert_defer_list_empty(cpu);
	assert_int_equal(READ_ONCE(sd->defer_count), 0);
	assert_cpu_count(cpu, skbs_freed, nr_freed);
}

/*
 * V24 (patch 13a): with backlog threads, the half-capacity kick of CPU 1's
 * defer_list sends no csd; it schedules CPU 1's backlog NAPI, which wakes
 * CPU 1's backlog thread, and the thread frees the skbs on CPU 1.  Without
 * threads (the rps configuration) the kick is one csd to CPU 1 (V1 form)
 * whose softirq frees them.
 */
static void v24_defer_kick_uses_backlog_thread(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	unsigned long wakeups = sim_count(1, wakeups);
	int n = kick_count();

	(void)state;
	if (THREADS_ON)
		require_definition(use_backlog_threads);
#if EXTRACTED_HAVE_use_backlog_threads
	assert_int_equal(use_backlog_threads(), THREADS_ON);
#endif
	defer_from_cpu0(n - 1);
	assert_int_equal(sim_total().ipis, 0);
	assert_cpu_count(1, wakeups, wakeups);
	assert_int_equal(READ_ONCE(sd->defer_count), n - 1);

	defer_from_cpu0(1); /* the kick */
	if (THREADS_ON) {
#if EXTRACTED_HAVE_backlog_napi
		struct task_struct *thread = per_cpu(backlog_napi, 1);

		assert_int_equal(sim_total().ipis, 0);
		assert_false(sim_csd_pending(1));
		/* The kick owns NAPI_STATE_SCHED before scheduling (V25). */
		assert_napi_state_set(&sd->backlog, NAPI_STATE_SCHED);
		assert_napi_state_set(&sd->backlog, NAPI_STATE_SCHED_THREADED);
		/* V25: not on a poll_list while SCHED_THREADED is set. */
		assert_true(list_empty(&sd->backlog.poll_list));
		assert_cpu_count(1, wakeups, wakeups + 1);
		if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
			/* TTWU_QUEUE is off on RT: activated at once. */
			assert_true(thread->on_rq);
			assert_task_state(thread, TASK_RUNNING);
		} else {
			/* On idle CPU 1's wake list (ttwu_queue_wakelist()). */
			assert_task_state(thread, TASK_WAKING);
			assert_true(sim_call_queue_pending(1));
		}
#endif
	} else {
		/*
		 * The defer csd is queued on CPU 1; idle and polling, CPU 1
		 * is woken without an IPI (set_nr_if_polling()).
		 */
		assert_int_equal(sim_total().ipis, 0);
		assert_true(sim_csd_pending(1));
	}
	assert_int_equal(sim_total().skbs_freed, 0);

	sim_run_all(1000);
	assert_int_equal(sim_total().csd_run, THREADS_ON ? 0 : 1);
	assert_defer_list_flushed(1, n);
	assert_int_equal(sim_total().skbs_freed, n);
	assert_true(sim_lockdep_clean());
	assert_no_warn();
}

/*
 * trigger_rx_softirq() as the tree under test defines it, or NULL where it
 * is not a csd callback (the -rt workaround made it a work function).
 */
/* clang-format off */
#define csd_trigger_rx_softirq()					\
	_Generic(trigger_rx_softirq,					\
		 void (*)(void *): (smp_call_func_t)trigger_rx_softirq,	\
		 default: (smp_call_func_t)NULL)
/* clang-format on */

/*
 * V1 (patch 01): the defer csd callback, run on the owning CPU from the
 * IPI, raises NET_RX_SOFTIRQ there and clears defer_ipi_scheduled with a
 * release store, so that the next kick can send a csd again.  With the -rt
 * workaround (base, RT) trigger_rx_softirq() is a work function instead.
 */
static void v1_trigger_rx_softirq_rearms_defer_ipi(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	smp_call_func_t fn = csd_trigger_rx_softirq();

	(void)state;
	if (!fn)
		fail_msg("trigger_rx_softirq() is not a csd callback (%s)",
			 EXTRACTED_TREE);
	sim_switch_cpu(1);
	WRITE_ONCE(sd->defer_ipi_scheduled, 1);
	sim_hardirq_enter();
	fn(sd);
	assert_int_equal(smp_load_acquire(&sd->defer_ipi_scheduled), 0);
	assert_true(local_softirq_pending() & BIT(NET_RX_SOFTIRQ));
	assert_cpu_count(1, net_rx_raises, 1);
	sim_hardirq_exit();
	assert_int_equal(sim_total().ipis, 0);
	assert_no_warn();
}

/*
 * V1 (patch 01), csd form (no backlog threads): every half-capacity kick
 * sends exactly one csd to the owning CPU, also after a first kick's csd
 * has run (defer_ipi_scheduled was released).  The csd only raises
 * NET_RX (__raise_softirq_irqoff()): idle CPU 1's
 * flush_smp_call_function_queue() runs it in do_softirq(), and nothing
 * wakes ksoftirqd/1 (raise_softirq_irqoff() would, outside interrupt).
 */
static void v1_each_kick_sends_one_csd(void **state)
{
	int n = kick_count();
	unsigned long wakeups;

	(void)state;
	if (THREADS_ON)
		skip();
	defer_from_cpu0(n);
	/* Queued; CPU 1 idles polling: no IPI (set_nr_if_polling()). */
	assert_true(sim_csd_pending(1));
	assert_cpu_count(1, ipis, 0);
	wakeups = sim_count(1, wakeups);
	sim_run_all(1000);
	assert_cpu_count(1, csd_run, 1);
	assert_cpu_count_delta(1, wakeups, wakeups, 0);
	assert_defer_list_flushed(1, n);

	defer_from_cpu0(n);
	assert_true(sim_csd_pending(1));
	assert_cpu_count(1, ipis, 0);
	sim_run_all(1000);
	assert_cpu_count(1, csd_run, 2);
	assert_defer_list_flushed(1, 2 * n);
	assert_no_warn();
}

/*
 * V3 (patch 02): skb_defer_free_flush() takes defer_lock with IRQs
 * enabled (no irqsave) and leaves them enabled.  (On RT, spin_lock_irqsave()
 * never disables IRQs; the test is meaningful for !RT.)
 */
static void v3_flush_keeps_irqs_enabled(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	struct sk_buff *skb = alloc_on(1);

	(void)state;
	/* Queue by hand: only the flush takes defer_lock in this test. */
	skb->next = sd->defer_list;
	WRITE_ONCE(sd->defer_list, skb);
	WRITE_ONCE(sd->defer_count, 1);

	sim_switch_cpu(1);
	local_bh_disable(); /* as in net_rx_action() / the thread */
	assert_false(irqs_disabled());
	skb_defer_free_flush(sd);
	assert_false(irqs_disabled());
	local_bh_enable();

	assert_true(sim_lockdep_class_used(DEFER_LOCK, "any"));
	if (!sim_lockdep_class_used(DEFER_LOCK, "irqs-on"))
		fail_msg(
			"skb_defer_free_flush() took defer_lock with IRQs off");
	assert_defer_list_flushed(1, 1);
	assert_no_warn();
}

/*
 * V10 (patch 08): defer_lock is BH-safe only.  skb_attempt_defer_free()
 * from task context holds it with BH disabled and IRQs untouched; it is
 * never taken in hardirq (the csd or the thread only raise/schedule), and
 * the context checker stays clean once the remote CPU flushed.
 */
static void v10_defer_lock_bh_only(void **state)
{
	(void)state;
	defer_from_cpu0(kick_count());
	assert_true(sim_lockdep_class_used(DEFER_LOCK, "any"));
	if (sim_lockdep_class_used(DEFER_LOCK, "bh-on"))
		fail_msg("defer_lock taken with BH enabled");
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) &&
	    !sim_lockdep_class_used(DEFER_LOCK, "irqs-on"))
		fail_msg(
			"skb_attempt_defer_free() disabled IRQs around defer_lock");
	assert_false(irqs_disabled());

	sim_run_all(1000);
	assert_defer_list_flushed(1, kick_count());
	if (sim_lockdep_class_used(DEFER_LOCK, "hardirq"))
		fail_msg("defer_lock taken in hardirq");
	if (!sim_lockdep_clean())
		fail_msg("%s", sim_lockdep_report());
	assert_no_warn();
}

/* V11: a threaded NAPI with nothing to receive. */
static int idle_poll(struct napi_struct *n, int budget)
{
	(void)budget;
	napi_complete_done(n, 0);
	return 0;
}

/*
 * V11 (patch 10): one iteration of a threaded NAPI poll on CPU 1 leaves
 * CPU 1's defer_list NULL and defer_count 0, without NET_RX_SOFTIRQ on CPU
 * 1 (the flush is the thread's own).
 */
static void v11_threaded_poll_flushes_defer_list(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	static struct napi_struct napi;
	unsigned long raises;

	(void)state;
	memset(&napi, 0, sizeof(napi));
	INIT_LIST_HEAD(&napi.poll_list);
	napi.dev = (void *)&test_dev;
	napi.poll = idle_poll;
	napi.weight = 64;
	napi.thread = sim_task_create(napi_threaded_poll, &napi, 1,
				      "napi/sim0-%d", 0);
	wake_up_process(napi.thread); /* kthread_run() */
	set_bit(NAPI_STATE_THREADED, &napi.state);
	sim_run_all(1000); /* the thread waits for work */

	defer_from_cpu0(3); /* below the kick */
	assert_int_equal(READ_ONCE(sd->defer_count), 3);
	assert_int_equal(sim_total().ipis, 0);

	sim_switch_cpu(1);
	raises = sim_count(1, net_rx_raises);
	sim_hardirq_enter(); /* the device interrupt */
	napi_schedule(&napi);
	sim_hardirq_exit();
	assert_cpu_count(1, net_rx_raises, raises);
	sim_run_cpu(1, 1000);

	assert_true(napi.thread->switches >= 2);
	assert_napi_state_clear(&napi, NAPI_STATE_SCHED);
	assert_defer_list_flushed(1, 3);
	assert_cpu_count(1, net_rx_raises, raises);
	assert_no_warn();
}

/*
 * V9 (patch 07, DEBUG_NET): an skb deferred to a remote CPU must have
 * dropped its dst and destructor: each WARNs once.
 */
/* Exactly one WARN, and it names what: the message if not. */
static void assert_one_warn_about(const char *what)
{
	assert_int_equal(sim_total().warns, 1);
	if (!strstr(sim_warns[0].msg, what))
		fail_msg("the WARN was '%s', not about %s", sim_warns[0].msg,
			 what);
}

static void v9_remote_dst_warns_once(void **state)
{
	struct sk_buff *a = alloc_on(1), *b = alloc_on(1);

	(void)state;
	a->_skb_refdst = 1;
	b->_skb_refdst = 1;
	sim_switch_cpu(0);
	skb_attempt_defer_free(a);
	skb_attempt_defer_free(b);
	assert_one_warn_about("skb_dst");
}

static void remote_destructor(struct sk_buff *skb)
{
	(void)skb;
}

static void v9_remote_destructor_warns_once(void **state)
{
	struct sk_buff *a = alloc_on(1), *b = alloc_on(1);

	(void)state;
	a->destructor = remote_destructor;
	b->destructor = remote_destructor;
	sim_switch_cpu(0);
	skb_attempt_defer_free(a);
	skb_attempt_defer_free(b);
	assert_one_warn_about("destructor");
}

/* V9: the local path (freed at once on the allocating CPU) does not check. */
static void v9_local_path_silent(void **state)
{
	struct sk_buff *skb = alloc_on(0);

	(void)state;
	skb->_skb_refdst = 1;
	skb->destructor = remote_destructor;
	sim_switch_cpu(0);
	skb_attempt_defer_free(skb);
	assert_int_equal(skb->freed_on_cpu, 0);
	assert_no_warn();
}

/*
 * V25 (patch 13b): a kick that finds CPU 1's backlog NAPI already
 * scheduled (NAPI_STATE_SCHED set by its owner) does not schedule it a
 * second time: no SCHED_THREADED, no wakeup, no poll_list insertion.
 */
static void v25_kick_skips_scheduled_backlog(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	unsigned long wakeups = sim_count(1, wakeups);

	(void)state;
	if (!THREADS_ON)
		skip();
	require_definition(kick_defer_list_purge);
	set_bit(NAPI_STATE_SCHED, &sd->backlog.state);
	defer_from_cpu0(kick_count());
	assert_int_equal(sim_total().ipis, 0);
	assert_napi_state_clear(&sd->backlog, NAPI_STATE_SCHED_THREADED);
	assert_cpu_count(1, wakeups, wakeups);
	assert_true(list_empty(&sd->backlog.poll_list));
	assert_int_equal(READ_ONCE(sd->defer_count), kick_count());
	assert_no_warn();
}

/*
 * V54: an skb whose allocating CPU has gone offline is freed at once on
 * the freeing CPU (skb_attempt_defer_free()'s nodefer path), not put on
 * the offline CPU's defer_list, which nothing flushes while it is down.
 */
static void v54_offline_alloc_cpu_frees_locally(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 1);
	struct sk_buff *skb = alloc_on(1);

	(void)state;
	sim_cpu_down(1, 0);
	sim_switch_cpu(0);
	skb_attempt_defer_free(skb);
	assert_int_equal(skb->freed_on_cpu, 0);
	assert_null(READ_ONCE(sd->defer_list));
	assert_int_equal(READ_ONCE(sd->defer_count), 0);
	assert_cpu_count(0, skbs_freed, 1);
	sim_cpu_up(1);
	sim_run_all(10000);
	assert_int_equal(sim_skbs_outstanding(), 0);
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v24_defer_kick_uses_backlog_thread,
				       setup),
		cmocka_unit_test_setup(v1_trigger_rx_softirq_rearms_defer_ipi,
				       setup),
		cmocka_unit_test_setup(v1_each_kick_sends_one_csd, setup),
		cmocka_unit_test_setup(v3_flush_keeps_irqs_enabled, setup),
		cmocka_unit_test_setup(v10_defer_lock_bh_only, setup),
		cmocka_unit_test_setup(v11_threaded_poll_flushes_defer_list,
				       setup),
		cmocka_unit_test_setup(v9_remote_dst_warns_once, setup),
		cmocka_unit_test_setup(v9_remote_destructor_warns_once, setup),
		cmocka_unit_test_setup(v9_local_path_silent, setup),
		cmocka_unit_test_setup(v25_kick_skips_scheduled_backlog, setup),
		cmocka_unit_test_setup(v54_offline_alloc_cpu_frees_locally,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
