/*
 * fix_alloc.c --- where repairs get new blocks: the blocks pass 1 found
 * free, not the stored bitmap (which may be wrong).  While a repair runs,
 * libext2fs allocations (ext2fs_alloc_block and the extent code) go here
 * and each block handed out is marked found, so pass 5 keeps it.
 */
#include "config.h"
#include "pass1.h"

static errcode_t alloc_found(ext2_filsys fs, blk64_t goal, blk64_t *ret)
{
	struct fsck_ctx *ctx = fs->priv_data;
	blk64_t first = fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(fs->super) - 1;
	blk64_t b;

	if (goal < first || goal > last)
		goal = first;
	if (ext2fs_find_first_zero_block_bitmap2(ctx->block_found, goal, last,
						 &b) &&
	    ext2fs_find_first_zero_block_bitmap2(ctx->block_found, first,
						 last, &b))
		return EXT2_ET_BLOCK_ALLOC_FAIL;
	ext2fs_mark_block_bitmap2(ctx->block_found, b);
	*ret = b;
	return 0;
}

/* The stored bitmaps are needed too: libext2fs counts each allocation in
 * them (pass 5 later makes them agree with what was found). */
errcode_t fsck_alloc_begin(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	errcode_t err = 0;

	if (!fs->block_map)
		err = ext2fs_read_block_bitmap(fs);
	if (err)
		return err;
	fs->priv_data = ctx;
	ext2fs_set_alloc_block_callback(fs, alloc_found, NULL);
	return 0;
}

void fsck_alloc_end(struct fsck_ctx *ctx)
{
	ext2fs_set_alloc_block_callback(ctx->fs, NULL, NULL);
	ctx->fs->priv_data = NULL;
}
