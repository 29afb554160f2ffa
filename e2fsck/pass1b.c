/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1b.c --- pass 1b: when pass 1 found blocks (or, on bigalloc,
 * clusters) claimed twice, walk every inode again, count the claimants of
 * each such block, then name each inode that holds one and, when the
 * answer is yes, give it its own copy of the blocks it shares: every
 * claimant but the last of a block gets a copy, and a block that is also
 * file system metadata is copied for every inode.  On bigalloc an inode
 * claims a cluster once, and the inodes pass 1 found breaking the cluster
 * rules get their blocks copied into place too.  Bad blocks listed over
 * the primary superblock or descriptors come off the list.
 *
 * Hands on: block_found with the copies marked; the directory block list
 * pointing at the copies.  After cluster copies pass 1 runs again, so
 * both (and i_blocks) are counted afresh.
 */
#include "config.h"
#include <stdlib.h>
#include "pass1.h"

/* One block in the dup map and how many inode claims it still has. */
struct dup_blk {
	blk64_t blk;		/* on bigalloc, a cluster's first block */
	uint32_t claims;
	ext2_ino_t counted;	/* bigalloc: the last inode counted */
	ext2_ino_t held;	/* bigalloc: held by the inode copying */
};

struct dup_state {
	struct fsck_ctx *ctx;
	struct dup_blk *blks;		/* sorted by block */
	size_t nblks;
	ext2_ino_t *inos;		/* inodes holding shared blocks */
	size_t ninos, inos_cap;
	ext2_ino_t cur;			/* inode being cloned */
	int marking;			/* walk_held: mark (1) or unmark */
	int moved_clusters;		/* bigalloc copies made: pass 1 again */
};

struct dup_count {
	struct dup_state *ds;
	int live;		/* count only blocks some other inode still
				 * claims (and metadata); claims unchanged */
	uint64_t shared;	/* blocks in the dup map */
	uint64_t meta;		/* of those, metadata blocks */
};

static struct dup_blk *dup_find(struct dup_state *ds, blk64_t b)
{
	size_t lo = 0, hi = ds->nblks;

	b &= ~(blk64_t)EXT2FS_CLUSTER_MASK(ds->ctx->fs);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ds->blks[mid].blk == b)
			return &ds->blks[mid];
		if (ds->blks[mid].blk < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every block of the dup map, in order (no claims counted yet). */
static errcode_t collect_dups(struct dup_state *ds)
{
	ext2_filsys fs = ds->ctx->fs;
	blk64_t b = fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(fs->super) - 1;
	size_t cap = 0;
	struct dup_blk *n;

	while (b <= last &&
	       !ext2fs_find_first_set_block_bitmap2(ds->ctx->block_dup, b,
						    last, &b)) {
		if (ds->nblks == cap) {
			cap = cap ? cap * 2 : 256;
			n = realloc(ds->blks, cap * sizeof(*n));
			if (!n)
				return EXT2_ET_NO_MEMORY;
			ds->blks = n;
		}
		ds->blks[ds->nblks++] = (struct dup_blk){ .blk = b };
		b += EXT2FS_CLUSTER_RATIO(fs);	/* next cluster */
	}
	return 0;
}

static void count_dups(struct p1_inode *st, blk64_t pblk, blk64_t n,
		       enum blk_kind kind)
{
	struct dup_count *dc = st->priv;
	struct fsck_ctx *ctx = st->ctx;
	struct dup_blk *d;
	blk64_t b;

	(void)kind;
	for (b = pblk; b < pblk + n; b++) {
		int is_meta;

		if (!ext2fs_test_block_bitmap2(ctx->block_dup, b))
			continue;
		is_meta = ext2fs_test_block_bitmap2(ctx->block_meta, b);
		d = dup_find(dc->ds, b);
		if (dc->live && !is_meta && (!d || d->claims <= 1))
			continue;
		dc->shared++;
		dc->meta += is_meta;
		if (dc->live)
			continue;
		/* bigalloc: an inode claims a cluster once */
		if (d && (!ctx->fs->cluster_ratio_bits ||
			  d->counted != st->ino)) {
			d->claims++;
			d->counted = st->ino;
		}
	}
}

static void note_ino(struct dup_state *ds, ext2_ino_t ino)
{
	ext2_ino_t *n;

	if (ds->ninos == ds->inos_cap) {
		size_t cap = ds->inos_cap ? ds->inos_cap * 2 : 64;

		n = realloc(ds->inos, cap * sizeof(*n));
		if (!n)
			return;
		ds->inos = n;
		ds->inos_cap = cap;
	}
	ds->inos[ds->ninos++] = ino;
}

/* Walk INO's blocks counting shared ones; 0 when it holds none. */
static uint64_t rewalk(struct dup_state *ds, ext2_ino_t ino,
		       struct ext2_inode_large *in, unsigned int isize,
		       int live, uint64_t *meta)
{
	struct fsck_ctx *ctx = ds->ctx;
	ext2_filsys fs = ctx->fs;
	struct dup_count dc = { .ds = ds, .live = live };
	struct p1_inode st = { .ctx = ctx, .fs = fs, .ino = ino, .inode = in,
			       .isize = isize, .quiet = 1,
			       .visit = count_dups, .priv = &dc };

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
	*meta = dc.meta;
	return dc.shared;
}

/* A copy for every claimant but the last; always off metadata. */
static int want_copy(void *priv, blk64_t blk)
{
	struct dup_state *ds = priv;
	struct dup_blk *d = dup_find(ds, blk);

	if (!d)
		return 0;
	if (ext2fs_test_block_bitmap2(ds->ctx->block_meta, blk))
		return 1;
	if (d->claims <= 1)
		return 0;
	/* bigalloc: claims drop once the copy is made (note_left) */
	if (!ds->ctx->fs->cluster_ratio_bits)
		d->claims--;
	return 1;
}

/* Bigalloc: mark the shared clusters the inode maps (HELD), or unmark
 * those it still maps after its copies. */
static void mark_held(struct p1_inode *st, blk64_t pblk, blk64_t n,
		      enum blk_kind kind)
{
	struct dup_state *ds = st->priv;
	struct dup_blk *d;
	blk64_t b;

	(void)kind;
	for (b = pblk; b < pblk + n; b++) {
		d = dup_find(ds, b);
		if (d)
			d->held = ds->marking ? st->ino : 0;
	}
}

/* Read INO into IN (a buffer of e2x_inode_buf_size) and show VISIT the
 * blocks it maps; nonzero when it cannot be read. */
static int walk_inode(struct dup_state *ds, ext2_ino_t ino,
		      struct ext2_inode_large *in, blk_visit_fn visit)
{
	struct fsck_ctx *ctx = ds->ctx;
	ext2_filsys fs = ctx->fs;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct p1_inode st = { .ctx = ctx, .fs = fs, .ino = ino, .inode = in,
			       .isize = isize, .quiet = 1,
			       .visit = visit, .priv = ds };

	if (ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)in, isize))
		return -1;
	if (!(in->i_flags & EXT4_INLINE_DATA_FL))
		p1_walk_blocks(&st);
	return 0;
}

static void walk_held(struct dup_state *ds, ext2_ino_t ino, int marking)
{
	struct ext2_inode_large *in = NULL;

	if (ext2fs_get_memzero(e2x_inode_buf_size(ds->ctx->fs), &in))
		return;
	ds->marking = marking;
	walk_inode(ds, ino, in, mark_held);
	ext2fs_free_mem(&in);
}

/* Bigalloc: the shared clusters INO no longer maps lose its claim. */
static void note_left(struct dup_state *ds, ext2_ino_t ino)
{
	size_t i;

	walk_held(ds, ino, 0);
	for (i = 0; i < ds->nblks; i++)
		if (ds->blks[i].held == ino && ds->blks[i].claims) {
			ds->blks[i].claims--;
			ds->blks[i].held = 0;
		}
}

static void copied(void *priv, blk64_t old, blk64_t new, e2_blkcnt_t lblk)
{
	struct dup_state *ds = priv;

	(void)old;
	if (lblk >= 0 &&
	    ext2fs_test_inode_bitmap2(ds->ctx->inode_dir, ds->cur))
		ext2fs_set_dir_block2(ds->ctx->dblist, ds->cur, new, lblk);
}

/* A cleared claimant gives back the blocks only it held. */
static void release_blocks(struct p1_inode *st, blk64_t pblk, blk64_t n,
			   enum blk_kind kind)
{
	struct dup_state *ds = st->priv;
	struct dup_blk *d;
	blk64_t b;

	(void)kind;
	for (b = pblk; b < pblk + n; b++) {
		d = dup_find(ds, b);
		if (d && d->claims) {
			d->claims--;
			continue;
		}
		if (!d && !ext2fs_test_block_bitmap2(ds->ctx->block_meta, b))
			ext2fs_unmark_block_bitmap2(ds->ctx->block_found, b);
	}
}

/* No room for the copies: the inode is cleared, the other claimants keep
 * the shared blocks. */
static void clear_claimant(struct dup_state *ds, ext2_ino_t ino)
{
	struct fsck_ctx *ctx = ds->ctx;
	ext2_filsys fs = ctx->fs;
	struct ext2_inode_large *in = NULL;

	if (ext2fs_get_memzero(e2x_inode_buf_size(fs), &in))
		return;
	if (!walk_inode(ds, ino, in, release_blocks)) {
		e2x_repair_clear_inode(in, ctx->now);
		p1_report_write(ctx, ino, e2x_write_inode(fs, ino, in));
		ext2fs_unmark_inode_bitmap2(ctx->inode_used, ino);
		ext2fs_unmark_inode_bitmap2(ctx->inode_dir, ino);
		ext2fs_unmark_inode_bitmap2(ctx->inode_reg, ino);
		ext2fs_icount_store(ctx->link_count, ino, 0);
	}
	ext2fs_free_mem(&in);
}

static void clone_inode(struct dup_state *ds, ext2_ino_t ino)
{
	struct fsck_ctx *ctx = ds->ctx;
	const struct e2x_clone_ops ops = { .want = want_copy,
					   .moved = copied, .priv = ds };
	struct problem_ctx pctx;
	uint64_t n = 0;
	errcode_t err;

	ds->cur = ino;
	/* copies come from blocks free both in pass 1's map and on disk */
	err = fsck_alloc_prepare(ctx) ? EXT2_ET_BLOCK_ALLOC_FAIL : 0;
	if (!err && ctx->fs->cluster_ratio_bits)
		walk_held(ds, ino, 1);
	if (!err)
		err = e2x_repair_clone_blocks(ctx->fs, ino, &ops, &n);
	if (ctx->fs->cluster_ratio_bits && n) {
		note_left(ds, ino);
		ds->moved_clusters = 1;
	}
	if (!err)
		return;
	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.str = error_message(err);
	if (err != E2X_ERR_UNSUPPORTED &&
	    fix_problem(ctx, PR_1B_CLONE_FAILED, &pctx))
		clear_claimant(ds, ino);
	else if (err == E2X_ERR_UNSUPPORTED)
		fix_problem(ctx, PR_1B_CLONE_UNSUPPORTED, &pctx);
}

static int breaks_cluster_rules(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	return ctx->inode_clusters &&
	       ext2fs_test_inode_bitmap2(ctx->inode_clusters, ino);
}

static void report_and_clone(struct dup_state *ds, ext2_ino_t ino,
			     struct ext2_inode_large *in, unsigned int isize)
{
	struct problem_ctx pctx;
	uint64_t shared, meta;

	/* the blocks it still shares: earlier copies may have left them */
	shared = rewalk(ds, ino, in, isize, 1, &meta);
	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.num = shared;
	pctx.num2 = meta;
	if (shared ? fix_problem(ds->ctx, meta ? PR_1B_DUP_META :
						 PR_1B_DUP_BLOCKS, &pctx) :
		     breaks_cluster_rules(ds->ctx, ino) &&
			     fix_problem(ds->ctx, PR_1B_CLUSTER_RULES, &pctx))
		clone_inode(ds, ino);
}

/* The bitmaps that lie on a listed bad block: counted, or with MOVE
 * noted to move after pass 1b (pass 5 rebuilds their contents). */
static uint64_t bad_bitmaps(struct fsck_ctx *ctx, int move)
{
	static const enum e2x_group_meta kinds[] = {
		E2X_GM_BLOCK_BITMAP, E2X_GM_INODE_BITMAP
	};
	ext2_filsys fs = ctx->fs;
	ext2_badblocks_list bb = NULL;
	uint64_t n = 0;
	dgrp_t g;
	size_t k;

	if (ext2fs_read_bb_inode(fs, &bb))
		return 0;
	for (g = 0; g < fs->group_desc_count; g++)
		for (k = 0; k < 2; k++) {
			blk64_t b = e2x_group_meta_loc(fs, g, kinds[k]);

			if (!b || b >= ((blk64_t)1 << 32) ||
			    !ext2fs_badblocks_list_test(bb, b))
				continue;
			n++;
			if (move && !fsck_relocate_pending(ctx, g, kinds[k]))
				fsck_relocate_note(ctx, g, kinds[k], 1);
		}
	ext2fs_badblocks_list_free(bb);
	return n;
}

/* Listed bad blocks that are the primary superblock or descriptors,
 * which cannot move: counted, or with DROP taken off the list. */
static uint64_t bad_fixed_meta(struct fsck_ctx *ctx, int drop)
{
	ext2_filsys fs = ctx->fs;
	blk64_t first = fs->super->s_first_data_block, *hit = NULL;
	ext2_badblocks_list bb = NULL;
	uint64_t n = 0;
	dgrp_t i;

	if (ext2fs_read_bb_inode(fs, &bb))
		return 0;
	hit = calloc(fs->desc_blocks + 1, sizeof(*hit));
	if (!hit)
		goto out;
	if (ext2fs_badblocks_list_test(bb, first))
		hit[n++] = first;
	for (i = 0; i < fs->desc_blocks; i++) {
		blk64_t b = ext2fs_descriptor_block_loc2(fs, first, i);

		if (b && b < ((blk64_t)1 << 32) &&
		    ext2fs_badblocks_list_test(bb, b))
			hit[n++] = b;
	}
	if (drop && n)
		p1_report_write(ctx, EXT2_BAD_INO,
				fsck_alloc_prepare(ctx) ?
					EXT2_ET_BLOCK_ALLOC_FAIL :
					e2x_repair_bb_unlist(fs, hit, n));
out:
	free(hit);
	ext2fs_badblocks_list_free(bb);
	return n;
}

/*
 * Listed bad blocks that are backup superblocks or descriptors, or
 * reserved descriptor blocks (of any group): nothing but a resize or the
 * backups' rewrite writes them and the reference keeps them in use as
 * they are, so the entry only names a block that stays metadata.
 * Counted, or with DROP taken off the list (the blocks stay in use).
 */
/* Whether B is the primary superblock or a primary descriptor block. */
static int fixed_meta_blk(ext2_filsys fs, blk64_t b)
{
	blk64_t first = fs->super->s_first_data_block;
	dgrp_t i;

	if (b == first)
		return 1;
	for (i = 0; i < fs->desc_blocks; i++)
		if (ext2fs_descriptor_block_loc2(fs, first, i) == b)
			return 1;
	return 0;
}

static int note_hit(blk64_t **hit, size_t *n, size_t *cap, blk64_t b)
{
	if (*n == *cap) {
		size_t c = *cap * 2 + 8;
		blk64_t *m = realloc(*hit, c * sizeof(**hit));

		if (!m)
			return -1;
		*hit = m;
		*cap = c;
	}
	(*hit)[(*n)++] = b;
	return 0;
}

/*
 * Listed bad blocks inside inode tables: counted, or with DROP taken off
 * the list.  An inode table cannot move, and while its blocks are listed
 * the inodes there are skipped as unreadable and every name of them is
 * lost; off the list they are read (and checked) like the others.
 */
static uint64_t bad_itable(struct fsck_ctx *ctx, int drop)
{
	ext2_filsys fs = ctx->fs;
	ext2_badblocks_list bb = NULL;
	blk64_t *hit = NULL;
	size_t n = 0, cap = 0;
	blk64_t b, t;
	dgrp_t g;

	if (ext2fs_read_bb_inode(fs, &bb))
		return 0;
	for (g = 0; g < fs->group_desc_count; g++) {
		t = ext2fs_inode_table_loc(fs, g);
		for (b = t; t && b < t + fs->inode_blocks_per_group &&
			    b < ((blk64_t)1 << 32); b++)
			if (ext2fs_badblocks_list_test(bb, b) &&
			    note_hit(&hit, &n, &cap, b))
				goto out;
	}
	if (drop && n) {
		p1_report_write(ctx, EXT2_BAD_INO,
				fsck_alloc_prepare(ctx) ?
					EXT2_ET_BLOCK_ALLOC_FAIL :
					e2x_repair_bb_unlist(fs, hit, n));
		/* the inode scan keeps its own copy of the list */
		ext2fs_badblocks_list_free(fs->badblocks);
		fs->badblocks = NULL;
	}
out:
	free(hit);
	ext2fs_badblocks_list_free(bb);
	return n;
}

static uint64_t bad_backup_meta(struct fsck_ctx *ctx, int drop)
{
	ext2_filsys fs = ctx->fs;
	ext2_badblocks_list bb = NULL;
	blk64_t *hit = NULL, cand[2], b;
	size_t n = 0, cap = 0, k;
	dgrp_t g;

	if (ext2fs_read_bb_inode(fs, &bb))
		return 0;
	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t sb_blk, old_desc, new_desc, end = 0;
		blk_t used;

		if (ext2fs_super_and_bgd_loc2(fs, g, &sb_blk, &old_desc,
					      &new_desc, &used))
			continue;
		cand[0] = g || sb_blk ? sb_blk : 0;
		cand[1] = new_desc;
		/* old layout: descriptors then reserved descriptor blocks */
		if (old_desc)
			end = old_desc + fs->desc_blocks +
			      fs->super->s_reserved_gdt_blocks;
		for (b = old_desc; b && b < end; b++)
			if (!fixed_meta_blk(fs, b) && b < ((blk64_t)1 << 32) &&
			    ext2fs_badblocks_list_test(bb, b) &&
			    note_hit(&hit, &n, &cap, b))
				goto out;
		for (k = 0; k < 2; k++)
			if (cand[k] && !fixed_meta_blk(fs, cand[k]) &&
			    cand[k] < ((blk64_t)1 << 32) &&
			    ext2fs_badblocks_list_test(bb, cand[k]) &&
			    note_hit(&hit, &n, &cap, cand[k]))
				goto out;
	}
	if (drop && n)
		p1_report_write(ctx, EXT2_BAD_INO,
				fsck_alloc_prepare(ctx) ?
					EXT2_ET_BLOCK_ALLOC_FAIL :
					e2x_repair_bb_unlist(fs, hit, n));
out:
	free(hit);
	ext2fs_badblocks_list_free(bb);
	return n;
}

/* Bad blocks inside metadata need the metadata moved (not a copy). */
static void report_bad_blocks_meta(struct dup_state *ds,
				   struct ext2_inode_large *in,
				   unsigned int isize)
{
	struct problem_ctx pctx;
	struct dup_blk *save = ds->blks;
	size_t n = ds->nblks;
	uint64_t meta;

	ds->blks = NULL;
	ds->nblks = 0;
	rewalk(ds, EXT2_BAD_INO, in, isize, 0, &meta);
	ds->blks = save;
	ds->nblks = n;
	if (!meta)
		return;
	pctx_clear(&pctx);
	pctx.ino = EXT2_BAD_INO;
	pctx.num2 = bad_fixed_meta(ds->ctx, 0);
	/* reported either way: not named again below */
	if (pctx.num2 && fix_problem(ds->ctx, PR_1B_BAD_FIXED_META, &pctx))
		bad_fixed_meta(ds->ctx, 1);
	meta -= pctx.num2 < meta ? pctx.num2 : meta;
	if (!meta)
		return;
	pctx.num2 = bad_backup_meta(ds->ctx, 0);
	if (pctx.num2 && pctx.num2 <= meta) {
		if (fix_problem(ds->ctx, PR_1B_BAD_BLOCKS_META, &pctx))
			bad_backup_meta(ds->ctx, 1);
		meta -= pctx.num2;
	}
	if (!meta)
		return;
	pctx.num2 = bad_itable(ds->ctx, 0);
	if (pctx.num2 && pctx.num2 <= meta) {
		meta -= pctx.num2;
		/* pass 1 skipped the inodes there: it starts again */
		if (fix_problem(ds->ctx, PR_1B_BAD_ITABLE, &pctx)) {
			bad_itable(ds->ctx, 1);
			ds->ctx->restart = FSCK_RESTART_BB;
			return;
		}
	}
	if (!meta)
		return;
	pctx.num2 = meta;
	/* bitmaps can move; other metadata cannot yet */
	if (bad_bitmaps(ds->ctx, 0) != meta)
		fix_problem(ds->ctx, PR_1B_BAD_OTHER_META, &pctx);
	else if (fix_problem(ds->ctx, PR_1B_BAD_BITMAPS, &pctx))
		bad_bitmaps(ds->ctx, 1);
}

static int read_claimant(struct fsck_ctx *ctx, ext2_ino_t ino,
			 struct ext2_inode_large *in, unsigned int isize)
{
	ext2_filsys fs = ctx->fs;

	if (ino >= EXT2_FIRST_INODE(fs->super) &&
	    !ext2fs_test_inode_bitmap2(ctx->inode_used, ino))
		return 0;
	if (ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)in, isize))
		return 0;
	if (ino < EXT2_FIRST_INODE(fs->super) && ino != EXT2_BAD_INO &&
	    ino != EXT2_RESIZE_INO && !in->i_links_count)
		return 0;
	return 1;
}

void pass1b(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	struct dup_state ds = { .ctx = ctx };
	uint64_t meta;
	ext2_ino_t ino;
	size_t i;

	if ((!ctx->has_dups && !ctx->inode_clusters) || ctx->abort)
		return;
	if (ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) : isize, &in))
		return;
	if (collect_dups(&ds))
		goto out;
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++)
		if (read_claimant(ctx, ino, in, isize) &&
		    (rewalk(&ds, ino, in, isize, 0, &meta) ||
		     breaks_cluster_rules(ctx, ino)))
			note_ino(&ds, ino);
	/* the bad-blocks inode keeps its blocks; the files sharing them copy */
	for (i = 0; i < ds.ninos && !ctx->abort && !ctx->restart; i++) {
		if (!read_claimant(ctx, ds.inos[i], in, isize))
			continue;
		if (ds.inos[i] == EXT2_BAD_INO)
			report_bad_blocks_meta(&ds, in, isize);
		else
			report_and_clone(&ds, ds.inos[i], in, isize);
	}
out:
	free(ds.blks);
	free(ds.inos);
	ext2fs_free_mem(&in);
	/* cluster copies change what inodes count and which clusters are
	 * in use: pass 1 counts again */
	if (ds.moved_clusters && !ctx->abort && !ctx->restart)
		pass1_rerun(ctx);
}
