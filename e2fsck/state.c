/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c --- the directory table that passes 1-3 share, and freeing
 * everything the passes left in the context.
 */
#include "config.h"
#include <stdlib.h>
#include "journal.h"
#include "pass1.h"
#include "readahead.h"

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
	ext2fs_free_block_bitmap(ctx->ea_seen);
	if (ctx->link_count)
		ext2fs_free_icount(ctx->link_count);
	if (ctx->ref_count)
		ext2fs_free_icount(ctx->ref_count);
	if (ctx->dblist)
		ext2fs_free_dblist(ctx->dblist);
	ext2fs_free_inode_bitmap(ctx->inode_lnk);
	fsck_ftype_free(ctx);
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
}
