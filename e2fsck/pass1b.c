/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1b.c --- pass 1b: when pass 1 found blocks (or, on bigalloc,
 * clusters) claimed twice, walk every inode again and name each one that
 * holds such blocks, and whether it collides with file system metadata.
 *
 * Repair (cloning the shared blocks) is not written yet; the rows are.
 */
#include "config.h"
#include <stdlib.h>
#include "pass1.h"

struct dup_count {
	uint64_t shared;	/* blocks in the dup map */
	uint64_t meta;		/* of those, metadata blocks */
};

static void count_dups(struct p1_inode *st, blk64_t pblk, blk64_t n,
		       enum blk_kind kind)
{
	struct dup_count *dc = st->priv;
	struct fsck_ctx *ctx = st->ctx;
	blk64_t b;

	for (b = pblk; b < pblk + n; b++) {
		if (!ext2fs_test_block_bitmap2(ctx->block_dup, b))
			continue;
		dc->shared++;
		if (ext2fs_test_block_bitmap2(ctx->block_meta, b))
			dc->meta++;
	}
}

static void rewalk(struct fsck_ctx *ctx, ext2_ino_t ino,
		   struct ext2_inode_large *in, unsigned int isize)
{
	ext2_filsys fs = ctx->fs;
	struct dup_count dc = { 0 };
	struct p1_inode st = { .ctx = ctx, .fs = fs, .ino = ino, .inode = in,
			       .isize = isize, .quiet = 1,
			       .visit = count_dups, .priv = &dc };
	struct problem_ctx pctx;

	if (ino == EXT2_RESIZE_INO) {
		blk64_t d = in->i_block[EXT2_DIND_BLOCK];

		if (d && fsck_block_in_fs(fs, d))
			count_dups(&st, d, 1, BK_MAP);
	} else if (!(in->i_flags & EXT4_INLINE_DATA_FL) &&
		   !(LINUX_S_ISLNK(in->i_mode) &&
		     ext2fs_is_fast_symlink((struct ext2_inode *)in)) &&
		   !LINUX_S_ISCHR(in->i_mode) && !LINUX_S_ISBLK(in->i_mode) &&
		   !LINUX_S_ISFIFO(in->i_mode) && !LINUX_S_ISSOCK(in->i_mode)) {
		p1_walk_blocks(&st);
	}
	p1_check_ea_block(&st);
	if (!dc.shared)
		return;
	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.num = dc.shared;
	pctx.num2 = dc.meta;
	fix_problem(ctx, dc.meta ? PR_1B_DUP_META : PR_1B_DUP_BLOCKS, &pctx);
}

void pass1b(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	ext2_ino_t ino;

	if (!ctx->has_dups || ctx->abort)
		return;
	if (ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) : isize, &in))
		return;
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++) {
		if (ino >= EXT2_FIRST_INODE(fs->super) &&
		    !ext2fs_test_inode_bitmap2(ctx->inode_used, ino))
			continue;
		if (ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)in,
					   isize))
			continue;
		if (ino < EXT2_FIRST_INODE(fs->super) && ino != EXT2_BAD_INO &&
		    ino != EXT2_RESIZE_INO && !in->i_links_count)
			continue;
		rewalk(ctx, ino, in, isize);
	}
	ext2fs_free_mem(&in);
}
