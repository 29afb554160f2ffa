/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass4.c --- pass 4: every inode in use must have as many links as
 * pass 2 found names for it, and at least one.  Link counts are repaired
 * here (-y/-p); unattached inodes are reconnected to /lost+found, or
 * released when empty (fix_connect.c).
 */
#include "config.h"
#include "problem.h"

/* Directories with more than this many links may store 1 (dir_nlink). */
#define FSCK_LINK_MAX 65000

static int link_count_ok(struct fsck_ctx *ctx, ext2_ino_t ino,
			 __u32 stored, __u32 counted)
{
	if (stored == counted)
		return 1;
	return stored == 1 && counted > FSCK_LINK_MAX - 1 &&
	       ext2fs_test_inode_bitmap2(ctx->inode_dir, ino) &&
	       ext2fs_has_feature_dir_nlink(ctx->fs->super);
}

static void fix_links(struct fsck_ctx *ctx, ext2_ino_t ino, __u32 counted)
{
	unsigned int isize = EXT2_INODE_SIZE(ctx->fs->super);
	struct ext2_inode_large *inode = NULL;
	errcode_t err;

	/* e2x_read_inode fills a whole on-disk inode */
	err = ext2fs_get_memzero(isize > sizeof(*inode) ? isize :
							  sizeof(*inode),
				 &inode);
	if (!err)
		err = e2x_read_inode(ctx->fs, ino, inode);
	if (err)
		goto out;
	if (counted > FSCK_LINK_MAX &&
	    ext2fs_test_inode_bitmap2(ctx->inode_dir, ino)) {
		counted = 1;
		/* A stored 1 means "too many to count" only with dir_nlink */
		if (!ext2fs_has_feature_dir_nlink(ctx->fs->super)) {
			struct problem_ctx pctx;

			pctx_clear(&pctx);
			pctx.ino = ino;
			if (fix_problem(ctx, PR_4_DIR_NLINK, &pctx)) {
				ext2fs_set_feature_dir_nlink(ctx->fs->super);
				ext2fs_mark_super_dirty(ctx->fs);
			}
		}
	}
	inode->i_links_count = counted;
	err = e2x_write_inode(ctx->fs, ino, inode);
out:
	if (err) {
		fprintf(stderr, "%s: cannot update inode %u: %s\n", ctx->prog,
			ino, error_message(err));
		ctx->exit_extra |= FSCK_ERROR;
	}
	ext2fs_free_mem(&inode);
}

/* A value inode no attribute entry names holds a value nobody can read:
 * it is reconnected like any unattached file, which keeps its bytes.
 * Not while pass 1 left some inode unchecked (inode_bad): its entries
 * were not read. */
static int ea_inode_unnamed(struct fsck_ctx *ctx, ext2_ino_t ino,
			    const struct ext2_inode *inode)
{
	ext2_ino_t first;

	if (!(inode->i_flags & EXT4_EA_INODE_FL) || !ctx->ea_inode_refd ||
	    ext2fs_test_inode_bitmap2(ctx->ea_inode_refd, ino))
		return 0;
	return ext2fs_find_first_set_inode_bitmap2(ctx->inode_bad, 1,
			ctx->fs->super->s_inodes_count, &first) != 0;
}

/* Counts this large are not compared: the counter saturates there. */
#define EA_REFS_SATURATED 65500

/*
 * A value inode keeps the number of attribute entries using it in its
 * i_version and ctime fields.  Values Lustre wrote before the kernel had
 * value inodes keep no count: their ctime equals their atime.
 */
static void check_value_inode_refs(struct fsck_ctx *ctx, ext2_ino_t ino,
				   struct ext2_inode *inode)
{
	struct problem_ctx pctx;
	__u16 counted = 0;
	uint64_t stored;

	if (!(inode->i_flags & EXT4_EA_INODE_FL) || !ctx->ea_inode_refs ||
	    ext2fs_icount_fetch(ctx->ea_inode_refs, ino, &counted) ||
	    !counted || counted >= EA_REFS_SATURATED)
		return;
	stored = ext2fs_get_ea_inode_ref(inode);
	if (stored == counted || inode->i_ctime == inode->i_atime)
		return;
	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.num = stored;
	pctx.num2 = counted;
	if (fix_problem(ctx, PR_4_EA_INODE_REFS, &pctx) &&
	    e2x_repair_ea_inode_refs(ctx->fs, ino, counted)) {
		fprintf(stderr, "%s: cannot update inode %u\n", ctx->prog, ino);
		ctx->exit_extra |= FSCK_ERROR;
	}
}

/* An inode in use that no directory names: returns 1 when it was
 * reconnected (its link count is then checked like any other). */
static int check_unattached(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct ext2_inode inode;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = ino;
	if (!ext2fs_read_inode(ctx->fs, ino, &inode) && !inode.i_size &&
	    !ext2fs_inode_data_blocks2(ctx->fs, &inode) &&
	    !(inode.i_flags & EXT4_INLINE_DATA_FL)) {
		if (fix_problem(ctx, PR_4_UNATTACHED_EMPTY, &pctx))
			fsck_clear_unattached(ctx, ino);
		return 0;
	}
	return fix_problem(ctx, PR_4_UNATTACHED, &pctx) &&
	       fsck_reconnect(ctx, ino);
}

void pass4(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode inode;
	ext2_ino_t ino, n = fs->super->s_inodes_count;

	if (ctx->abort || !ctx->inode_used)
		return;
	/* Names of damaged directories may be missing from the counts. */
	ctx->hold_repairs = ctx->problems_unfixed > 0;
	for (ino = 1; ino <= n && !ctx->abort; ino++) {
		__u16 stored = 0, counted = 0;
		struct problem_ctx pctx;

		if (!(ino & 0xffff))
			fsck_progress(ctx, 4, ino, n);
		if (!ext2fs_test_inode_bitmap2(ctx->inode_used, ino) ||
		    ext2fs_test_inode_bitmap2(ctx->inode_bad, ino))
			continue;
		if (ino < EXT2_FIRST_INODE(fs->super) && ino != EXT2_ROOT_INO)
			continue;
		ext2fs_icount_fetch(ctx->link_count, ino, &stored);
		ext2fs_icount_fetch(ctx->ref_count, ino, &counted);
		if (link_count_ok(ctx, ino, stored, counted))
			continue;
		if (fsck_ino_is_special(fs, ino, NULL))
			continue;
		if (!counted) {
			if (!ext2fs_read_inode(fs, ino, &inode) &&
			    fsck_ino_is_special(fs, ino, &inode) &&
			    !ea_inode_unnamed(ctx, ino, &inode)) {
				check_value_inode_refs(ctx, ino, &inode);
				continue;
			}
			if (!check_unattached(ctx, ino))
				continue;
			ext2fs_icount_fetch(ctx->link_count, ino, &stored);
			ext2fs_icount_fetch(ctx->ref_count, ino, &counted);
			if (link_count_ok(ctx, ino, stored, counted))
				continue;
		}
		pctx_clear(&pctx);
		pctx.ino = ino;
		pctx.num = stored;
		pctx.num2 = counted;
		if (fix_problem(ctx, PR_4_LINK_COUNT, &pctx))
			fix_links(ctx, ino, counted);
	}
	fsck_progress(ctx, 4, n, n);
}
