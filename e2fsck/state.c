/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c --- the directory table that passes 1-3 share, and freeing
 * everything the passes left in the context.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "journal.h"
#include "pass1.h"
#include "readahead.h"
#include "problem.h"

/* Pass 1 adds directories in increasing inode order: append, then look
 * up by binary search. */
errcode_t dir_info_add(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct dir_info *d;

	if (ctx->ndirs && ctx->dirs[ctx->ndirs - 1].ino >= ino)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ctx->ndirs == ctx->dirs_cap) {
		size_t cap = ctx->dirs_cap ? ctx->dirs_cap * 2 : 256;

		d = realloc(ctx->dirs, cap * sizeof(*d));
		if (!d)
			return EXT2_ET_NO_MEMORY;
		ctx->dirs = d;
		ctx->dirs_cap = cap;
	}
	ctx->dirs[ctx->ndirs++] = (struct dir_info){ .ino = ino };
	return 0;
}

struct dir_info *dir_info_get(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	size_t lo = 0, hi = ctx->ndirs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->dirs[mid].ino == ino)
			return &ctx->dirs[mid];
		if (ctx->dirs[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void dir_info_free(struct fsck_ctx *ctx)
{
	free(ctx->dirs);
	ctx->dirs = NULL;
	ctx->ndirs = ctx->dirs_cap = 0;
}

void fsck_state_free(struct fsck_ctx *ctx)
{
	ext2fs_free_inode_bitmap(ctx->inode_used);
	ext2fs_free_inode_bitmap(ctx->inode_dir);
	ext2fs_free_inode_bitmap(ctx->inode_reg);
	ext2fs_free_inode_bitmap(ctx->inode_bad);
	ext2fs_free_block_bitmap(ctx->block_found);
	ext2fs_free_block_bitmap(ctx->block_meta);
	ext2fs_free_block_bitmap(ctx->block_dup);
	ext2fs_free_inode_bitmap(ctx->inode_clusters);
	ctx->inode_clusters = NULL;
	ext2fs_free_block_bitmap(ctx->ea_seen);
	if (ctx->link_count)
		ext2fs_free_icount(ctx->link_count);
	if (ctx->ref_count)
		ext2fs_free_icount(ctx->ref_count);
	if (ctx->dblist)
		ext2fs_free_dblist(ctx->dblist);
	ext2fs_free_inode_bitmap(ctx->inode_lnk);
	ext2fs_free_inode_bitmap(ctx->ea_inode_refd);
	ctx->ea_inode_refd = NULL;
	if (ctx->ea_inode_refs)
		ext2fs_free_icount(ctx->ea_inode_refs);
	ctx->ea_inode_refs = NULL;
	ext2fs_free_inode_bitmap(ctx->lnk_promote);
	ctx->lnk_promote = NULL;
	ext2fs_free_inode_bitmap(ctx->ea_flag_set);
	ctx->ea_flag_set = NULL;
	fsck_ftype_free(ctx);
	fsck_enc_free(ctx);
	fsck_quota_free(ctx);
	fsck_ra_close(ctx);
	free(ctx->ea_refs);
	dir_info_free(ctx);
	ctx->inode_used = ctx->inode_dir = ctx->inode_reg = NULL;
	ctx->inode_bad = NULL;
	ctx->block_found = ctx->block_meta = ctx->block_dup = NULL;
	ctx->ea_seen = NULL;
	ctx->link_count = ctx->ref_count = NULL;
	ctx->dblist = NULL;
	ctx->inode_lnk = NULL;
	ctx->ea_refs = NULL;
	ctx->nea_refs = ctx->ea_refs_cap = 0;
}

void fsck_state_reset(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;

	fsck_state_free(ctx);
	ctx->nea_refs = ctx->ea_refs_cap = 0;
	ctx->has_dups = 0;
	ctx->found_claims = 0;
	ctx->found_next = 0;
	ctx->lpf_ino = 0;
	ctx->n_files = ctx->n_dirs = ctx->n_regular = ctx->n_links = 0;
	ctx->n_symlinks = ctx->n_fast_symlinks = ctx->n_devices = 0;
	ctx->n_fifos = ctx->n_sockets = ctx->n_inline = ctx->n_extent = 0;
	ctx->n_ind = ctx->n_bigfiles = 0;
	ctx->abort = ctx->restart = 0;
	ctx->hold_repairs = 0;
	pctx_clear(&pctx);
	fix_problem(ctx, PR_2_RESTART, &pctx);
}

/* A directory created by a repair: inserted in order. */
errcode_t dir_info_insert(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	size_t at = ctx->ndirs;
	errcode_t err;

	if (dir_info_get(ctx, ino))
		return 0;
	err = dir_info_add(ctx, ctx->ndirs ? ctx->dirs[ctx->ndirs - 1].ino + 1 :
					     ino);
	if (err)
		return err;
	while (at && ctx->dirs[at - 1].ino > ino)
		at--;
	memmove(&ctx->dirs[at + 1], &ctx->dirs[at],
		(ctx->ndirs - 1 - at) * sizeof(*ctx->dirs));
	ctx->dirs[at] = (struct dir_info){ .ino = ino };
	return 0;
}
