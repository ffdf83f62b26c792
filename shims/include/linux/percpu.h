/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stands for include/linux/percpu.h, percpu-defs.h and asm/percpu.h.
 *
 * As in the kernel, DEFINE_PER_CPU() places the variable in a per-CPU
 * section whose contents are the template; the simulator gives each CPU its
 * own copy of the section (setup_per_cpu_areas()) and per_cpu_ptr() adds the
 * CPU's offset.  So per_cpu(x, 1) and per_cpu(x, 0) really are different
 * objects, and this_cpu_read(s.member) works as in the kernel.  Unlike the
 * kernel, this_cpu_*() are not atomic against interrupts: only one simulated
 * CPU runs at a time and interrupts are delivered at explicit points.
 */
#ifndef SHIM_LINUX_PERCPU_H
#define SHIM_LINUX_PERCPU_H

#include <sim/sim.h>

/* lib/smp_processor_id.c: check_preemption_disabled(), with the call site. */
unsigned int sim_check_preemption_disabled(const char *what1, const char *what2,
					   const char *file, int line,
					   const char *func);

#define __PCPU_ATTRS __attribute__((__section__("sim_percpu"), __used__))
#define DEFINE_PER_CPU(type, name) __PCPU_ATTRS __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name) \
	__PCPU_ATTRS __typeof__(type) name ____cacheline_aligned
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) \
	DEFINE_PER_CPU_ALIGNED(type, name)
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define DECLARE_PER_CPU_ALIGNED(type, name) extern __typeof__(type) name
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name) \
	DECLARE_PER_CPU_ALIGNED(type, name)

#define SHIFT_PERCPU_PTR(ptr, off) ((__typeof__(ptr))((uintptr_t)(ptr) + (off)))
#define per_cpu_ptr(ptr, cpu) SHIFT_PERCPU_PTR(ptr, sim_percpu_offset[cpu])
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define raw_cpu_ptr(ptr) per_cpu_ptr(ptr, sim_cpu_id())

/*
 * CONFIG_DEBUG_PREEMPT: this_cpu_ptr() takes my_cpu_offset, that is
 * smp_processor_id(), and the __this_cpu_*() operations call
 * __this_cpu_preempt_check(op) (include/linux/percpu-defs.h): both report
 * a use in preemptible, migratable code (lib/smp_processor_id.c).  The
 * check is a call, out of line: no branch is added to the tree's lines.
 * this_cpu_*() and raw_cpu_*() are not checked, as in the kernel.
 */
#define __sim_pcpu_cpu(what1, what2)                                    \
	sim_check_preemption_disabled(what1, what2, __FILE__, __LINE__, \
				      __func__)
#define this_cpu_ptr(ptr) \
	per_cpu_ptr(ptr, __sim_pcpu_cpu("smp_processor_id", ""))
#define raw_cpu_read(pcp) (*raw_cpu_ptr(&(pcp)))
#define this_cpu_read(pcp) raw_cpu_read(pcp)
#define this_cpu_write(pcp, v) (*raw_cpu_ptr(&(pcp)) = (v))
#define this_cpu_inc(pcp) (++*raw_cpu_ptr(&(pcp)))
#define this_cpu_dec(pcp) (--*raw_cpu_ptr(&(pcp)))
#define this_cpu_add(pcp, v) (*raw_cpu_ptr(&(pcp)) += (v))
#define __this_cpu_read(pcp) \
	(*per_cpu_ptr(&(pcp), __sim_pcpu_cpu("__this_cpu_", "read")))
#define __this_cpu_write(pcp, v) \
	(*per_cpu_ptr(&(pcp), __sim_pcpu_cpu("__this_cpu_", "write")) = (v))
#define __this_cpu_add(pcp, v) \
	(*per_cpu_ptr(&(pcp), __sim_pcpu_cpu("__this_cpu_", "add")) += (v))
#define __this_cpu_inc(pcp) __this_cpu_add(pcp, 1)
#define __this_cpu_add_return(pcp, v)                                         \
	(*per_cpu_ptr(&(pcp), __sim_pcpu_cpu("__this_cpu_", "add_return")) += \
	 (v))
#define __this_cpu_sub_return(pcp, v)                                         \
	(*per_cpu_ptr(&(pcp), __sim_pcpu_cpu("__this_cpu_", "sub_return")) -= \
	 (v))

#endif
