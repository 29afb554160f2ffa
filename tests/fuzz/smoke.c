/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smoke.c --- a standalone, deterministic driver of the e2fsck fuzz
 * target (fsck_target.c): every seed image as it is, then N mutations of
 * each (mutate.c), each case checked (-fn) and then repaired (-fy, in a
 * copy of its own), each run under a time limit.  Works with any
 * compiler; make check runs it (tests/fuzz/smoke.sh).
 *
 *   fsck-smoke [-n N] [-s SEED] [-t SECONDS] [-f FIRST] SEED_IMAGE...
 *   fsck-smoke -w FILE:CASE OUT   (write one mutated case, to rerun it
 *                                  with e2fsck -fn OUT or under gdb)
 *
 * Case K of a seed file is its K-th mutation (0 = unchanged); a case
 * depends only on (SEED, the seed file's content, K).  A crash, a
 * sanitizer report or a time-out names the case on stderr.
 */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fsck_target.h"
#include "mutate.h"

static char current[512];	/* the case being run, for the handlers */

static void say_case(void)
{
	static const char pre[] = "fsck-smoke: failing case: ";

	if (write(2, pre, sizeof(pre) - 1) < 0 ||
	    write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
		return;
}

static void on_alarm(int sig)
{
	static const char msg[] = "fsck-smoke: time limit exceeded (hang)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	say_case();
	_exit(3);
}

static void on_fatal(int sig)
{
	say_case();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Sanitizers call this before they exit. */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static uint8_t *read_file(const char *path, size_t *sizep)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *nb;
	size_t size = 0, cap = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		if (size == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			nb = realloc(buf, cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		n = fread(buf + size, 1, cap - size, f);
		if (!n)
			break;
		size += n;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	*sizep = size;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

/* Case K of a seed: its content into CASEBUF. */
static void make_case(const struct mut_map *m, const uint8_t *seed,
		      size_t size, uint64_t rseed, unsigned long k,
		      uint8_t *casebuf, char *what, size_t whatlen)
{
	uint64_t st = rseed ^ (k * 0x2545f4914f6cdd1dULL);

	memcpy(casebuf, seed, size);
	snprintf(what, whatlen, "unchanged");
	if (k)
		mut_apply(m, casebuf, size, &st, what, whatlen);
}

struct opts {
	unsigned long n, first;
	uint64_t seed;
	unsigned int limit;
	const char *write_case, *write_out;
};

static int write_one(const struct opts *o)
{
	char path[4096], what[256];
	const char *colon = strrchr(o->write_case, ':');
	struct mut_map m;
	uint8_t *seed, *buf;
	size_t size;
	FILE *f;
	int rc = 1;

	if (!colon || (size_t)(colon - o->write_case) >= sizeof(path)) {
		fprintf(stderr, "fsck-smoke: -w FILE:CASE OUT\n");
		return 2;
	}
	memcpy(path, o->write_case, colon - o->write_case);
	path[colon - o->write_case] = 0;
	seed = read_file(path, &size);
	buf = seed ? malloc(size) : NULL;
	if (!buf || mut_map_build(&m, seed, size)) {
		fprintf(stderr, "fsck-smoke: cannot read %s\n", path);
		free(seed);
		return 1;
	}
	make_case(&m, seed, size, o->seed, strtoul(colon + 1, NULL, 0), buf,
		  what, sizeof(what));
	f = fopen(o->write_out, "wb");
	if (f && fwrite(buf, 1, size, f) == size && !fclose(f)) {
		fprintf(stderr, "%s: %s\n", o->write_out, what);
		rc = 0;
	} else {
		perror(o->write_out);
	}
	mut_map_free(&m);
	free(buf);
	free(seed);
	return rc;
}

/* One run of case K (WHAT) through RUN: its exit code counted into
 * RCS[0..16] (16: anything else). */
static void run_case(const struct opts *o, const char *path,
		     unsigned long k, const char *what, const char *how,
		     int (*run)(const uint8_t *, size_t), const uint8_t *buf,
		     size_t size, unsigned long *rcs)
{
	int rc;

	snprintf(current, sizeof(current), "%s:%lu (-s %llu, %s): %s", path,
		 k, (unsigned long long)o->seed, how, what);
	alarm(o->limit);
	rc = run(buf, size);
	alarm(0);
	rcs[rc < 0 || rc > 16 ? 16 : rc]++;
}

/* Every case of one seed file; counts exit codes of the checks into
 * RCS[0..16], of the repairs into FIXRCS. */
static int run_seed(const struct opts *o, const char *path,
		    unsigned long *rcs, unsigned long *fixrcs,
		    unsigned long *runs, FILE *out)
{
	struct mut_map m;
	char what[256];
	uint8_t *seed, *buf;
	size_t size;
	unsigned long k;

	seed = read_file(path, &size);
	buf = seed ? malloc(size) : NULL;
	if (!buf || mut_map_build(&m, seed, size)) {
		fprintf(out, "fsck-smoke: cannot read %s\n", path);
		free(seed);
		return -1;
	}
	fprintf(out, "%s: %zu bytes; %zu sb, %zu gd, %zu inodes, %zu extent,"
		" %zu dir, %zu xattr, %zu journal, %zu itree\n", path, size,
		m.count[MK_SUPER], m.count[MK_GDESC], m.count[MK_INODE],
		m.count[MK_EXTENT], m.count[MK_DIRENT], m.count[MK_XATTR],
		m.count[MK_JOURNAL], m.count[MK_ITREE]);
	for (k = o->first; k <= o->first + o->n; k++) {
		if (k == o->first && k)
			continue;
		make_case(&m, seed, size, o->seed, k, buf, what, sizeof(what));
		run_case(o, path, k, what, "-fn", fsck_target_run, buf, size,
			 rcs);
		run_case(o, path, k, what, "-fy", fsck_target_run_fix, buf,
			 size, fixrcs);
		(*runs)++;
	}
	mut_map_free(&m);
	free(buf);
	free(seed);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .n = 100, .seed = 1, .limit = 10 };
	unsigned long rcs[17] = { 0 }, fixrcs[17] = { 0 }, runs = 0;
	time_t t0 = time(NULL);
	FILE *out;
	int c, i, bad = 0;

	while ((c = getopt(argc, argv, "n:s:t:f:w:")) != -1) {
		switch (c) {
		case 'n': o.n = strtoul(optarg, NULL, 0); break;
		case 's': o.seed = strtoull(optarg, NULL, 0); break;
		case 't': o.limit = strtoul(optarg, NULL, 0); break;
		case 'f': o.first = strtoul(optarg, NULL, 0); break;
		case 'w': o.write_case = optarg; break;
		default: return 2;
		}
	}
	if (o.write_case) {
		if (optind != argc - 1)
			return 2;
		o.write_out = argv[optind];
		return write_one(&o);
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: fsck-smoke [-n N] [-s SEED] "
			"[-t SECONDS] [-f FIRST] SEED_IMAGE...\n");
		return 2;
	}
	/* our report goes to the real stdout; the check's to /dev/null */
	out = fdopen(dup(1), "w");
	if (!out)
		return 1;
	setvbuf(out, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGFPE, on_fatal);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_case);
	fsck_target_init();
	for (i = optind; i < argc; i++)
		if (run_seed(&o, argv[i], rcs, fixrcs, &runs, out))
			bad = 1;
	fprintf(out, "fsck-smoke: %lu cases in %ld s (seed %llu); exit codes"
		" of -fn:", runs, (long)(time(NULL) - t0),
		(unsigned long long)o.seed);
	for (i = 0; i <= 16; i++)
		if (rcs[i])
			fprintf(out, " %s%d=%lu", i == 16 ? "other" : "", i,
				rcs[i]);
	fprintf(out, "; of -fy:");
	for (i = 0; i <= 16; i++)
		if (fixrcs[i])
			fprintf(out, " %s%d=%lu", i == 16 ? "other" : "", i,
				fixrcs[i]);
	fprintf(out, "\n");
	/* 8 (cannot open) is an answer; more is not */
	if (rcs[16] || fixrcs[16]) {
		fprintf(out, "fsck-smoke: exit codes outside 0..15\n");
		bad = 1;
	}
	fclose(out);
	return bad;
}
