// SPDX-License-Identifier: GPL-2.0
/*
 * Teardown paths of net/core/dev.c around the backlog: a CPU going offline
 * with a device NAPI on its poll_list or packets on its backlog
 * (dev_cpu_dead(), which patch 14 changes for the backlog NAPI only), and a
 * device unregistered with its
 * packets still queued on a CPU's backlog (flush_backlog(), run by
 * flush_all_backlogs() on every CPU).
 */
#include "support/napitest.h"

static struct net_device dev_a = { .name = "sim0",
				   .running = true,
				   .reg_state = NETREG_REGISTERED };
static struct net_device dev_b = { .name = "sim1",
				   .running = true,
				   .reg_state = NETREG_REGISTERED };

static struct napi_struct dev_napi;
static unsigned int dev_polls;
static int dev_poll_cpu;

static int dev_poll(struct napi_struct *napi, int budget)
{
	(void)budget;
	dev_polls++;
	dev_poll_cpu = smp_processor_id();
	napi_complete_done(napi, 0);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	napitest_boot(2);
	napitest_napi_init(&dev_napi, &dev_a, dev_poll);
	dev_polls = 0;
	dev_poll_cpu = -1;
	dev_a.reg_state = NETREG_REGISTERED;
	dev_b.reg_state = NETREG_REGISTERED;
	sim_switch_cpu(0);
	return 0;
}

/*
 * The device interrupt on cpu, whose NET_RX has not run yet: the NAPI is
 * on cpu's poll_list with NET_RX pending (irq_exit() does not run it:
 * the CPU is taken down first).
 */
static void device_irq_no_softirq(int cpu, struct napi_struct *napi)
{
	int prev = sim_switch_cpu(cpu);
	struct sim_cpu *c = sim_this();

	c->hardirq++;
	c->irqs_off = true;
	napi_schedule(napi);
	c->hardirq--;
	c->irqs_off = false;
	sim_switch_cpu(prev);
}

/*
 * V36: CPU 1 dies with a device NAPI (not the backlog) on its poll_list.
 * dev_cpu_dead(), on CPU 0, moves it to CPU 0's poll_list with
 * ____napi_schedule(sd, ...) and NET_RX raised there; CPU 0 polls it.
 * Put back on the dying CPU's own list, the loop that empties that list
 * never ends, with IRQs off (the watchdog names the line).
 */
static void v36_cpu_dead_moves_device_napi(void **state)
{
	(void)state;
	device_irq_no_softirq(1, &dev_napi);
	assert_poll_list_first(1, &dev_napi);
	assert_softirq_pending(1, NET_RX_SOFTIRQ);

	sim_cpu_down(1, 0);
	assert_poll_list_empty(1);
	assert_poll_list_first(0, &dev_napi);
	assert_napi_state_set(&dev_napi, NAPI_STATE_SCHED);
	assert_softirq_pending(0, NET_RX_SOFTIRQ);
	assert_value(dev_polls, 0, "->poll() calls of dev_napi");

	sim_run_all(1000);
	assert_value(dev_polls, 1, "->poll() calls of dev_napi");
	assert_value(dev_poll_cpu, 0, "CPU dev_napi was polled on");
	assert_napi_state_clear(&dev_napi, NAPI_STATE_SCHED);
	assert_poll_list_empty(0);
	assert_no_warn();
}

#define NR_EACH 3

/* Packets of dev_a and dev_b, interleaved, queued on a CPU's backlog. */
static struct sk_buff *pkt_a[2 * NR_EACH], *pkt_b[2 * NR_EACH];

/* netif_rx() on cpu of one packet of each device into cpu's backlog. */
static void enqueue_pair(int cpu, int i)
{
	unsigned int qtail;
	int prev = sim_switch_cpu(cpu);

	pkt_a[i] = sim_skb_alloc(&dev_a);
	pkt_b[i] = sim_skb_alloc(&dev_b);
	local_bh_disable();
	assert_int_equal(enqueue_to_backlog(pkt_a[i], cpu, &qtail),
			 NET_RX_SUCCESS);
	assert_int_equal(enqueue_to_backlog(pkt_b[i], cpu, &qtail),
			 NET_RX_SUCCESS);
	local_bh_enable();
	sim_switch_cpu(prev);
}

/*
 * cpu's backlog NAPI is owned (SCHED set) by a process_backlog() that
 * has spliced the first packets into process_queue and not yet processed
 * them; the later ones wait on input_pkt_queue.  Nothing is processed
 * until the owner reschedules it.
 */
static void queue_both_devices(int cpu)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	int i;

	set_bit(NAPI_STATE_SCHED, &sd->backlog.state);
	for (i = 0; i < NR_EACH; i++)
		enqueue_pair(cpu, i);
#if EXTRACTED_HAVE_backlog_lock_irq_disable
	backlog_lock_irq_disable(sd);
	skb_queue_splice_tail_init(&sd->input_pkt_queue, &sd->process_queue);
	backlog_unlock_irq_enable(sd);
#else /* before patch 15's rename */
	rps_lock_irq_disable(sd);
	skb_queue_splice_tail_init(&sd->input_pkt_queue, &sd->process_queue);
	rps_unlock_irq_enable(sd);
#endif
	for (i = NR_EACH; i < 2 * NR_EACH; i++)
		enqueue_pair(cpu, i);
	assert_value(skb_queue_len(&sd->process_queue), 2 * NR_EACH,
		     "packets on sd->process_queue");
	assert_value(skb_queue_len(&sd->input_pkt_queue), 2 * NR_EACH,
		     "packets on sd->input_pkt_queue");
	assert_cpu_count(cpu, skbs_delivered, 0);
}

/*
 * V41: CPU 1 dies with packets on its backlog, the first ones spliced into
 * process_queue by an owner that has not processed them.  dev_cpu_dead(),
 * on CPU 0, hands every packet of both queues to netif_rx() there, each
 * counted in CPU 1's input_queue_head (RPS flow tracking), and CPU 0
 * delivers each exactly once: none is lost with the dead CPU.
 */
static void v41_cpu_dead_requeues_backlog_packets(void **state)
{
	struct softnet_data *sd1 = &per_cpu(softnet_data, 1);
	int i;

	(void)state;
	require_definition(dev_cpu_dead);
	queue_both_devices(1);

	sim_cpu_down(1, 0);
	assert_value(skb_queue_len(&sd1->process_queue), 0,
		     "packets left on the dead CPU 1's sd->process_queue");
	assert_value(skb_queue_len(&sd1->input_pkt_queue), 0,
		     "packets left on the dead CPU 1's sd->input_pkt_queue");
#ifdef CONFIG_RPS
	assert_value(
		sd1->input_queue_head, sd1->input_queue_tail,
		"CPU 1's sd->input_queue_head (expected: its input_queue_tail)");
#endif
	sim_run_all(1000);
	for (i = 0; i < 2 * NR_EACH; i++) {
		assert_value(
			pkt_a[i]->delivered_on_cpu, 0,
			"CPU a packet of dev_a was delivered on (-1: none)");
		assert_value(
			pkt_b[i]->delivered_on_cpu, 0,
			"CPU a packet of dev_b was delivered on (-1: none)");
	}
	assert_cpu_count(0, skbs_delivered, 4 * NR_EACH);
	assert_cpu_count(1, skbs_delivered, 0);
	assert_value(sim_skbs_outstanding(), 0,
		     "packets neither delivered nor freed");
	assert_no_warn();
}

/*
 * V51: dev_cpu_dead() appends the dead CPU's TX work to this CPU's, in
 * order, and raises NET_TX here: its completion_queue (skbs freed from
 * hardirq by dev_kfree_skb_irq(), waiting for net_tx_action()) after
 * this CPU's, and its output_queue (qdiscs waiting to run) after this
 * CPU's last qdisc, leaving the dead CPU's queues empty.  The qdiscs are
 * tokens: dev_cpu_dead() only links them through their next_sched.
 */
static void v51_cpu_dead_moves_tx_queues(void **state)
{
	struct softnet_data *sd0 = &per_cpu(softnet_data, 0);
	struct softnet_data *sd1 = &per_cpu(softnet_data, 1);
	static struct Qdisc *qa_next_sched, *qb_next_sched;
	static char qa, qb; /* the qdiscs' addresses */
	struct sk_buff *s0 = sim_skb_alloc(&dev_a), *s1 = sim_skb_alloc(&dev_a);
	struct sk_buff *s2 = sim_skb_alloc(&dev_a), *skb;

	(void)state;
	require_definition(dev_cpu_dead);
	/* dev_kfree_skb_irq(): pushed on the front, newest first. */
	s0->next = NULL;
	sd0->completion_queue = s0;
	s1->next = NULL;
	s2->next = s1;
	sd1->completion_queue = s2;
	/* __netif_reschedule(): appended at the tail. */
	qa_next_sched = NULL;
	sd0->output_queue = (struct Qdisc *)&qa;
	sd0->output_queue_tailp = &qa_next_sched;
	qb_next_sched = NULL;
	sd1->output_queue = (struct Qdisc *)&qb;
	sd1->output_queue_tailp = &qb_next_sched;
	sim_cpus[0].softirq_pending &= ~BIT(NET_TX_SOFTIRQ);

	sim_cpu_down(1, 0);
	assert_value(sd0->completion_queue == s0, true,
		     "CPU 0's completion_queue starts with its own skb");
	assert_value(
		s0->next == s2, true,
		"the dead CPU's newest skb follows CPU 0's in completion_queue");
	assert_value(s2->next == s1, true,
		     "the dead CPU's completion_queue keeps its order");
	assert_value(s1->next == NULL, true,
		     "the dead CPU's oldest skb ends completion_queue");
	assert_value(sd1->completion_queue == NULL, true,
		     "the dead CPU 1's completion_queue emptied");
	assert_value(sd0->output_queue == (struct Qdisc *)&qa, true,
		     "CPU 0's output_queue starts with its own qdisc");
	assert_value(qa_next_sched == (struct Qdisc *)&qb, true,
		     "the dead CPU's qdisc follows CPU 0's (next_sched)");
	assert_value(sd0->output_queue_tailp == &qb_next_sched, true,
		     "CPU 0's output_queue_tailp at the moved qdisc");
	assert_value(sd1->output_queue == NULL, true,
		     "the dead CPU 1's output_queue emptied");
	assert_value(sd1->output_queue_tailp == &sd1->output_queue, true,
		     "the dead CPU 1's output_queue_tailp reset");
	assert_softirq_pending(0, NET_TX_SOFTIRQ);

	/* net_tx_action() is not simulated: free them as it would. */
	sd0->output_queue = NULL;
	sd0->output_queue_tailp = &sd0->output_queue;
	while ((skb = sd0->completion_queue)) {
		sd0->completion_queue = skb->next;
		skb->next = NULL;
		__kfree_skb(skb);
	}
	assert_value(sim_skbs_outstanding(), 0,
		     "packets neither delivered nor freed");
	assert_no_warn();
}

/*
 * skb was freed by the function named how, as 6.1's flush_backlog() does,
 * or, as later trees do (6.12 gathers the packets and frees them with
 * __skb_queue_purge_reason() once BH is enabled again), by
 * kfree_skb_reason() or how's _reason form, with SKB_DROP_REASON_DEV_READY.
 */
static void assert_freed_as(const struct sk_buff *skb, const char *how)
{
	char reason_form[64];

	snprintf(reason_form, sizeof(reason_form), "%s_reason", how);
	if (skb->freed_by && (!strcmp(skb->freed_by, reason_form) ||
			      !strcmp(skb->freed_by, "kfree_skb_reason"))) {
		assert_value(skb->drop_reason, SKB_DROP_REASON_DEV_READY,
			     "drop reason (SKB_DROP_REASON_DEV_READY)");
		return;
	}
	assert_string_equal(skb->freed_by, how);
}

/*
 * V37: unregistering dev_a (NETREG_UNREGISTERING) runs flush_backlog() on
 * every CPU, here CPU 0's flush_works item on its kworker: dev_a's packets
 * are freed from input_pkt_queue (dev_kfree_skb_irq()) and process_queue
 * (kfree_skb()), each counted in input_queue_head; dev_b's stay queued
 * order, and are delivered once the backlog runs again; the work returns
 * with BH enabled, IRQs on and the backlog lock released.
 */
static void v37_flush_backlog_frees_only_unregistering_device(void **state)
{
	struct softnet_data *sd = &per_cpu(softnet_data, 0);
	int i;

	(void)state;
	queue_both_devices(0);
	dev_a.reg_state = NETREG_UNREGISTERING;

	assert_value(schedule_work_on(0, &per_cpu(flush_works, 0)), true,
		     "schedule_work_on(0, flush_works of CPU 0)");
	sim_run_cpu(0, 100);
	assert_value(sim_cpus[0].bh_disable, 0,
		     "BH-disable depth on CPU 0 after flush_backlog()");
	assert_value(sim_cpus[0].irqs_off, false,
		     "IRQs off on CPU 0 after flush_backlog()");
	assert_value(
		sd->input_pkt_queue.lock.owner, -1,
		"CPU holding CPU 0's backlog lock after flush_backlog() (-1: none)");

	for (i = 0; i < 2 * NR_EACH; i++) {
		assert_value(pkt_a[i]->freed_on_cpu, 0,
			     "CPU a packet of dev_a was freed on (-1: none)");
		assert_value(
			pkt_a[i]->delivered_on_cpu, -1,
			"CPU a packet of dev_a was delivered on (-1: none)");
		assert_freed_as(pkt_a[i], i < NR_EACH ? "kfree_skb" :
							"dev_kfree_skb_irq");
	}
	for (i = 0; i < 2 * NR_EACH; i++)
		assert_value(pkt_b[i]->freed_on_cpu, -1,
			     "CPU a packet of dev_b was freed on (-1: none)");

	/* The owner reschedules the backlog: dev_b's packets are delivered. */
	local_bh_disable();
	__napi_schedule(&sd->backlog);
	local_bh_enable();
	sim_run_all(1000);
	for (i = 0; i < 2 * NR_EACH; i++)
		assert_value(
			pkt_b[i]->delivered_on_cpu, 0,
			"CPU a packet of dev_b was delivered on (-1: none)");
	assert_cpu_count(0, skbs_delivered, 2 * NR_EACH);
	assert_value(skb_queue_len(&sd->input_pkt_queue), 0,
		     "packets left on CPU 0's sd->input_pkt_queue");
	assert_value(skb_queue_len(&sd->process_queue), 0,
		     "packets left on CPU 0's sd->process_queue");
#ifdef CONFIG_RPS
	/* Every packet accounted: flushed or processed. */
	assert_value(
		sd->input_queue_head, sd->input_queue_tail,
		"CPU 0's sd->input_queue_head (expected: its input_queue_tail)");
#endif
	assert_value(sim_skbs_outstanding(), 0,
		     "packets neither delivered nor freed");
	assert_no_warn();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(v36_cpu_dead_moves_device_napi, setup),
		cmocka_unit_test_setup(
			v37_flush_backlog_frees_only_unregistering_device,
			setup),
		cmocka_unit_test_setup(v41_cpu_dead_requeues_backlog_packets,
				       setup),
		cmocka_unit_test_setup(v51_cpu_dead_moves_tx_queues, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
