/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard.c --- what e2fsck may write: the policy it gives the write guard
 * (lib/io/guard_io.c), under which every writable open is made.
 *
 * Until the superblock and descriptors are checked (journal recovery
 * runs before) writes are only logged.  From then on a block may be
 * written when something proved it belongs to the file system's
 * structures: the superblocks, descriptors and group metadata super.c
 * placed (ctx->guard_meta; relocate.c adds what it moves), the blocks
 * pass 1 found in use, or blocks the allocation bitmap marks in use (what
 * a repair allocates; fix_alloc.c adds each block it hands out to
 * guard_meta, as the library may write it before marking it).  Never
 * past the end of the file system.  A refused write is a bug: reported
 * once at the end, exit code 8.
 */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "problem.h"

static int owned(struct fsck_ctx *ctx, blk64_t b)
{
	ext2_filsys fs = ctx->fs;

	return ext2fs_test_block_bitmap2(ctx->guard_meta, b) ||
	       (ctx->block_found &&
		ext2fs_test_block_bitmap2(ctx->block_found, b)) ||
	       (fs->block_map && ext2fs_test_block_bitmap2(fs->block_map, b));
}

static const char *verdict(struct fsck_ctx *ctx, uint64_t off, uint64_t len)
{
	ext2_filsys fs = ctx->fs;
	blk64_t b, last;

	if (!fs || !ctx->guard_meta || !len)
		return NULL;
	last = (off + len - 1) / fs->blocksize;
	if (last >= ext2fs_blocks_count(fs->super))
		return "past the end of the file system";
	for (b = off / fs->blocksize; b <= last; b++)
		if (b && !owned(ctx, b))
			return "a block no structure of the file system owns";
	return NULL;
}

/* The policy: the verdict, logged one line a write when asked. */
static const char *may_write(void *arg, uint64_t off, uint64_t len)
{
	struct fsck_ctx *ctx = arg;
	const char *why = verdict(ctx, off, len);

	if (ctx->guard_log)
		fprintf(ctx->guard_log, "%s %" PRIu64 " %" PRIu64 "%s%s\n",
			why ? "REFUSED" : "WRITE", off, len, why ? " " : "",
			why ? why : "");
	return why;
}

/* Install the policy; E2X_FSCK_WRITE_LOG names a file that logs every
 * write (the safety tests read it). */
void fsck_guard_start(struct fsck_ctx *ctx)
{
	const char *path = getenv("E2X_FSCK_WRITE_LOG");

	ctx->guard_log = path && *path ? fopen(path, "a") : NULL;
	e2x_guard_policy(may_write, ctx);
}

/* Superblocks and descriptors of every group, the MMP block: the map the
 * guard starts from (super.c adds the group metadata it accepts). */
errcode_t fsck_guard_map(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	errcode_t err;
	dgrp_t g;

	if (ctx->guard_meta)
		ext2fs_free_block_bitmap(ctx->guard_meta);
	ctx->guard_meta = NULL;
	err = ext2fs_allocate_subcluster_bitmap(fs, "written metadata",
						&ctx->guard_meta);
	if (err)
		return err;
	for (g = 0; g < fs->group_desc_count; g++)
		ext2fs_reserve_super_and_bgd(fs, g, ctx->guard_meta);
	if (ext2fs_has_feature_mmp(fs->super) &&
	    fsck_block_in_fs(fs, fs->super->s_mmp_block))
		ext2fs_mark_block_bitmap2(ctx->guard_meta,
					  fs->super->s_mmp_block);
	return 0;
}

/* After the file system is closed: say whether anything was refused. */
void fsck_guard_stop(struct fsck_ctx *ctx)
{
	unsigned long n = e2x_guard_refused();

	e2x_guard_policy(NULL, NULL);
	if (ctx->guard_meta)
		ext2fs_free_block_bitmap(ctx->guard_meta);
	ctx->guard_meta = NULL;
	if (ctx->guard_log)
		fclose(ctx->guard_log);
	ctx->guard_log = NULL;
	if (!n)
		return;
	fprintf(stderr, "%s: internal error: the write guard refused %lu "
		"write(s) to blocks not proved to belong to the file system's "
		"structures; nothing was written there\n", ctx->prog, n);
	ctx->exit_extra |= FSCK_ERROR;
}
