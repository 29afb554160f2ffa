/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass3.c --- pass 3: every directory must be reachable from the root
 * through the names pass 2 found, '..' must name that parent, no
 * directory may be its own ancestor, and /lost+found must exist.
 *
 * Repairs (fix_connect.c): unreachable directories and loops are
 * reconnected to /lost+found (made when missing), '..' is pointed at the
 * parent.  Hands on: the corrected name counts for pass 4.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "problem.h"

static int report(struct fsck_ctx *ctx, problem_t code, ext2_ino_t ino,
		  ext2_ino_t ino2, ext2_ino_t dir)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.ino2 = ino2;
	pctx.dir = dir;
	return fix_problem(ctx, code, &pctx);
}

/* Find the name INO has in directory DIR (E2X_DIR_ITER_STOP when found). */
struct name_of {
	ext2_ino_t ino;
	char name[EXT2_NAME_LEN + 1];
	unsigned int len;
};

static int match_ino(const struct e2x_dir_entry *ent, void *priv)
{
	struct name_of *n = priv;

	if (ent->ino != n->ino)
		return 0;
	memcpy(n->name, ent->name, ent->name_len);
	n->len = ent->name_len;
	return E2X_DIR_ITER_STOP;
}

/* Break a loop at D: its name in its parent goes, it is reconnected. */
static int break_loop(struct fsck_ctx *ctx, struct dir_info *d)
{
	struct name_of n = { .ino = d->ino };
	ext2_ino_t parent = d->parent;

	if (parent &&
	    !e2x_dir_iterate(ctx->fs, parent, E2X_DIR_ORDER_DISK, 0, match_ino,
			     &n) &&
	    n.len &&
	    !e2x_dir_remove(ctx->fs, parent, n.name, n.len, 0, NULL)) {
		ext2fs_icount_decrement(ctx->ref_count, d->ino, NULL);
		d->parent = 0;
	}
	return !d->parent && fsck_reconnect(ctx, d->ino);
}

/* Follow parents from D until the root or a directory already settled;
 * REACHED marks those connected, SEEN those visited in any walk. */
static void connect_dir(struct fsck_ctx *ctx, struct dir_info *d,
			ext2fs_inode_bitmap reached, ext2fs_inode_bitmap seen,
			ext2fs_inode_bitmap walk)
{
	struct dir_info *p = d;
	ext2_ino_t start = d->ino;
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
			if (report(ctx, PR_3_DIR_LOOP, p->ino, 0, 0))
				ok = break_loop(ctx, p);
			break;
		}
		if (ext2fs_test_inode_bitmap2(seen, p->ino))
			break;	/* reported from an earlier walk */
		ext2fs_mark_inode_bitmap2(walk, p->ino);
		if (!p->parent) {
			if (report(ctx, PR_3_UNCONNECTED_DIR, p->ino, p->dotdot,
				   0))
				ok = fsck_reconnect(ctx, p->ino);
			break;
		}
		p = dir_info_get(ctx, p->parent);
		if (++steps > ctx->ndirs)
			break;
	}
	/* Settle every directory on this walk (a repair may have moved the
	 * table: look the start up again). */
	d = dir_info_get(ctx, start);
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

/* Before the walk: a reconnect must find a usable /lost+found. */
static void check_lpf(struct fsck_ctx *ctx)
{
	problem_t code;

	if (!ctx->lpf_ino && !fsck_lpf_room(ctx)) {
		/* a full file system: no error, the root takes the names */
		fsck_lpf_in_root(ctx);
		return;
	} else if (!ctx->lpf_ino)
		code = PR_3_NO_LPF;
	else if (!ext2fs_test_inode_bitmap2(ctx->inode_dir, ctx->lpf_ino))
		code = PR_3_LPF_NOT_DIR;
	else if (fsck_lpf_encrypted(ctx, ctx->lpf_ino))
		code = PR_3_LPF_ENCRYPTED;
	else
		return;
	if (report(ctx, code, ctx->lpf_ino, 0, 0))
		fsck_lost_found(ctx);
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
	if ((!root ||
	     ext2fs_test_inode_bitmap2(ctx->inode_bad, EXT2_ROOT_INO)) &&
	    (!report(ctx, PR_3_ROOT_MISSING, EXT2_ROOT_INO, 0, 0) ||
	     !fsck_root_create(ctx)))
		return;
	check_lpf(ctx);
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
		    !want || d->dotdot == want)
			continue;
		if (report(ctx, PR_3_DOTDOT_WRONG, d->ino, d->dotdot, want))
			fsck_fix_dotdot(ctx, &ctx->dirs[i], want);
	}
	fsck_progress(ctx, 3, ctx->ndirs, ctx->ndirs);
out:
	ext2fs_free_inode_bitmap(reached);
	ext2fs_free_inode_bitmap(seen);
	ext2fs_free_inode_bitmap(walk);
}
