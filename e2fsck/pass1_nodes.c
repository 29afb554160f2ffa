/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_nodes.c --- extent tree nodes that lie in file system metadata
 * (an inode table block, a bitmap): the node and the inodes of that block
 * share their bytes, so every write of one of those inodes changes the
 * node, and every repair of the node changes the inodes.
 *
 * When pass 1 reads such an inode (a depth-1 tree whose root points at a
 * leaf in metadata) the leaf is copied before anything of its block can
 * be written and the inode waits: nothing of it is checked or written in
 * this round.  At the end of the round, with every other block known,
 * the copy goes to a new block, the root points there, and pass 1 runs
 * again to check the tree where it now is.  -n: left as it was.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "pass1.h"
#include <ext2fs/ext3_extents.h>

struct node_move {
	ext2_ino_t ino;
	unsigned int entry;	/* the root's index entry */
	blk64_t old;		/* where the leaf was */
	char *copy;		/* its bytes when pass 1 first met them */
	int done;		/* moved, or given up */
};

static blk64_t idx_leaf(const struct ext3_extent_idx *ix)
{
	return ix->ei_leaf | ((blk64_t)ix->ei_leaf_hi << 32);
}

/* The inode's extent root, when it is a depth-1 tree of ours to judge. */
static struct ext3_extent_header *depth1_root(struct fsck_ctx *ctx,
					      ext2_ino_t ino,
					      struct ext2_inode_large *in)
{
	struct ext3_extent_header *eh = (void *)in->i_block;

	if (!ctx->fs_rw || !in->i_links_count || in->i_dtime ||
	    ino < EXT2_FIRST_INODE(ctx->fs->super) ||
	    (in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL)) !=
		    EXT4_EXTENTS_FL ||
	    ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    ext2fs_le16_to_cpu(eh->eh_depth) != 1 ||
	    ext2fs_le16_to_cpu(eh->eh_entries) > 4)
		return NULL;
	return eh;
}

static int known(struct fsck_ctx *ctx, ext2_ino_t ino, unsigned int entry)
{
	size_t i;

	for (i = 0; i < ctx->nnode_moves; i++)
		if (ctx->node_moves[i].ino == ino &&
		    ctx->node_moves[i].entry == entry)
			return 1;
	return 0;
}

/* Note the leaf of entry I at B, copied now; 1 when noted. */
static int note(struct fsck_ctx *ctx, ext2_ino_t ino, unsigned int i,
		blk64_t b)
{
	struct node_move *m;
	char *copy;

	if (ext2fs_get_mem(ctx->fs->blocksize, &copy))
		return 0;
	if (io_channel_read_blk64(ctx->fs->io, b, 1, copy)) {
		ext2fs_free_mem(&copy);
		return 0;
	}
	if (ctx->nnode_moves == ctx->node_moves_cap) {
		size_t cap = ctx->node_moves_cap ? 2 * ctx->node_moves_cap : 4;

		m = realloc(ctx->node_moves, cap * sizeof(*m));
		if (!m) {
			ext2fs_free_mem(&copy);
			return 0;
		}
		ctx->node_moves = m;
		ctx->node_moves_cap = cap;
	}
	ctx->node_moves[ctx->nnode_moves++] = (struct node_move){
		.ino = ino, .entry = i, .old = b, .copy = copy
	};
	return 1;
}

/*
 * Inode INO as the scan read it: 1 when a leaf of its tree lies in
 * metadata and is to move (copied now); the caller then leaves the inode
 * for the next round.
 */
int p1_node_in_meta(struct fsck_ctx *ctx, ext2_ino_t ino,
		    struct ext2_inode_large *in)
{
	struct ext3_extent_header *eh = depth1_root(ctx, ino, in);
	struct ext3_extent_idx *ix;
	struct problem_ctx pctx;
	unsigned int i, n;
	int wait = 0;

	if (!eh)
		return 0;
	ix = (void *)(eh + 1);
	n = ext2fs_le16_to_cpu(eh->eh_entries);
	for (i = 0; i < n; i++) {
		blk64_t b = idx_leaf(&ix[i]);

		if (!fsck_block_in_fs(ctx->fs, b) ||
		    !ext2fs_test_block_bitmap2(ctx->block_meta, b) ||
		    known(ctx, ino, i))
			continue;
		pctx_clear(&pctx);
		pctx.ino = ino;
		pctx.blk = b;
		if (fix_problem(ctx, PR_1_NODE_IN_META, &pctx) &&
		    note(ctx, ino, i, b))
			wait = 1;
	}
	return wait;
}

/* Blocks a copied leaf maps: not to be taken for the new node. */
static void mark_leaf(ext2_filsys fs, const char *leaf,
		      ext2fs_block_bitmap map)
{
	const struct ext3_extent_header *eh = (const void *)leaf;
	const struct ext3_extent *ex = (const void *)(eh + 1);
	unsigned int i, n = ext2fs_le16_to_cpu(eh->eh_entries);
	unsigned int max = (fs->blocksize - sizeof(*eh)) / sizeof(*ex);
	blk64_t total = ext2fs_blocks_count(fs->super);

	if (ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC)
		return;
	for (i = 0; i < n && i < max; i++) {
		blk64_t b = ex[i].ee_start |
			    ((blk64_t)ex[i].ee_start_hi << 32);
		blk64_t len = ext2fs_le16_to_cpu(ex[i].ee_len);

		if (len > EXT_INIT_MAX_LEN)
			len -= EXT_INIT_MAX_LEN;
		if (!len || !fsck_block_in_fs(fs, b))
			continue;
		ext2fs_mark_block_bitmap_range2(map, b,
						total - b < len ? total - b :
								  len);
	}
}

/* A block free in pass 1's map, in every copied leaf's extents and,
 * while any such block is left, in the stored bitmap. */
static errcode_t pick(struct fsck_ctx *ctx, blk64_t goal, blk64_t *ret)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_block_bitmap avoid;
	blk64_t b = goal, first = 0;
	errcode_t err;
	size_t i;

	err = fsck_read_bitmaps(ctx);
	if (!err)
		err = ext2fs_copy_bitmap(ctx->block_found, &avoid);
	if (err)
		return err;
	for (i = 0; i < ctx->nnode_moves; i++)
		mark_leaf(fs, ctx->node_moves[i].copy, avoid);
	for (;;) {
		err = ext2fs_new_block2(fs, b, avoid, &b);
		if (err || !ext2fs_test_block_bitmap2(fs->block_map, b) ||
		    b == first)
			break;
		if (!first)
			first = b;
		if (++b >= ext2fs_blocks_count(fs->super))
			b = fs->super->s_first_data_block;
	}
	ext2fs_free_block_bitmap(avoid);
	*ret = b;
	return err;
}

/* The copy of M's leaf to a new block, the root pointed at it. */
static errcode_t move_leaf(struct fsck_ctx *ctx, struct node_move *m)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode_large *in = NULL;
	struct ext3_extent_header *eh;
	struct ext3_extent_idx *ix;
	blk64_t b;
	errcode_t err;

	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &in);
	if (!err)
		err = e2x_read_inode(fs, m->ino, in);
	if (err)
		goto out;
	eh = depth1_root(ctx, m->ino, in);
	ix = eh ? (void *)(eh + 1) : NULL;
	if (!eh || m->entry >= ext2fs_le16_to_cpu(eh->eh_entries) ||
	    idx_leaf(&ix[m->entry]) != m->old) {
		err = E2X_ERR_CORRUPT;	/* changed since: not ours to move */
		goto out;
	}
	err = pick(ctx, m->old, &b);
	if (err)
		goto out;
	if (ctx->guard_meta)
		ext2fs_mark_block_bitmap2(ctx->guard_meta, b);
	ext2fs_extent_block_csum_set(fs, m->ino, (void *)m->copy);
	err = io_channel_write_blk64(fs->io, b, 1, m->copy);
	if (err)
		goto out;
	ix[m->entry].ei_leaf = ext2fs_cpu_to_le32(b & 0xffffffff);
	ix[m->entry].ei_leaf_hi = ext2fs_cpu_to_le16(b >> 32);
	err = e2x_write_inode(fs, m->ino, in);	/* i_version moves too */
	if (!err) {
		ext2fs_mark_block_bitmap2(fs->block_map, b);
		ext2fs_mark_bb_dirty(fs);
	}
out:
	ext2fs_free_mem(&in);
	return err;
}

/*
 * End of a round: each noted leaf moves; 1 when any was noted in this
 * round (the inodes that waited are checked in the next).
 */
int p1_nodes_move(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	int any = 0;
	size_t i;

	for (i = 0; i < ctx->nnode_moves; i++) {
		struct node_move *m = &ctx->node_moves[i];
		errcode_t err;

		if (m->done)
			continue;
		m->done = any = 1;
		err = move_leaf(ctx, m);
		if (!err)
			continue;
		pctx_clear(&pctx);
		pctx.ino = m->ino;
		pctx.blk = m->old;
		pctx.str = error_message(err);
		fix_problem(ctx, PR_1_NODE_MOVE_FAILED, &pctx);
	}
	return any;
}

void p1_nodes_free(struct fsck_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nnode_moves; i++)
		ext2fs_free_mem(&ctx->node_moves[i].copy);
	free(ctx->node_moves);
	ctx->node_moves = NULL;
	ctx->nnode_moves = ctx->node_moves_cap = 0;
}
