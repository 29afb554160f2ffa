/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readahead.c --- asking the kernel to read ahead what the passes will
 * read next (inode tables in pass 1, directory blocks in pass 2), so a
 * check of a cold device overlaps its reads.  Advice only: through our
 * own descriptor of the device, sharing its page cache with the I/O
 * channel; costs no memory of ours, and failure changes nothing.
 */
#include "config.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "readahead.h"

struct fsck_ra {
	int fd;
	unsigned int blocksize;
	blk64_t next, end;	/* pending range, merged until it breaks */
};

void fsck_ra_open(struct fsck_ctx *ctx)
{
	struct fsck_ra *ra;

	if (ctx->ra || !ctx->opt.device)
		return;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return;
	ra->fd = open(ctx->opt.device, O_RDONLY | O_CLOEXEC);
	if (ra->fd < 0) {
		free(ra);
		return;
	}
	ra->blocksize = ctx->fs->blocksize;
	ctx->ra = ra;
}

static void advise(struct fsck_ra *ra)
{
	if (ra->end > ra->next)
		posix_fadvise(ra->fd, (off_t)ra->next * ra->blocksize,
			      (off_t)(ra->end - ra->next) * ra->blocksize,
			      POSIX_FADV_WILLNEED);
	ra->next = ra->end = 0;
}

/* Blocks [BLK, BLK + N): merged with the range before when adjacent. */
void fsck_ra_blocks(struct fsck_ctx *ctx, blk64_t blk, blk64_t n)
{
	struct fsck_ra *ra = ctx->ra;

	if (!ra || !n)
		return;
	if (ra->end && blk == ra->end) {
		ra->end += n;
		return;
	}
	advise(ra);
	ra->next = blk;
	ra->end = blk + n;
}

void fsck_ra_flush(struct fsck_ctx *ctx)
{
	if (ctx->ra)
		advise(ctx->ra);
}

/* The part of group G's inode table the scan will read. */
void fsck_ra_itable(struct fsck_ctx *ctx, dgrp_t g)
{
	ext2_filsys fs = ctx->fs;
	uint64_t inodes = fs->super->s_inodes_per_group;
	blk64_t start, n;

	if (!ctx->ra || g >= fs->group_desc_count)
		return;
	if (ext2fs_has_group_desc_csum(fs)) {
		if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT))
			return;
		if (ext2fs_bg_itable_unused(fs, g) <= inodes)
			inodes -= ext2fs_bg_itable_unused(fs, g);
	}
	start = ext2fs_inode_table_loc(fs, g);
	n = (inodes * EXT2_INODE_SIZE(fs->super) + fs->blocksize - 1) /
	    fs->blocksize;
	if (n > fs->inode_blocks_per_group)
		n = fs->inode_blocks_per_group;
	if (start && start + n <= ext2fs_blocks_count(fs->super))
		fsck_ra_blocks(ctx, start, n);
	fsck_ra_flush(ctx);
}

void fsck_ra_close(struct fsck_ctx *ctx)
{
	if (!ctx->ra)
		return;
	close(ctx->ra->fd);
	free(ctx->ra);
	ctx->ra = NULL;
}
