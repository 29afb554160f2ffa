/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c --- the mke2fs command line: one table of options (letter,
 * argument, handler, help), the -E extended options table, and the
 * operands.  Handlers only record what the user typed in ctx->req.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "mke2fs.h"

/* A handler returns NULL or a message saying what is wrong. */
typedef const char *(*opt_fn)(struct mkfs_ctx *ctx, const char *arg);

struct opt_def {
	char letter;
	const char *argname;		/* NULL: takes no argument */
	opt_fn set;
	const char *help;
};

static const char *parse_uint(const char *arg, unsigned long long max,
			      unsigned long long *out)
{
	char *end;

	if (!arg || !isdigit((unsigned char)*arg))
		return "expected a number";
	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (errno || *end || *out > max)
		return "number out of range";
	return NULL;
}

static const char *set_uint(unsigned int *field, const char *arg,
			    unsigned long long max)
{
	unsigned long long v;
	const char *err = parse_uint(arg, max, &v);

	if (!err)
		*field = v;
	return err;
}

static const char *opt_blocksize(struct mkfs_ctx *ctx, const char *arg)
{
	unsigned long long v;

	/* 0 is how the request says "not given": refuse it here */
	if (e2x_parse_size(arg, 1, &v) || !v || v > 1ULL << 30)
		return "expected a block size such as 4096 or 4k";
	ctx->req.blocksize = v;
	return NULL;
}

static const char *opt_cluster(struct mkfs_ctx *ctx, const char *arg)
{
	unsigned long long v;

	if (e2x_parse_size(arg, 1, &v) || v > 1ULL << 31)
		return "expected a cluster size such as 64k";
	ctx->req.cluster_size = v;
	return NULL;
}

static const char *opt_inode_size(struct mkfs_ctx *ctx, const char *arg)
{
	return set_uint(&ctx->req.inode_size, arg, 1 << 20);
}

static const char *opt_inode_ratio(struct mkfs_ctx *ctx, const char *arg)
{
	unsigned long long v;

	if (e2x_parse_size(arg, 1, &v) || v < EXT2_MIN_BLOCK_SIZE ||
	    v > EXT2_MAX_BLOCK_SIZE * 1024ULL)
		return "expected bytes per inode from 1024 to 67108864";
	ctx->req.inode_ratio = v;
	return NULL;
}

static const char *opt_num_inodes(struct mkfs_ctx *ctx, const char *arg)
{
	return parse_uint(arg, ~0ULL, &ctx->req.num_inodes);
}

static const char *opt_reserved(struct mkfs_ctx *ctx, const char *arg)
{
	char *end;

	errno = 0;
	ctx->req.reserved_ratio = strtod(arg, &end);
	if (errno || *end || end == arg)
		return "expected a percentage";
	ctx->req.given |= E2X_GIVEN_RESERVED;
	return NULL;
}

static const char *opt_per_group(struct mkfs_ctx *ctx, const char *arg)
{
	return set_uint(&ctx->req.blocks_per_group, arg, 1 << 20);
}

static const char *opt_flex(struct mkfs_ctx *ctx, const char *arg)
{
	const char *err = set_uint(&ctx->req.flex_bg_size, arg, 1U << 31);

	if (!err && !ctx->req.flex_bg_size)
		return "flex_bg size must be at least 1";
	return err;
}

static const char *opt_label(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.label = arg;
	return NULL;
}

static const char *opt_mounted(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.last_mounted = arg;
	return NULL;
}

static const char *opt_uuid(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.uuid = arg;
	return NULL;
}

/* -O may be given several times: the lists are joined. */
static const char *opt_features(struct mkfs_ctx *ctx, const char *arg)
{
	char *joined = ctx->features_buf;
	size_t n = strlen(joined);

	if (n + strlen(arg) + 2 > sizeof(ctx->features_buf))
		return "feature list too long";
	snprintf(joined + n, sizeof(ctx->features_buf) - n, "%s%s",
		 n ? "," : "", arg);
	ctx->req.features = joined;
	return NULL;
}

static const char *opt_type(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.fs_type = arg;
	return NULL;
}

static const char *opt_usage(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.usage_types = arg;
	return NULL;
}

static const char *opt_journal(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->req.journal = 1;
	return NULL;
}

static const char *opt_journal_opts(struct mkfs_ctx *ctx, const char *arg)
{
	unsigned long long mb;

	ctx->req.journal = 1;
	if (strncmp(arg, "size=", 5))
		return "only size=MiB is supported (no external journal)";
	if (parse_uint(arg + 5, 1 << 20, &mb) || !mb)
		return "size= expects a whole number of MiB";
	ctx->req.journal_mb = mb;
	return NULL;
}

static const char *opt_populate(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->populate_from = arg;
	return NULL;
}

static const char *opt_force(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->force++;
	return NULL;
}

static const char *opt_quiet(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->quiet = 1;
	return NULL;
}

static const char *opt_dry_run(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->dry_run = 1;
	return NULL;
}

static const char *opt_verbose(struct mkfs_ctx *ctx, const char *arg)
{
	ctx->verbose = 1;
	return NULL;
}

static const char *opt_undo(struct mkfs_ctx *ctx, const char *arg)
{
	if (!*arg)
		return "expected a file name";
	ctx->undo_file = arg;
	return NULL;
}

static const char *opt_version(struct mkfs_ctx *ctx, const char *arg)
{
	print_version(ctx->prog);
	exit(EXIT_OK);
}

static const char *opt_extended(struct mkfs_ctx *ctx, const char *arg);
static const char *opt_help(struct mkfs_ctx *ctx, const char *arg);

static const struct opt_def options[] = {
	{ 'b', "block-size", opt_blocksize,
	  "block size in bytes (1024..65536)" },
	{ 'C', "cluster-size", opt_cluster,
	  "cluster size for bigalloc (2..32768 blocks)" },
	{ 'd', "source", opt_populate,
	  "copy a directory tree or an ext2/3/4 image into it" },
	{ 'E', "extended-options", opt_extended,
	  "comma list, see below" },
	{ 'F', NULL, opt_force,
	  "format even when the target holds a file system" },
	{ 'G', "flex-group-size", opt_flex,
	  "block groups per flex_bg (power of two)" },
	{ 'g', "blocks-per-group", opt_per_group,
	  "blocks (clusters with bigalloc) per group" },
	{ 'h', NULL, opt_help, "show this help and exit" },
	{ 'I', "inode-size", opt_inode_size, "inode size in bytes" },
	{ 'i', "bytes-per-inode", opt_inode_ratio,
	  "one inode per this many bytes" },
	{ 'J', "size=MiB", opt_journal_opts, "journal size" },
	{ 'j', NULL, opt_journal, "add a journal" },
	{ 'L', "label", opt_label, "volume label (16 bytes)" },
	{ 'M', "directory", opt_mounted, "last-mounted directory" },
	{ 'm', "percent", opt_reserved,
	  "blocks reserved for root (default 5)" },
	{ 'N', "inodes", opt_num_inodes, "number of inodes" },
	{ 'n', NULL, opt_dry_run, "show the geometry, write nothing" },
	{ 'O', "features", opt_features,
	  "feature list, ^name clears (repeatable)" },
	{ 'q', NULL, opt_quiet, "quiet" },
	{ 'T', "usage-types", opt_usage,
	  "mke2fs.conf usage types (news, largefile, ...)" },
	{ 't', "fs-type", opt_type, "ext2, ext3 or ext4 (default ext4)" },
	{ 'U', "uuid", opt_uuid, "UUID, or clear, random, time" },
	{ 'V', NULL, opt_version, "print the version and exit" },
	{ 'v', NULL, opt_verbose, "verbose" },
	{ 'z', "undo_file", opt_undo,
	  "save the blocks overwritten for e2undo (no discard)" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* ---- -E extended options ---------------------------------------------- */

typedef const char *(*ext_fn)(struct mkfs_ctx *ctx, const char *val);

struct ext_def {
	const char *name;
	int needs_value;		/* 1: required, 0: optional */
	ext_fn set;
	const char *help;
};

/* Boolean: bare name or =1 means on, =0 off. */
static const char *ext_bool(const char *val, int *out)
{
	if (!val || !strcmp(val, "1"))
		*out = 1;
	else if (!strcmp(val, "0"))
		*out = 0;
	else
		return "expects 0 or 1";
	return NULL;
}

static const char *ext_lazy_itable(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_LAZY_ITABLE;
	return ext_bool(val, &ctx->req.lazy_itable_init);
}

static const char *ext_lazy_journal(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_LAZY_JOURNAL;
	return ext_bool(val, &ctx->req.lazy_journal_init);
}

static const char *ext_discard(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_DISCARD;
	ctx->req.discard = 1;
	return NULL;
}

static const char *ext_nodiscard(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_DISCARD;
	ctx->req.discard = 0;
	return NULL;
}

static const char *ext_root_owner(struct mkfs_ctx *ctx, const char *val)
{
	unsigned long long uid, gid;
	const char *colon;
	char buf[32];

	ctx->req.given |= E2X_GIVEN_ROOT_OWNER;
	if (!val) {
		ctx->req.root_uid = getuid();
		ctx->req.root_gid = getgid();
		return NULL;
	}
	colon = strchr(val, ':');
	if (!colon || (size_t)(colon - val) >= sizeof(buf))
		return "expects uid:gid";
	memcpy(buf, val, colon - val);
	buf[colon - val] = 0;
	if (parse_uint(buf, 0xffffffffULL, &uid) ||
	    parse_uint(colon + 1, 0xffffffffULL, &gid))
		return "expects numeric uid:gid";
	ctx->req.root_uid = uid;
	ctx->req.root_gid = gid;
	return NULL;
}

static const char *ext_stride(struct mkfs_ctx *ctx, const char *val)
{
	return set_uint(&ctx->req.stride, val, 0xffff);
}

static const char *ext_stripe(struct mkfs_ctx *ctx, const char *val)
{
	return set_uint(&ctx->req.stripe_width, val, 0xffffffffULL);
}

static const char *ext_backup_sb(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_NUM_BACKUP;
	return set_uint(&ctx->req.num_backup_sb, val, 2);
}

static const char *ext_packed(struct mkfs_ctx *ctx, const char *val)
{
	ctx->req.given |= E2X_GIVEN_PACKED;
	return ext_bool(val, &ctx->req.packed_meta_blocks);
}

static const char *ext_hash_seed(struct mkfs_ctx *ctx, const char *val)
{
	if (uuid_parse(val, ctx->req.hash_seed))
		return "expects a UUID such as "
		       "4ac10a3e-91f6-4d8b-b0c2-5f0e7d2a9c11";
	if (uuid_is_null(ctx->req.hash_seed))
		return "the null UUID means no seed; give another";
	ctx->req.given |= E2X_GIVEN_HASH_SEED;
	return NULL;
}

static const struct ext_def ext_options[] = {
	{ "lazy_itable_init", 0, ext_lazy_itable,
	  "=0 zeroes every inode table now (default: let the kernel)" },
	{ "lazy_journal_init", 0, ext_lazy_journal,
	  "=1 skips zeroing the journal" },
	{ "root_owner", 0, ext_root_owner,
	  "[=uid:gid] owner of the root directory" },
	{ "discard", 0, ext_discard,
	  "discard the target first (default)" },
	{ "nodiscard", 0, ext_nodiscard, "do not discard" },
	{ "stride", 1, ext_stride, "=blocks RAID chunk size" },
	{ "stripe_width", 1, ext_stripe, "=blocks RAID stripe width" },
	{ "stripe-width", 1, ext_stripe, NULL },
	{ "num_backup_sb", 1, ext_backup_sb,
	  "=0|1|2 superblock backups (sparse_super2)" },
	{ "packed_meta_blocks", 0, ext_packed,
	  "[=1] metadata at the start of the disk" },
	{ "hash_seed", 1, ext_hash_seed,
	  "=UUID seed of directory name hashes (default random)" },
};

#define N_EXT (sizeof(ext_options) / sizeof(ext_options[0]))

static const char *opt_extended(struct mkfs_ctx *ctx, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	char *bad_option = ctx->msg;
	const char *err = NULL;
	size_t i;

	if (!copy)
		return "out of memory";
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');

		if (val)
			*val++ = 0;
		for (i = 0; i < N_EXT; i++)
			if (!strcmp(tok, ext_options[i].name))
				break;
		if (i == N_EXT) {
			snprintf(bad_option, sizeof(ctx->msg),
				 "unknown extended option '%s'", tok);
			err = bad_option;
		} else if (ext_options[i].needs_value && !val) {
			snprintf(bad_option, sizeof(ctx->msg),
				 "%s needs a value", tok);
			err = bad_option;
		} else if ((err = ext_options[i].set(ctx, val))) {
			snprintf(bad_option, sizeof(ctx->msg), "%s: %s", tok,
				 err);
			err = bad_option;
		}
	}
	free(copy);
	return err;
}

void print_usage(const char *prog, FILE *out)
{
	size_t i;

	fprintf(out, "Usage: %s [options] device-or-image [fs-size]\n",
		prog);
	fprintf(out, "fs-size takes k, m, g, t suffixes; a bare number "
		     "counts blocks (1 KiB without -b).\n");
	for (i = 0; i < N_OPTIONS; i++)
		fprintf(out, "  -%c %-18s %s\n", options[i].letter,
			options[i].argname ? options[i].argname : "",
			options[i].help);
	fprintf(out, "Extended options (-E name[=value],...):\n");
	for (i = 0; i < N_EXT; i++)
		if (ext_options[i].help)
			fprintf(out, "  %-20s %s\n", ext_options[i].name,
				ext_options[i].help);
}

static const char *opt_help(struct mkfs_ctx *ctx, const char *arg)
{
	print_usage(ctx->prog, stdout);
	exit(EXIT_OK);
}

/* getopt string built from the table. */
static void build_optstring(char *buf)
{
	size_t i;

	/* GNU getopt permutes: options may follow the operands, as with
	 * the reference mke2fs.  A leading ':' reports missing arguments. */
	*buf++ = ':';
	for (i = 0; i < N_OPTIONS; i++) {
		*buf++ = options[i].letter;
		if (options[i].argname)
			*buf++ = ':';
	}
	*buf = 0;
}

void print_version(const char *prog)
{
	char text[256];

	e2x_version_text(prog, text, sizeof(text));
	fputs(text, stdout);
}

/* Returns EXIT_OK or EXIT_USAGE (message printed). */
int parse_command_line(struct mkfs_ctx *ctx, int argc, char **argv)
{
	char optstring[2 * N_OPTIONS + 3];
	unsigned long long bytes;
	const char *err;
	size_t i;
	int c;

	switch (e2x_std_arg(argc, argv)) {
	case E2X_ARG_HELP:
		opt_help(ctx, NULL);
		break;
	case E2X_ARG_VERSION:
		opt_version(ctx, NULL);
		break;
	}
	build_optstring(optstring);
	opterr = 0;
	while ((c = getopt(argc, argv, optstring)) != -1) {
		for (i = 0; i < N_OPTIONS; i++)
			if (options[i].letter == c)
				break;
		if (c == ':') {
			fprintf(stderr, "%s: option -%c needs an argument\n",
				ctx->prog, optopt);
			return EXIT_USAGE;
		}
		if (c == '?' || i == N_OPTIONS) {
			fprintf(stderr, "%s: unknown option -%c (see -h)\n",
				ctx->prog, optopt ? optopt : '?');
			return EXIT_USAGE;
		}
		err = options[i].set(ctx, optarg);
		if (err) {
			fprintf(stderr, "%s: -%c %s: %s\n", ctx->prog, c,
				optarg ? optarg : "", err);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_usage(ctx->prog, stderr);
		return EXIT_USAGE;
	}
	ctx->device = argv[optind++];
	if (optind < argc)
		ctx->size_arg = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", ctx->prog,
			argv[optind]);
		return EXIT_USAGE;
	}
	if (ctx->size_arg) {
		unsigned long long unit = ctx->req.blocksize ?
			ctx->req.blocksize : 1024;

		if (e2x_parse_size(ctx->size_arg, unit, &bytes) || !bytes) {
			fprintf(stderr, "%s: '%s' is not a size (e.g. 64g, 512m, or a block count)\n",
				ctx->prog, ctx->size_arg);
			return EXIT_USAGE;
		}
		ctx->req.fs_bytes = bytes;
		ctx->req.given |= E2X_GIVEN_SIZE;
	}
	return EXIT_OK;
}
