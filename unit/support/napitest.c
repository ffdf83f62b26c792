// SPDX-License-Identifier: GPL-2.0
/*
 * The suites' boot and assertion helpers (support/napitest.h declares and
 * describes them), compiled once per configuration and linked into every
 * suite binary of it.
 */
#include "support/napitest.h"

/*
 * stdout line-buffered, as on a terminal: cmocka prints results there and
 * messages on stderr, and a reader of the captured output (CTest's, then
 * tools/verdict) gets them in order and in whole lines.
 */
static void __attribute__((constructor)) napitest_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

#if EXTRACTED_HAVE_setup_backlog_napi_threads
int setup_backlog_napi_threads(char *arg) __attribute__((weak));
#endif

unsigned int napitest_read_atomic(const atomic_t *v)
{
	return (unsigned int)atomic_read(v);
}

unsigned int napitest_read_uint(const unsigned int *v)
{
	return READ_ONCE(*v);
}

bool napitest_linked(const void *addr)
{
	return addr != NULL;
}

/* glibc's basename of argv[0] (errno.h declares it with _GNU_SOURCE). */
extern char *program_invocation_short_name;

/* Read once: the explorer boots the machine again for every schedule. */
static int thread_backlog_napi = -1;
static int say_boot = -1;

bool napitest_thread_backlog_napi(void)
{
	static const char suffix[] = "-threads";
	const char *name = program_invocation_short_name;
	size_t len, n = sizeof(suffix) - 1;

	if (thread_backlog_napi < 0) {
		len = strlen(name);
		thread_backlog_napi = len > n &&
				      !strcmp(name + len - n, suffix);
	}
	return thread_backlog_napi;
}

/*
 * What the assertion helpers describe by name: each CPU's backlog NAPI
 * state, defer_list and counters, watched from boot (sim/watch.h).  The
 * descriptions are formatted once: the explorer boots the machine for
 * every schedule it runs.
 */
enum {
	W_BACKLOG,
	W_DEFER,
	W_IPIS,
	W_NET_RX,
	W_SMP_CALL,
	W_WAKEUPS,
	W_CSD,
	W_WARNS,
	W_DELIVERED,
	W_FREED,
	W_PENDING,
	NR_CPU_WATCHES
};

static const char *const cpu_watch_fmt[NR_CPU_WATCHES] = {
	[W_BACKLOG] = "backlog of CPU %u",
	[W_DEFER] = "sd->defer_list on CPU %u",
	[W_IPIS] = "IPIs to CPU %u",
	[W_NET_RX] = "NET_RX raises on CPU %u",
	[W_SMP_CALL] = "softirq raises from SMP-call context on CPU %u",
	[W_WAKEUPS] = "wakeups on CPU %u",
	[W_CSD] = "csd callbacks run on CPU %u",
	[W_WARNS] = "WARNs on CPU %u",
	[W_DELIVERED] = "packets handed to the stack on CPU %u",
	[W_FREED] = "packets freed on CPU %u",
	[W_PENDING] = "softirqs pending on CPU %u",
};

static const char *cpu_watch_name(unsigned int cpu, unsigned int w)
{
	static char names[NR_CPUS][NR_CPU_WATCHES]
			 [sizeof(((struct sim_watch *)0)->what)];

	if (!names[cpu][w][0])
		snprintf(names[cpu][w], sizeof(names[cpu][w]), cpu_watch_fmt[w],
			 cpu);
	return names[cpu][w];
}

static void napitest_watch_cpus(unsigned int nr_cpus)
{
	unsigned int cpu;

	sim_watch_reset(EXTRACTED_TREE);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);
		struct sim_counters *c = &sim_cpus[cpu].cnt;
#define WATCH(addr, w) \
	sim_watch_named(addr, sizeof(*(addr)), cpu_watch_name(cpu, w))

		WATCH(&sd->backlog.state, W_BACKLOG);
		WATCH(&sd->defer_list, W_DEFER);
		WATCH(&c->ipis, W_IPIS);
		WATCH(&c->net_rx_raises, W_NET_RX);
		WATCH(&c->raises_in_smp_call, W_SMP_CALL);
		WATCH(&c->wakeups, W_WAKEUPS);
		WATCH(&c->csd_run, W_CSD);
		WATCH(&c->warns, W_WARNS);
		WATCH(&c->skbs_delivered, W_DELIVERED);
		WATCH(&c->skbs_freed, W_FREED);
		WATCH(&sim_cpus[cpu].softirq_pending, W_PENDING);
#undef WATCH
	}
}

void napitest_boot(unsigned int nr_cpus)
{
	sim_reset(nr_cpus);
	napitest_watch_cpus(nr_cpus);
#if EXTRACTED_HAVE_setup_backlog_napi_threads && !defined(CONFIG_PREEMPT_RT)
	if (napitest_thread_backlog_napi()) {
		require_linked_definition(setup_backlog_napi_threads);
		setup_backlog_napi_threads(NULL); /* thread_backlog_napi */
	}
#endif
	if (say_boot < 0)
		say_boot = getenv("NAPITEST_SAY_BOOT") != NULL;
	if (say_boot)
		printf("napitest: booted %s thread_backlog_napi\n",
		       napitest_thread_backlog_napi() ? "with" : "without");
	assert_int_equal(net_dev_init(), 0);
	/* Let the per-CPU threads run their setup(). */
	sim_run_all(1000);
}

void napitest_napi_init(struct napi_struct *n, struct net_device *dev,
			int (*poll)(struct napi_struct *, int))
{
	memset(n, 0, sizeof(*n));
	INIT_LIST_HEAD(&n->poll_list);
	init_gro_hash(n);
	n->poll = poll;
	n->weight = 64;
	n->dev = dev;
	if (!sim_watch_of(&n->state))
		sim_watch(&n->state, sizeof(n->state), "NAPI of %s", dev->name);
}

void napitest_napi_name_as(struct napi_struct *n, const char *name,
			   const struct net_device *dev)
{
	sim_watch(&n->state, sizeof(n->state), "%s of %s", name, dev->name);
}

void napitest_threaded_napi(struct napi_struct *napi, struct net_device *dev,
			    int (*poll)(struct napi_struct *, int), int cpu)
{
	int prev;

	napitest_napi_init(napi, dev, poll);
	prev = sim_switch_cpu(cpu);
	napi->thread = kthread_run(napi_threaded_poll, napi, "napi/%s-%d",
				   dev->name, 0);
	set_bit(NAPI_STATE_THREADED, &napi->state);
	sim_run_cpu(cpu, 16);
	sim_switch_cpu(prev);
	assert_int_equal(READ_ONCE(napi->thread->__state), TASK_INTERRUPTIBLE);
}

void napitest_device_irq(int cpu, struct napi_struct *napi)
{
	int prev = sim_switch_cpu(cpu);

	sim_hardirq_enter();
	napi_schedule(napi);
	sim_hardirq_exit();
	sim_switch_cpu(prev);
}

struct task_struct *napitest_backlog_thread(int cpu)
{
#if EXTRACTED_HAVE_backlog_napi
	return per_cpu(backlog_napi, cpu);
#else
	(void)cpu;
	return NULL;
#endif
}

struct sk_buff *napitest_skb_on(int cpu, struct net_device *dev)
{
	int prev = sim_switch_cpu(cpu);
	struct sk_buff *skb = sim_skb_alloc(dev);

	sim_switch_cpu(prev);
	return skb;
}

void napitest_report(void)
{
	unsigned int i;

	for (i = 0; i < sim_nr_warns; i++)
		print_message("  %s\n", sim_warns[i].msg);
	if (sim_last_pr_warn[0])
		print_message("  last pr_warn: %s", sim_last_pr_warn);
}

/* A NAPI state bit's name (enum of include/linux/netdevice.h). */
static const char *napitest_state_bit_name(int bit)
{
	switch (bit) {
	case NAPI_STATE_SCHED:
		return "NAPI_STATE_SCHED";
	case NAPI_STATE_MISSED:
		return "NAPI_STATE_MISSED";
	case NAPI_STATE_DISABLE:
		return "NAPI_STATE_DISABLE";
	case NAPI_STATE_NPSVC:
		return "NAPI_STATE_NPSVC";
	case NAPI_STATE_LISTED:
		return "NAPI_STATE_LISTED";
	case NAPI_STATE_NO_BUSY_POLL:
		return "NAPI_STATE_NO_BUSY_POLL";
	case NAPI_STATE_IN_BUSY_POLL:
		return "NAPI_STATE_IN_BUSY_POLL";
	case NAPI_STATE_PREFER_BUSY_POLL:
		return "NAPI_STATE_PREFER_BUSY_POLL";
	case NAPI_STATE_THREADED:
		return "NAPI_STATE_THREADED";
	case NAPI_STATE_SCHED_THREADED:
		return "NAPI_STATE_SCHED_THREADED";
	}
	return "NAPI_STATE_?";
}

/* "SCHED|THREADED", or "none". */
static const char *napitest_state_names(unsigned long state, char *buf,
					size_t len)
{
	size_t n = 0;
	int bit;

	buf[0] = '\0';
	for (bit = 0; bit < BITS_PER_LONG && n < len; bit++)
		if (state & BIT(bit))
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      napitest_state_bit_name(bit) +
					      strlen("NAPI_STATE_"));
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

/* How a test names a NAPI: what the watch calls it. */
static const char *napitest_napi_name(const struct napi_struct *napi, char *buf,
				      size_t len)
{
	const struct sim_watch *w = sim_watch_of(&napi->state);

	if (w)
		return w->what;
	snprintf(buf, len, "NAPI %p", (const void *)napi);
	return buf;
}

void napitest_assert_state_bit(const struct napi_struct *napi, int bit,
			       bool expect, const char *file, int line)
{
	char names[160], name[48], where[200];
	unsigned long state = READ_ONCE(napi->state);

	if (!!(state & BIT(bit)) == expect)
		return;
	print_error("ERROR: %s %s on %s, expected %s (state: %s; %s)\n",
		    napitest_state_bit_name(bit), expect ? "clear" : "set",
		    napitest_napi_name(napi, name, sizeof(name)),
		    expect ? "set" : "clear",
		    napitest_state_names(state, names, sizeof(names)),
		    sim_watch_describe(&napi->state, where, sizeof(where)));
	_fail(file, line);
}

void napitest_assert_defer_list(int cpu, bool empty, const char *file, int line)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	char where[200];

	if (!READ_ONCE(sd->defer_list) == empty)
		return;
	print_error("ERROR: sd->defer_list %s on CPU %d (defer_count %d; %s)\n",
		    empty ? "not empty" : "empty", cpu,
		    (int)READ_ONCE(sd->defer_count),
		    sim_watch_describe(&sd->defer_list, where, sizeof(where)));
	_fail(file, line);
}

/* What a simulator counter counts, for one that is not watched. */
static const char *napitest_counter_name(const char *field)
{
	if (!strcmp(field, "skbs_delivered"))
		return "packets handed to the stack";
	if (!strcmp(field, "skbs_freed"))
		return "packets freed";
	if (!strcmp(field, "softirq_runs"))
		return "softirq loop runs";
	if (!strcmp(field, "rcu_qs"))
		return "RCU quiescent states reported";
	if (!strcmp(field, "pr_warn_once"))
		return "pr_warn_once() lines";
	if (!strcmp(field, "cond_resched"))
		return "cond_resched() calls";
	return field;
}

void napitest_assert_count(int cpu, const unsigned long *field,
			   const char *name, unsigned long base,
			   unsigned long expect, bool delta, const char *file,
			   int line)
{
	const struct sim_watch *w;
	char where[200];

	if (*field - base == expect)
		return;
	sim_watch_sync();
	w = sim_watch_of(field);
	if (w)
		print_error("ERROR: %lu %s%s, expected %lu (%s)\n",
			    *field - base, w->what,
			    delta ? " in this step" : "", expect,
			    sim_watch_describe(field, where, sizeof(where)));
	else
		print_error("ERROR: %lu %s on CPU %d%s, expected %lu\n",
			    *field - base, napitest_counter_name(name), cpu,
			    delta ? " in this step" : "", expect);
	_fail(file, line);
}

const char *napitest_task_state_name(unsigned int state)
{
	switch (state) {
	case TASK_RUNNING:
		return "TASK_RUNNING";
	case TASK_INTERRUPTIBLE:
		return "TASK_INTERRUPTIBLE";
	case TASK_PARKED:
		return "TASK_PARKED";
	case TASK_WAKING:
		return "TASK_WAKING";
	}
	return "TASK_?";
}

void napitest_assert_task_state(const struct task_struct *t,
				unsigned int expect, const char *file, int line)
{
	unsigned int state = READ_ONCE(t->__state);

	if (state == expect)
		return;
	print_error("ERROR: %s (CPU %d) is %s, expected %s\n", t->comm, t->cpu,
		    napitest_task_state_name(state),
		    napitest_task_state_name(expect));
	_fail(file, line);
}

static const char *napitest_where(const volatile void *addr, char *buf,
				  size_t len);

const char *napitest_site(const char *func, char *buf, size_t len)
{
	const struct extracted_site *s;

	for (s = extracted_sites; s->name; s++) {
		if (!strcmp(s->name, func)) {
			snprintf(buf, len, "%s:%d", sim_tree_path(s->file),
				 s->line);
			return buf;
		}
	}
	snprintf(buf, len, "%s is not extracted", func);
	return buf;
}

void napitest_assert_poll_list(int cpu, bool empty, const char *after,
			       const char *file, int line)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	char name[48], where[200], site[160], ctx[240] = "";

	if (list_empty(&sd->poll_list) == empty)
		return;
	/* the tree's file:line that ran last, e.g. in ____napi_schedule() */
	napitest_where(&sd->poll_list, where, sizeof(where));
	/* and the function the test called, by its own line */
	if (after)
		snprintf(ctx, sizeof(ctx), " after %s() (%s)", after,
			 napitest_site(after, site, sizeof(site)));
	if (empty)
		print_error(
			"ERROR: sd->poll_list of CPU %d not empty%s: %s on it (%s)\n",
			cpu, ctx,
			napitest_napi_name(list_first_entry(&sd->poll_list,
							    struct napi_struct,
							    poll_list),
					   name, sizeof(name)),
			where);
	else
		print_error("ERROR: sd->poll_list of CPU %d empty%s (%s)\n",
			    cpu, ctx, where);
	_fail(file, line);
}

/*
 * Where the tree last changed the watched word at addr or, when the watch
 * saw no change (set and reset outside the tree's code, between two of its
 * hooks), the tree's line that ran last.
 */
static const char *napitest_where(const volatile void *addr, char *buf,
				  size_t len)
{
	const struct sim_watch *w;

	sim_watch_sync();
	w = sim_watch_of(addr);
	if (w && w->changes)
		return sim_watch_describe(addr, buf, len);
	return sim_watch_last_line(buf, len);
}

void napitest_assert_state_is(const struct napi_struct *napi,
			      unsigned long expect, const char *file, int line)
{
	char got[160], want[160], name[48], where[200];
	unsigned long state = READ_ONCE(napi->state);

	if (state == expect)
		return;
	print_error("ERROR: state of %s is %s, expected %s (%s)\n",
		    napitest_napi_name(napi, name, sizeof(name)),
		    napitest_state_names(state, got, sizeof(got)),
		    napitest_state_names(expect, want, sizeof(want)),
		    napitest_where(&napi->state, where, sizeof(where)));
	_fail(file, line);
}

void napitest_assert_state_word(unsigned long state, unsigned long expect,
				const char *what, const char *file, int line)
{
	char got[160], want[160];

	if (state == expect)
		return;
	print_error("ERROR: %s: %s, expected %s\n", what,
		    napitest_state_names(state, got, sizeof(got)),
		    napitest_state_names(expect, want, sizeof(want)));
	_fail(file, line);
}

/* "NET_RX|TIMER" (kernel/softirq.c's softirq_to_name[]), or "none". */
static const char *napitest_softirq_names(unsigned long pending, char *buf,
					  size_t len)
{
	size_t n = 0;
	unsigned int nr;

	buf[0] = '\0';
	for (nr = 0; nr < NR_SOFTIRQS && n < len; nr++)
		if (pending & BIT(nr))
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
				      softirq_to_name[nr]);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

void napitest_assert_softirq(int cpu, unsigned int nr, bool expect,
			     const char *file, int line)
{
	unsigned long pending = READ_ONCE(sim_cpus[cpu].softirq_pending);
	char names[120], where[200];

	if (!!(pending & BIT(nr)) == expect)
		return;
	print_error(
		"ERROR: %s_SOFTIRQ %s on CPU %d, expected %s (pending: %s; %s)\n",
		softirq_to_name[nr], expect ? "not pending" : "pending", cpu,
		expect ? "pending" : "not pending",
		napitest_softirq_names(pending, names, sizeof(names)),
		napitest_where(&sim_cpus[cpu].softirq_pending, where,
			       sizeof(where)));
	_fail(file, line);
}

void napitest_assert_poll_list_first(int cpu, const struct napi_struct *napi,
				     const char *file, int line)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);
	char got[48], want[48];

	if (sd->poll_list.next == &napi->poll_list)
		return;
	print_error(
		"ERROR: first on sd->poll_list of CPU %d: %s, expected %s\n",
		cpu,
		list_empty(&sd->poll_list) ?
			"nothing (empty)" :
			napitest_napi_name(list_first_entry(&sd->poll_list,
							    struct napi_struct,
							    poll_list),
					   got, sizeof(got)),
		napitest_napi_name(napi, want, sizeof(want)));
	_fail(file, line);
}

void napitest_assert_value(long got, long expect, const char *what,
			   const char *file, int line)
{
	char where[200];

	if (got == expect)
		return;
	print_error("ERROR: %s: %ld, expected %ld (%s)\n", what, got, expect,
		    napitest_where(NULL, where, sizeof(where)));
	_fail(file, line);
}
