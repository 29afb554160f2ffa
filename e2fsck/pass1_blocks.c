/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_blocks.c --- pass 1's block maps: marking file system metadata,
 * walking extent trees and indirect maps, and claiming every block or
 * cluster an inode maps (claimed twice -> pass 1b).
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass1.h"
#include <ext2fs/ext3_extents.h>

int fsck_block_in_fs(ext2_filsys fs, blk64_t blk)
{
	return blk >= fs->super->s_first_data_block &&
	       blk < ext2fs_blocks_count(fs->super);
}

static int range_in_fs(ext2_filsys fs, blk64_t blk, blk64_t n)
{
	return n && blk + n > blk && fsck_block_in_fs(fs, blk) &&
	       blk + n - 1 < ext2fs_blocks_count(fs->super);
}

/* Superblocks, descriptors, reserved GDT, bitmaps and inode tables (a
 * location 0 is metadata waiting to be relocated, not block 0 on). */
void p1_mark_metadata(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_block_bitmap m = ctx->block_meta;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t b;

		ext2fs_reserve_super_and_bgd(fs, g, m);
		b = ext2fs_block_bitmap_loc(fs, g);
		if (b && fsck_block_in_fs(fs, b))
			ext2fs_mark_block_bitmap2(m, b);
		b = ext2fs_inode_bitmap_loc(fs, g);
		if (b && fsck_block_in_fs(fs, b))
			ext2fs_mark_block_bitmap2(m, b);
		b = ext2fs_inode_table_loc(fs, g);
		if (b && range_in_fs(fs, b, fs->inode_blocks_per_group))
			ext2fs_mark_block_bitmap_range2(
				m, b, fs->inode_blocks_per_group);
	}
	if (ext2fs_has_feature_mmp(fs->super) &&
	    fsck_block_in_fs(fs, fs->super->s_mmp_block))
		ext2fs_mark_block_bitmap2(m, fs->super->s_mmp_block);
}

static void mark_dup(struct fsck_ctx *ctx, blk64_t b)
{
	/* shared_blocks: deduplicated images share blocks on purpose */
	if (ext2fs_has_feature_shared_blocks(ctx->fs->super) &&
	    !ext2fs_test_block_bitmap2(ctx->block_meta, b))
		return;
	ext2fs_mark_block_bitmap2(ctx->block_dup, b);
	ctx->has_dups = 1;
}

/* The pass 1 visitor: mark blocks found, note blocks found twice, and
 * count what i_blocks should say. */
void p1_claim(struct p1_inode *st, blk64_t pblk, blk64_t n,
	      enum blk_kind kind)
{
	struct fsck_ctx *ctx = st->ctx;
	ext2_filsys fs = st->fs;
	blk64_t c, c0, c1, b;

	st->claims++;
	/* a new extent of block_found, unless it follows the last one */
	if (pblk != ctx->found_next)
		ctx->found_claims++;
	ctx->found_next = pblk + n;
	if (!fs->cluster_ratio_bits) {
		st->nclusters += n;
		if (ext2fs_test_block_bitmap_range2(ctx->block_found, pblk,
						    n)) {
			ext2fs_mark_block_bitmap_range2(ctx->block_found, pblk,
							n);
			return;
		}
		for (b = pblk; b < pblk + n; b++) {
			if (ext2fs_test_block_bitmap2(ctx->block_found, b))
				mark_dup(ctx, b);
			else
				ext2fs_mark_block_bitmap2(ctx->block_found, b);
		}
		return;
	}
	c0 = EXT2FS_B2C(fs, pblk);
	c1 = EXT2FS_B2C(fs, pblk + n - 1);
	if (kind == BK_DATA && c0 == st->last_data_cluster)
		c0++;	/* shared with the logical block before */
	if (c0 > c1)
		return;
	/* all clusters new and none the one just claimed: one range */
	if ((kind != BK_DATA || st->last_data_cluster < c0 ||
	     st->last_data_cluster > c1) &&
	    ext2fs_test_block_bitmap_range2(ctx->block_found,
					    EXT2FS_C2B(fs, c0),
					    EXT2FS_C2B(fs, c1 - c0 + 1))) {
		ext2fs_mark_block_bitmap_range2(ctx->block_found,
						EXT2FS_C2B(fs, c0),
						EXT2FS_C2B(fs, c1 - c0 + 1));
		st->nclusters += c1 - c0 + 1;
		if (kind == BK_DATA)
			st->last_data_cluster = c1;
		return;
	}
	for (c = c0; c <= c1; c++) {
		b = EXT2FS_C2B(fs, c);
		if (kind == BK_DATA && c == st->last_data_cluster)
			continue;
		st->nclusters++;
		if (kind == BK_DATA)
			st->last_data_cluster = c;
		if (ext2fs_test_block_bitmap2(ctx->block_found, b))
			mark_dup(ctx, b);
		else
			ext2fs_mark_block_bitmap2(ctx->block_found, b);
	}
}

/*
 * block_found starts as a tree of extents (libext2fs' rbtree bitmap, ~40
 * bytes an extent): tiny on file systems whose files lie in long runs.
 * Fragmented ones (and bigalloc, whose clusters are few) can make it
 * larger than a plain bit array; then copy it into one.  Each claim not
 * continuing the one before adds at most one extent: they bound its size.
 */
#define FOUND_EXTENT_BYTES 40
#define FOUND_COPY_BITS 65536

void p1_found_compact(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	uint64_t first = EXT2FS_B2C(fs, fs->super->s_first_data_block);
	uint64_t last = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super) - 1);
	ext2fs_block_bitmap arr = NULL;
	unsigned char *buf = NULL;
	uint64_t u, n;
	errcode_t err;

	if (ctx->found_is_array ||
	    ctx->found_claims * FOUND_EXTENT_BYTES < (last - first + 1) / 8)
		return;
	fs->default_bitmap_type = EXT2FS_BMAP64_BITARRAY;
	err = ext2fs_allocate_block_bitmap(fs, "found", &arr);
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	if (!err)
		err = ext2fs_get_mem(FOUND_COPY_BITS / 8, &buf);
	for (u = first; !err && u <= last; u += n) {
		n = last - u + 1 < FOUND_COPY_BITS ? last - u + 1 :
						     FOUND_COPY_BITS;
		err = ext2fs_get_block_bitmap_range2(ctx->block_found, u, n,
						     buf);
		if (!err)
			err = ext2fs_set_block_bitmap_range2(arr, u, n, buf);
	}
	ext2fs_free_mem(&buf);
	ctx->found_is_array = 1;	/* tried: once is enough */
	if (err) {
		ext2fs_free_block_bitmap(arr);
		return;
	}
	ext2fs_free_block_bitmap(ctx->block_found);
	ctx->block_found = arr;
}

void p1_block_problem(struct p1_inode *st, problem_t code,
		      struct problem_ctx *pctx)
{
	struct problem_ctx many;

	st->bad = 1;
	st->nerrors++;
	if (st->quiet)
		return;
	if (st->nerrors <= P1_MAX_BLOCK_ERRORS) {
		p1_fix(st, code, pctx);
		return;
	}
	/* the walk stops here: a map this broken is not worth keeping */
	if (st->nerrors == P1_MAX_BLOCK_ERRORS + 1) {
		pctx_clear(&many);
		p1_fix(st, PR_1_TOO_MANY_BAD, &many);
	}
}

/*
 * A map whose nodes point at the same lower nodes again and again can
 * make a walk take (entries per node)^depth steps.  A sane map visits no
 * more blocks than the file system has; past twice that, stop.  Returns
 * nonzero when the walk must stop.
 */
static int walk_budget(struct p1_inode *st, blk64_t n)
{
	struct problem_ctx pctx;
	uint64_t limit = 2 * ext2fs_blocks_count(st->fs->super) + 1024;

	st->walked += n;
	if (st->walked <= limit)
		return 0;
	if (st->nerrors <= P1_MAX_BLOCK_ERRORS) {
		pctx_clear(&pctx);
		p1_block_problem(st, PR_1_MAP_LOOP, &pctx);
	}
	st->nerrors = P1_MAX_BLOCK_ERRORS + 1;
	return 1;
}

/* Data blocks LBLK.. mapped at PBLK..: claim, note directory blocks. */
static void map_data(struct p1_inode *st, uint64_t lblk, blk64_t pblk,
		     blk64_t n, int init)
{
	blk64_t i;

	if (walk_budget(st, n))
		return;
	st->visit(st, pblk, n, BK_DATA);
	st->ndata += n;
	if ((int64_t)(lblk + n - 1) > st->last_lblk)
		st->last_lblk = lblk + n - 1;
	if (init && (int64_t)(lblk + n - 1) > st->last_init_lblk)
		st->last_init_lblk = lblk + n - 1;
	if (!st->is_dir || st->quiet)
		return;
	for (i = 0; i < n; i++)
		ext2fs_add_dir_block2(st->ctx->dblist, st->ino, pblk + i,
				      lblk + i);
}

/* ---- extent trees ---------------------------------------------------- */

/* Bigalloc: note an inode whose blocks break the cluster rules; pass 1b
 * moves them (nothing is reported on a quiet re-walk). */
static void cluster_problem(struct p1_inode *st, problem_t code,
			    struct problem_ctx *pctx)
{
	struct fsck_ctx *ctx = st->ctx;

	if (st->quiet)
		return;
	if (!ctx->inode_clusters &&
	    ext2fs_allocate_inode_bitmap(st->fs, "cluster rules",
					 &ctx->inode_clusters))
		return;
	if (!ext2fs_test_inode_bitmap2(ctx->inode_clusters, st->ino)) {
		pctx->ino = st->ino;
		fix_problem(ctx, code, pctx);
	}
	ext2fs_mark_inode_bitmap2(ctx->inode_clusters, st->ino);
}

/* A logical cluster lies in one physical cluster, each block at its own
 * offset: an extent must keep offsets and may not leave the cluster the
 * extent before it put the same logical cluster in. */
static void check_cluster_rules(struct p1_inode *st, uint64_t lblk,
				blk64_t pblk, unsigned int len,
				struct problem_ctx *pctx)
{
	ext2_filsys fs = st->fs;
	blk64_t cmask = EXT2FS_CLUSTER_RATIO(fs) - 1;

	if ((lblk & cmask) != (pblk & cmask))
		cluster_problem(st, PR_1_BIGALLOC_ALIGN, pctx);
	else if (st->last_lcluster == EXT2FS_B2C(fs, lblk) &&
		 st->last_pcluster != EXT2FS_B2C(fs, pblk))
		cluster_problem(st, PR_1_BIGALLOC_SPLIT, pctx);
	st->last_lcluster = EXT2FS_B2C(fs, lblk + len - 1);
	st->last_pcluster = EXT2FS_B2C(fs, pblk + len - 1);
}

static uint32_t first_key(struct ext3_extent_header *eh)
{
	if (eh->eh_depth == 0)
		return ((struct ext3_extent *)(eh + 1))->ee_block;
	return ((struct ext3_extent_idx *)(eh + 1))->ei_block;
}

static void walk_extent_node(struct p1_inode *st, void *node, size_t size,
			     int want_depth, blk64_t nblk, uint64_t lo,
			     uint64_t hi);

/* Does block PBLK begin with the directory's own '.' entry (so it is the
 * directory's block 0, wherever its extent puts it)? */
static int starts_with_dot(struct p1_inode *st, blk64_t pblk)
{
	struct ext2_dir_entry *de;
	char *buf = NULL;
	int dot = 0;

	if (st->quiet || ext2fs_get_mem(st->fs->blocksize, &buf))
		return 0;
	if (!io_channel_read_blk64(st->fs->io, pblk, 1, buf)) {
		de = (struct ext2_dir_entry *)buf;
		dot = de->inode == st->ino &&
		      ext2fs_dirent_name_len(de) == 1 && de->name[0] == '.';
	}
	ext2fs_free_mem(&buf);
	return dot;
}

static void walk_leaf(struct p1_inode *st, struct ext3_extent_header *eh,
		      uint64_t lo, uint64_t hi)
{
	ext2_filsys fs = st->fs;
	struct ext3_extent *ex = (struct ext3_extent *)(eh + 1);
	struct problem_ctx pctx;
	blk64_t cmask = EXT2FS_CLUSTER_RATIO(fs) - 1;
	int i;

	for (i = 0; i < eh->eh_entries && st->nerrors <= P1_MAX_BLOCK_ERRORS;
	     i++, ex++) {
		uint64_t lblk = ex->ee_block;
		unsigned int len = ex->ee_len;
		int uninit = len > EXT_INIT_MAX_LEN;
		blk64_t pblk = ex->ee_start | ((blk64_t)ex->ee_start_hi << 32);

		if (uninit)
			len -= EXT_INIT_MAX_LEN;
		pctx_clear(&pctx);
		pctx.num = lblk;
		pctx.blk = pblk;
		if (!len) {
			p1_block_problem(st, PR_1_EXTENT_LEN_ZERO, &pctx);
			continue;
		}
		if (lblk + len > (1ULL << 32)) {
			p1_block_problem(st, PR_1_EXTENT_END, &pctx);
			continue;
		}
		if (lblk >= st->ext_next && lblk >= lo && lblk < hi &&
		    lblk + len > hi) {
			/* the repair ends it where the next node starts */
			pctx.num2 = hi;
			p1_block_problem(st, PR_1_EXTENT_PAST_NODE, &pctx);
			continue;
		}
		if (lblk < st->ext_next || lblk < lo || lblk + len > hi ||
		    e2x_extent_odd_one_out(ex, eh->eh_entries - i - 1,
					   st->ext_next, hi,
					   (EXT2_I_SIZE(st->inode) +
					    fs->blocksize - 1) / fs->blocksize)) {
			p1_block_problem(st, PR_1_EXTENT_ORDER, &pctx);
			continue;
		}
		if (!range_in_fs(fs, pblk, len)) {
			p1_block_problem(st, PR_1_EXTENT_BOUNDS, &pctx);
			continue;
		}
		if (st->is_dir && !st->ext_next && lblk &&
		    starts_with_dot(st, pblk))
			p1_block_problem(st, PR_1_DIR_FIRST_SHIFTED, &pctx);
		if (cmask)
			check_cluster_rules(st, lblk, pblk, len, &pctx);
		if (uninit && st->is_dir)
			p1_block_problem(st, PR_1_DIR_UNINIT_EXTENT, &pctx);
		st->ext_next = lblk + len;
		map_data(st, lblk, pblk, len, !uninit);
	}
}

static void walk_index(struct p1_inode *st, struct ext3_extent_header *eh,
		       uint64_t lo, uint64_t hi)
{
	ext2_filsys fs = st->fs;
	struct ext3_extent_idx *ix = (struct ext3_extent_idx *)(eh + 1);
	struct problem_ctx pctx;
	uint64_t prev = 0;
	char *buf = NULL;
	int i;

	if (ext2fs_get_mem(fs->blocksize, &buf))
		return;
	for (i = 0; i < eh->eh_entries && st->nerrors <= P1_MAX_BLOCK_ERRORS;
	     i++) {
		uint64_t lblk = ix[i].ei_block;
		uint64_t next = i + 1 < eh->eh_entries ? ix[i + 1].ei_block : hi;
		blk64_t child = ix[i].ei_leaf |
				((blk64_t)ix[i].ei_leaf_hi << 32);
		struct ext3_extent_header *ch;

		pctx_clear(&pctx);
		pctx.num = lblk;
		pctx.blk = child;
		if (lblk < lo || lblk >= hi || (i && lblk <= prev) ||
		    next > hi || next <= lblk) {
			p1_block_problem(st, PR_1_EXTENT_ORDER, &pctx);
			break;
		}
		prev = lblk;
		if (!fsck_block_in_fs(fs, child)) {
			p1_block_problem(st, PR_1_EXTENT_BOUNDS, &pctx);
			continue;
		}
		if (walk_budget(st, 1))
			break;
		st->visit(st, child, 1, BK_MAP);
		if (io_channel_read_blk64(fs->io, child, 1, buf)) {
			p1_block_problem(st, PR_1_EXTENT_READ, &pctx);
			continue;
		}
		ch = (struct ext3_extent_header *)buf;
		if (ch->eh_magic == EXT3_EXT_MAGIC && ch->eh_entries &&
		    ch->eh_entries <= ch->eh_max &&
		    ch->eh_depth == eh->eh_depth - 1 &&
		    first_key(ch) != lblk) {
			pctx.num2 = first_key(ch);
			p1_block_problem(st, PR_1_EXTENT_INDEX_START, &pctx);
		}
		walk_extent_node(st, buf, fs->blocksize, eh->eh_depth - 1,
				 child, lblk, next);
	}
	ext2fs_free_mem(&buf);
}

static void walk_extent_node(struct p1_inode *st, void *node, size_t size,
			     int want_depth, blk64_t nblk, uint64_t lo,
			     uint64_t hi)
{
	struct ext3_extent_header *eh = node;
	struct problem_ctx pctx;
	errcode_t err;

	pctx_clear(&pctx);
	pctx.blk = nblk;
	err = ext2fs_extent_header_verify(node, size);
	if (err && nblk && want_depth >= 0 &&
	    e2x_extent_magic_only_lost(eh, size, want_depth)) {
		/* walked as it is; the map repair writes the magic back */
		p1_block_problem(st, PR_1_EXTENT_MAGIC, &pctx);
		eh->eh_magic = EXT3_EXT_MAGIC;
		err = 0;
	}
	if (!err && want_depth >= 0 && eh->eh_depth != want_depth)
		err = EXT2_ET_EXTENT_HEADER_BAD;
	if (err) {
		pctx.str = want_depth >= 0 && !ext2fs_extent_header_verify(
						      node, size) ?
				   "wrong depth" :
				   "bad magic or entry counts";
		p1_block_problem(st, nblk ? PR_1_EXTENT_HEADER :
					    PR_1_EXTENT_ROOT, &pctx);
		return;
	}
	if (want_depth < 0 && eh->eh_depth > P1_KERNEL_EXTENT_DEPTH) {
		/* the kernel reads no deeper tree; walk it anyway (within
		 * reason) so its blocks are accounted for */
		pctx.num = eh->eh_depth + 1;
		p1_block_problem(st, PR_1_EXTENT_DEPTH, &pctx);
		if (eh->eh_depth > P1_MAX_EXTENT_DEPTH)
			return;
	}
	if (nblk && ext2fs_has_feature_metadata_csum(st->fs->super) &&
	    !ext2fs_extent_block_csum_verify(st->fs, st->ino, eh))
		p1_block_problem(st, PR_1_EXTENT_CSUM, &pctx);
	if (eh->eh_depth == 0)
		walk_leaf(st, eh, lo, hi);
	else
		walk_index(st, eh, lo, hi);
}

/* ---- indirect maps --------------------------------------------------- */

static void walk_ind(struct p1_inode *st, blk64_t blk, int level,
		     uint64_t base)
{
	ext2_filsys fs = st->fs;
	uint32_t apb = fs->blocksize / 4, i, *map = NULL;
	uint64_t span = 1;
	struct problem_ctx pctx;
	int l;

	for (l = 1; l < level; l++)
		span *= apb;
	if (walk_budget(st, 1))
		return;
	st->visit(st, blk, 1, BK_MAP);
	if (ext2fs_get_mem(fs->blocksize, &map))
		return;
	if (io_channel_read_blk64(fs->io, blk, 1, map)) {
		pctx_clear(&pctx);
		pctx.blk = blk;
		p1_block_problem(st, PR_1_IND_BLOCK_READ, &pctx);
		goto out;
	}
	for (i = 0; i < apb && st->nerrors <= P1_MAX_BLOCK_ERRORS; i++) {
		blk64_t b = map[i];
		uint64_t lblk = base + i * span;

		if (!b)
			continue;
		pctx_clear(&pctx);
		pctx.blk = b;
		pctx.num = lblk;
		if (!fsck_block_in_fs(fs, b)) {
			p1_block_problem(st, level == 1 ? PR_1_BLOCK_RANGE :
						       PR_1_IND_BLOCK_RANGE,
					 &pctx);
			continue;
		}
		if (level == 1)
			map_data(st, lblk, b, 1, 1);
		else
			walk_ind(st, b, level - 1, lblk);
	}
out:
	ext2fs_free_mem(&map);
}

static void walk_block_map(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	uint32_t *ib = st->inode->i_block;
	uint64_t apb = fs->blocksize / 4;
	uint64_t base[3] = { EXT2_NDIR_BLOCKS, EXT2_NDIR_BLOCKS + apb,
			     EXT2_NDIR_BLOCKS + apb + apb * apb };
	struct problem_ctx pctx;
	int i;

	for (i = 0; i < EXT2_N_BLOCKS; i++) {
		blk64_t b = ib[i];

		if (!b)
			continue;
		pctx_clear(&pctx);
		pctx.blk = b;
		pctx.num = i < EXT2_NDIR_BLOCKS ? (uint64_t)i :
						  base[i - EXT2_NDIR_BLOCKS];
		if (!fsck_block_in_fs(fs, b)) {
			p1_block_problem(st, i < EXT2_NDIR_BLOCKS ?
					     PR_1_BLOCK_RANGE :
					     PR_1_IND_BLOCK_RANGE, &pctx);
			continue;
		}
		if (i < EXT2_NDIR_BLOCKS)
			map_data(st, i, b, 1, 1);
		else
			walk_ind(st, b, i - EXT2_NDIR_BLOCKS + 1,
				 base[i - EXT2_NDIR_BLOCKS]);
	}
}

/* Walk whatever maps the inode's blocks (extents or indirect). */
void p1_walk_blocks(struct p1_inode *st)
{
	st->last_lblk = -1;
	st->last_init_lblk = -1;
	st->ext_next = 0;
	st->last_data_cluster = ~(blk64_t)0;
	st->last_lcluster = ~(uint64_t)0;
	st->last_pcluster = ~(blk64_t)0;
	st->walked = 0;
	if (st->inode->i_flags & EXT4_EXTENTS_FL)
		walk_extent_node(st, st->inode->i_block,
				 sizeof(st->inode->i_block), -1, 0, 0,
				 1ULL << 32);
	else
		walk_block_map(st);
}
