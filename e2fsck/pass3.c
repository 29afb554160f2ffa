/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass3.c --- pass 3: every directory must be reachable from the root
 * through the names pass 2 found, '..' must name that parent, no
 * directory may be its own ancestor, and /lost+found must exist.
 *
 * Hands on: nothing; reconnecting to /lost+found is not written yet.
 */
#include "config.h"
#include <stdlib.h>
#include "problem.h"

static void report(struct fsck_ctx *ctx, problem_t code, ext2_ino_t ino,
		   ext2_ino_t ino2, ext2_ino_t dir)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.ino2 = ino2;
	pctx.dir = dir;
	fix_problem(ctx, code, &pctx);
}

/* Follow parents from D until the root or a directory already settled;
 * REACHED marks those connected, SEEN those visited in any walk. */
static void connect_dir(struct fsck_ctx *ctx, struct dir_info *d,
			ext2fs_inode_bitmap reached, ext2fs_inode_bitmap seen,
			ext2fs_inode_bitmap walk)
{
	struct dir_info *p = d;
	int ok = 0;
	size_t steps = 0;

	ext2fs_clear_inode_bitmap(walk);
	while (p) {
		if (p->ino == EXT2_ROOT_INO ||
		    ext2fs_test_inode_bitmap2(reached, p->ino)) {
			ok = 1;
			break;
		}
		if (ext2fs_test_inode_bitmap2(walk, p->ino)) {
			report(ctx, PR_3_DIR_LOOP, p->ino, 0, 0);
			break;
		}
		if (ext2fs_test_inode_bitmap2(seen, p->ino))
			break;	/* reported from an earlier walk */
		ext2fs_mark_inode_bitmap2(walk, p->ino);
		if (!p->parent) {
			report(ctx, PR_3_UNCONNECTED_DIR, p->ino, p->dotdot, 0);
			break;
		}
		p = dir_info_get(ctx, p->parent);
		if (++steps > ctx->ndirs)
			break;
	}
	/* Settle every directory on this walk. */
	for (p = d, steps = 0; p && steps <= ctx->ndirs; steps++) {
		if (p->ino == EXT2_ROOT_INO ||
		    ext2fs_test_inode_bitmap2(seen, p->ino))
			break;
		ext2fs_mark_inode_bitmap2(seen, p->ino);
		if (ok)
			ext2fs_mark_inode_bitmap2(reached, p->ino);
		p = p->parent ? dir_info_get(ctx, p->parent) : NULL;
	}
}

static void check_lpf(struct fsck_ctx *ctx)
{
	if (!ctx->lpf_ino) {
		report(ctx, PR_3_NO_LPF, 0, 0, 0);
		return;
	}
	if (!ext2fs_test_inode_bitmap2(ctx->inode_dir, ctx->lpf_ino))
		report(ctx, PR_3_LPF_NOT_DIR, ctx->lpf_ino, 0, 0);
}

void pass3(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_inode_bitmap reached = NULL, seen = NULL, walk = NULL;
	struct dir_info *root;
	size_t i;

	if (ctx->abort || !ctx->inode_dir)
		return;
	root = dir_info_get(ctx, EXT2_ROOT_INO);
	if (!root || ext2fs_test_inode_bitmap2(ctx->inode_bad, EXT2_ROOT_INO)) {
		report(ctx, PR_3_ROOT_MISSING, EXT2_ROOT_INO, 0, 0);
		return;
	}
	if (ext2fs_allocate_inode_bitmap(fs, "reached", &reached) ||
	    ext2fs_allocate_inode_bitmap(fs, "seen", &seen) ||
	    ext2fs_allocate_inode_bitmap(fs, "walk", &walk))
		goto out;
	for (i = 0; i < ctx->ndirs && !ctx->abort; i++) {
		struct dir_info *d = &ctx->dirs[i];

		if (ext2fs_test_inode_bitmap2(ctx->inode_bad, d->ino))
			continue;
		fsck_progress(ctx, 3, i, ctx->ndirs);
		connect_dir(ctx, d, reached, seen, walk);
	}
	for (i = 0; i < ctx->ndirs && !ctx->abort; i++) {
		struct dir_info *d = &ctx->dirs[i];
		ext2_ino_t want = d->ino == EXT2_ROOT_INO ? EXT2_ROOT_INO :
							   d->parent;

		if (ext2fs_test_inode_bitmap2(ctx->inode_bad, d->ino) ||
		    !want || !d->dotdot || d->dotdot == want)
			continue;
		report(ctx, PR_3_DOTDOT_WRONG, d->ino, d->dotdot, want);
	}
	fsck_progress(ctx, 3, ctx->ndirs, ctx->ndirs);
	check_lpf(ctx);
out:
	ext2fs_free_inode_bitmap(reached);
	ext2fs_free_inode_bitmap(seen);
	ext2fs_free_inode_bitmap(walk);
}
