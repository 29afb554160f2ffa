/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass5.c --- pass 5: the on-disk block (cluster) and inode bitmaps and
 * every free count against what passes 1-2 found, plus the bitmaps'
 * checksums.  With -y/-p the differences are written through libext2fs,
 * which keeps the bitmap and descriptor checksums right.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "problem.h"
#include "journal.h"
#include "csum.h"

static void range_problem(struct fsck_ctx *ctx, problem_t code,
			  uint64_t first, uint64_t last, int inodes)
{
	struct problem_ctx pctx;
	dgrp_t g;

	pctx_clear(&pctx);
	if (inodes) {
		pctx.ino = first;
		pctx.ino2 = last;
	} else {
		pctx.blk = first;
		pctx.blk2 = last;
	}
	if (!fix_problem(ctx, code, &pctx))
		return;
	if (inodes) {
		for (; first <= last; first++) {
			if (code == PR_5_INODE_USED)
				ext2fs_mark_inode_bitmap2(ctx->fs->inode_map,
							  first);
			else
				ext2fs_unmark_inode_bitmap2(ctx->fs->inode_map,
							    first);
		}
		ext2fs_mark_ib_dirty(ctx->fs);
		return;
	}
	for (g = ext2fs_group_of_blk2(ctx->fs, first);
	     g <= ext2fs_group_of_blk2(ctx->fs, last); g++)
		ext2fs_bg_flags_clear(ctx->fs, g, EXT2_BG_BLOCK_UNINIT);
	if (code == PR_5_BLOCK_USED)
		ext2fs_mark_block_bitmap_range2(ctx->fs->block_map, first,
						last - first + 1);
	else
		ext2fs_unmark_block_bitmap_range2(ctx->fs->block_map, first,
						  last - first + 1);
	ext2fs_mark_bb_dirty(ctx->fs);
}

/*
 * The computed and stored bitmaps are compared CMP_CHUNK bits at a time
 * (clusters for blocks, inodes for inodes): chunks that agree are skipped
 * whole, and runs of bits where they differ are reported as ranges.
 */
#define CMP_CHUNK 65536

struct cmp_run {
	int inodes;		/* comparing inode bitmaps */
	int kind;		/* -1: agree; else the computed bit */
	uint64_t start;		/* first unit of the run */
};

static void report_run(struct fsck_ctx *ctx, struct cmp_run *r,
		       uint64_t last)
{
	ext2_filsys fs = ctx->fs;
	blk64_t end = ext2fs_blocks_count(fs->super);
	blk64_t b0, b1;

	if (r->inodes) {
		range_problem(ctx, r->kind ? PR_5_INODE_USED : PR_5_INODE_FREE,
			      r->start, last, 1);
		return;
	}
	b0 = EXT2FS_C2B(fs, r->start);
	b1 = EXT2FS_C2B(fs, last + 1) - 1;
	range_problem(ctx, r->kind ? PR_5_BLOCK_USED : PR_5_BLOCK_FREE, b0,
		      b1 < end ? b1 : end - 1, 0);
}

/* Unit U's verdict is KIND: end the run in progress when it changes. */
static void cmp_step(struct fsck_ctx *ctx, struct cmp_run *r, uint64_t u,
		     int kind)
{
	if (kind == r->kind)
		return;
	if (r->kind >= 0)
		report_run(ctx, r, u - 1);
	r->kind = kind;
	r->start = u;
}

/*
 * Bits [U, U + N) of an inode (INODES) or block bitmap into OUT.  OUT is
 * cleared first: libext2fs 1.47 returns success without touching OUT when
 * an rbtree bitmap has no bit set (a zeroed bitmap block reads as one), and
 * a reused buffer would then compare as the previous chunk or group.
 */
static errcode_t bitmap_range(ext2fs_generic_bitmap map, int inodes,
			      uint64_t u, size_t n, unsigned char *out)
{
	memset(out, 0, (n + 7) / 8);
	if (inodes)
		return ext2fs_get_inode_bitmap_range2(map, u, n, out);
	return ext2fs_get_block_bitmap_range2(map, u, n, out);
}

/* Bits [U, U + N) of the computed (WHICH 0) or stored (1) bitmap. */
static void get_chunk(struct fsck_ctx *ctx, int inodes, int which,
		      uint64_t u, size_t n, unsigned char *out)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_generic_bitmap map;
	size_t i;

	if (inodes)
		map = which ? fs->inode_map : ctx->inode_used;
	else
		map = which ? fs->block_map : ctx->block_found;
	if (!bitmap_range(map, inodes, u, n, out))
		return;
	memset(out, 0, (n + 7) / 8);
	for (i = 0; i < n; i++) {
		int set = inodes ? ext2fs_test_inode_bitmap2(map, u + i) :
				   ext2fs_test_block_bitmap2(
					   map, EXT2FS_C2B(fs, u + i));

		if (set)
			out[i / 8] |= 1 << (i % 8);
	}
}

static int bit_of(const unsigned char *v, size_t i)
{
	return (v[i / 8] >> (i % 8)) & 1;
}

static int chunk_equal(const unsigned char *a, const unsigned char *b,
		       size_t n)
{
	size_t i;

	if (memcmp(a, b, n / 8))
		return 0;
	for (i = n & ~(size_t)7; i < n; i++)
		if (bit_of(a, i) != bit_of(b, i))
			return 0;
	return 1;
}

static void compare_bitmaps(struct fsck_ctx *ctx, int inodes)
{
	ext2_filsys fs = ctx->fs;
	ext2_ino_t first_ino = EXT2_FIRST_INODE(fs->super);
	struct cmp_run r = { .inodes = inodes, .kind = -1 };
	unsigned char *a = NULL, *b = NULL;
	uint64_t first, last, u;
	size_t n, i;

	if (inodes) {
		first = 1;
		last = fs->super->s_inodes_count;
	} else {
		first = EXT2FS_B2C(fs, fs->super->s_first_data_block);
		last = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super) - 1);
	}
	if (ext2fs_get_mem(CMP_CHUNK / 8, &a) ||
	    ext2fs_get_mem(CMP_CHUNK / 8, &b)) {
		ctx->abort = 1;
		ctx->exit_extra |= FSCK_ERROR;
		goto out;
	}
	for (u = first; u <= last && !ctx->abort; u += n) {
		n = last - u + 1 < CMP_CHUNK ? last - u + 1 : CMP_CHUNK;
		get_chunk(ctx, inodes, 0, u, n, a);
		get_chunk(ctx, inodes, 1, u, n, b);
		/* reserved inodes are always marked in use */
		for (i = 0; inodes && u + i < first_ino && i < n; i++)
			a[i / 8] |= 1 << (i % 8);
		if (chunk_equal(a, b, n)) {
			cmp_step(ctx, &r, u, -1);
			continue;
		}
		for (i = 0; i < n; i++) {
			int found = bit_of(a, i);

			cmp_step(ctx, &r, u + i,
				 found != bit_of(b, i) ? found : -1);
		}
		if (!inodes)
			fsck_progress(ctx, 5, u - first, 2 * (last - first));
	}
	if (!ctx->abort)
		cmp_step(ctx, &r, last + 1, -1);
out:
	ext2fs_free_mem(&a);
	ext2fs_free_mem(&b);
}

static void check_bitmap_csums(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;
	unsigned int bsize = EXT2_CLUSTERS_PER_GROUP(fs->super) / 8;
	unsigned int isize = EXT2_INODES_PER_GROUP(fs->super) / 8;
	char *buf = NULL;
	dgrp_t g;

	/* bitmaps a repair changed are written with new checksums */
	if (!ext2fs_has_feature_metadata_csum(fs->super) ||
	    ctx->bitmaps_changed)
		return;
	if (ext2fs_get_memzero(fs->blocksize, &buf))
		return;
	for (g = 0; g < fs->group_desc_count; g++) {
		pctx_clear(&pctx);
		pctx.group = g;
		if (!ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT)) {
			bitmap_range(fs->block_map, 0,
				     EXT2FS_B2C(fs,
						ext2fs_group_first_block2(fs, g)),
				     bsize * 8, (unsigned char *)buf);
			if (!fsck_bitmap_csum_ok(fs, g, 0, buf, bsize) &&
			    fix_problem(ctx, PR_5_BLOCK_BITMAP_CSUM, &pctx))
				ext2fs_mark_bb_dirty(fs);
		}
		if (!ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT)) {
			bitmap_range(fs->inode_map, 1,
				     g * fs->super->s_inodes_per_group + 1,
				     isize * 8, (unsigned char *)buf);
			if (!fsck_bitmap_csum_ok(fs, g, 1, buf, isize) &&
			    fix_problem(ctx, PR_5_INODE_BITMAP_CSUM, &pctx))
				ext2fs_mark_ib_dirty(fs);
		}
	}
	ext2fs_free_mem(&buf);
}

/* Per group: free clusters, free inodes, directories, unused inodes. */
static void check_group_counts(struct fsck_ctx *ctx, uint64_t *free_c,
			       uint64_t *free_i)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	ext2_ino_t ipg = sb->s_inodes_per_group;
	struct problem_ctx pctx;
	dgrp_t g;

	*free_c = *free_i = 0;
	for (g = 0; g < fs->group_desc_count && !ctx->abort; g++) {
		blk64_t b = ext2fs_group_first_block2(fs, g);
		blk64_t last = ext2fs_group_last_block2(fs, g);
		uint64_t fc = 0, fi = 0, dirs = 0;
		ext2_ino_t i, first = g * ipg + 1, high = 0;

		for (b = EXT2FS_C2B(fs, EXT2FS_B2C(fs, b)); b <= last;
		     b += EXT2FS_CLUSTER_RATIO(fs))
			if (!ext2fs_test_block_bitmap2(ctx->block_found, b))
				fc++;
		for (i = first; i < first + ipg; i++) {
			int used = ext2fs_test_inode_bitmap2(ctx->inode_used,
							     i) ||
				   i < EXT2_FIRST_INODE(sb);

			if (!used)
				fi++;
			else
				high = i - first + 1;
			if (ext2fs_test_inode_bitmap2(ctx->inode_dir, i))
				dirs++;
		}
		*free_c += fc;
		*free_i += fi;
		pctx_clear(&pctx);
		pctx.group = g;
		if (ext2fs_bg_free_blocks_count(fs, g) != fc) {
			pctx.num = ext2fs_bg_free_blocks_count(fs, g);
			pctx.num2 = fc;
			if (fix_problem(ctx, PR_5_GROUP_FREE_BLOCKS, &pctx)) {
				ext2fs_bg_free_blocks_count_set(fs, g, fc);
				/* the group's bitmap is on disk from now on */
				if (ext2fs_bg_flags_test(fs, g,
							 EXT2_BG_BLOCK_UNINIT))
					ext2fs_mark_bb_dirty(fs);
				ext2fs_bg_flags_clear(fs, g,
						      EXT2_BG_BLOCK_UNINIT);
			}
		}
		if (ext2fs_bg_free_inodes_count(fs, g) != fi) {
			pctx.num = ext2fs_bg_free_inodes_count(fs, g);
			pctx.num2 = fi;
			if (fix_problem(ctx, PR_5_GROUP_FREE_INODES, &pctx))
				ext2fs_bg_free_inodes_count_set(fs, g, fi);
		}
		if (ext2fs_bg_used_dirs_count(fs, g) != dirs) {
			pctx.num = ext2fs_bg_used_dirs_count(fs, g);
			pctx.num2 = dirs;
			if (fix_problem(ctx, PR_5_GROUP_DIRS, &pctx))
				ext2fs_bg_used_dirs_count_set(fs, g, dirs);
		}
		if (ext2fs_has_group_desc_csum(fs) && high) {
			if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT)) {
				pctx.ino = first + high - 1;
				if (fix_problem(ctx, PR_5_INODE_UNINIT, &pctx))
					ext2fs_bg_flags_clear(
						fs, g, EXT2_BG_INODE_UNINIT);
			} else if (high > ipg - ext2fs_bg_itable_unused(fs, g)) {
				pctx.ino = first + high - 1;
				pctx.num = ext2fs_bg_itable_unused(fs, g);
				if (fix_problem(ctx, PR_5_ITABLE_UNUSED, &pctx))
					ext2fs_bg_itable_unused_set(fs, g,
								    ipg - high);
			}
		}
		if (ctx->fs_rw && ext2fs_has_group_desc_csum(fs))
			ext2fs_group_desc_csum_set(fs, g);
	}
	if (ctx->fs_rw)
		ext2fs_mark_super_dirty(fs);
}

/*
 * Totals left stale by a journal replay are what the replay still needs
 * repaired (the kernel leaves them so); otherwise stale superblock totals
 * are harmless and declining the fix is no error.
 */
static problem_t totals_code(struct fsck_ctx *ctx, problem_t code)
{
	return fsck_journal_replayed(ctx) ? PR_5_REPLAY_TOTALS : code;
}

static void check_totals(struct fsck_ctx *ctx, uint64_t free_c,
			 uint64_t free_i)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct problem_ctx pctx;
	uint64_t free_b = EXT2FS_C2B(fs, free_c);

	pctx_clear(&pctx);
	if (ext2fs_free_blocks_count(sb) != free_b) {
		pctx.num = ext2fs_free_blocks_count(sb);
		pctx.num2 = free_b;
		pctx.str = "blocks";
		if (fix_problem(ctx, totals_code(ctx, PR_5_FREE_BLOCKS), &pctx)) {
			ext2fs_free_blocks_count_set(sb, free_b);
			ext2fs_mark_super_dirty(fs);
		}
	}
	if (sb->s_free_inodes_count != free_i) {
		pctx.num = sb->s_free_inodes_count;
		pctx.num2 = free_i;
		pctx.str = "inodes";
		if (fix_problem(ctx, totals_code(ctx, PR_5_FREE_INODES), &pctx)) {
			sb->s_free_inodes_count = free_i;
			ext2fs_mark_super_dirty(fs);
		}
	}
}

/*
 * Whether a bit of the last group's block bitmap past the file system's
 * last cluster (within the group's span, which libext2fs reads into the
 * bitmap) is clear.
 */
static int last_group_tail_clear(ext2_filsys fs)
{
	ext2fs_block_bitmap map = fs->block_map;
	blk64_t end = ext2fs_get_block_bitmap_end2(map);
	blk64_t real_end = EXT2FS_B2C(fs, fs->super->s_first_data_block) +
		(blk64_t)EXT2_CLUSTERS_PER_GROUP(fs->super) *
		fs->group_desc_count - 1;
	blk64_t c, saved;
	int clear = 0;

	if (end >= real_end ||
	    ext2fs_fudge_block_bitmap_end2(map, real_end, &saved))
		return 0;
	for (c = end + 1; c <= real_end && !clear; c++)
		clear = !ext2fs_test_block_bitmap2(map,
						   EXT2FS_C2B(fs, c));
	ext2fs_fudge_block_bitmap_end2(map, saved, NULL);
	return clear;
}

/* Bits past the end of the file system must be set; libext2fs notes
 * when those past a group's span are not as it reads the bitmaps, and
 * the last group's bits past the last block are looked at here.  The
 * fix: mark the bitmaps dirty, and libext2fs writes the padding set. */
static void check_padding(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	if (((fs->flags & EXT2_FLAG_BBITMAP_TAIL_PROBLEM) ||
	     last_group_tail_clear(fs)) &&
	    fix_problem(ctx, PR_5_BLOCK_PADDING, &pctx))
		ext2fs_mark_bb_dirty(fs);
	if ((fs->flags & EXT2_FLAG_IBITMAP_TAIL_PROBLEM) &&
	    fix_problem(ctx, PR_5_INODE_PADDING, &pctx))
		ext2fs_mark_ib_dirty(fs);
}

/* The stored block bitmap in the form pass 1 chose for the found one. */
errcode_t fsck_read_bitmaps(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	int type = fs->default_bitmap_type;
	errcode_t err = 0;

	if (!fs->block_map) {
		if (ctx->found_is_array)
			fs->default_bitmap_type = EXT2FS_BMAP64_BITARRAY;
		err = ext2fs_read_block_bitmap(fs);
		fs->default_bitmap_type = type;
	}
	if (!err && !fs->inode_map)
		err = ext2fs_read_inode_bitmap(fs);
	return err;
}

void pass5(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	uint64_t free_c, free_i;
	errcode_t err;

	if (ctx->abort || !ctx->block_found)
		return;
	/* Blocks of damaged inodes that pass 1 could not walk would look
	 * free: change no allocation while such problems remain. */
	ctx->hold_repairs = ctx->problems_unfixed > 0;
	err = fsck_read_bitmaps(ctx);
	if (err) {
		pctx_clear(&pctx);
		pctx.str = error_message(err);
		fix_problem(ctx, PR_5_BITMAP_READ, &pctx);
		return;
	}
	check_padding(ctx);
	check_bitmap_csums(ctx);
	compare_bitmaps(ctx, 0);
	compare_bitmaps(ctx, 1);
	check_group_counts(ctx, &free_c, &free_i);
	check_totals(ctx, free_c, free_i);
	ctx->have_counted = 1;
	ctx->counted_free_blocks = EXT2FS_C2B(ctx->fs, free_c);
	ctx->counted_free_inodes = free_i;
	fsck_quota_check(ctx);
	fsck_progress(ctx, 5, 1, 1);
}
