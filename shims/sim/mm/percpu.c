// SPDX-License-Identifier: GPL-2.0
/*
 * Stands for mm/percpu.c's generic setup_per_cpu_areas() (x86_64 has its
 * own, arch/x86/kernel/setup_percpu.c, to the same effect): each CPU gets
 * a copy of the template of every DEFINE_PER_CPU() variable, and
 * sim_percpu_offset[] (the kernel's __per_cpu_offset[], linux/percpu.h)
 * the distance from the template to that copy.  Done again at every
 * sim_reset(), so each test boots with the variables' initial values.
 */
/* Explorer points are placed explicitly in the simulator (sim/explore.h). */
#define SIM_RAW_ONCE
#include <kernel_prelude.h>
#include <stdlib.h>
#include <string.h>
#include "sim_internal.h"

uintptr_t sim_percpu_offset[NR_CPUS];

/* The per-CPU section of the test executable: the template of every
 * DEFINE_PER_CPU() variable (the kernel's .data..percpu). */
extern char __start_sim_percpu[] __attribute__((weak));
extern char __stop_sim_percpu[] __attribute__((weak));
static char *percpu_area;
static size_t percpu_size;

/*
 * Byte by byte under AddressSanitizer, which must not check the section
 * (its variables' redzones lie between them); memcpy() otherwise: the
 * explorer boots the machine for every schedule.
 */
#ifdef __SANITIZE_ADDRESS__
static void __attribute__((no_sanitize_address))
percpu_copy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = src[i];
}
#else
#define percpu_copy(dst, src, n) memcpy(dst, src, n)
#endif

void sim_setup_per_cpu_areas(void)
{
	size_t size = (size_t)(__stop_sim_percpu - __start_sim_percpu);
	int cpu;

	if (!percpu_area) {
		percpu_size = (size + 63) & ~(size_t)63;
		percpu_area = aligned_alloc(64, percpu_size * NR_CPUS + 64);
		if (!percpu_area)
			abort();
	}
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		char *copy = percpu_area + cpu * percpu_size;

		percpu_copy(copy, __start_sim_percpu, size);
		sim_percpu_offset[cpu] =
			(uintptr_t)copy - (uintptr_t)__start_sim_percpu;
	}
}
