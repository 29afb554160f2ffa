/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftype.c --- the file type of every inode pass 1 accepted, for pass 2's
 * check of directory entry types: bitmaps for directories, regular files
 * and symlinks, a list sorted by inode for the rare other types.
 */
#include "config.h"
#include <stdlib.h>
#include "context.h"

struct ino_ftype {
	ext2_ino_t ino;
	uint8_t ft;
};

/* Pass 1 calls this in increasing inode order (directories and regular
 * files are marked in their own bitmaps by pass 1). */
errcode_t fsck_ftype_set(struct fsck_ctx *ctx, ext2_ino_t ino, int ft)
{
	struct ino_ftype *v;

	if (ft == EXT2_FT_DIR || ft == EXT2_FT_REG_FILE)
		return 0;
	if (ft == EXT2_FT_SYMLINK) {
		ext2fs_mark_inode_bitmap2(ctx->inode_lnk, ino);
		return 0;
	}
	if (ctx->nftypes && ctx->ftypes[ctx->nftypes - 1].ino >= ino)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ctx->nftypes == ctx->ftypes_cap) {
		size_t cap = ctx->ftypes_cap ? ctx->ftypes_cap * 2 : 64;

		v = realloc(ctx->ftypes, cap * sizeof(*v));
		if (!v)
			return EXT2_ET_NO_MEMORY;
		ctx->ftypes = v;
		ctx->ftypes_cap = cap;
	}
	ctx->ftypes[ctx->nftypes++] = (struct ino_ftype){ ino, ft };
	return 0;
}

/* EXT2_FT_* of an inode pass 1 accepted, 0 when none is known. */
int fsck_ftype_get(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	size_t lo = 0, hi = ctx->nftypes;

	if (ext2fs_test_inode_bitmap2(ctx->inode_reg, ino))
		return EXT2_FT_REG_FILE;
	if (ext2fs_test_inode_bitmap2(ctx->inode_dir, ino))
		return EXT2_FT_DIR;
	if (ext2fs_test_inode_bitmap2(ctx->inode_lnk, ino))
		return EXT2_FT_SYMLINK;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->ftypes[mid].ino == ino)
			return ctx->ftypes[mid].ft;
		if (ctx->ftypes[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void fsck_ftype_free(struct fsck_ctx *ctx)
{
	free(ctx->ftypes);
	ctx->ftypes = NULL;
	ctx->nftypes = ctx->ftypes_cap = 0;
}
