/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c --- tune2fs and e2label command lines into a tune_req.
 * Option letters and value syntax follow e2fsprogs' tune2fs.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <e2p/e2p.h>
#include "tune2fs.h"

static const char usage_text[] =
	"Usage: %s [-c max_mounts_count] [-e errors_behavior] [-f] "
	"[-g group]\n"
	"\t[-i interval[d|m|w]] [-j] [-J journal_options] [-l]\n"
	"\t[-m reserved_blocks_percent] [-o [^]mount_options[,...]]\n"
	"\t[-r reserved_blocks_count] [-u user] [-C mount_count]\n"
	"\t[-L volume_label] [-M last_mounted_dir]\n"
	"\t[-O [^]feature[,...]] [-E extended-option[,...]]\n"
	"\t[-T last_check_time] [-U UUID] [-I new_inode_size]\n"
	"\t[-z undo_file] [-h] [-V] device\n";

static int usage(struct tune_ctx *ctx)
{
	fprintf(stderr, usage_text, ctx->prog);
	return EXIT_FAIL;
}

static int parse_long(const char *s, long long lo, long long hi,
		      long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || end == s || *end || *v < lo || *v > hi;
}

static int parse_int_opt(struct tune_ctx *ctx, const char *what,
			 const char *s, long long lo, long long hi,
			 long long *v)
{
	if (parse_long(s, lo, hi, v))
		return tune_fail(ctx, "bad %s '%s'", what, s);
	return 0;
}

/* -c: a count, "random" (20..39 as the reference), 0 or -1 to disable. */
static int parse_max_mnt(struct tune_ctx *ctx, const char *s)
{
	long long v;

	if (!strcmp(s, "random")) {
		srandom(time(NULL) ^ getpid());
		ctx->req.max_mnt = 20 + random() % 20;
		return 0;
	}
	if (parse_int_opt(ctx, "maximal mount count", s, -1, 16000, &v))
		return EXIT_FAIL;
	ctx->req.max_mnt = v ? (int)v : -1;
	return 0;
}

static int parse_errors(struct tune_ctx *ctx, const char *s)
{
	static const char *const names[] = { "continue", "remount-ro",
					     "panic" };
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			ctx->req.errors = i + 1;
			return 0;
		}
	return tune_fail(ctx, "bad error behavior '%s' (continue, "
			 "remount-ro or panic)", s);
}

static int parse_id(struct tune_ctx *ctx, const char *s, int group,
		    unsigned int *id)
{
	long long v;

	if (!parse_long(s, 0, 0xffffffffLL, &v)) {
		*id = v;
		return 0;
	}
	if (group) {
		struct group *g = getgrnam(s);

		if (g) {
			*id = g->gr_gid;
			return 0;
		}
		return tune_fail(ctx, "bad gid/group name '%s'", s);
	}
	struct passwd *p = getpwnam(s);

	if (p) {
		*id = p->pw_uid;
		return 0;
	}
	return tune_fail(ctx, "bad uid/user name '%s'", s);
}

/* -i N[d|w|m|s]: days unless a unit follows (months are 30 days). */
static int parse_interval(struct tune_ctx *ctx, const char *s)
{
	unsigned long long mult = 86400, v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || errno)
		goto bad;
	switch (*end) {
	case 0:
	case 'd':
	case 'D':
		break;
	case 'w':
	case 'W':
		mult = 7 * 86400;
		break;
	case 'm':
	case 'M':
		mult = 30 * 86400;
		break;
	case 's':
	case 'S':
		mult = 1;
		break;
	default:
		goto bad;
	}
	if (*end && end[1])
		goto bad;
	if (v * mult > 0xffffffffULL)
		goto bad;
	ctx->req.interval = v * mult;
	return 0;
bad:
	return tune_fail(ctx, "bad interval '%s'", s);
}

/* -T now | YYYYMMDD[HH[MM[SS]]] (local time, as the reference). */
static int parse_time(struct tune_ctx *ctx, const char *s)
{
	struct tm tm;
	char *end;

	if (!strcmp(s, "now")) {
		ctx->req.lastcheck = time(NULL);
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y%m%d%H%M%S", &tm);
	if (!end)
		end = strptime(s, "%Y%m%d%H%M", &tm);
	if (!end)
		end = strptime(s, "%Y%m%d%H", &tm);
	if (!end)
		end = strptime(s, "%Y%m%d", &tm);
	if (!end || *end)
		return tune_fail(ctx, "bad time '%s'", s);
	tm.tm_isdst = -1;
	ctx->req.lastcheck = mktime(&tm);
	return 0;
}

static int parse_reserved_ratio(struct tune_ctx *ctx, const char *s)
{
	char *end;

	errno = 0;
	ctx->req.res_ratio = strtod(s, &end);
	if (errno || end == s || *end || ctx->req.res_ratio < 0 ||
	    ctx->req.res_ratio > 50)
		return tune_fail(ctx, "bad reserved block ratio '%s' "
				 "(0 to 50)", s);
	return 0;
}

/* -J size=MB (the only journal option of an internal journal). */
static int parse_journal(struct tune_ctx *ctx, char *s)
{
	long long v;

	if (strncmp(s, "size=", 5) ||
	    parse_long(s + 5, 1, 10240000, &v))
		return tune_fail(ctx, "bad journal option '%s' (size=MB; "
				 "external journals are not supported)", s);
	ctx->req.journal_mb = v;
	return 0;
}

/* One -E option NAME[=VALUE]. */
static int parse_ext_one(struct tune_ctx *ctx, char *opt)
{
	char *val = strchr(opt, '=');
	long long v;

	if (val)
		*val++ = 0;
	if (!strcmp(opt, "mount_opts") && val) {
		if (strlen(val) >= sizeof(((struct ext2_super_block *)0)
					  ->s_mount_opts))
			return tune_fail(ctx, "mount_opts '%s' too long", val);
		ctx->req.mount_opts = val;
	} else if (!strcmp(opt, "stride") && val) {
		if (parse_int_opt(ctx, "stride", val, 0, 0xffff, &v))
			return EXIT_FAIL;
		ctx->req.stride = v;
	} else if ((!strcmp(opt, "stripe_width") ||
		    !strcmp(opt, "stripe-width")) && val) {
		if (parse_int_opt(ctx, "stripe width", val, 0, 0xffffffffLL,
				  &v))
			return EXIT_FAIL;
		ctx->req.stripe_width = v;
	} else if (!strcmp(opt, "hash_alg") && val) {
		ctx->req.hash_alg = e2x_hash_alg(val);
		if (ctx->req.hash_alg < 0)
			return tune_fail(ctx, "bad hash algorithm '%s'", val);
	} else if (!strcmp(opt, "test_fs") && !val) {
		ctx->req.test_fs = 1;
	} else if (!strcmp(opt, "^test_fs") && !val) {
		ctx->req.test_fs = 0;
	} else if (!strcmp(opt, "nopack") && !val) {
		ctx->req.nopack = 1;
	} else {
		return tune_fail(ctx, "bad extended option '%s'", opt);
	}
	return 0;
}

static int parse_extended(struct tune_ctx *ctx, char *list)
{
	char *opt, *save = NULL;

	for (opt = strtok_r(list, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save))
		if (parse_ext_one(ctx, opt))
			return EXIT_FAIL;
	return 0;
}

static void req_init(struct tune_req *r)
{
	memset(r, 0, sizeof(*r));
	r->stride = r->stripe_width = r->hash_alg = r->test_fs = -1;
}

/* One option letter with its argument; EXIT_FAIL after a message. */
static int parse_one(struct tune_ctx *ctx, int c, char *arg)
{
	struct tune_req *r = &ctx->req;
	long long v;

	switch (c) {
	case 'c':
		r->given |= T_MAX_MNT;
		return parse_max_mnt(ctx, arg);
	case 'C':
		r->given |= T_MNT_COUNT;
		if (parse_int_opt(ctx, "mount count", arg, 0, 16000, &v))
			return EXIT_FAIL;
		r->mnt_count = v;
		return 0;
	case 'e':
		r->given |= T_ERRORS;
		return parse_errors(ctx, arg);
	case 'E':
		r->given |= T_EXTENDED;
		return parse_extended(ctx, arg);
	case 'f':
		r->force++;
		return 0;
	case 'g':
		r->given |= T_RESGID;
		return parse_id(ctx, arg, 1, &r->resgid);
	case 'i':
		r->given |= T_INTERVAL;
		return parse_interval(ctx, arg);
	case 'I':
		r->given |= T_INODE_SIZE;
		if (parse_int_opt(ctx, "inode size", arg, 128, 65536, &v))
			return EXIT_FAIL;
		r->inode_size = v;
		return 0;
	case 'j':
		r->given |= T_JOURNAL;
		return 0;
	case 'J':
		r->given |= T_JOURNAL;
		return parse_journal(ctx, arg);
	case 'l':
		r->list = 1;
		return 0;
	case 'L':
		r->given |= T_LABEL;
		r->label = arg;
		return 0;
	case 'm':
		r->given |= T_RES_RATIO;
		return parse_reserved_ratio(ctx, arg);
	case 'M':
		r->given |= T_LAST_MNT;
		r->last_mnt = arg;
		return 0;
	case 'o':
		r->given |= T_MNTOPTS;
		r->mntopts = arg;
		return 0;
	case 'O':
		r->given |= T_FEATURES;
		r->features = arg;
		return 0;
	case 'r':
		r->given |= T_RES_BLOCKS;
		if (parse_int_opt(ctx, "reserved blocks count", arg, 0,
				  0x7fffffffffffffffLL, &v))
			return EXIT_FAIL;
		r->res_blocks = v;
		return 0;
	case 'T':
		r->given |= T_LASTCHECK;
		return parse_time(ctx, arg);
	case 'u':
		r->given |= T_RESUID;
		return parse_id(ctx, arg, 0, &r->resuid);
	case 'U':
		r->given |= T_UUID;
		r->uuid = arg;
		return 0;
	case 'z':
		r->undo_file = arg;
		return 0;
	default:
		return tune_fail(ctx, "unknown option -%c or a missing value "
				 "(see tune2fs(8))", optopt ? optopt : c);
	}
}

/* -h/--help and -V/--version answer on standard output and exit 0. */
static void help_or_version(struct tune_ctx *ctx, int what)
{
	char text[256];

	if (what == E2X_ARG_HELP) {
		printf(usage_text, ctx->prog);
	} else {
		e2x_version_text(ctx->prog, text, sizeof(text));
		fputs(text, stdout);
	}
	exit(EXIT_OK);
}

int tune_parse(struct tune_ctx *ctx, int argc, char **argv)
{
	int c;

	req_init(&ctx->req);
	c = e2x_std_arg(argc, argv);
	if (c)
		help_or_version(ctx, c);
	opterr = 0;
	while ((c = getopt(argc, argv,
			   "c:e:fg:hi:jlm:o:r:u:C:E:I:J:L:M:O:T:U:Vz:")) != -1) {
		if (c == 'h')
			help_or_version(ctx, E2X_ARG_HELP);
		if (c == 'V')
			help_or_version(ctx, E2X_ARG_VERSION);
		if (parse_one(ctx, c, optarg))
			return EXIT_FAIL;
	}
	if (optind != argc - 1)
		return usage(ctx);
	if (!ctx->req.given && !ctx->req.list)
		return usage(ctx);
	ctx->req.device = argv[optind];
	return 0;
}

/* e2label DEVICE [NEW_LABEL]: print the label, or set it. */
int e2label_parse(struct tune_ctx *ctx, int argc, char **argv)
{
	req_init(&ctx->req);
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "Usage: e2label device [newlabel]\n");
		return EXIT_FAIL;
	}
	ctx->req.device = argv[1];
	if (argc == 3) {
		ctx->req.given |= T_LABEL;
		ctx->req.label = argv[2];
	}
	return 0;
}
