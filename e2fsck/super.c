/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * super.c --- checks of the superblock and the group descriptors before
 * pass 1: geometry, counts, feature combinations, checksums, where each
 * group's metadata lies, and the first backup superblock.
 *
 * Hands on: nothing but the problems it reported; pass 1 marks the
 * metadata blocks itself.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include <uuid/uuid.h>
#include "problem.h"
#include "journal.h"

static void check_sb_csum(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;

	if (!ext2fs_has_feature_metadata_csum(fs->super))
		return;
	if (ext2fs_superblock_csum_verify(fs, fs->super))
		return;
	pctx_clear(&pctx);
	if (fix_problem(ctx, PR_0_SB_CSUM, &pctx))
		ext2fs_mark_super_dirty(fs);
}

static void check_device_size(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;
	blk64_t size = 0;

	if (ext2fs_get_device_size2(ctx->opt.device, fs->blocksize, &size) ||
	    !size)
		return;
	if (size >= ext2fs_blocks_count(fs->super))
		return;
	pctx_clear(&pctx);
	pctx.num = ext2fs_blocks_count(fs->super);
	pctx.num2 = size;
	fix_problem(ctx, PR_0_FS_SIZE_DEVICE, &pctx);
}

/* Free blocks (BLOCKS) or inodes summed over the group descriptors,
 * capped at the totals. */
uint64_t groups_free(ext2_filsys fs, int blocks)
{
	uint64_t n = 0, max;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++)
		n += blocks ? EXT2FS_C2B(fs, ext2fs_bg_free_blocks_count(fs, g)) :
			      ext2fs_bg_free_inodes_count(fs, g);
	max = blocks ? ext2fs_blocks_count(fs->super) :
		       fs->super->s_inodes_count;
	return n > max ? max : n;
}

/* The layout every bitmap read relies on (libext2fs overruns its buffers
 * on others): the first data block and the clusters per group. */
int fsck_geometry_sane(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;

	return sb->s_first_data_block ==
		       (fs->blocksize == 1024 && EXT2FS_CLUSTER_RATIO(fs) == 1) &&
	       sb->s_clusters_per_group <= fs->blocksize * 8 &&
	       sb->s_clusters_per_group >= 8 && !(sb->s_clusters_per_group % 8);
}

/* Are bits FROM to the end of BITS (NBITS long) all set? */
static int padded_from(const unsigned char *bits, unsigned int nbits,
		       unsigned int from)
{
	for (; from < nbits && from % 8; from++)
		if (!(bits[from / 8] & (1U << (from % 8))))
			return 0;
	for (; from < nbits; from += 8)
		if (bits[from / 8] != 0xff)
			return 0;
	return 1;
}

/*
 * The inodes per group that group 0's inode bitmap shows, of ALT (the
 * inode count over the groups) and the superblock's: the padding past
 * the last inode of a group is set, so the smaller one is right when the
 * bits from it on are all set, else the larger.  0 when the bitmap says
 * nothing (not initialised, out of range, unreadable).
 */
static __u32 ipg_by_bitmap(ext2_filsys fs, __u32 alt)
{
	__u32 ipg = fs->super->s_inodes_per_group;
	__u32 lo = alt < ipg ? alt : ipg, hi = alt < ipg ? ipg : alt;
	blk64_t b = ext2fs_inode_bitmap_loc(fs, 0);
	unsigned char *buf = NULL;
	__u32 r = 0;

	if ((ext2fs_has_group_desc_csum(fs) &&
	     ext2fs_bg_flags_test(fs, 0, EXT2_BG_INODE_UNINIT)) ||
	    !b || b >= ext2fs_blocks_count(fs->super) ||
	    ext2fs_get_mem(fs->blocksize, &buf))
		return 0;
	if (!io_channel_read_blk64(fs->io, b, 1, buf))
		r = padded_from(buf, fs->blocksize * 8, lo) ? lo : hi;
	ext2fs_free_mem(&buf);
	return r;
}

/*
 * A wrong inodes per group reads like a wrong inode count: when the count
 * over the groups gives a sound inodes per group that group 0's bitmap
 * confirms, the inodes per group is what changes (every inode table is
 * read by it).  Returns 1 when it was fixed (in memory for -n too).
 */
static int fix_inodes_per_group(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	unsigned int isz = EXT2_INODE_SIZE(sb);
	__u32 alt, n = fs->group_desc_count;
	struct problem_ctx pctx;
	int csum_ok;

	if (!n || sb->s_inodes_count % n)
		return 0;
	alt = sb->s_inodes_count / n;
	if (!alt || alt % 8 || alt > fs->blocksize * 8ULL ||
	    (alt * (uint64_t)isz) % fs->blocksize ||
	    alt * (uint64_t)isz / fs->blocksize > sb->s_blocks_per_group ||
	    ipg_by_bitmap(fs, alt) != alt)
		return 0;
	pctx_clear(&pctx);
	pctx.num = sb->s_inodes_per_group;
	pctx.num2 = alt;
	csum_ok = ext2fs_superblock_csum_verify(fs, sb);
	if (!fix_problem(ctx, PR_0_INODES_PER_GROUP, &pctx)) {
		if (ctx->fs_rw)
			return 0;
		/* checked read-only as if it were right (see below) */
	}
	sb->s_inodes_per_group = alt;
	fs->inode_blocks_per_group = alt * (uint64_t)isz / fs->blocksize;
	if (!ctx->fs_rw) {
		if (csum_ok)
			ext2fs_superblock_csum_set(fs, sb);
		return 1;
	}
	/* written now: a journal replay reopens the file system from disk */
	ext2fs_mark_super_dirty(fs);
	if (ext2fs_flush(fs)) {
		ctx->problems_fixed--;
		ctx->problems_unfixed++;
	}
	return 1;
}

int fsck_inodes_count(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	uint64_t want = (uint64_t)sb->s_inodes_per_group * fs->group_desc_count;
	struct problem_ctx pctx;
	int csum_ok;

	if (want == sb->s_inodes_count || fix_inodes_per_group(ctx))
		return 0;
	pctx_clear(&pctx);
	pctx.num = sb->s_inodes_count;
	pctx.num2 = want;
	if (want > ~0U) {	/* no 32-bit count can hold it */
		fix_problem(ctx, PR_0_INODES_COUNT, &pctx);
		return -1;
	}
	if (fix_problem(ctx, PR_0_INODES_COUNT, &pctx)) {
		sb->s_inodes_count = want;
		ext2fs_mark_super_dirty(fs);
		return 0;
	}
	if (ctx->fs_rw)
		return -1;
	/* checked read-only as if it were right; nothing is written (a
	 * checksum that held is kept holding, in memory too) */
	csum_ok = ext2fs_superblock_csum_verify(fs, sb);
	sb->s_inodes_count = want;
	if (csum_ok)
		ext2fs_superblock_csum_set(fs, sb);
	return 0;
}

static void check_geometry(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct problem_ctx pctx;
	blk64_t want;

	pctx_clear(&pctx);
	want = (fs->blocksize == 1024 && EXT2FS_CLUSTER_RATIO(fs) == 1);
	if (sb->s_first_data_block != want) {
		pctx.num = sb->s_first_data_block;
		pctx.num2 = want;
		fix_problem(ctx, PR_0_FIRST_DATA_BLOCK, &pctx);
		return;
	}
	if (sb->s_clusters_per_group > fs->blocksize * 8 ||
	    sb->s_clusters_per_group < 8 || sb->s_clusters_per_group % 8) {
		pctx.num = sb->s_blocks_per_group;
		fix_problem(ctx, PR_0_BLOCKS_PER_GROUP, &pctx);
		return;
	}
	fsck_inodes_count(ctx);
	if (ext2fs_r_blocks_count(sb) > ext2fs_blocks_count(sb) / 2) {
		pctx.num = ext2fs_r_blocks_count(sb);
		pctx.num2 = ext2fs_blocks_count(sb);
		if (fix_problem(ctx, PR_0_R_BLOCKS, &pctx)) {
			ext2fs_r_blocks_count_set(sb, 0);
			ext2fs_mark_super_dirty(fs);
		}
	}
	/* The repair takes the groups' sum; pass 5 recounts it all. */
	if (ext2fs_free_blocks_count(sb) > ext2fs_blocks_count(sb)) {
		pctx.str = "block";
		pctx.num = ext2fs_free_blocks_count(sb);
		pctx.num2 = ext2fs_blocks_count(sb);
		if (fix_problem(ctx, PR_0_FREE_RANGE, &pctx)) {
			ext2fs_free_blocks_count_set(sb, groups_free(fs, 1));
			ext2fs_mark_super_dirty(fs);
		}
	}
	if (sb->s_free_inodes_count > sb->s_inodes_count) {
		pctx.str = "inode";
		pctx.num = sb->s_free_inodes_count;
		pctx.num2 = sb->s_inodes_count;
		if (fix_problem(ctx, PR_0_FREE_RANGE, &pctx)) {
			sb->s_free_inodes_count = groups_free(fs, 0);
			ext2fs_mark_super_dirty(fs);
		}
	}
	if (ext2fs_has_feature_flex_bg(sb) && sb->s_log_groups_per_flex > 31) {
		pctx.num = sb->s_log_groups_per_flex;
		fix_problem(ctx, PR_0_FLEX_SIZE, &pctx);
	}
}

/* Report the feature combination WHAT; 1 when it is to be repaired. */
static int combo(struct fsck_ctx *ctx, const char *what)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.str = what;
	return fix_problem(ctx, PR_0_FEATURE_COMBO, &pctx);
}

static void check_features(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct problem_ctx pctx;

	/* clusters are only mapped by extents: the feature comes back */
	if (ext2fs_has_feature_bigalloc(sb) &&
	    !ext2fs_has_feature_extents(sb) &&
	    combo(ctx, "bigalloc needs extent")) {
		ext2fs_set_feature_extents(sb);
		ext2fs_mark_super_dirty(ctx->fs);
	}
	/* meta_bg places the descriptors the resize inode would reserve
	 * for: the feature, the reservation and the inode go (pass 1 then
	 * claims none of its blocks, pass 5 frees them) */
	pctx_clear(&pctx);
	if (ext2fs_has_feature_meta_bg(sb) &&
	    ext2fs_has_feature_resize_inode(sb) &&
	    fix_problem(ctx, PR_0_META_BG_RESIZE, &pctx)) {
		ext2fs_clear_feature_resize_inode(sb);
		sb->s_reserved_gdt_blocks = 0;
		ext2fs_mark_super_dirty(ctx->fs);
		if (e2x_resize_inode_clear(ctx->fs)) {
			ctx->problems_fixed--;
			ctx->problems_unfixed++;
		}
	}
	/* metadata_csum already checksums the descriptors: the older
	 * descriptor checksum goes, and the descriptors keep the crc32c
	 * libext2fs gives them under metadata_csum */
	if (ext2fs_has_feature_metadata_csum(sb) &&
	    ext2fs_has_feature_gdt_csum(sb) &&
	    combo(ctx, "metadata_csum and uninit_bg")) {
		ext2fs_clear_feature_gdt_csum(sb);
		ext2fs_mark_super_dirty(ctx->fs);
	}
	/* the seed means nothing without metadata checksums: the feature
	 * bit goes, the seed field is left as it is */
	if (ext2fs_has_feature_csum_seed(sb) &&
	    !ext2fs_has_feature_metadata_csum(sb)) {
		pctx_clear(&pctx);
		if (fix_problem(ctx, PR_0_CSUM_SEED, &pctx)) {
			ext2fs_clear_feature_csum_seed(sb);
			ext2fs_mark_super_dirty(ctx->fs);
		}
	}
	if (ext2fs_has_feature_64bit(sb) &&
	    (sb->s_desc_size < EXT2_MIN_DESC_SIZE_64BIT ||
	     sb->s_desc_size > EXT2_MAX_DESC_SIZE ||
	     (sb->s_desc_size & (sb->s_desc_size - 1)))) {
		pctx_clear(&pctx);
		pctx.num = sb->s_desc_size;
		fix_problem(ctx, PR_0_DESC_SIZE, &pctx);
	}
	/* unused without 64bit (the kernel reads 32-byte descriptors), but
	 * a size that could never be valid is junk to clear */
	if (!ext2fs_has_feature_64bit(sb) && sb->s_desc_size &&
	    (sb->s_desc_size > EXT2_MAX_DESC_SIZE ||
	     (sb->s_desc_size & (sb->s_desc_size - 1)))) {
		pctx_clear(&pctx);
		pctx.num = sb->s_desc_size;
		if (fix_problem(ctx, PR_0_DESC_SIZE_NO64, &pctx)) {
			sb->s_desc_size = 0;
			ext2fs_mark_super_dirty(ctx->fs);
		}
	}
}

/* Allowed range for group G's bitmaps and table. */
static void meta_range(ext2_filsys fs, dgrp_t g, blk64_t *lo, blk64_t *hi)
{
	if (ext2fs_has_feature_flex_bg(fs->super)) {
		*lo = fs->super->s_first_data_block;
		*hi = ext2fs_blocks_count(fs->super) - 1;
	} else {
		*lo = ext2fs_group_first_block2(fs, g);
		*hi = ext2fs_group_last_block2(fs, g);
	}
}

static const problem_t out_of_range[E2X_GM_KINDS] = {
	PR_0_GD_BLOCK_BITMAP, PR_0_GD_INODE_BITMAP, PR_0_GD_INODE_TABLE
};
static const char *const meta_name[E2X_GM_KINDS] = {
	"block bitmap", "inode bitmap", "inode table"
};

/* Do N blocks from B lie on the proved journal (JMAP, or NULL)? */
static int on_journal(ext2fs_block_bitmap jmap, blk64_t b, blk64_t n)
{
	return jmap && !ext2fs_test_block_bitmap_range2(jmap, b, n);
}

/* Does any of N blocks from B belong to a file (FMAP, or NULL)? */
static int on_files(ext2fs_block_bitmap fmap, blk64_t b, blk64_t n)
{
	return fmap && !ext2fs_test_block_bitmap_range2(fmap, b, n);
}

/* The backup descriptors put group G's K at B too. */
static int backup_agrees(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k,
			 blk64_t b)
{
	blk64_t was;

	return !e2x_group_meta_backup_loc(fs, g, k, &was) && was == b;
}

/* Report CODE (group G's K belongs at WAS); a yes points the descriptor
 * there and claims the blocks.  1 when done. */
static int move_back(struct fsck_ctx *ctx, ext2fs_block_bitmap owned,
		     dgrp_t g, enum e2x_group_meta k, blk64_t was,
		     problem_t code)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.group = g;
	pctx.blk = e2x_group_meta_loc(fs, g, k);
	pctx.num = was;
	pctx.str = meta_name[k];
	if (!fix_problem(ctx, code, &pctx))
		return 0;
	e2x_group_meta_set(fs, g, k, was);
	ext2fs_group_desc_csum_set(fs, g);
	ext2fs_mark_super_dirty(fs);
	ext2fs_mark_block_bitmap_range2(owned, was, e2x_group_meta_len(fs, k));
	return 1;
}

/*
 * Group G's metadata K cannot be where the descriptor says: where the
 * backup descriptors put it, when that is in range and on blocks nothing
 * else owns, is where it was (locations change only by tools that write
 * every copy).  1 when the descriptor points there now (claimed).
 */
static int restore_from_backup(struct fsck_ctx *ctx, ext2fs_block_bitmap owned,
			       ext2fs_block_bitmap jmap,
			       ext2fs_block_bitmap fmap, dgrp_t g,
			       enum e2x_group_meta k)
{
	ext2_filsys fs = ctx->fs;
	blk64_t b = e2x_group_meta_loc(fs, g, k), was, lo, hi;
	blk64_t n = e2x_group_meta_len(fs, k);

	meta_range(fs, g, &lo, &hi);
	if (e2x_group_meta_backup_loc(fs, g, k, &was) || was == b ||
	    was < lo || was > hi || hi - was < n - 1 ||
	    !ext2fs_test_block_bitmap_range2(owned, was, n) ||
	    on_journal(jmap, was, n) || on_files(fmap, was, n))
		return 0;
	return move_back(ctx, owned, g, k, was, PR_0_GD_FROM_BACKUP);
}

/*
 * No backup to ask: an inode table is looked for where mke2fs puts it,
 * and used when the inodes there prove it (table_find.c) and nothing
 * else owns those blocks.  1 when the descriptor points there now.
 */
static int restore_from_layout(struct fsck_ctx *ctx, ext2fs_block_bitmap owned,
			       ext2fs_block_bitmap jmap,
			       ext2fs_block_bitmap fmap, dgrp_t g,
			       enum e2x_group_meta k)
{
	ext2_filsys fs = ctx->fs;
	blk64_t was, lo, hi;
	blk64_t n = e2x_group_meta_len(fs, k);

	if (k != E2X_GM_INODE_TABLE)
		return 0;
	meta_range(fs, g, &lo, &hi);
	if (!fsck_itable_find(ctx, g, lo, hi, &was) ||
	    !ext2fs_test_block_bitmap_range2(owned, was, n) ||
	    on_journal(jmap, was, n) || on_files(fmap, was, n))
		return 0;
	return move_back(ctx, owned, g, k, was, PR_0_GD_ITABLE_FOUND);
}

/*
 * Group G's metadata K: in its range and on blocks no other metadata
 * owns (OWNED, per block), it is claimed there; otherwise it is reported
 * and noted for relocation (relocate.c), and from now on the descriptor
 * points nowhere.  On blocks files claim (FMAP, file_claims.c) where the
 * backup descriptors do not put it, the descriptor is what is wrong: the
 * files keep their blocks.  Where the backup puts it too, a file's
 * pointer is (pass 1 judges the file).
 */
static void place_meta(struct fsck_ctx *ctx, ext2fs_block_bitmap owned,
		       ext2fs_block_bitmap jmap, ext2fs_block_bitmap fmap,
		       dgrp_t g, enum e2x_group_meta k)
{
	ext2_filsys fs = ctx->fs;
	blk64_t b = e2x_group_meta_loc(fs, g, k);
	blk64_t n = e2x_group_meta_len(fs, k), lo, hi;
	struct problem_ctx pctx;
	problem_t code;

	meta_range(fs, g, &lo, &hi);
	if (b < lo || b > hi || hi - b < n - 1)
		code = out_of_range[k];
	else if (!ext2fs_test_block_bitmap_range2(owned, b, n))
		code = PR_0_GD_OVERLAP;
	else if (on_journal(jmap, b, n) && !backup_agrees(fs, g, k, b))
		code = PR_0_GD_OVERLAP;	/* where the backup has it, the
					 * journal's map is what is wrong */
	else if (on_files(fmap, b, n) && !backup_agrees(fs, g, k, b))
		code = PR_0_GD_ON_FILES;
	else {
		ext2fs_mark_block_bitmap_range2(owned, b, n);
		return;
	}
	if (restore_from_backup(ctx, owned, jmap, fmap, g, k) ||
	    restore_from_layout(ctx, owned, jmap, fmap, g, k))
		return;
	pctx_clear(&pctx);
	pctx.group = g;
	pctx.blk = b;
	pctx.str = meta_name[k];
	fsck_relocate_note(ctx, g, k, fix_problem(ctx, code, &pctx));
}

/* Every block set in FROM (FIRST to LAST) set in TO too. */
static void mark_all(ext2fs_block_bitmap to, ext2fs_block_bitmap from,
		     blk64_t first, blk64_t last)
{
	blk64_t b = first;

	while (!ext2fs_find_first_set_block_bitmap2(from, b, last, &b)) {
		ext2fs_mark_block_bitmap2(to, b);
		if (b++ == last)
			break;
	}
}

struct jclaim {
	ext2fs_block_bitmap owned;	/* superblocks and descriptors */
	ext2fs_block_bitmap jmap;	/* the journal's blocks so far */
	blk64_t total;
	int bad;			/* a block out of range or owned */
};

static int jclaim_block(ext2_filsys fs, blk64_t *b, e2_blkcnt_t cnt,
			blk64_t ref, int off, void *arg)
{
	struct jclaim *jc = arg;

	(void)cnt;
	(void)ref;
	(void)off;
	if (!fsck_block_in_fs(fs, *b) ||
	    ext2fs_test_block_bitmap2(jc->owned, *b) ||
	    ext2fs_test_block_bitmap2(jc->jmap, *b)) {
		jc->bad = 1;
		return BLOCK_ABORT;
	}
	ext2fs_mark_block_bitmap2(jc->jmap, *b);
	jc->total++;
	return 0;
}

/*
 * The internal journal's blocks, when its inode leads to a journal that
 * loads (its superblock where the map says) and maps only blocks of its
 * own inside the file system: proved, they are the journal's, and group
 * metadata placed on them is what is wrong (the kernel would replay the
 * log over it) unless the backup descriptors place it there too.  The
 * map of them (the caller frees it), or NULL when unproved.
 */
static ext2fs_block_bitmap claim_journal(struct fsck_ctx *ctx,
					 ext2fs_block_bitmap owned)
{
	ext2_filsys fs = ctx->fs;
	struct e2x_journal_opts o = { 0 };
	struct e2x_journal *j = NULL;
	struct jclaim jc = { .owned = owned };
	int proved;

	if (!ext2fs_has_feature_journal(fs->super) ||
	    !fs->super->s_journal_inum ||
	    ext2fs_has_feature_journal_dev(fs->super) ||
	    e2x_journal_load(fs, &o, &j))
		return NULL;
	proved = !e2x_journal_used_backup(j);
	e2x_journal_free(j);
	if (!proved || ext2fs_allocate_subcluster_bitmap(fs, "journal",
							 &jc.jmap))
		return NULL;
	if (!ext2fs_block_iterate3(fs, fs->super->s_journal_inum,
				   BLOCK_FLAG_READ_ONLY, NULL, jclaim_block,
				   &jc) &&
	    !jc.bad && jc.total)
		return jc.jmap;
	ext2fs_free_block_bitmap(jc.jmap);
	return NULL;
}

/*
 * Every block has at most one owner: superblocks and descriptors first,
 * the journal's blocks when they are proved (claim_journal), then the
 * inode tables (they hold the inodes: kept where they are when
 * they can be), then the bitmaps (pass 5 rebuilds them wherever they go).
 * The map of owners is the one the write guard allows (guard.c).
 */
static void check_placement(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	static const enum e2x_group_meta order[E2X_GM_KINDS] = {
		E2X_GM_INODE_TABLE, E2X_GM_BLOCK_BITMAP, E2X_GM_INODE_BITMAP
	};
	ext2fs_block_bitmap jmap, fmap = NULL;
	dgrp_t g;
	int i;

	if (fsck_guard_map(ctx)) {
		ctx->abort = 1;
		ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	jmap = claim_journal(ctx, ctx->guard_meta);
	/* without the map (no memory) files are judged by pass 1 as before */
	fsck_file_claims(ctx, &fmap);
	for (i = 0; i < E2X_GM_KINDS && !ctx->abort; i++)
		for (g = 0; g < fs->group_desc_count && !ctx->abort; g++)
			place_meta(ctx, ctx->guard_meta, jmap, fmap, g,
				   order[i]);
	if (fmap)
		ext2fs_free_block_bitmap(fmap);
	if (!jmap)
		return;
	mark_all(ctx->guard_meta, jmap, fs->super->s_first_data_block,
		 ext2fs_blocks_count(fs->super) - 1);
	ext2fs_free_block_bitmap(jmap);
}

static dgrp_t group_clusters(ext2_filsys fs, dgrp_t g)
{
	blk64_t first = ext2fs_group_first_block2(fs, g);
	blk64_t last = ext2fs_group_last_block2(fs, g);

	return EXT2FS_B2C(fs, last) - EXT2FS_B2C(fs, first) + 1;
}

/*
 * Set group G's free block (WHAT 0), free inode (1) or unused inode (2)
 * count to N.  The free counts become the most the group can hold; pass
 * 5 recounts them from the bitmaps it builds.
 */
static void gd_fixed(ext2_filsys fs, dgrp_t g, int what, __u32 n)
{
	if (what == 0)
		ext2fs_bg_free_blocks_count_set(fs, g, n);
	else if (what == 1)
		ext2fs_bg_free_inodes_count_set(fs, g, n);
	else
		ext2fs_bg_itable_unused_set(fs, g, n);
	ext2fs_group_desc_csum_set(fs, g);
	ext2fs_mark_super_dirty(fs);
}

/* Group 0 said to hold no inodes, or fewer than the reserved ones. */
static int first_group_lazy(ext2_filsys fs)
{
	uint32_t ipg = fs->super->s_inodes_per_group;
	uint32_t reserved = EXT2_FIRST_INODE(fs->super) - 1;

	return ext2fs_bg_flags_test(fs, 0, EXT2_BG_INODE_UNINIT) ||
	       (reserved < ipg &&
		ext2fs_bg_itable_unused(fs, 0) > ipg - reserved);
}

static void check_gd_counts(struct fsck_ctx *ctx, dgrp_t g)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;
	int csum = ext2fs_has_group_desc_csum(fs);

	pctx_clear(&pctx);
	pctx.group = g;
	if (ext2fs_bg_free_blocks_count(fs, g) > group_clusters(fs, g)) {
		pctx.num = ext2fs_bg_free_blocks_count(fs, g);
		pctx.num2 = group_clusters(fs, g);
		if (fix_problem(ctx, PR_0_GD_FREE_BLOCKS, &pctx))
			gd_fixed(fs, g, 0, pctx.num2);
	}
	if (ext2fs_bg_free_inodes_count(fs, g) > fs->super->s_inodes_per_group) {
		pctx.num = ext2fs_bg_free_inodes_count(fs, g);
		pctx.num2 = fs->super->s_inodes_per_group;
		if (fix_problem(ctx, PR_0_GD_FREE_INODES, &pctx))
			gd_fixed(fs, g, 1, pctx.num2);
	}
	/* Inodes past the unused mark are never read: taking the mark back
	 * to 0 lets pass 1 see every inode the group may hold, and pass 5
	 * sets it again from what is in use. */
	if (csum && ext2fs_bg_itable_unused(fs, g) >
			    ext2fs_bg_free_inodes_count(fs, g)) {
		pctx.num = ext2fs_bg_itable_unused(fs, g);
		pctx.num2 = ext2fs_bg_free_inodes_count(fs, g);
		if (fix_problem(ctx, PR_0_GD_ITABLE_UNUSED, &pctx))
			gd_fixed(fs, g, 2, 0);
	}
	if (!csum && (ext2fs_bg_flags(fs, g) &
		      (EXT2_BG_BLOCK_UNINIT | EXT2_BG_INODE_UNINIT))) {
		pctx.str = "no group checksums";
		if (fix_problem(ctx, PR_0_GD_FLAGS, &pctx)) {
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_BLOCK_UNINIT |
					      EXT2_BG_INODE_UNINIT);
			ext2fs_mark_super_dirty(fs);
		}
	} else if (csum && g == 0 && first_group_lazy(fs)) {
		/* the root and the reserved inodes live in group 0: it is
		 * never lazy, and believing it would lose every file */
		pctx.str = "the first group holds the root directory";
		if (fix_problem(ctx, PR_0_GD_FLAGS, &pctx)) {
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_INODE_UNINIT);
			ext2fs_bg_itable_unused_set(fs, g, 0);
			ext2fs_group_desc_csum_set(fs, g);
			ext2fs_mark_super_dirty(fs);
		}
	} else if (csum && g == fs->group_desc_count - 1 &&
		   ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT)) {
		pctx.str = "last group without a block bitmap";
		if (fix_problem(ctx, PR_0_GD_FLAGS, &pctx)) {
			ext2fs_bg_flags_clear(fs, g, EXT2_BG_BLOCK_UNINIT);
			ext2fs_group_desc_csum_set(fs, g);
			ext2fs_mark_super_dirty(fs);
		}
	}
}

static void check_gd_csum(struct fsck_ctx *ctx, dgrp_t g)
{
	struct problem_ctx pctx;

	if (!ext2fs_has_group_desc_csum(ctx->fs) ||
	    ext2fs_group_desc_csum_verify(ctx->fs, g))
		return;
	pctx_clear(&pctx);
	pctx.group = g;
	if (fix_problem(ctx, PR_0_GD_CSUM, &pctx)) {
		/* a descriptor that fails its checksum cannot be trusted to
		 * say which of its inodes and blocks were never used: every
		 * one is checked, and pass 5 sets the marks again */
		ext2fs_bg_flags_clear(ctx->fs, g, EXT2_BG_BLOCK_UNINIT |
				      EXT2_BG_INODE_UNINIT);
		ext2fs_bg_itable_unused_set(ctx->fs, g, 0);
		ext2fs_group_desc_csum_set(ctx->fs, g);
		ext2fs_mark_super_dirty(ctx->fs);
	}
}

static void check_groups(struct fsck_ctx *ctx)
{
	dgrp_t g;

	for (g = 0; g < ctx->fs->group_desc_count && !ctx->abort; g++) {
		check_gd_csum(ctx, g);
		check_gd_counts(ctx, g);
	}
	if (!ctx->abort)
		check_placement(ctx);
}

/* Geometry of the first backup must match the primary. */
static void check_backup(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super, *b;
	struct problem_ctx pctx;
	const char *diff = NULL;
	blk64_t blk;
	char *buf = NULL;

	if (fs->group_desc_count < 2 || ctx->used_backup_sb ||
	    !ext2fs_bg_has_super(fs, 1))
		return;
	if (ext2fs_get_mem(SUPERBLOCK_SIZE, &buf))
		return;
	blk = ext2fs_group_first_block2(fs, 1);
	if (io_channel_read_blk64(fs->io, blk, -SUPERBLOCK_SIZE, buf))
		goto out;
	b = (struct ext2_super_block *)buf;
	if (b->s_magic != EXT2_SUPER_MAGIC)
		diff = "no superblock there";
	else if (ext2fs_blocks_count(b) != ext2fs_blocks_count(sb))
		diff = "block count";
	else if (b->s_inodes_count != sb->s_inodes_count)
		diff = "inode count";
	else if (b->s_log_block_size != sb->s_log_block_size ||
		 b->s_blocks_per_group != sb->s_blocks_per_group ||
		 b->s_inodes_per_group != sb->s_inodes_per_group)
		diff = "geometry";
	else if ((b->s_feature_incompat ^ sb->s_feature_incompat) &
		 ~(EXT3_FEATURE_INCOMPAT_RECOVER |
		   EXT4_FEATURE_INCOMPAT_MMP))
		diff = "incompatible features";
	else if ((b->s_feature_ro_compat ^ sb->s_feature_ro_compat) &
		 ~EXT4_FEATURE_RO_COMPAT_ORPHAN_PRESENT)
		diff = "read-only compatible features";
	if (!diff)
		goto out;
	pctx_clear(&pctx);
	pctx.group = 1;
	pctx.str = diff;
	if (fix_problem(ctx, PR_0_BACKUP_SB, &pctx)) {
		fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
		ext2fs_mark_super_dirty(fs);
	}
out:
	ext2fs_free_mem(&buf);
}

/*
 * The resize inode's double indirect block lists the reserved descriptor
 * blocks that follow group 0's descriptors (the Nth of them at entry
 * (descriptor blocks + N) modulo the entries a block holds: the places
 * the descriptors will take as the file system grows), and each of them
 * lists, one by one, its
 * copies in the later groups that hold a superblock backup.  What does
 * not match, or NULL.
 */
static const char *resize_layout(ext2_filsys fs, blk64_t dind)
{
	unsigned int per = fs->blocksize / 4, i, k;
	blk64_t sb_blk, old_desc, new_desc, gdt;
	const char *why = NULL;
	__u32 *d = NULL, *ind = NULL;
	blk_t used;
	dgrp_t g;

	if (ext2fs_super_and_bgd_loc2(fs, 0, &sb_blk, &old_desc, &new_desc,
				      &used) || !old_desc)
		return NULL;
	gdt = old_desc + fs->desc_blocks;
	if (ext2fs_get_mem(fs->blocksize, &d) ||
	    ext2fs_get_mem(fs->blocksize, &ind)) {
		why = NULL;
		goto out;
	}
	if (io_channel_read_blk64(fs->io, dind, 1, d)) {
		why = "double indirect block unreadable";
		goto out;
	}
	for (i = 0; i < fs->super->s_reserved_gdt_blocks && !why; i++) {
		blk64_t r = gdt + i;

		if (ext2fs_le32_to_cpu(d[(fs->desc_blocks + i) % per]) != r) {
			why = "double indirect block does not list the "
			      "reserved descriptor blocks";
			break;
		}
		if (io_channel_read_blk64(fs->io, r, 1, ind)) {
			why = "reserved descriptor block unreadable";
			break;
		}
		for (g = 1, k = 0; g < fs->group_desc_count && k < per; g++) {
			if (!ext2fs_bg_has_super(fs, g))
				continue;
			if (ext2fs_le32_to_cpu(ind[k++]) !=
			    r + (blk64_t)g * fs->super->s_blocks_per_group) {
				why = "reserved descriptor block lists wrong "
				      "backups";
				break;
			}
		}
		for (; k < per && !why; k++)
			if (ind[k])
				why = "reserved descriptor block lists "
				      "backups that do not exist";
	}
out:
	ext2fs_free_mem(&d);
	ext2fs_free_mem(&ind);
	return why;
}

static int count_block(ext2_filsys fs, blk64_t *blk, e2_blkcnt_t n,
		       blk64_t ref, int off, void *data)
{
	(void)fs; (void)blk; (void)n; (void)ref; (void)off;
	++*(blk64_t *)data;
	return 0;
}

/* The resize inode's i_blocks must count every block its map names (the
 * reserved descriptor blocks and their backups, and the map itself):
 * rebuilt when it does not (the reference fixes the count alone). */
static const char *resize_i_blocks(ext2_filsys fs, struct ext2_inode *inode)
{
	blk64_t n = 0;

	/* bigalloc counts clusters; left to the layout checks */
	if (EXT2FS_CLUSTER_RATIO(fs) > 1 ||
	    ext2fs_block_iterate3(fs, EXT2_RESIZE_INO, BLOCK_FLAG_READ_ONLY,
				  NULL, count_block, &n))
		return NULL;
	if (ext2fs_get_stat_i_blocks(fs, inode) ==
	    n * (fs->blocksize / 512))
		return NULL;
	return "its block count is wrong";
}

/* Quota inode numbers must name regular files in use; the repair forgets
 * a number that does not (quotacheck or tune2fs can make the file again). */
static void check_quota_inodes(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	static const char *const what[3] = { "user", "group", "project" };
	ext2_ino_t inums[3] = { sb->s_usr_quota_inum, sb->s_grp_quota_inum,
				sb->s_prj_quota_inum };
	struct ext2_inode inode;
	struct problem_ctx pctx;
	int i;

	if (!ext2fs_has_feature_quota(sb))
		return;
	for (i = 0; i < 3; i++) {
		ext2_ino_t ino = inums[i];

		if (!ino)
			continue;
		if (ino <= sb->s_inodes_count &&
		    !ext2fs_read_inode(fs, ino, &inode) &&
		    LINUX_S_ISREG(inode.i_mode) && inode.i_links_count)
			continue;
		pctx_clear(&pctx);
		pctx.ino = ino;
		pctx.str = what[i];
		/* Only the superblock's pointer goes: the inode it named,
		 * whatever it holds, is left to passes 1-4. */
		if (!fix_problem(ctx, PR_0_QUOTA_INODE, &pctx))
			continue;
		if (i == 0)
			sb->s_usr_quota_inum = 0;
		else if (i == 1)
			sb->s_grp_quota_inum = 0;
		else
			sb->s_prj_quota_inum = 0;
		ext2fs_mark_super_dirty(fs);
	}
}

/* Inodes read past 11 for check_first_ino: mke2fs reserves no more. */
#define FIRST_INO_PROBE 64

/*
 * A first inode past 11 that no backup corrected (super_trust.c): the
 * inodes below it are reserved and nothing allocates them, so one that is
 * a linked file or directory says the field is wrong, not the files
 * (pass 1 would clear every one of them as "reserved").
 */
static void check_first_ino(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct problem_ctx pctx;
	struct ext2_inode in;
	ext2_ino_t ino, end;

	if (sb->s_rev_level == EXT2_GOOD_OLD_REV ||
	    sb->s_first_ino <= EXT2_GOOD_OLD_FIRST_INO)
		return;
	end = sb->s_first_ino;
	if (end > EXT2_GOOD_OLD_FIRST_INO + FIRST_INO_PROBE)
		end = EXT2_GOOD_OLD_FIRST_INO + FIRST_INO_PROBE;
	for (ino = EXT2_GOOD_OLD_FIRST_INO; ino < end; ino++) {
		if (ext2fs_read_inode(fs, ino, &in) || !in.i_links_count ||
		    in.i_dtime || !(LINUX_S_ISDIR(in.i_mode) ||
				    LINUX_S_ISREG(in.i_mode)))
			continue;
		pctx_clear(&pctx);
		pctx.ino = ino;
		pctx.num = sb->s_first_ino;
		if (fix_problem(ctx, PR_0_FIRST_INO_IN_USE, &pctx)) {
			sb->s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
			ext2fs_mark_super_dirty(fs);
		}
		return;
	}
}

static void check_special_inodes(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode inode;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	if (ext2fs_has_feature_journal(sb) && sb->s_journal_inum &&
	    !ext2fs_has_feature_journal_dev(sb)) {
		pctx.ino = sb->s_journal_inum;
		if (sb->s_journal_inum > sb->s_inodes_count)
			pctx.str = "inode number out of range";
		else if (ext2fs_read_inode(fs, sb->s_journal_inum, &inode))
			pctx.str = "cannot be read";
		else if (!LINUX_S_ISREG(inode.i_mode))
			pctx.str = "not a regular file";
		else if (!inode.i_links_count)
			pctx.str = "not in use";
		else if (!ext2fs_inode_has_valid_blocks2(fs, &inode))
			pctx.str = "no blocks";
		if (pctx.str && fix_problem(ctx, PR_0_JOURNAL_INODE, &pctx))
			fsck_journal_drop(ctx);
	}
	pctx_clear(&pctx);
	if (sb->s_last_orphan && (sb->s_last_orphan > sb->s_inodes_count ||
				  sb->s_last_orphan < EXT2_FIRST_INODE(sb))) {
		pctx.ino = sb->s_last_orphan;
		if (fix_problem(ctx, PR_0_LAST_ORPHAN, &pctx)) {
			sb->s_last_orphan = 0;
			ext2fs_mark_super_dirty(fs);
		}
	}
	pctx_clear(&pctx);
	if (ext2fs_has_feature_orphan_file(sb)) {
		pctx.ino = sb->s_orphan_file_inum;
		if (!pctx.ino || pctx.ino > sb->s_inodes_count)
			pctx.str = "inode number out of range";
		else if (ext2fs_read_inode(fs, pctx.ino, &inode))
			pctx.str = "cannot be read";
		else if (!LINUX_S_ISREG(inode.i_mode) || !inode.i_links_count)
			pctx.str = "not a regular file in use";
		/* forgotten now, so passes 1-5 treat the inode as any other
		 * (a file it is stays, garbage goes); a new orphan file is
		 * made after pass 5 (relocate.c) */
		if (pctx.str && fix_problem(ctx, PR_0_ORPHAN_FILE, &pctx)) {
			sb->s_orphan_file_inum = 0;
			ext2fs_mark_super_dirty(fs);
			ctx->orphan_file_rebuild = 1;
		}
	}
	check_quota_inodes(ctx);
	pctx_clear(&pctx);
	if (ext2fs_read_inode(fs, EXT2_RESIZE_INO, &inode))
		return;
	pctx.ino = EXT2_RESIZE_INO;
	if (ext2fs_has_feature_resize_inode(sb)) {
		blk64_t d = inode.i_block[EXT2_DIND_BLOCK];

		if (!LINUX_S_ISREG(inode.i_mode))
			pctx.str = "not a regular file";
		else if (!d)
			pctx.str = "no double indirect block";
		else if (d < sb->s_first_data_block ||
			 d >= ext2fs_blocks_count(sb))
			pctx.str = "double indirect block out of range";
		else if (!ext2fs_has_feature_meta_bg(sb))
			pctx.str = resize_layout(fs, d);
		if (!pctx.str)
			pctx.str = resize_i_blocks(fs, &inode);
	} else if (inode.i_block[EXT2_DIND_BLOCK] && inode.i_links_count &&
		   !ext2fs_has_feature_meta_bg(sb)) {
		pctx.str = "resize_inode is off but the inode has blocks";
	}
	if (!pctx.str || !fix_problem(ctx, PR_0_RESIZE_INODE, &pctx))
		return;
	/* cleared now, so pass 1 claims none of its blocks; made again
	 * after pass 5 (relocate.c) */
	if (e2x_resize_inode_clear(fs)) {
		ctx->problems_fixed--;
		ctx->problems_unfixed++;
		return;
	}
	ctx->resize_rebuild = ext2fs_has_feature_resize_inode(sb);
}

/* An internal journal's block map is backed up in s_jnl_blocks. */
static void check_journal_backup(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode inode;
	struct problem_ctx pctx;

	if (!ext2fs_has_feature_journal(sb) || !sb->s_journal_inum ||
	    ext2fs_has_feature_journal_dev(sb) ||
	    sb->s_jnl_backup_type == EXT3_JNL_BACKUP_BLOCKS ||
	    sb->s_journal_inum > sb->s_inodes_count ||
	    ext2fs_read_inode(fs, sb->s_journal_inum, &inode) ||
	    !LINUX_S_ISREG(inode.i_mode) || !inode.i_links_count)
		return;
	pctx_clear(&pctx);
	if (!fix_problem(ctx, PR_0_JOURNAL_BACKUP, &pctx))
		return;
	memcpy(sb->s_jnl_blocks, inode.i_block, EXT2_N_BLOCKS * 4);
	sb->s_jnl_blocks[15] = inode.i_size_high;
	sb->s_jnl_blocks[16] = inode.i_size;
	sb->s_jnl_backup_type = EXT3_JNL_BACKUP_BLOCKS;
	ext2fs_mark_super_dirty(fs);
}

/*
 * The kernel refuses to mount with either extra inode size past the
 * inode's room (or not a multiple of 4); the repair sets it to what
 * mke2fs gives, the room a large inode's fixed fields need.
 */
static void check_extra_isize_field(struct fsck_ctx *ctx, __u16 *field,
				    const char *what)
{
	struct ext2_super_block *sb = ctx->fs->super;
	unsigned int room = EXT2_INODE_SIZE(sb) - EXT2_GOOD_OLD_INODE_SIZE;
	unsigned int want = sizeof(struct ext2_inode_large) -
			    EXT2_GOOD_OLD_INODE_SIZE;
	struct problem_ctx pctx;

	if (*field <= room && !(*field & 3))
		return;
	pctx_clear(&pctx);
	pctx.str = what;
	pctx.num = *field;
	if (fix_problem(ctx, PR_0_EXTRA_ISIZE, &pctx)) {
		*field = want < room ? want : room;
		ext2fs_mark_super_dirty(ctx->fs);
	}
}

static void check_extra_isize_fields(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	if (EXT2_INODE_SIZE(sb) <= EXT2_GOOD_OLD_INODE_SIZE)
		return;
	check_extra_isize_field(ctx, &sb->s_min_extra_isize, "minimum");
	check_extra_isize_field(ctx, &sb->s_want_extra_isize, "wanted");
}

/* The MMP block must be in range and carry its magic and checksum. */
static void check_mmp(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;
	struct mmp_struct *mmp = NULL;
	blk64_t b = fs->super->s_mmp_block;

	if (!ext2fs_has_feature_mmp(fs->super))
		return;
	pctx_clear(&pctx);
	pctx.blk = b;
	if (!fsck_block_in_fs(fs, b)) {
		pctx.str = "out of range";
	} else if (ext2fs_get_mem(fs->blocksize, &mmp) ||
		   io_channel_read_blk64(fs->io, b, 1, mmp)) {
		pctx.str = "unreadable";
	} else if (mmp->mmp_magic != EXT4_MMP_MAGIC) {
		pctx.str = "bad magic";
	} else if (ext2fs_has_feature_metadata_csum(fs->super) &&
		   !ext2fs_mmp_csum_verify(fs, mmp)) {
		pctx.str = "bad checksum";
	}
	ext2fs_free_mem(&mmp);
	if (!pctx.str || !fix_problem(ctx, PR_0_MMP, &pctx))
		return;
	/* rewritten in place; a block outside the file system stays
	 * unrepaired */
	if (e2x_repair_mmp_rewrite(fs)) {
		ctx->problems_fixed--;
		ctx->problems_unfixed++;
	}
}

static void check_hurd(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;

	if (ctx->fs->super->s_creator_os != EXT2_OS_HURD ||
	    !ext2fs_has_feature_filetype(ctx->fs->super))
		return;
	pctx_clear(&pctx);
	/* pass 2 then clears the type byte of each entry that has one */
	if (fix_problem(ctx, PR_0_HURD_FILETYPE, &pctx)) {
		ext2fs_clear_feature_filetype(ctx->fs->super);
		ext2fs_mark_super_dirty(ctx->fs);
	}
}

/* A file system without a UUID gets one when written to; not where the
 * UUID seeds every metadata checksum (metadata_csum without csum_seed). */
static void check_uuid(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;

	if (!ctx->fs_rw || !uuid_is_null(fs->super->s_uuid) ||
	    (ext2fs_has_feature_metadata_csum(fs->super) &&
	     !ext2fs_has_feature_csum_seed(fs->super)))
		return;
	pctx_clear(&pctx);
	fix_problem(ctx, PR_0_UUID_NEW, &pctx);
	uuid_generate(fs->super->s_uuid);
	ext2fs_init_csum_seed(fs);
	ext2fs_mark_super_dirty(fs);
}

void check_super(struct fsck_ctx *ctx)
{
	check_sb_csum(ctx);
	check_device_size(ctx);
	check_geometry(ctx);
	if (ctx->abort)
		return;
	check_features(ctx);
	check_groups(ctx);
	if (ctx->abort)
		return;
	check_backup(ctx);
	check_first_ino(ctx);
	check_special_inodes(ctx);
	check_journal_backup(ctx);
	check_hurd(ctx);
	check_extra_isize_fields(ctx);
	check_mmp(ctx);
	check_uuid(ctx);
}
