// SPDX-License-Identifier: GPL-2.0
/*
 * run-suite BUILD NAME -- BINARY [ARGS]: run one suite binary for CTest.
 *
 * Transparent to CTest: the binary's stdout and stderr, merged on one pipe
 * (so a WARNING line stays between the RUN and FAILED lines of its test),
 * are passed through as they come, and the exit status (or the signal) is
 * the binary's.  Each line is also recorded with its arrival time in
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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
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

/* The environment that changes what a suite does (run_record.ENV_RX). */
static bool keyed_env(const char *e)
{
	if (!strncmp(e, "CMOCKA_MESSAGE_OUTPUT=", 22))
		return false;
	return !strncmp(e, "NAPITEST_", 9) || !strncmp(e, "CMOCKA_", 7) ||
	       !strncmp(e, "ASAN_OPTIONS=", 13) ||
	       !strncmp(e, "UBSAN_OPTIONS=", 14);
}

/* run_record.key(argv): {"version", "binary", "argv", "env"}. */
static void put_key(struct out *o, char **argv)
{
	char **env, hex[65];
	size_t n = 0, i;
	const char *base, *eq;

	puts_(o, "{\"version\": 1, \"binary\": ");
	if (file_sha256(argv[0], hex))
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

/* BUILD/results/runs/NAME.json, NAME with [^A-Za-z0-9_.-] as '_'. */
static void write_record(const char *build, const char *name, struct out *o)
{
	char dir[4096], path[4096 + 300], tmp[4096 + 340], safe[256];
	size_t i;
	FILE *f;

	for (i = 0; name[i] && i < sizeof(safe) - 1; i++)
		safe[i] = (strchr("_.-", name[i]) ||
			   (name[i] >= 'a' && name[i] <= 'z') ||
			   (name[i] >= 'A' && name[i] <= 'Z') ||
			   (name[i] >= '0' && name[i] <= '9')) ? name[i] : '_';
	safe[i] = 0;
	mkdir(build, 0777);
	snprintf(dir, sizeof(dir), "%s/results", build);
	mkdir(dir, 0777);
	snprintf(dir, sizeof(dir), "%s/results/runs", build);
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/%s.json", dir, safe);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f || fwrite(o->p, 1, o->len, f) != o->len || fclose(f) ||
	    rename(tmp, path))
		fprintf(stderr, "run-suite: cannot write %s: %s\n", path,
			strerror(errno));
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

static rlim_t cpu_guard(void)
{
	const char *e = getenv("NAPITEST_CPU_GUARD");
	long v = e ? strtol(e, NULL, 10) : 0;

	return v > 0 ? (rlim_t)v : 120;
}

static pid_t start(char **argv, int *rfd)
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
		/* SIGXCPU after the guard's CPU seconds, SIGKILL 10 s later. */
		setrlimit(RLIMIT_CPU, &cpu);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		setenv("CMOCKA_MESSAGE_OUTPUT", "STDOUT", 1);
		execv(argv[0], argv);
		fprintf(stderr, "run-suite: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

int main(int argc, char **argv)
{
	static char chunk[1 << 16];
	struct out rec = { 0 }, rest = { 0 };
	char num[64];
	double t0, t = 0;
	int fd, status, code;
	ssize_t n;
	pid_t pid;
	size_t i, from;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: run-suite BUILD NAME -- BINARY [ARGS]\n");
		return 2;
	}
	puts_(&rec, "{\"name\": ");
	put_str(&rec, argv[2], strlen(argv[2]));
	puts_(&rec, ", \"key\": ");
	put_key(&rec, argv + 4);
	puts_(&rec, ", \"lines\": [");
	t0 = now();
	pid = start(argv + 4, &fd);
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
		pass_through(chunk, (size_t)n);
		put(&rest, chunk, (size_t)n);
		for (i = 0, from = 0; i < rest.len; i++) {
			if (rest.p[i] != '\n')
				continue;
			put_line(&rec, t, rest.p + from, i - from);
			from = i + 1;
		}
		memmove(rest.p, rest.p + from, rest.len - from);
		rest.len -= from;
	}
	if (rest.len)
		put_line(&rec, t, rest.p, rest.len);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
	if (code == -SIGXCPU || code == -SIGKILL) {
		snprintf(num, sizeof(num), "%lu", (unsigned long)cpu_guard());
		fprintf(stdout, "run-suite: hang (CPU-time guard): %s used %s s of CPU (NAPITEST_CPU_GUARD) and was stopped; this is the harness's guard, not a verdict on the tree\n",
			argv[2], num);
		fflush(stdout);
	}
	snprintf(num, sizeof(num), "], \"status\": %d, \"elapsed\": %.6f}\n",
		 code, now() - t0);
	puts_(&rec, num);
	write_record(argv[1], argv[2], &rec);
	if (code < 0) {
		signal(-code, SIG_DFL);
		kill(getpid(), -code);
	}
	return code;
}
