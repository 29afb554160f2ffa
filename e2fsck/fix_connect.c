/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix_connect.c --- repairs of passes 3 and 4: /lost+found found or made,
 * directories and files nobody names reconnected there, '..' pointed at
 * the real parent, empty unnamed inodes released.  The on-disk work is
 * the library's (e2x-repair.h); here the counts passes 2-4 keep in the
 * context follow each change, so pass 4 and 5 judge the repaired state.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "problem.h"

#define LPF_NAME "lost+found"

static void repair_failed(struct fsck_ctx *ctx, const char *what,
			  ext2_ino_t ino, errcode_t err)
{
	fprintf(stderr, "%s: cannot %s (inode %u): %s\n", ctx->prog, what, ino,
		error_message(err));
	ctx->exit_extra |= FSCK_ERROR;
}

static void ref_add(struct fsck_ctx *ctx, ext2_ino_t ino, int delta)
{
	if (!ino || ino > ctx->fs->super->s_inodes_count ||
	    !ext2fs_test_inode_bitmap2(ctx->inode_used, ino))
		return;
	if (delta > 0)
		ext2fs_icount_increment(ctx->ref_count, ino, NULL);
	else
		ext2fs_icount_decrement(ctx->ref_count, ino, NULL);
}

/* A name moved from FROM to TO ('..' repointed). */
void fsck_ref_move(struct fsck_ctx *ctx, ext2_ino_t from, ext2_ino_t to)
{
	ref_add(ctx, from, -1);
	ref_add(ctx, to, +1);
}

/* The stored link count of INO as the library left it, for pass 4. */
static void links_reload(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct ext2_inode inode;

	if (!ext2fs_read_inode(ctx->fs, ino, &inode))
		ext2fs_icount_store(ctx->link_count, ino,
				    inode.i_links_count);
}

static errcode_t make_lpf(struct fsck_ctx *ctx, ext2_ino_t *ino)
{
	ext2fs_inode_bitmap saved;
	errcode_t err;
	struct dir_info *di;

	*ino = 0;
	err = fsck_inode_guard_begin(ctx, &saved);
	if (err)
		return err;
	err = e2x_dir_mkdir(ctx->fs, EXT2_ROOT_INO, LPF_NAME,
			    sizeof(LPF_NAME) - 1, 0700, E2X_DIR_MKDIR_BLOCK,
			    ino);
	fsck_inode_guard_end(ctx, saved, err ? 0 : *ino);
	if (err)
		return err;
	ext2fs_mark_inode_bitmap2(ctx->inode_dir, *ino);
	err = dir_info_insert(ctx, *ino);
	if (err)
		return err;
	di = dir_info_get(ctx, *ino);
	di->parent = di->dotdot = EXT2_ROOT_INO;
	ext2fs_icount_store(ctx->ref_count, *ino, 2);
	links_reload(ctx, *ino);
	ref_add(ctx, EXT2_ROOT_INO, +1);
	links_reload(ctx, EXT2_ROOT_INO);
	return 0;
}

/* The root made again: what inode 2 held is freed first; every '..'
 * naming the root keeps counting (reconnects move those names away). */
int fsck_root_create(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct dir_info *di;
	errcode_t err;
	size_t i;
	__u16 refs = 2;

	if (fsck_alloc_prepare(ctx))
		return 0;
	ctx->bitmaps_changed = 1;
	/* blocks of an inode 2 pass 1 accepted (a sound map) go back */
	err = e2x_repair_root_create(fs,
		ext2fs_test_inode_bitmap2(ctx->inode_used, EXT2_ROOT_INO) &&
		!ext2fs_test_inode_bitmap2(ctx->inode_bad, EXT2_ROOT_INO) ?
		E2X_REPAIR_FREE_OLD : 0);
	if (!err)
		err = dir_info_insert(ctx, EXT2_ROOT_INO);
	if (err) {
		repair_failed(ctx, "create the root directory", EXT2_ROOT_INO,
			      err);
		return 0;
	}
	ext2fs_mark_inode_bitmap2(ctx->inode_used, EXT2_ROOT_INO);
	ext2fs_mark_inode_bitmap2(ctx->inode_dir, EXT2_ROOT_INO);
	ext2fs_unmark_inode_bitmap2(ctx->inode_reg, EXT2_ROOT_INO);
	ext2fs_unmark_inode_bitmap2(ctx->inode_bad, EXT2_ROOT_INO);
	ext2fs_mark_inode_bitmap2(fs->inode_map, EXT2_ROOT_INO);
	di = dir_info_get(ctx, EXT2_ROOT_INO);
	di->parent = di->dotdot = EXT2_ROOT_INO;
	for (i = 0; i < ctx->ndirs; i++)
		if (ctx->dirs[i].ino != EXT2_ROOT_INO &&
		    ctx->dirs[i].dotdot == EXT2_ROOT_INO)
			refs++;
	ext2fs_icount_store(ctx->ref_count, EXT2_ROOT_INO, refs);
	links_reload(ctx, EXT2_ROOT_INO);
	ctx->lpf_ino = 0;
	return 1;
}

/* The name lost+found in the root given to something that is not a
 * directory: the name goes (the inode is reconnected by pass 4). */
static errcode_t unlink_lpf(struct fsck_ctx *ctx)
{
	ext2_ino_t old = 0;
	struct dir_info *di;
	errcode_t err;

	err = e2x_dir_remove(ctx->fs, EXT2_ROOT_INO, LPF_NAME,
			     sizeof(LPF_NAME) - 1, 0, &old);
	if (err)
		return err;
	ref_add(ctx, old, -1);
	di = dir_info_get(ctx, old);
	if (di && di->parent == EXT2_ROOT_INO)
		di->parent = 0;	/* pass 3 reconnects it */
	return 0;
}

int fsck_lpf_encrypted(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct ext2_inode inode;

	return !ext2fs_read_inode(ctx->fs, ino, &inode) &&
	       (inode.i_flags & EXT4_ENCRYPT_FL);
}

static int lpf_usable(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	return ino && ext2fs_test_inode_bitmap2(ctx->inode_dir, ino) &&
	       !ext2fs_test_inode_bitmap2(ctx->inode_bad, ino) &&
	       !fsck_lpf_encrypted(ctx, ino);
}

/* Whether pass 1's maps leave an inode and a block for a new directory. */
int fsck_lpf_room(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	ext2_ino_t ino;
	blk64_t blk;

	if (!ctx->inode_used || !ctx->block_found)
		return 1;
	return !ext2fs_find_first_zero_inode_bitmap2(ctx->inode_used,
			EXT2_FIRST_INO(fs->super), fs->super->s_inodes_count,
			&ino) &&
	       !ext2fs_find_first_zero_block_bitmap2(ctx->block_found,
			fs->super->s_first_data_block,
			ext2fs_blocks_count(fs->super) - 1, &blk);
}

/* No room for /lost+found: the root takes the names instead (a note, as
 * a full file system is no error). */
ext2_ino_t fsck_lpf_in_root(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = EXT2_ROOT_INO;
	fix_problem(ctx, PR_3_LPF_NO_ROOM, &pctx);
	ctx->lpf_ino = EXT2_ROOT_INO;
	return EXT2_ROOT_INO;
}

/* /lost+found's inode, made when missing; 0 when it cannot be had. */
ext2_ino_t fsck_lost_found(struct fsck_ctx *ctx)
{
	ext2_ino_t ino = 0;
	errcode_t err;

	if (lpf_usable(ctx, ctx->lpf_ino))
		return ctx->lpf_ino;
	if (fsck_alloc_prepare(ctx) ||
	    !dir_info_get(ctx, EXT2_ROOT_INO) ||
	    ext2fs_test_inode_bitmap2(ctx->inode_bad, EXT2_ROOT_INO))
		return 0;
	if (ctx->lpf_ino) {
		err = unlink_lpf(ctx);
		if (err && err != E2X_ERR_NOT_FOUND) {
			repair_failed(ctx, "unlink /lost+found", ctx->lpf_ino,
				      err);
			return 0;
		}
		ctx->lpf_ino = 0;
	}
	err = make_lpf(ctx, &ino);
	if (err == EXT2_ET_INODE_ALLOC_FAIL || err == EXT2_ET_BLOCK_ALLOC_FAIL)
		return fsck_lpf_in_root(ctx);
	if (err) {
		repair_failed(ctx, "create /lost+found", ino, err);
		return 0;
	}
	ctx->lpf_ino = ino;
	return ino;
}

/* Give INO the name #INO in /lost+found; 1 when done. */
int fsck_reconnect(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	ext2_ino_t lpf = fsck_lost_found(ctx);
	struct dir_info *di;
	char name[16];
	errcode_t err;

	if (!lpf || ino == lpf)
		return 0;
	snprintf(name, sizeof(name), "#%u", ino);
	err = e2x_repair_reconnect(ctx->fs, lpf, ino, name, 0);
	if (err) {
		repair_failed(ctx, "reconnect to /lost+found", ino, err);
		return 0;
	}
	ref_add(ctx, ino, +1);
	di = dir_info_get(ctx, ino);
	if (!di) {
		links_reload(ctx, ino);
		return 1;
	}
	fsck_ref_move(ctx, di->dotdot, lpf);
	links_reload(ctx, lpf);
	di->parent = di->dotdot = lpf;
	return 1;
}

int fsck_fix_dotdot(struct fsck_ctx *ctx, struct dir_info *d,
		    ext2_ino_t want)
{
	errcode_t err = e2x_repair_set_dotdot(ctx->fs, d->ino, want, 0);

	if (err) {
		repair_failed(ctx, "fix '..'", d->ino, err);
		return 0;
	}
	fsck_ref_move(ctx, d->dotdot, want);
	d->dotdot = want;
	return 1;
}

/* Free an empty inode nobody names; 1 when done. */
int fsck_clear_unattached(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	errcode_t err;

	if (fsck_alloc_prepare(ctx))
		return 0;
	ctx->bitmaps_changed = 1;
	err = e2x_inode_kill(ctx->fs, ino, E2X_INODE_KILL_UNLINK);
	if (err) {
		repair_failed(ctx, "clear", ino, err);
		return 0;
	}
	ext2fs_unmark_inode_bitmap2(ctx->inode_used, ino);
	ext2fs_unmark_inode_bitmap2(ctx->inode_dir, ino);
	ext2fs_unmark_inode_bitmap2(ctx->inode_reg, ino);
	return 1;
}
