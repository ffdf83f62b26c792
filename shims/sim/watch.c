// SPDX-License-Identifier: GPL-2.0
/*
 * The watch (sim/watch.h): where the tree changed a watched word.  Not a
 * kernel facility: the simulator's equivalent of a debugger watchpoint,
 * checked at every shim hook.
 */
/* (given on the command line in a unity build: NAPITEST_SIM_UNITY) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sim/sim.h>
#include <sim/watch.h>

int sim_watch_active;

static struct sim_watch watches[SIM_MAX_WATCHES];
static unsigned int nr_watches;
static int suspended;
static struct sim_site last_site;
static void *last_pc;
static char tree_prefix[512];
static size_t tree_len;

/* __FILE__ strings are few and constant: remember each one's answer. */
static struct {
	const char *file;
	int tree;
} file_cache[64];

static int is_tree_file(const char *file)
{
	unsigned int i;
	int tree;

	for (i = 0; i < 64 && file_cache[i].file; i++)
		if (file_cache[i].file == file)
			return file_cache[i].tree;
	tree = tree_len && !strncmp(file, tree_prefix, tree_len) &&
	       file[tree_len] == '/';
	if (i < 64) {
		file_cache[i].file = file;
		file_cache[i].tree = tree;
	}
	return tree;
}

static unsigned long read_word(const struct sim_watch *w)
{
	const volatile unsigned char *p = w->addr;

	switch (w->size) {
	case 1:
		return *p;
	case 2:
		return *(const volatile unsigned short *)p;
	case 4:
		return *(const volatile unsigned int *)p;
	default:
		return *(const volatile unsigned long *)p;
	}
}

void sim_watch_reset(const char *tree)
{
	nr_watches = 0;
	memset(&last_site, 0, sizeof(last_site));
	last_pc = NULL;
	memset(file_cache, 0, sizeof(file_cache));
	snprintf(tree_prefix, sizeof(tree_prefix), "%s", tree ? tree : "");
	tree_len = strlen(tree_prefix);
	while (tree_len > 1 && tree_prefix[tree_len - 1] == '/')
		tree_prefix[--tree_len] = '\0';
	sim_watch_active = 0;
}

/* A new watch of size bytes at addr, its description left to the caller. */
static struct sim_watch *watch_add(const volatile void *addr, size_t size)
{
	struct sim_watch *w;

	if (nr_watches == SIM_MAX_WATCHES)
		return NULL; /* a description less, not a failure */
	w = &watches[nr_watches++];
	memset(w, 0, sizeof(*w));
	w->addr = addr;
	w->size = size;
	w->last = read_word(w);
	w->cpu = -1;
	sim_watch_active = !suspended;
	return w;
}

void sim_watch(const volatile void *addr, size_t size, const char *fmt, ...)
{
	struct sim_watch *w = watch_add(addr, size);
	va_list ap;

	if (!w)
		return;
	va_start(ap, fmt);
	vsnprintf(w->what, sizeof(w->what), fmt, ap);
	va_end(ap);
}

void sim_watch_named(const volatile void *addr, size_t size, const char *what)
{
	struct sim_watch *w = watch_add(addr, size);
	size_t n;

	if (!w)
		return;
	n = strnlen(what, sizeof(w->what) - 1);
	memcpy(w->what, what, n);
	w->what[n] = '\0';
}

void sim_watch_suspend(int on)
{
	suspended = on;
	sim_watch_active = !on && nr_watches;
}

static void check(const char *file, int line, int tree, void *pc)
{
	unsigned int i;

	for (i = 0; i < nr_watches; i++) {
		struct sim_watch *w = &watches[i];
		unsigned long v;

		if (w->pending_after && tree) {
			w->after.file = file;
			w->after.line = line;
			w->pending_after = 0;
		}
		if (!w->after_pc)
			w->after_pc = pc;
		v = read_word(w);
		if (v == w->last)
			continue;
		w->last = v;
		w->changes++;
		w->cpu = sim_cpu_id();
		w->before = last_site;
		w->before_pc = last_pc;
		w->after_pc = pc;
		/* Who called the code around the change (its caller's line). */
		w->depth = pc && !sim_explore_active ? backtrace(w->stack, 8) :
						       0;
		w->after.file = NULL;
		w->pending_after = 1;
		if (tree) {
			w->after.file = file;
			w->after.line = line;
			w->pending_after = 0;
		}
	}
}

void sim_watch_point(const char *file, int line)
{
	int tree = is_tree_file(file);
	void *pc = __builtin_return_address(0);

	check(file, line, tree, pc);
	last_pc = pc;
	if (tree) {
		last_site.file = file;
		last_site.line = line;
	}
}

void sim_watch_sync(void)
{
	check(NULL, 0, 0, NULL);
}

const struct sim_watch *sim_watch_of(const volatile void *addr)
{
	unsigned int i;

	for (i = 0; i < nr_watches; i++)
		if (watches[i].addr == addr)
			return &watches[i];
	return NULL;
}

static const char *site_name(const struct sim_site *s)
{
	if (!s->file)
		return "?";
	if (tree_len && !strncmp(s->file, tree_prefix, tree_len))
		return s->file + tree_len + 1;
	return s->file;
}

const char *sim_watch_last_line(char *buf, size_t len)
{
	if (last_site.file)
		snprintf(buf, len, "the tree's last line run: %s:%d",
			 site_name(&last_site), last_site.line);
	else
		snprintf(buf, len, "the tree's code has not run");
	return buf;
}

/*
 * The tree's file:line of each code address (return addresses: pc - 1),
 * from the binary's debug information: addr2line -a -i prints each
 * address, then its inlined frames innermost first; the first frame in
 * the tree is the tree's line.  Appends "file:line" of each address found,
 * joined by sep, to buf; returns how many.
 */
static int pc_sites(void *const *pcs, int n, int ret, const char *sep,
		    char *buf, size_t len)
{
	char cmd[2048], line[600], last[600] = "";
	size_t used = strlen(buf);
	int i, found = 0, done = 1;
	Dl_info info;
	FILE *f;

	if (!n || !tree_len || !pcs[0] || !dladdr(pcs[0], &info) ||
	    !info.dli_fname)
		return 0;
	snprintf(cmd, sizeof(cmd), "addr2line -a -i -e '%s'", info.dli_fname);
	for (i = 0; i < n; i++) {
		Dl_info in;

		if (!pcs[i] || !dladdr(pcs[i], &in) ||
		    in.dli_fbase != info.dli_fbase)
			continue;
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " 0x%lx",
			 (unsigned long)((char *)pcs[i] - (char *)in.dli_fbase -
					 ret));
	}
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " 2>/dev/null");
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \n")] = '\0';
		if (!strncmp(line, "0x", 2)) {
			done = 0;
			continue;
		}
		if (done || strncmp(line, tree_prefix, tree_len) ||
		    line[tree_len] != '/' || !strcmp(line, last))
			continue;
		done = 1;
		snprintf(last, sizeof(last), "%s", line);
		snprintf(buf + used, len - used, "%s%s", found ? sep : "",
			 line + tree_len + 1);
		used = strlen(buf);
		found++;
	}
	pclose(f);
	return found;
}

static int pc_site(void *pc, char *buf, size_t len)
{
	buf[0] = '\0';
	return pc_sites(&pc, 1, 0, "", buf, len);
}

/*
 * No hook saw the word change: its value was the same at each of them
 * since sim_watch().  The code may still have changed it and put it back
 * between two hooks (a plain store, then another): say so, and which line
 * of the tree ran last.
 */
static void unchanged(char *buf, size_t len)
{
	char last[300];

	snprintf(buf, len,
		 "the same at every hook since it was watched (a change "
		 "undone between two hooks is not seen); %s",
		 sim_watch_last_line(last, sizeof(last)));
}

const char *sim_watch_describe(const volatile void *addr, char *buf, size_t len)
{
	const struct sim_watch *w;
	char b[300], a[300], chain[400] = "";

	sim_watch_sync();
	w = sim_watch_of(addr);
	if (!w)
		snprintf(buf, len, "not watched");
	else if (!w->changes)
		unchanged(buf, len);
	else if (pc_site(w->before_pc, b, sizeof(b)) &&
		 pc_site(w->after_pc, a, sizeof(a)) && strcmp(a, b)) {
		/* Frame 0 is sim_watch_point(), 1 the hook after the change. */
		if (w->depth > 2)
			pc_sites(w->stack + 2, w->depth > 3 ? 2 : 1, 1,
				 " called from ", chain, sizeof(chain));
		snprintf(buf, len, "last changed on CPU %d after %s, before %s",
			 w->cpu, b, chain[0] ? chain : a);
	} else if (pc_site(w->before_pc, b, sizeof(b)))
		snprintf(buf, len, "last changed on CPU %d at %s", w->cpu, b);
	else if (w->before.file && w->after.file)
		snprintf(buf, len,
			 "last changed on CPU %d after %s:%d, before %s:%d",
			 w->cpu, site_name(&w->before), w->before.line,
			 site_name(&w->after), w->after.line);
	else if (w->before.file)
		snprintf(buf, len, "last changed on CPU %d after %s:%d", w->cpu,
			 site_name(&w->before), w->before.line);
	else
		snprintf(buf, len,
			 "last changed on CPU %d outside the tree's code",
			 w->cpu);
	return buf;
}
