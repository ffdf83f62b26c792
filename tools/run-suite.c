// SPDX-License-Identifier: GPL-2.0
/*
 * run-suite BUILD NAME -- BINARY [ARGS]: run one suite binary for CTest.
 *
 * Transparent to CTest: the binary's stdout and stderr, merged on one pipe
 * (so a WARNING line stays between the RUN and FAILED lines of its test),
 * are passed through line by line as they come, and the exit status (or
 * the signal) is the binary's.  A tree given by KSRC is named by the
 * user's path, not by the build directory's link to it (tree_paths()).  Each line is also recorded with its arrival time in
 * BUILD/results/runs/NAME.json, the format of kernel-src/napitest/run_record.py,
 * from which `make results` writes KTAP and JUnit without running the
 * suites again.  The record is written only when the binary has ended, so
 * a run cut short leaves no record.
 *
 * In C, not Python: CTest starts it for every suite, and an interpreter's
 * start-up (some 0.2 s of CPU with the modules a wrapper needs) was most of
 * a warm make check.  The record's key is run_record.key(): the binary's
 * SHA-256, its arguments and the NAPITEST_* / CMOCKA_* / sanitizer
 * environment, so tools/results never reuses a stale record.
 *
 * The hang guard is counted in CPU time, not on the wall clock: the binary
 * gets RLIMIT_CPU of NAPITEST_CPU_GUARD seconds (default 120, some 20 times
 * the slowest suite's CPU time under ASan).  CPU time does not grow with
 * the machine's load, so a loaded machine cannot turn a passing suite into
 * a timeout.  When the guard fires, the run says "hang (CPU-time guard)":
 * a failure of the harness, never a verdict on the tree.  The simulator's
 * own step budgets (sim_hang(): "hang: no progress since FILE:LINE")
 * decide first; CTest's TIMEOUT is a last wall-clock guard far above both.
 *
 * A passing run is reused, not repeated, while everything it depends on is
 * unchanged: the result cache.  After a run that exited 0, the output is
 * kept in BUILD/results/runs/NAME.cache with a key over
 *   - this harness and the binary (and a script's interpreter), by their
 *     stat identity: device, inode, mode, size, mtime and ctime, which no
 *     write leaves alone (ctime cannot be set back), as ninja and git's
 *     index trust them;
 *   - the arguments, the working directory and the environment that can
 *     change a run: NAPITEST_*, CMOCKA_*, the sanitizers' options, PATH,
 *     HOME, XDG_CACHE_HOME, LD_* and PYTHON*;
 *   - the system's libraries and tools: /etc/ld.so.cache and the package
 *     database /var/lib/dpkg/status, rewritten by every install/upgrade;
 *   - every file under each --input PATH (by stat identity; .git,
 *     __pycache__ and each --exclude PATH left out): what a test reads
 *     besides its binary, e.g. the repository for the Python checks;
 *   - every file named in each --input-list FILE, one path a line, as the
 *     test's last run wrote it (kbuild-check --deps-out: the tree files
 *     kbuild's dependency lists name).  A missing list makes the run
 *     one that is never reused.
 * The next run with the same key prints "run-suite: reused (cached): ..."
 * and the recorded output, and exits 0; any change of the key runs the
 * binary again.  NAPITEST_NO_CACHE=1 always runs it.  A failure is never
 * reused, nor a run stopped by the CPU-time guard.
 *
 * --check: NAME is a whole make check (the Makefile's CHECK_CACHED), the
 * command the sub-make that runs CTest and the verdict: no record, no
 * CPU-time guard, kept as BUILD/results/runs/NAME-<hash of the --key
 * values>.cache.  Its key adds, to the above, each --key STRING (the
 * make options), every executable directly in each --input-exec DIR (the
 * build's binaries), and each --never-if PATH that exists makes the run
 * one that is never reused (a git tree's state, which the key cannot
 * follow); with --since NS (when the build began, in ns since the epoch),
 * so does an input written after it (its ctime; the build's own files,
 * under an --exclude PATH, aside): the key has it as it is now, the build
 * may have read it before.  --replay-only prints a kept output whose key
 * matches, saying "make check: reused (cached)" and from when, and exits
 * 0; otherwise it exits 3 and runs nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- SHA-256 (FIPS 180-4) ---- */

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
			(w[i - 15] >> 3)) +
		       (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
			(w[i - 2] >> 10));
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	f = s->h[5];
	g = s->h[6];
	h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
	s->h[5] += f;
	s->h[6] += g;
	s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->len = 0;
	s->n = 0;
}

static void sha256_update(struct sha256 *s, const unsigned char *p, size_t len)
{
	s->len += len;
	if (s->n) {
		while (len && s->n < 64) {
			s->buf[s->n++] = *p++;
			len--;
		}
		if (s->n < 64)
			return;
		sha256_block(s, s->buf);
		s->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(s, p);
	memcpy(s->buf, p, len);
	s->n = len;
}

static void sha256_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, len[8];
	int i;

	sha256_update(s, &pad, 1);
	pad = 0;
	while (s->n != 56)
		sha256_update(s, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(s, len, 8);
	for (i = 0; i < 8; i++)
		sprintf(out + 8 * i, "%08x", s->h[i]);
}

/* The binary's SHA-256 in hex, or false if it cannot be read. */
static bool file_sha256(const char *path, char out[65])
{
	static unsigned char buf[1 << 16];
	struct sha256 s;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	sha256_init(&s);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&s, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return false;
	sha256_hex(&s, out);
	return true;
}

/* ---- the record: a growing buffer of JSON ---- */

struct out {
	char *p;
	size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p) {
			perror("run-suite");
			exit(125);
		}
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, c = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

/* A JSON string of the bytes, invalid UTF-8 as U+FFFD (Python's
 * errors="replace"). */
static void put_str(struct out *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	size_t i = 0, l;

	put(o, "\"", 1);
	while (i < n) {
		if (p[i] == '"' || p[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)p[i];
			put(o, esc, 2);
			i++;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", p[i]);
			put(o, esc, 6);
			i++;
		} else if ((l = utf8_len(p + i, n - i))) {
			put(o, s + i, l);
			i += l;
		} else {
			puts_(o, "\\ufffd");
			i++;
		}
	}
	put(o, "\"", 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One recorded line: [seconds, "text"]. */
static void put_line(struct out *o, double t, const char *s, size_t n)
{
	char num[32];

	puts_(o, o->p[o->len - 1] == '[' ? "[" : ", [");
	snprintf(num, sizeof(num), "%.6f, ", t);
	puts_(o, num);
	put_str(o, s, n);
	put(o, "]", 1);
}

static int env_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The environment that changes what a suite does (run_record.ENV_RX); not
 * whether to reuse a result, nor the directory make was typed in (the
 * Makefile's, for a relative KSRC), nor the name of the make check's run
 * (kbuild-check's kept failures are for that run only).
 */
static bool keyed_env(const char *e)
{
	if (!strncmp(e, "CMOCKA_MESSAGE_OUTPUT=", 22) ||
	    !strncmp(e, "NAPITEST_NO_CACHE=", 18) ||
	    !strncmp(e, "NAPITEST_INVOKED_FROM=", 22) ||
	    !strncmp(e, "NAPITEST_CHECK_RUN=", 19))
		return false;
	return !strncmp(e, "NAPITEST_", 9) || !strncmp(e, "CMOCKA_", 7) ||
	       !strncmp(e, "ASAN_OPTIONS=", 13) ||
	       !strncmp(e, "UBSAN_OPTIONS=", 14);
}

static bool binary_sha256(const char *build, const char *path, char out[65]);

/* run_record.key(argv): {"version", "binary", "argv", "env"}. */
static void put_key(struct out *o, const char *build, char **argv)
{
	char **env, hex[65];
	size_t n = 0, i;
	const char *base, *eq;

	puts_(o, "{\"version\": 1, \"binary\": ");
	if (binary_sha256(build, argv[0], hex))
		put_str(o, hex, 64);
	else
		puts_(o, "null");
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	puts_(o, ", \"argv\": [");
	put_str(o, base, strlen(base));
	for (i = 1; argv[i]; i++) {
		puts_(o, ", ");
		put_str(o, argv[i], strlen(argv[i]));
	}
	puts_(o, "], \"env\": {");
	for (i = 0; environ[i]; i++)
		n++;
	env = calloc(n + 1, sizeof(*env));
	for (i = 0, n = 0; environ[i]; i++)
		if (keyed_env(environ[i]) && strchr(environ[i], '='))
			env[n++] = environ[i];
	qsort(env, n, sizeof(*env), env_cmp);
	for (i = 0; i < n; i++) {
		eq = strchr(env[i], '=');
		if (i)
			puts_(o, ", ");
		put_str(o, env[i], (size_t)(eq - env[i]));
		puts_(o, ": ");
		put_str(o, eq + 1, strlen(eq + 1));
	}
	free(env);
	puts_(o, "}}");
}

#define PATH_LEN (4096 + 300)

/* BUILD/results/runs/NAME.EXT, NAME with [^A-Za-z0-9_.-] as '_'. */
static void record_path(const char *build, const char *name, const char *ext,
			char path[PATH_LEN])
{
	char safe[256];
	size_t i;

	for (i = 0; name[i] && i < sizeof(safe) - 1; i++)
		safe[i] = (strchr("_.-", name[i]) ||
			   (name[i] >= 'a' && name[i] <= 'z') ||
			   (name[i] >= 'A' && name[i] <= 'Z') ||
			   (name[i] >= '0' && name[i] <= '9')) ?
				  name[i] :
				  '_';
	safe[i] = 0;
	snprintf(path, PATH_LEN, "%s/results/runs/%s.%s", build, safe, ext);
}

/* Write the parts to path, atomically (a temporary file, renamed). */
static void write_file(const char *build, const char *path,
		       const struct out *parts, int n)
{
	char dir[4096], tmp[PATH_LEN + 40];
	bool ok;
	FILE *f;
	int i;

	mkdir(build, 0777);
	snprintf(dir, sizeof(dir), "%s/results", build);
	mkdir(dir, 0777);
	snprintf(dir, sizeof(dir), "%s/results/runs", build);
	mkdir(dir, 0777);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	f = fopen(tmp, "w");
	ok = f != NULL;
	for (i = 0; ok && i < n; i++)
		ok = fwrite(parts[i].p, 1, parts[i].len, f) == parts[i].len;
	if (f && fclose(f))
		ok = false;
	if (!ok || rename(tmp, path)) {
		fprintf(stderr, "run-suite: cannot write %s: %s\n", path,
			strerror(errno));
		unlink(tmp);
	}
}

/*
 * The binary's SHA-256 for the record's key, remembered by the stat
 * identity of the file it resolves to (device, inode, size, mtime, ctime,
 * which no write leaves alone: what the result cache trusts too) in
 * BUILD/results/digests/: the suites of a configuration are links to one
 * binary, suites-CFG, which is hashed once per link of it, not once per
 * suite (some 5 ms of CPU each).
 */
static bool binary_sha256(const char *build, const char *path, char out[65])
{
	char real[4096], memo[PATH_LEN], id[160], line[256], *p;
	struct stat st, st2;
	struct out o = { 0 };
	size_t i;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !realpath(path, real))
		return file_sha256(path, out);
	snprintf(id, sizeof(id), "%llu %llu %lld %lld.%09ld %lld.%09ld",
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
		 st.st_ctim.tv_nsec);
	for (p = real; *p; p++)
		if (*p == '/')
			*p = '_';
	for (i = 0; real[i] && i < 200; i++)
		;
	real[i] = 0; /* a name, not a path: a clash only costs a hash */
	snprintf(memo, sizeof(memo), "%s/results/digests", build);
	mkdir(build, 0777);
	snprintf(line, sizeof(line), "%s/results", build);
	mkdir(line, 0777);
	mkdir(memo, 0777);
	snprintf(memo, sizeof(memo), "%s/results/digests/%s", build, real);
	f = fopen(memo, "r");
	if (f) {
		p = fgets(line, sizeof(line), f);
		fclose(f);
		i = strlen(id);
		if (p && !strncmp(line, id, i) && line[i] == ' ' &&
		    strlen(line + i + 1) == 65 && line[i + 65] == '\n') {
			memcpy(out, line + i + 1, 64);
			out[64] = 0;
			return true;
		}
	}
	if (!file_sha256(path, out))
		return false;
	/* Kept only if the file was not replaced while it was read. */
	if (stat(path, &st2) || st2.st_ino != st.st_ino ||
	    st2.st_dev != st.st_dev || st2.st_size != st.st_size ||
	    st2.st_mtim.tv_sec != st.st_mtim.tv_sec ||
	    st2.st_mtim.tv_nsec != st.st_mtim.tv_nsec ||
	    st2.st_ctim.tv_sec != st.st_ctim.tv_sec ||
	    st2.st_ctim.tv_nsec != st.st_ctim.tv_nsec)
		return true;
	puts_(&o, id);
	puts_(&o, " ");
	puts_(&o, out);
	puts_(&o, "\n");
	write_file(build, memo, &o, 1);
	free(o.p);
	return true;
}

static void write_record(const char *build, const char *name, struct out *o)
{
	char path[PATH_LEN];

	record_path(build, name, "json", path);
	write_file(build, path, o, 1);
}

/*
 * The build names a tree given by KSRC through the link BUILD/tree (its
 * directory is keyed by content, so a copy at a new path reuses it); the
 * user's tree is where the link points.  Each line passed on or recorded
 * names that path; the result cache keeps the lines as the binary printed
 * them, so a pass reused for a copy of the tree at another path names the
 * copy.
 */
static char tree_from[4096 + 16], tree_to[4096 + 8];

static void tree_paths(const char *build)
{
	char link[4096 + 8];
	ssize_t n;

	snprintf(link, sizeof(link), "%s/tree", build);
	n = readlink(link, tree_to, sizeof(tree_to) - 1);
	if (n <= 0 || tree_to[0] != '/') {
		tree_to[0] = 0;
		return;
	}
	tree_to[n] = 0;
	snprintf(tree_from, sizeof(tree_from), "%s", link);
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_.+-", c);
}

/* The line s[0..n) with BUILD/tree as the user's tree, in *o (reset). */
static void user_paths(struct out *o, const char *s, size_t n)
{
	size_t fl = strlen(tree_from), i = 0, end;
	const char *hit;

	o->len = 0;
	while (fl && i < n && (hit = memmem(s + i, n - i, tree_from, fl))) {
		end = (size_t)(hit - s) + fl;
		put(o, s + i, (size_t)(hit - (s + i)));
		if (end < n && path_char(s[end]))
			put(o, hit, fl); /* BUILD/tree2: another path */
		else
			puts_(o, tree_to);
		i = end;
	}
	put(o, s + i, n - i);
}

/* To CTest as it comes; if CTest went away, keep recording. */
static void pass_through(const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(1, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* ---- the result cache (see the top of this file) ---- */

#define CACHE_MAGIC "napitest-run-suite cache 1\n"
#define MAX_PATHS 32

struct cache {
	const char *inputs[MAX_PATHS], *excludes[MAX_PATHS];
	const char *lists[MAX_PATHS], *execs[MAX_PATHS];
	const char *keys[MAX_PATHS], *nevers[MAX_PATHS];
	int nr_inputs, nr_excludes, nr_lists, nr_execs, nr_keys, nr_nevers;
	bool off; /* NAPITEST_NO_CACHE */
	/* neither reuse nor keep: an input list is missing, a --never-if
	 * path exists, or an input was written after --since */
	bool no_keep;
	bool check; /* --check: NAME is a whole make check (see main()) */
	bool replay_only; /* --replay-only: reuse, or exit 3 */
	long long since; /* --since NS: when the build began (0: not given) */
	char changed[PATH_LEN]; /* an input written after since */
	char key[65];
	char path[PATH_LEN];
};

/* tag, value and a NUL into the key: no two lists of them hash alike. */
/*
 * Complete lines of buf (with its length *len) to CTest, each with the
 * user's tree path, and to the record if rec; the rest stays in buf.
 * all: the rest too (the output has ended).
 */
static void pass_lines(struct out *buf, struct out *rec, double t, bool all)
{
	static struct out line;
	size_t i, from;

	for (i = 0, from = 0; i <= buf->len; i++) {
		if (i == buf->len ? !all || i == from : buf->p[i] != '\n')
			continue;
		user_paths(&line, buf->p + from, i - from);
		pass_through(line.p, line.len);
		if (i < buf->len)
			pass_through("\n", 1);
		if (rec)
			put_line(rec, t, line.p, line.len);
		from = i + 1;
	}
	if (from > buf->len)
		from = buf->len;
	memmove(buf->p, buf->p + from, buf->len - from);
	buf->len -= from;
}

static void key_str(struct sha256 *s, const char *tag, const char *v)
{
	sha256_update(s, (const unsigned char *)tag, strlen(tag) + 1);
	sha256_update(s, (const unsigned char *)v, strlen(v) + 1);
}

static void key_st(struct sha256 *s, const char *tag, const char *path,
		   const struct stat *st)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "%llu %llu %o %lld %lld.%09ld %lld.%09ld",
		 (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (unsigned int)st->st_mode, (long long)st->st_size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		 (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	key_str(s, tag, path);
	key_str(s, "stat", buf);
}

/* A file by its stat identity (followed if a link), or as missing. */
static void key_stat(struct sha256 *s, const char *tag, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		key_str(s, "missing", path);
	else
		key_st(s, tag, path, &st);
}

/* path, once links are resolved, is under an --exclude PATH's. */
static bool under_exclude(const struct cache *c, const char *path)
{
	char real[PATH_MAX], dir[PATH_MAX];
	size_t n;
	int i;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	for (i = 0; i < c->nr_excludes; i++) {
		if (!realpath(c->excludes[i], dir))
			snprintf(dir, sizeof(dir), "%s", c->excludes[i]);
		n = strlen(dir);
		if (!strncmp(real, dir, n) && (real[n] == '/' || !real[n]))
			return true;
	}
	return false;
}

/*
 * --since: an input written after the build began, by its ctime, which
 * every write sets and nothing sets back; the build's own files (under
 * an --exclude PATH: the build directories, once links are resolved, as
 * BUILD/<id>/tree, a link to the user's tree, is not) aside.  The key
 * has the file's stat now, but what was built and is about to run may be
 * the file before: a pass kept under that key would be replayed for
 * content never built.  A ctime may be up to the file system's timestamp
 * granularity (a clock tick, 1-10 ms; 1 s on ext4's small inodes)
 * earlier than the write: a save in the build's first such interval is
 * not seen.
 */
static void note_written(struct cache *c, const char *path,
			 const struct stat *st)
{
	long long ctime_ns = (long long)st->st_ctim.tv_sec * 1000000000LL +
			     st->st_ctim.tv_nsec;

	if (!c->since || c->changed[0] || ctime_ns <= c->since ||
	    under_exclude(c, path))
		return;
	snprintf(c->changed, sizeof(c->changed), "%s", path);
	c->no_keep = true;
}

static bool excluded(const struct cache *c, const char *path, const char *name)
{
	int i;

	if (!strcmp(name, ".git") || !strcmp(name, "__pycache__") ||
	    !strcmp(name, ".pytest_cache"))
		return true;
	for (i = 0; i < c->nr_excludes; i++)
		if (!strcmp(path, c->excludes[i]))
			return true;
	return false;
}

/* Every file under path, in name order, by stat identity. */
static void key_tree(struct sha256 *s, struct cache *c, const char *path,
		     int depth)
{
	struct dirent **ents;
	char sub[4096];
	struct stat st;
	int n, i;

	if (stat(path, &st)) {
		key_str(s, "missing", path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		key_st(s, "input", path, &st);
		note_written(c, path, &st);
		return;
	}
	n = depth < 32 ? scandir(path, &ents, NULL, alphasort) : -1;
	if (n < 0) {
		key_str(s, "unreadable", path);
		return;
	}
	key_str(s, "dir", path);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		snprintf(sub, sizeof(sub), "%s/%s", path, name);
		if (strcmp(name, ".") && strcmp(name, "..") &&
		    !excluded(c, sub, name))
			key_tree(s, c, sub, depth + 1);
		free(ents[i]);
	}
	free(ents);
}

/* Every file a list names; false if there is no list. */
static bool key_list(struct sha256 *s, struct cache *c, const char *list)
{
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	ssize_t n;
	FILE *f = fopen(list, "r");

	if (!f)
		return false;
	key_str(s, "list", list);
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = 0;
		if (!*line)
			continue;
		if (stat(line, &st)) {
			key_str(s, "missing", line);
		} else {
			key_st(s, "listed", line, &st);
			note_written(c, line, &st);
		}
	}
	free(line);
	fclose(f);
	return true;
}

/* Every executable regular file directly in dir (a build's binaries). */
static void key_execs(struct sha256 *s, const char *dir)
{
	struct dirent **ents;
	char sub[4096];
	struct stat st;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		key_str(s, "missing", dir);
		return;
	}
	key_str(s, "execs", dir);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, ents[i]->d_name);
		if (!lstat(sub, &st) && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111))
			key_st(s, "exec", sub, &st);
		free(ents[i]);
	}
	free(ents);
}

/* A script's interpreter ("#!/usr/bin/python3", "#!/usr/bin/env sh"). */
static void key_interpreter(struct sha256 *s, const char *script)
{
	char line[256], *interp, *arg, *dir, path[4096], *p;
	const char *env = getenv("PATH");
	ssize_t n;
	int fd = open(script, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return;
	line[n] = 0;
	line[strcspn(line, "\n")] = 0;
	interp = strtok(line + 2, " \t");
	arg = strtok(NULL, " \t");
	if (!interp)
		return;
	key_stat(s, "interpreter", interp);
	if (!arg ||
	    strcmp(strrchr(interp, '/') ? strrchr(interp, '/') + 1 : interp,
		   "env"))
		return;
	/* env looks its argument up on PATH: the first one found runs. */
	p = strdup(env ? env : "");
	for (dir = strtok(p, ":"); dir; dir = strtok(NULL, ":")) {
		snprintf(path, sizeof(path), "%s/%s", dir, arg);
		if (!access(path, X_OK)) {
			key_stat(s, "interpreter", path);
			break;
		}
	}
	free(p);
}

/* The environment that can change a run, for the cache key. */
static bool cache_env(const char *e)
{
	static const char *const more[] = {
		"PATH=", "HOME=", "XDG_CACHE_HOME=", "LD_", "PYTHON", NULL,
	};
	int i;

	if (keyed_env(e))
		return true;
	for (i = 0; more[i]; i++)
		if (!strncmp(e, more[i], strlen(more[i])))
			return true;
	return false;
}

static void cache_key(struct cache *c, char **argv)
{
	char cwd[4096], **env;
	struct sha256 s;
	size_t n = 0, i;
	int k;

	sha256_init(&s);
	key_str(&s, "version", CACHE_MAGIC);
	key_stat(&s, "harness", "/proc/self/exe");
	key_str(&s, "cwd", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
	for (i = 0; argv[i]; i++)
		key_str(&s, "arg", argv[i]);
	key_stat(&s, "binary", argv[0]);
	key_interpreter(&s, argv[0]);
	for (i = 0; environ[i]; i++)
		n++;
	env = calloc(n + 1, sizeof(*env));
	for (i = 0, n = 0; environ[i]; i++)
		if (cache_env(environ[i]))
			env[n++] = environ[i];
	qsort(env, n, sizeof(*env), env_cmp);
	for (i = 0; i < n; i++)
		key_str(&s, "env", env[i]);
	free(env);
	key_stat(&s, "system", "/etc/ld.so.cache");
	key_stat(&s, "system", "/var/lib/dpkg/status");
	for (k = 0; k < c->nr_inputs; k++)
		key_tree(&s, c, c->inputs[k], 0);
	for (k = 0; k < c->nr_lists; k++)
		if (!key_list(&s, c, c->lists[k]))
			c->no_keep = true;
	for (k = 0; k < c->nr_execs; k++)
		key_execs(&s, c->execs[k]);
	for (k = 0; k < c->nr_keys; k++)
		key_str(&s, "key", c->keys[k]);
	/* What the key cannot follow (a git work tree's state): never kept. */
	for (k = 0; k < c->nr_nevers; k++)
		if (!access(c->nevers[k], F_OK))
			c->no_keep = true;
	sha256_hex(&s, c->key);
}

/* The recorded output of a passing run with the same key, if there is one. */
static bool cache_replay(const struct cache *c)
{
	char head[sizeof(CACHE_MAGIC)], key[80], when[64], buf[1 << 14];
	struct out rest = { 0 };
	size_t n;
	FILE *f;

	if (c->off || c->no_keep || !(f = fopen(c->path, "r")))
		return false;
	if (!fgets(head, sizeof(head), f) || strcmp(head, CACHE_MAGIC) ||
	    !fgets(key, sizeof(key), f) || strncmp(key, c->key, 64) ||
	    key[64] != '\n' || !fgets(when, sizeof(when), f)) {
		fclose(f);
		return false;
	}
	when[strcspn(when, "\n")] = 0;
	if (c->check)
		printf("make check: reused (cached): this make check exited 0 when run at %s, and nothing it depends on has changed since (binaries, build files, repository, tree files, system, environment, make options); nothing was run again, the output of that run follows, its verdict included (NAPITEST_NO_CACHE=1 runs it all)\n",
		       when);
	else
		printf("run-suite: reused (cached): this passed when run at %s, with the same binary, inputs and environment; not run again (NAPITEST_NO_CACHE=1 runs it)\n",
		       when);
	fflush(stdout);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		put(&rest, buf, n);
		pass_lines(&rest, NULL, 0, false);
	}
	pass_lines(&rest, NULL, 0, true);
	fclose(f);
	return true;
}

/* After a run: keep a pass for reuse, forget anything else. */
static void cache_store(const struct cache *c, const char *build, int code,
			time_t started, const struct out *raw)
{
	struct out parts[2] = { { 0 }, *raw };
	char when[64];

	if (code || c->no_keep) {
		unlink(c->path);
		return;
	}
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&started));
	puts_(&parts[0], CACHE_MAGIC);
	puts_(&parts[0], c->key);
	puts_(&parts[0], "\n");
	puts_(&parts[0], when);
	puts_(&parts[0], "\n");
	write_file(build, c->path, parts, raw->len ? 2 : 1);
	free(parts[0].p);
}

static rlim_t cpu_guard(void)
{
	const char *e = getenv("NAPITEST_CPU_GUARD");
	long v = e ? strtol(e, NULL, 10) : 0;

	return v > 0 ? (rlim_t)v : 120;
}

static pid_t start(char **argv, int *rfd, bool check)
{
	struct rlimit cpu = { cpu_guard(), cpu_guard() + 10 };
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		/* The binary dies with us (CTest's timeout kills this). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		if (check) {
			/* make, as $(MAKE) names it: looked up on PATH. */
			execvp(argv[0], argv);
		} else {
			/* SIGXCPU after the guard's CPU s, SIGKILL 10 s later. */
			setrlimit(RLIMIT_CPU, &cpu);
			setenv("CMOCKA_MESSAGE_OUTPUT", "STDOUT", 1);
			execv(argv[0], argv);
		}
		fprintf(stderr, "run-suite: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

/* One value option of parse_args(): into its list, false if unknown. */
static bool add_opt(struct cache *c, const char *opt, const char *v)
{
	static const struct {
		const char *name;
		size_t list, nr;
	} opts[] = {
#define OPT(n, l) \
	{ n, offsetof(struct cache, l), offsetof(struct cache, nr_##l) }
		OPT("--input", inputs),	    OPT("--exclude", excludes),
		OPT("--input-list", lists), OPT("--input-exec", execs),
		OPT("--key", keys),	    OPT("--never-if", nevers),
#undef OPT
	};
	size_t i;
	const char **list;
	int *nr;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (strcmp(opt, opts[i].name))
			continue;
		list = (const char **)((char *)c + opts[i].list);
		nr = (int *)((char *)c + opts[i].nr);
		if (*nr >= MAX_PATHS)
			return false;
		list[(*nr)++] = v;
		return true;
	}
	return false;
}

/*
 * --check: NAME is a whole make check, kept under NAME-<hash of the
 * --key values> (one per set of make options); not a suite: no record,
 * no CPU-time guard.
 */
static void check_path(struct cache *c, const char *build, const char *name)
{
	char full[256], hex[65];
	struct sha256 s;
	int k;

	sha256_init(&s);
	for (k = 0; k < c->nr_keys; k++)
		key_str(&s, "key", c->keys[k]);
	sha256_hex(&s, hex);
	snprintf(full, sizeof(full), "%.200s-%.12s", name, hex);
	record_path(build, full, "cache", c->path);
}

/* --since NS: nanoseconds since the epoch, > 0. */
static bool parse_since(struct cache *c, const char *v)
{
	char *end;

	errno = 0;
	c->since = strtoll(v, &end, 10);
	return !errno && end != v && !*end && c->since > 0;
}

/*
 * BUILD NAME [--check] [--replay-only] [--since NS] [--input PATH |
 * --exclude PATH | --input-list FILE | --input-exec DIR | --key STRING |
 * --never-if PATH]... --.
 */
static int parse_args(int argc, char **argv, struct cache *c)
{
	const char *e = getenv("NAPITEST_NO_CACHE");
	int i;

	c->off = e && *e && strcmp(e, "0");
	for (i = 3; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--check"))
			c->check = true;
		else if (!strcmp(argv[i], "--replay-only"))
			c->replay_only = true;
		else if (!strcmp(argv[i], "--since") && i + 1 < argc &&
			 parse_since(c, argv[i + 1]))
			i++;
		else if (i + 1 >= argc || !add_opt(c, argv[i], argv[i + 1]))
			return -1;
		else
			i++;
	}
	if (i + 1 >= argc)
		return -1;
	if (c->check)
		check_path(c, argv[1], argv[2]);
	else
		record_path(argv[1], argv[2], "cache", c->path);
	return i + 1;
}

int main(int argc, char **argv)
{
	static char chunk[1 << 16];
	struct out rec = { 0 }, rest = { 0 }, raw = { 0 };
	static struct cache cache;
	time_t started = time(NULL);
	char num[64], **cmd;
	double t0, t = 0;
	int fd, status, code, first;
	ssize_t n;
	pid_t pid;

	first = argc >= 3 ? parse_args(argc, argv, &cache) : -1;
	if (first < 0) {
		fprintf(stderr,
			"usage: run-suite BUILD NAME [--check] [--replay-only] [--since NS] [--input PATH] [--exclude PATH] [--input-list FILE] [--input-exec DIR] [--key STRING] [--never-if PATH] -- BINARY [ARGS]\n");
		return 2;
	}
	cmd = argv + first;
	tree_paths(argv[1]);
	cache_key(&cache, cmd);
	if (cache_replay(&cache))
		return 0;
	if (cache.replay_only)
		return 3;
	puts_(&rec, "{\"name\": ");
	put_str(&rec, argv[2], strlen(argv[2]));
	puts_(&rec, ", \"key\": ");
	put_key(&rec, argv[1], cmd);
	puts_(&rec, ", \"lines\": [");
	t0 = now();
	pid = start(cmd, &fd, cache.check);
	if (pid < 0) {
		perror("run-suite");
		return 125;
	}
	/* Unbuffered reads: a line's time is when it arrived. */
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		t = now() - t0;
		if (n <= 0)
			break;
		put(&raw, chunk, (size_t)n);
		put(&rest, chunk, (size_t)n);
		pass_lines(&rest, &rec, t, false);
	}
	pass_lines(&rest, &rec, t, true);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
	if (!cache.check && (code == -SIGXCPU || code == -SIGKILL)) {
		snprintf(num, sizeof(num), "%lu", (unsigned long)cpu_guard());
		fprintf(stdout,
			"run-suite: hang (CPU-time guard): %s used %s s of CPU (NAPITEST_CPU_GUARD) and was stopped; this is the harness's guard, not a verdict on the tree\n",
			argv[2], num);
		fflush(stdout);
	}
	snprintf(num, sizeof(num), "], \"status\": %d, \"elapsed\": %.6f}\n",
		 code, now() - t0);
	puts_(&rec, num);
	if (!cache.check)
		write_record(argv[1], argv[2], &rec);
	if (cache.changed[0]) {
		/* named by the user's path, as every line */
		puts_(&rest, "run-suite: ");
		puts_(&rest, cache.changed);
		puts_(&rest,
		      " was written after this run's build began: its result is not kept (the next run builds and runs again)\n");
		pass_lines(&rest, NULL, t, true);
	}
	cache_store(&cache, argv[1], code, started, &raw);
	if (code < 0) {
		signal(-code, SIG_DFL);
		kill(getpid(), -code);
	}
	return code;
}
