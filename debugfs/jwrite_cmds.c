/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jwrite_cmds.c --- journal_open, journal_write and journal_close: write
 * jbd2 transactions into the journal through libe2x's writer, so that
 * the next mount or e2fsck replays them (tests of recovery).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"
#include "e2x-journal.h"

static int need_writer(struct dbg_ctx *ctx, const char *cmd)
{
	if (ctx->jwriter)
		return 0;
	dbg_error(ctx, cmd, 0, "the journal is not open (see journal_open)");
	return 1;
}

/* -c: ask for checksums; an error here leaves the journal open. */
static void enable_csum(struct dbg_ctx *ctx, const char *cmd, int version)
{
	errcode_t err = e2x_jwriter_enable_csum(ctx->jwriter, version);

	if (err == E2X_ERR_JOURNAL_LIVE)
		dbg_error(ctx, cmd, 0, "the log is not empty: checksums stay "
			  "as they are until it is replayed");
	else if (err)
		dbg_error(ctx, cmd, err, "turning on checksums");
	else if (ext2fs_has_feature_metadata_csum(ctx->fs->super))
		fprintf(ctx->out, "Journal checksums: v%d\n", version);
	else
		fprintf(ctx->out, "Journal checksums: v1 (no metadata_csum)\n");
}

int do_journal_open(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct e2x_journal_opts o;
	int c, csum = 0, version = 3;
	errcode_t err;

	memset(&o, 0, sizeof(o));
	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "cv:f:")) != -1) {
		switch (c) {
		case 'c':
			csum = 1;
			break;
		case 'v':
			version = atoi(optarg);
			if (version != 2 && version != 3) {
				dbg_error(ctx, argv[0], 0, "checksum version "
					  "%s: only 2 and 3 exist", optarg);
				return 1;
			}
			break;
		case 'f':
			o.ext_journal = optarg;
			break;
		default:
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (ctx->jwriter) {
		dbg_error(ctx, argv[0], 0, "the journal is already open");
		return 1;
	}
	if (!ext2fs_has_feature_journal(ctx->fs->super)) {
		dbg_error(ctx, argv[0], 0, "the file system has no journal");
		return 1;
	}
	if (dbg_need_bitmaps(ctx, argv[0]))
		return 1;
	err = e2x_jwriter_open(ctx->fs, &o, &ctx->jwriter);
	if (err) {
		dbg_error(ctx, argv[0], err, "opening the journal");
		return 1;
	}
	if (csum)
		enable_csum(ctx, argv[0], version);
	return 0;
}

/* The contents of N blocks from PATH, or NULL (reported). */
static void *read_blocks(struct dbg_ctx *ctx, const char *cmd,
			 const char *path, size_t n)
{
	size_t len = n * ctx->fs->blocksize;
	unsigned char *buf;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		dbg_error(ctx, cmd, errno, "%s", path);
		return NULL;
	}
	buf = malloc(len);
	if (buf && fread(buf, 1, len, f) != len) {
		dbg_error(ctx, cmd, 0, "%s: fewer than the %zu blocks of %u "
			  "bytes to log", path, n, ctx->fs->blocksize);
		free(buf);
		buf = NULL;
	} else if (!buf) {
		dbg_error(ctx, cmd, EXT2_ET_NO_MEMORY, NULL);
	}
	fclose(f);
	return buf;
}

struct jw_args {
	blk64_t *blocks, *revoke;
	size_t nblocks, nrevoke;
	int no_commit;
	const char *file;
};

static int parse_jw(struct dbg_ctx *ctx, int argc, char **argv,
		    struct jw_args *a)
{
	int c;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "b:r:c")) != -1) {
		if (c == 'c') {
			a->no_commit = 1;
		} else if (c == 'b' || c == 'r') {
			if (dbg_parse_block_list(optarg,
						 c == 'b' ? &a->blocks :
							    &a->revoke,
						 c == 'b' ? &a->nblocks :
							    &a->nrevoke)) {
				dbg_error(ctx, argv[0], 0, "bad block list %s",
					  optarg);
				return 1;
			}
		} else {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind != argc || (a->nblocks && !a->file)) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	return 0;
}

int do_journal_write(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct jw_args a;
	struct e2x_jwrite t;
	void *data = NULL;
	errcode_t err;
	int ret = 1;

	memset(&a, 0, sizeof(a));
	if (need_writer(ctx, argv[0]) || parse_jw(ctx, argc, argv, &a))
		goto out;
	if (a.nblocks &&
	    !(data = read_blocks(ctx, argv[0], a.file, a.nblocks)))
		goto out;
	memset(&t, 0, sizeof(t));
	t.blocks = a.blocks;
	t.nblocks = a.nblocks;
	t.data = data;
	t.revoke = a.revoke;
	t.nrevoke = a.nrevoke;
	t.flags = a.no_commit ? E2X_JWRITE_NO_COMMIT : 0;
	err = e2x_jwriter_write(ctx->jwriter, &t);
	if (err)
		dbg_error(ctx, argv[0], err, "writing the transaction");
	ret = err != 0;
out:
	free(data);
	free(a.blocks);
	free(a.revoke);
	return ret;
}

int dbg_journal_close(struct dbg_ctx *ctx)
{
	errcode_t err;

	if (!ctx->jwriter)
		return 0;
	err = e2x_jwriter_close(ctx->jwriter);
	ctx->jwriter = NULL;
	if (err)
		dbg_error(ctx, "journal_close", err,
			  "writing the journal superblock");
	return err != 0;
}

int do_journal_close(struct dbg_ctx *ctx, int argc, char **argv)
{
	if (argc != 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (need_writer(ctx, argv[0]))
		return 1;
	return dbg_journal_close(ctx);
}
