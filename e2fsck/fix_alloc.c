/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix_alloc.c --- allocation while repairing: blocks and inodes the
 * repairs of passes 2-4 take must be free in what pass 1 found and, while
 * any such block is left, in the stored bitmaps; what they take or free
 * is mirrored into pass 1's maps so pass 5 compares the file system as it
 * is after the repairs.
 */
#include "config.h"
#include "problem.h"

static struct fsck_ctx *alloc_ctx;	/* the libext2fs hooks carry no
					 * private pointer */

static errcode_t pick_block(ext2_filsys fs, blk64_t goal, blk64_t *ret)
{
	struct fsck_ctx *ctx = alloc_ctx;
	blk64_t b = goal, first = 0;
	errcode_t err;

	for (;;) {
		err = ext2fs_new_block2(fs, b, ctx->block_found, &b);
		if (err)
			return err;
		if (!ext2fs_test_block_bitmap2(fs->block_map, b))
			break;
		/* Marked in use but owned by nothing pass 1 found: pass 5
		 * would free it.  Taken only when, back at the first such
		 * block, none was free in both maps. */
		if (b == first)
			break;
		if (!first)
			first = b;
		b++;
		if (b >= ext2fs_blocks_count(fs->super))
			b = fs->super->s_first_data_block;
	}
	/* the write guard: a block a repair took is proved ours, even before
	 * the library marks it in use (it may zero it first) */
	if (ctx->guard_meta)
		ext2fs_mark_block_bitmap2(ctx->guard_meta, b);
	*ret = b;
	return 0;
}

static void mirror_block(ext2_filsys fs, blk64_t blk, int inuse)
{
	struct fsck_ctx *ctx = alloc_ctx;

	ctx->bitmaps_changed = 1;
	if (inuse > 0)
		ext2fs_mark_block_bitmap2(ctx->block_found, blk);
	else
		ext2fs_unmark_block_bitmap2(ctx->block_found, blk);
}

static void mirror_range(ext2_filsys fs, blk64_t blk, blk_t num, int inuse)
{
	struct fsck_ctx *ctx = alloc_ctx;

	ctx->bitmaps_changed = 1;
	if (inuse > 0)
		ext2fs_mark_block_bitmap_range2(ctx->block_found, blk, num);
	else
		ext2fs_unmark_block_bitmap_range2(ctx->block_found, blk, num);
}

int fsck_alloc_prepare(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;

	if (!ctx->fs_rw || !ctx->block_found || !ctx->inode_used)
		return -1;
	if (ctx->alloc_ready)
		return 0;
	if (fsck_read_bitmaps(ctx))
		return -1;
	alloc_ctx = ctx;
	ctx->alloc_ready = 1;
	ext2fs_set_alloc_block_callback(fs, pick_block, NULL);
	ext2fs_set_block_alloc_stats_callback(fs, mirror_block, NULL);
	ext2fs_set_block_alloc_stats_range_callback(fs, mirror_range, NULL);
	return 0;
}

void fsck_alloc_done(struct fsck_ctx *ctx)
{
	if (!ctx->alloc_ready || !ctx->fs)
		return;
	ctx->alloc_ready = 0;
	ext2fs_set_alloc_block_callback(ctx->fs, NULL, NULL);
	ext2fs_set_block_alloc_stats_callback(ctx->fs, NULL, NULL);
	ext2fs_set_block_alloc_stats_range_callback(ctx->fs, NULL, NULL);
	alloc_ctx = NULL;
}

/* While a repair creates inodes, the stored inode bitmap is replaced by
 * one that also holds every inode pass 1 found in use. */
errcode_t fsck_inode_guard_begin(struct fsck_ctx *ctx,
				 ext2fs_inode_bitmap *saved)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_inode_bitmap view;
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_copy_bitmap(fs->inode_map, &view);
	if (err)
		return err;
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++)
		if (ext2fs_test_inode_bitmap2(ctx->inode_used, ino))
			ext2fs_mark_inode_bitmap2(view, ino);
	*saved = fs->inode_map;
	fs->inode_map = view;
	return 0;
}

/* Put the stored bitmap back, marking in it (and in pass 1's map) the
 * inode NEW_INO the repair created (0: none). */
void fsck_inode_guard_end(struct fsck_ctx *ctx, ext2fs_inode_bitmap saved,
			  ext2_ino_t new_ino)
{
	ext2_filsys fs = ctx->fs;

	ext2fs_free_inode_bitmap(fs->inode_map);
	fs->inode_map = saved;
	if (!new_ino)
		return;
	ctx->bitmaps_changed = 1;
	ext2fs_mark_inode_bitmap2(fs->inode_map, new_ino);
	ext2fs_mark_inode_bitmap2(ctx->inode_used, new_ino);
	ext2fs_mark_ib_dirty(fs);
}
