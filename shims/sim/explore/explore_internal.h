/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the interleaving explorer's files (shims/sim/explore/) share and
 * nothing else sees; each declaration names its file.
 */
#ifndef SIM_EXPLORE_INTERNAL_H
#define SIM_EXPLORE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#define EXP_STACK (256 * 1024)
#define EXP_MAX_STEPS 4096
/*
 * Options of a step: a program, an interrupt, a CPU's oldest store, or
 * the IPIs pending for a CPU.
 */
#define EXP_OPT_DRAIN (EXPLORE_MAX_THREADS + EXPLORE_MAX_IRQS)
#define EXP_OPT_IPI (EXP_OPT_DRAIN + NR_CPUS)
#define EXP_NR_OPTS (EXP_OPT_IPI + NR_CPUS)

struct exp_thread {
	const struct explore_actor *a;
	struct sim_fiber fib;
	void *fake_stack; /* AddressSanitizer's, while switched out */
	void *stack;
	const void *bottom; /* the stack it was on when it yielded */
	size_t size;
	bool done;
	int *wait_owner; /* spinning on this lock */
	int (*wait_cond)(void *); /* explore_wait_until() */
	void *wait_arg;
	unsigned int wait_flags;
	char wait_what[56];
	const char *label; /* explore_point_named(), explore_async_point() */
	int async_kind; /* yielded at explore_async_point(): EXPLORE_ASYNC_* */
	int saved_cpu; /* sim_cur_cpu when it yielded */
	int pending_irq; /* to deliver when it resumes */
	int pending_ipi; /* the CPU whose IPIs it takes then */
	const char *file; /* where it yielded */
	int line;
	const char *tree_file; /* the last point outside the shims */
	int tree_line;
};

/* What a step chooses: the next program, or a choice of a CPU's scheduler. */
#define STEP_SWITCH 0
#define STEP_PICK EXPLORE_PICK
#define STEP_PREEMPT EXPLORE_PREEMPT
#define STEP_POLL EXPLORE_POLL
#define STEP_MIGRATE EXPLORE_MIGRATE

struct exp_step {
	unsigned char kind; /* STEP_* */
	unsigned char choice; /* option index */
	unsigned char cur; /* program running before (0xff: none) */
	unsigned char preempt; /* preemptions before this step */
	unsigned short enabled; /* option mask */
	unsigned short tried;
};

/*
 * What ran in each step, for the counterexample.  Its description is
 * kept as parts (a kind, a copied text, a constant string, a number) and
 * put into words only when printed (exp_event_what()): a search records
 * every step of every schedule and prints one.
 */
enum exp_what {
	EXP_WHAT_NONE,
	EXP_WHAT_LABEL, /* str: explore_point_named(), explore_async_point() */
	EXP_WHAT_WAIT, /* "waits for " text */
	EXP_WHAT_IPI, /* CPU arg's pending IPIs, then file:line */
	EXP_WHAT_DRAIN, /* CPU arg's store made at str drains */
	EXP_WHAT_PICK, /* the scheduler picks text, of arg */
	EXP_WHAT_POLL,
	EXP_WHAT_MIGRATE,
	EXP_WHAT_PREEMPT,
	/* The same four, described by describe(words) */
	EXP_WHAT_DESCRIBED,
};

struct exp_event {
	unsigned char thread;
	signed char irq; /* -1, or the interrupt that started here */
	unsigned char what_kind; /* enum exp_what */
	int what_arg;
	const char *file; /* where it yielded next */
	int line;
	const char *tree_file; /* and the tree's code it was in */
	int tree_line;
	const char *what_str;
	char text[128]; /* a scheduler choice: what it chose */
	explore_describe_fn describe; /* or described by */
	struct explore_words words;
	unsigned char step_kind; /* STEP_*, for a described choice */
	unsigned char nr_options; /* of a choice */
};

/* snprintf(dst, size, "%s", src), without printf's machinery. */
static inline void exp_copy_text(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* program.c: the programs and the explorer's own side of the switch */
extern const struct explore_scenario *exp_scn;
extern struct exp_thread exp_thr[EXPLORE_MAX_THREADS];
extern int exp_cur; /* running program, -1: the explorer */
extern struct sim_fiber exp_main_fib; /* the explorer's side */
extern void *exp_main_fake_stack;
extern const void *exp_main_bottom;
extern size_t exp_main_size;
extern bool exp_irq_done[EXPLORE_MAX_IRQS];
void exp_run_irq(const struct explore_actor *irq);
bool exp_irq_can_arrive(const struct explore_actor *irq,
			const struct sim_cpu *c);
bool exp_on_own_stack(const volatile void *addr);
void exp_thread_entry(unsigned int hi, unsigned int lo);

/* execute.c: the current execution */
extern struct exp_step exp_trace[EXP_MAX_STEPS];
extern unsigned int exp_nr_steps; /* steps of the current execution */
extern unsigned int exp_prefix_len; /* steps forced from exp_trace[] */
extern struct exp_event exp_events[EXP_MAX_STEPS];
extern bool exp_overflow;
extern unsigned int exp_preempts; /* in the current execution */
extern bool exp_replay_broken;
extern char exp_violation[256];
extern bool exp_bugged;
void exp_violate(const char *fmt, const char *arg);
void exp_execute(void);

/* options.c: a step's options, the default policy, switching */
void exp_map_programs(void); /* at each execution's start */
int exp_opt_thread(int o);
unsigned short exp_enabled_mask(void);
int exp_default_choice(int running, unsigned short en);
bool exp_is_preemption(int running, unsigned short en, int o);
int exp_step_default(const struct exp_step *s);
/* The cost of option o at step s against the preemption bound. */
bool exp_step_preempts(const struct exp_step *s, int o);
/* The options of program t's CPU at an explore_async_point() of kind. */
unsigned short exp_async_options(int t, int kind);
void exp_resume(int o);

/* schedule.c: schedules as strings, the counterexample */
void exp_schedule_string(char *buf, size_t len);
bool exp_parse_schedule(const char *str);
const char *exp_short_path(const char *file);
/* Step e's description, as the counterexample prints it. */
void exp_event_what(const struct exp_event *e, char *buf, size_t len);
void exp_print_counterexample(FILE *f);

/* search.c: the search and its options */
extern unsigned int exp_bound;
extern bool exp_task_choices; /* NAPITEST_EXPLORE_TASKS */
extern bool exp_por; /* NAPITEST_EXPLORE_POR */
extern unsigned int exp_async; /* NAPITEST_EXPLORE_ASYNC: the kinds on */
extern unsigned long exp_por_skipped;
extern bool exp_random_mode;
int exp_rng_next(unsigned int n);

/* tso.c: the store buffers */
extern unsigned int exp_tso_len[NR_CPUS];
const char *exp_tso_drain_one(int cpu);
void exp_tso_drain(int cpu);
void exp_tso_reset(void);

#endif /* SIM_EXPLORE_INTERNAL_H */
