/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * relocate.c --- group metadata that must move: bitmaps and inode tables
 * the descriptors place out of range or on blocks other metadata owns.
 *
 * super.c notes each one as it is found; from then on the descriptor
 * points nowhere (location 0), so passes 1-4 neither read the blocks as
 * what they are not nor write there.  After pass 1 knows every block in
 * use, each approved move takes new zeroed blocks (lib/meta/group_meta.c).  A
 * table that moves had no readable inodes: its group's inodes are gone
 * and pass 2 drops the names of them; pass 5 rebuilds the bitmaps.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "problem.h"

struct gm_move {
	dgrp_t group;
	enum e2x_group_meta kind;
	blk64_t orig;		/* the location the descriptor gave */
	int approved;		/* the move was answered yes */
	int done;		/* made (or failed): not again on a restart */
};

/*
 * Group G's metadata K must move; FIX says the problem was answered yes.
 * Declining a move on a writable file system leaves a descriptor that
 * points at blocks something else owns: nothing more is written then.
 */
void fsck_relocate_note(struct fsck_ctx *ctx, dgrp_t g, enum e2x_group_meta k,
			int fix)
{
	struct gm_move *m;

	if (ctx->nmoves == ctx->moves_cap) {
		size_t cap = ctx->moves_cap ? 2 * ctx->moves_cap : 8;

		m = realloc(ctx->moves, cap * sizeof(*m));
		if (!m) {
			ctx->abort = 1;
			ctx->exit_extra |= FSCK_ERROR;
			return;
		}
		ctx->moves = m;
		ctx->moves_cap = cap;
	}
	m = &ctx->moves[ctx->nmoves++];
	m->group = g;
	m->kind = k;
	m->orig = e2x_group_meta_loc(ctx->fs, g, k);
	m->approved = fix;
	m->done = 0;
	e2x_group_meta_set(ctx->fs, g, k, 0);
	if (!fix && ctx->fs_rw)
		ctx->fs_rw = 0;
}

/* Was group G's metadata K noted as misplaced? */
int fsck_relocate_pending(struct fsck_ctx *ctx, dgrp_t g,
			  enum e2x_group_meta k)
{
	size_t i;

	for (i = 0; i < ctx->nmoves; i++)
		if (ctx->moves[i].group == g && ctx->moves[i].kind == k &&
		    !ctx->moves[i].done)
			return 1;
	return 0;
}

static void move_one(struct fsck_ctx *ctx, struct gm_move *m)
{
	ext2_filsys fs = ctx->fs;
	struct problem_ctx pctx;
	blk64_t b = 0;
	errcode_t err;

	err = e2x_group_meta_move(fs, m->group, m->kind, ctx->block_found, &b);
	if (!err) {
		ext2fs_mark_block_bitmap_range2(ctx->block_meta, b,
						e2x_group_meta_len(fs, m->kind));
		if (ctx->guard_meta)
			ext2fs_mark_block_bitmap_range2(
				ctx->guard_meta, b,
				e2x_group_meta_len(fs, m->kind));
		/* a bitmap read before the move is written at its new place */
		if (m->kind == E2X_GM_BLOCK_BITMAP)
			ext2fs_mark_bb_dirty(fs);
		else if (m->kind == E2X_GM_INODE_BITMAP)
			ext2fs_mark_ib_dirty(fs);
		/* the new table's inodes are empty: a resize inode that
		 * was there is made again after pass 5 */
		if (m->kind == E2X_GM_INODE_TABLE &&
		    m->group == ext2fs_group_of_ino(fs, EXT2_RESIZE_INO) &&
		    ext2fs_has_feature_resize_inode(fs->super))
			ctx->resize_rebuild = 1;
		return;
	}
	/* Not moved: nothing may be written at the old place either. */
	e2x_group_meta_set(fs, m->group, m->kind, m->orig);
	pctx_clear(&pctx);
	pctx.group = m->group;
	pctx.blk = m->orig;
	pctx.str = error_message(err);
	fix_problem(ctx, PR_0_GD_RELOCATE_FAILED, &pctx);
	ctx->fs_rw = 0;
	fs->flags &= ~(EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY |
		       EXT2_FLAG_IB_DIRTY);
}

void fsck_relocate(struct fsck_ctx *ctx)
{
	size_t i;

	if (!ctx->block_found)
		return;
	for (i = 0; i < ctx->nmoves && ctx->fs_rw; i++)
		if (ctx->moves[i].approved && !ctx->moves[i].done) {
			move_one(ctx, &ctx->moves[i]);
			ctx->moves[i].done = 1;
		}
}

/*
 * The resize inode super.c cleared, made again now that pass 5 has made
 * the block bitmap right (its double indirect block is allocated from
 * it); not while problems remain that pass 5 held its repairs back for.
 */
void fsck_resize_rebuild(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	errcode_t err;

	if (!ctx->resize_rebuild || !ctx->fs_rw)
		return;
	ctx->resize_rebuild = 0;
	pctx_clear(&pctx);
	if (ctx->problems_unfixed) {
		pctx.str = "earlier problems remain";
		fix_problem(ctx, PR_0_RESIZE_REBUILD_FAILED, &pctx);
		return;
	}
	err = e2x_resize_inode_rebuild(ctx->fs);
	if (err) {
		pctx.str = error_message(err);
		fix_problem(ctx, PR_0_RESIZE_REBUILD_FAILED, &pctx);
	}
}

/*
 * The orphan file super.c forgot, made again the same way (from the
 * bitmaps pass 5 made right).  A failure leaves the feature on with no
 * orphan file: the next check asks again.
 */
void fsck_orphan_file_rebuild(struct fsck_ctx *ctx)
{
	errcode_t err;

	if (!ctx->orphan_file_rebuild || !ctx->fs_rw)
		return;
	ctx->orphan_file_rebuild = 0;
	err = ctx->problems_unfixed ? E2X_ERR_CORRUPT :
				      e2x_repair_orphan_file_rebuild(ctx->fs);
	if (err) {
		fprintf(stderr, "%s: no new orphan file made: %s\n",
			ctx->prog, ctx->problems_unfixed ?
					   "earlier problems remain" :
					   error_message(err));
		ctx->problems_fixed--;
		ctx->problems_unfixed++;
	}
}

void fsck_relocate_free(struct fsck_ctx *ctx)
{
	free(ctx->moves);
	ctx->moves = NULL;
	ctx->nmoves = ctx->moves_cap = 0;
}
