/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/smp.h (with asm/smp.h's
 * arch_send_call_function_single_ipi()) and kernel/sched/smp.h, the
 * scheduler's side of kernel/smp.c.  kernel/smp.c itself is the tree's
 * (kernel-src/manifest): smp_call_function_single_async() queues the csd
 * on the target CPU's call_single_queue (an llist) and, when the queue was
 * empty, send_call_function_single_ipi() sends an IPI, unless the target
 * idles polling (call_function_single_prep_ipi(): set_nr_if_polling()).
 * The IPI is delivered when the target has IRQs on (sim_deliver_ipi();
 * under the explorer at any such point), a polling idle CPU flushes from
 * its idle loop (sim_idle_flush()): shims/sim/kernel/smp.c.
 */
#ifndef SHIM_LINUX_SMP_H
#define SHIM_LINUX_SMP_H

#include <sim/sim.h>
#include <linux/llist.h>

typedef void (*smp_call_func_t)(void *info);

struct __call_single_data {
	struct __call_single_node node;
	smp_call_func_t func;
	void *info;
};
typedef struct __call_single_data call_single_data_t;

#define CSD_INIT(_func, _info)                    \
	(struct __call_single_data)               \
	{                                         \
		.func = (_func), .info = (_info), \
	}

#define INIT_CSD(_csd, _func, _info)                  \
	do {                                          \
		*(_csd) = CSD_INIT((_func), (_info)); \
	} while (0)

int smp_call_function_single_async(int cpu, call_single_data_t *csd);

/* asm/smp.h: the IPI (shims/sim/kernel/smp.c). */
void arch_send_call_function_single_ipi(int cpu);
/*
 * kernel/smp.c with CONFIG_CSD_LOCK_WAIT_DEBUG (a no-op without it): the
 * csd a CPU runs (shims/sim/kernel/smp.c).
 */
void csd_lock_record(call_single_data_t *csd);

/* kernel/sched/smp.h (shims/sim/kernel/sched/core.c) */
void sched_ttwu_pending(void *arg);
bool call_function_single_prep_ipi(int cpu); /* 6.12 */
void send_call_function_single_ipi(int cpu); /* 6.1 */
void flush_smp_call_function_queue(void);

/* linux/irq_work.h: no irq_work here (shims/sim/kernel/smp.c). */
void irq_work_run(void);
void irq_work_single(void *arg);

/*
 * CONFIG_DEBUG_PREEMPT: smp_processor_id() is debug_smp_processor_id()
 * (lib/smp_processor_id.c), which reports a use where the task could
 * migrate; the call site is passed for the report.
 */
#define smp_processor_id()                                              \
	sim_check_preemption_disabled("smp_processor_id", "", __FILE__, \
				      __LINE__, __func__)
#define raw_smp_processor_id() sim_cpu_id()
#define nr_cpu_ids ((unsigned int)NR_CPUS)
#define cpu_online(cpu) (sim_cpus[cpu].online)
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#define for_each_online_cpu(cpu)                  \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) \
		if (!cpu_online(cpu)) {           \
		} else

#endif
