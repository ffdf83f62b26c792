/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SHIM_SIM_INTERNAL_H
#define SHIM_SIM_INTERNAL_H

#include <setjmp.h>
#include <ucontext.h>

/*
 * Between the simulator's files only.  Each line names the file that
 * defines it (shims/sim/, at the path of the kernel file it stands for).
 */

/* sim.c */
void sim_last_tree_step(const char **file, int *line);
void sim_fail_at(const char *file, int line, const char *msg);
/* kernel/sched/core.c */
void sim_sched_reset(void);
void sim_sched_boot(void);
bool sim_on_task_stack(const volatile void *addr);
bool sim_runqueue_empty(int cpu);
unsigned int sim_nr_tasks(void);
struct task_struct *sim_task(unsigned int i);
bool sim_task_is_rt(const struct task_struct *p);
void sim_schedule_rtlock(const char *file, int line);
void sim_activate_task(struct task_struct *p);
void sim_deactivate_task(struct task_struct *p);
/* kernel/sched/fair.c */
void sim_load_balance(struct task_struct *p);
/* kernel/softirq.c */
void sim_softirq_boot(void);
/* kernel/smp.c */
void sim_dying_flush(int cpu);
/* kernel/kthread.c */
int sim_kthread(struct task_struct *p);
/* kernel/workqueue.c */
void sim_workqueue_boot(int cpu);
void sim_workqueue_reset(void);
/* shims/sim/explore/ */
bool explore_cpu_running(int cpu);
bool explore_executing(void); /* an execution, quiescence and checks included */
/* kernel/cpu.c */
bool sim_takedown_pending(int cpu);
void sim_cpuhp_reset(void);
/* lib/smp_processor_id.c */
void sim_debug_preempt_reset(void);
/* kernel/locking/lockdep.c */
void sim_lockdep_reset(void);
/* kernel/locking/rtmutex.c */
void rtlock_lock(spinlock_t *lock, const char *file, int line);
void rtlock_unlock(spinlock_t *lock);
void sim_rtlock_reset(void);
/* net/core/skbuff.c */
void sim_skb_reset(void);
/* kernel/printk/printk.c */
void sim_console(const char *line);
/* mm/percpu.c */
void sim_setup_per_cpu_areas(void);

/* Coroutine switches, annotated for AddressSanitizer's stack tracking. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#define fiber_start(save, bottom, size) \
	__sanitizer_start_switch_fiber(save, bottom, size)
#define fiber_finish(save, bottom, size) \
	__sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define fiber_start(save, bottom, size) \
	((void)(save), (void)(bottom), (void)(size))
#define fiber_finish(save, bottom, size) \
	((void)(save), (void)(bottom), (void)(size))
#endif

/*
 * A coroutine of the simulator (a task, an explorer's program, or the side
 * that runs them).  Switches use GCC's __builtin_setjmp() and
 * __builtin_longjmp(), which save and restore the frame, stack pointer and
 * resume address only (the compiler saves the other registers around the
 * call): _setjmp()/_longjmp() also ran glibc's unwinding of cancellation
 * handlers at every jump, swapcontext() and setcontext() a system call for
 * the signal mask.  On x86-64 a fiber starts on its stack through
 * sim_fiber_trampoline (sim.c), which marks the end of the call chain for
 * unwinders as glibc's __start_context does; elsewhere through
 * makecontext() and setcontext().  Under AddressSanitizer, whose longjmp
 * interceptor unpoisons the whole stack at every jump (a sigaltstack() and
 * more per switch), they stay swapcontext(); the
 * fiber_start()/fiber_finish() annotations are the caller's either way.
 */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define SIM_FIBER_TRAMPOLINE 1
#endif

struct sim_fiber {
#ifdef SIM_FIBER_TRAMPOLINE
	void *stack_top; /* 16-byte aligned */
	void (*fn)(unsigned int, unsigned int);
	unsigned int hi, lo;
#else
	ucontext_t uc;
#endif
	void *jb[5]; /* __builtin_setjmp()'s buffer */
	bool started;
};

/* Prepare f to run fn(hi, lo) on the stack given. */
static inline void sim_fiber_make(struct sim_fiber *f, void *stack, size_t size,
				  void (*fn)(unsigned int, unsigned int),
				  unsigned int hi, unsigned int lo)
{
#ifdef SIM_FIBER_TRAMPOLINE
	f->stack_top = (void *)(((uintptr_t)stack + size) & ~(uintptr_t)15);
	f->fn = fn;
	f->hi = hi;
	f->lo = lo;
#else
	static ucontext_t template;
	static bool got;

	/* getcontext() saves the signal mask: once, not per fiber. */
	if (!got) {
		getcontext(&template);
		got = true;
	}
	f->uc = template;
	f->uc.uc_stack.ss_sp = stack;
	f->uc.uc_stack.ss_size = size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, (void (*)(void))fn, 2, hi, lo);
#endif
	f->started = false;
}

#ifdef SIM_FIBER_TRAMPOLINE
/* sim.c: calls fn(edi, esi), fn in rdx, on the stack it is jumped to with. */
extern const char sim_fiber_trampoline[];

/* Run f's function on its stack, for the first time: never returns. */
static __attribute__((__noinline__, __noreturn__, __unused__)) void
sim_fiber_boot(const struct sim_fiber *f)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "jmp *%1"
			 :
			 : "r"(f->stack_top), "r"(sim_fiber_trampoline),
			   "D"(f->hi), "S"(f->lo), "d"(f->fn)
			 : "memory");
	__builtin_unreachable();
}
#else
#define sim_fiber_boot(f) setcontext(&(f)->uc)
#endif

/*
 * Save the running fiber in from and run to; returns when something
 * switches back to from.  A macro: __builtin_setjmp() must be called in
 * the frame that is resumed, and __builtin_longjmp() in another function.
 */
#ifdef __SANITIZE_ADDRESS__
#define sim_fiber_switch(from, to) swapcontext(&(from)->uc, &(to)->uc)
#define sim_fiber_exit(to) setcontext(&(to)->uc)
#else
static __attribute__((__noinline__, __noreturn__, __unused__)) void
sim_fiber_jump(void **jb)
{
	__builtin_longjmp(jb, 1);
}

#define sim_fiber_switch(from, to)                        \
	do {                                              \
		if (!__builtin_setjmp((from)->jb)) {      \
			(from)->started = true;           \
			if ((to)->started)                \
				sim_fiber_jump((to)->jb); \
			(to)->started = true;             \
			sim_fiber_boot(to);               \
		}                                         \
	} while (0)
/* The running fiber ends: run to, which switched to it. */
#define sim_fiber_exit(to) sim_fiber_jump((to)->jb)
#endif

#endif
