/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.c --- e2fsck start-up before any pass: recover the journal
 * (written back for -y/-p, replayed into an in-memory overlay for -n so
 * the check sees what the kernel would), release orphans the same way,
 * and report a journal that cannot be used.  The work itself is libe2x's
 * (lib/e2x-journal.h); this file decides and reports.
 */
#include "config.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"
#include "journal.h"

static int jproblem(struct fsck_ctx *ctx, problem_t code, const char *str,
		    uint64_t num, uint64_t num2)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.str = str;
	pctx.num = num;
	pctx.num2 = num2;
	return fix_problem(ctx, code, &pctx);
}

void fsck_journal_drop(struct fsck_ctx *ctx)
{
	int internal = ctx->fs->super->s_journal_inum != 0;
	errcode_t err = e2x_repair_drop_journal(ctx->fs);

	if (err) {
		fprintf(stderr, "%s: cannot clear the journal: %s\n",
			ctx->prog, error_message(err));
		ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	/* the superblock is written with the change: its checksum follows
	 * now, or the check of the superblock would take it for damage */
	ext2fs_superblock_csum_set(ctx->fs, ctx->fs->super);
	ctx->journal_dropped = internal;
}

void fsck_journal_recreate(struct fsck_ctx *ctx)
{
	errcode_t err;

	if (!ctx->journal_dropped || !ctx->fs_rw || ctx->abort ||
	    ctx->problems_unfixed ||
	    !jproblem(ctx, PR_0_JOURNAL_RECREATE, NULL, 0, 0))
		return;
	ctx->journal_dropped = 0;
	/* through the repairs' allocator: libext2fs zeroes an indirect
	 * block before marking it, and the write guard must know it first */
	err = fsck_alloc_prepare(ctx) ? EXT2_ET_BLOCK_ALLOC_FAIL : 0;
	if (!err)
		err = e2x_repair_recreate_journal(ctx->fs);
	fsck_alloc_done(ctx);
	if (err == EXT2_ET_BLOCK_ALLOC_FAIL) {
		/* a full file system: sound, only without a journal */
		jproblem(ctx, PR_0_JOURNAL_NO_ROOM, NULL, 0, 0);
	} else if (err) {
		fprintf(stderr, "%s: cannot create a journal: %s\n",
			ctx->prog, error_message(err));
		ctx->exit_extra |= FSCK_ERROR;
	}
}

static int open_flags(struct fsck_ctx *ctx, int rw)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS |
		    EXT2_FLAG_SKIP_MMP | EXT2_FLAG_FORCE;

	if (rw)
		flags |= EXT2_FLAG_RW;
	if (ctx->sb_blk)
		flags |= EXT2_FLAG_MASTER_SB_ONLY;
	return flags;
}

/* Reopen the file system: over OV when given (writes stay in memory). */
static errcode_t reopen(struct fsck_ctx *ctx, struct e2x_overlay *ov)
{
	unsigned int bs = ctx->sb_blk ? ctx->fs->blocksize : 0;
	blk64_t sb = ctx->sb_blk;
	errcode_t err;

	ext2fs_close_free(&ctx->fs);
	if (ov)
		err = e2x_overlay_open_fs(ov, ctx->opt.device,
					  open_flags(ctx, 1), sb, bs, &ctx->fs);
	else
		err = ext2fs_open2(ctx->opt.device, NULL,
				   open_flags(ctx, ctx->fs_rw) |
					   (ctx->fs_rw ? EXT2_FLAG_EXCLUSIVE : 0),
				   sb, bs,
				   ctx->fs_rw ? e2x_guard_io_manager :
						unix_io_manager,
				   &ctx->fs);
	if (err)
		fprintf(stderr, "%s: cannot reopen %s: %s\n", ctx->prog,
			ctx->opt.device, error_message(err));
	return err;
}

/* Fields a loadable journal superblock may still have wrong: a version
 * 1 superblock with version 2 fields set, an internal journal that
 * claims more than one file system, or an error number left set. */
static void check_jsb_fields(struct fsck_ctx *ctx, struct e2x_journal *j)
{
	const struct e2x_jbd2_super *js = e2x_journal_super(j);
	const unsigned char *v2 = (const unsigned char *)js +
				  offsetof(struct e2x_jbd2_super,
					   s_feature_compat);
	size_t n = offsetof(struct e2x_jbd2_super, s_checksum_type) -
		   offsetof(struct e2x_jbd2_super, s_feature_compat), i;
	const char *why = NULL;

	if (!js)
		return;
	if (ext2fs_be32_to_cpu(js->s_header.h_blocktype) == E2X_JBD2_SB_V1) {
		for (i = 0; i < n && !why; i++)
			if (v2[i])
				why = "version 2 fields set in a version 1 "
				      "superblock";
	} else if (!ext2fs_has_feature_journal_dev(ctx->fs->super) &&
		   !ctx->fs->super->s_journal_dev &&
		   ext2fs_be32_to_cpu(js->s_nr_users) > 1) {
		why = "an internal journal with several users";
	}
	/* an error the kernel recorded: this check is the answer to it */
	if (!why && js->s_errno)
		why = "an error recorded in it";
	if (why && jproblem(ctx, PR_0_JOURNAL_SB_FIELDS, why, 0, 0)) {
		errcode_t err = e2x_repair_journal_super(ctx->fs);

		if (err) {
			fprintf(stderr, "%s: cannot fix the journal "
				"superblock: %s\n", ctx->prog,
				error_message(err));
			ctx->exit_extra |= FSCK_ERROR;
		}
	}
}

/* Why the journal inode INO cannot be used as it is on disk, judged
 * against JNL, a copy of the superblock's backup of its map and size. */
static const char *jinode_fault(ext2_filsys fs, ext2_ino_t ino,
				const __u32 *jnl, struct ext2_inode *inode)
{
	if (ext2fs_read_inode(fs, ino, inode))
		return "unreadable";
	if (!LINUX_S_ISREG(inode->i_mode))
		return "not a regular file";
	if (!inode->i_links_count)
		return "not in use";
	if (memcmp(inode->i_block, jnl, sizeof(inode->i_block)) ||
	    inode->i_size != jnl[16] || inode->i_size_high != jnl[15])
		return "its block map differs from the superblock's copy";
	return NULL;
}

/* Whether the inode table holding INO lies inside the file system. */
static int jinode_table_in_fs(ext2_filsys fs, ext2_ino_t ino)
{
	dgrp_t g;
	blk64_t t;

	if (!ino || ino > fs->super->s_inodes_count)
		return 0;
	g = ext2fs_group_of_ino(fs, ino);
	t = ext2fs_inode_table_loc(fs, g);
	return t > fs->super->s_first_data_block &&
	       t + fs->inode_blocks_per_group <= ext2fs_blocks_count(fs->super);
}

/*
 * The table the journal inode is read from is where the backup
 * descriptors have it (or no backup says otherwise).  When not, the
 * descriptor may point into a file's blocks: super.c judges the table
 * first, and the inode is not written through that pointer.
 */
static int jinode_table_trusted(ext2_filsys fs, ext2_ino_t ino)
{
	dgrp_t g = ext2fs_group_of_ino(fs, ino);
	blk64_t was;

	return e2x_group_meta_backup_loc(fs, g, E2X_GM_INODE_TABLE, &was) ||
	       !was || was == ext2fs_inode_table_loc(fs, g);
}

/*
 * After recovery (-y/-p): a journal inode still unusable on disk is
 * rewritten from JNL, the superblock's copy of its block map the log was
 * read through (taken before the replay, which may bring back an older
 * superblock).
 */
static void restore_jinode(struct fsck_ctx *ctx, const __u32 *jnl)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode cur;

	if (!jinode_fault(fs, fs->super->s_journal_inum, jnl, &cur) ||
	    !jinode_table_trusted(fs, fs->super->s_journal_inum))
		return;
	/* an inode table outside the file system is check_super()'s to
	 * relocate; the journal inode is judged (and dropped) there */
	if (!jinode_table_in_fs(fs, fs->super->s_journal_inum))
		return;
	if (!e2x_journal_restore_inode(fs, jnl, ctx->now))
		return;
	/* TODO: a problem code (the next round single-sources the problem
	 * table) instead of this line of its own */
	fprintf(stderr, "%s: cannot rewrite the journal inode\n", ctx->prog);
	ctx->exit_extra |= FSCK_ERROR;
}

/* A journal whose superblock cannot be loaded is a problem of its own;
 * one read through the superblock's backup is reported (BACKUP: the
 * answer; JNL: a copy of the backup). */
static int journal_usable(struct fsck_ctx *ctx, int *backup, __u32 *jnl)
{
	struct ext2_inode inode;
	struct problem_ctx pctx;

	struct e2x_journal_opts o = { .ext_journal = ctx->opt.journal_path };
	struct e2x_journal *j = NULL;
	errcode_t err;

	if (!ext2fs_has_feature_journal(ctx->fs->super))
		return 0;
	err = e2x_journal_load(ctx->fs, &o, &j);
	if (!err && j)
		check_jsb_fields(ctx, j);
	if (!err && e2x_journal_used_backup(j)) {
		pctx_clear(&pctx);
		pctx.ino = ctx->fs->super->s_journal_inum;
		memcpy(jnl, ctx->fs->super->s_jnl_blocks,
		       sizeof(ctx->fs->super->s_jnl_blocks));
		pctx.str = jinode_fault(ctx->fs, pctx.ino, jnl, &inode);
		if (!pctx.str)
			pctx.str = "no journal at its blocks";
		*backup = fix_problem(ctx, PR_0_JOURNAL_INODE_BACKUP, &pctx);
	}
	if (j)
		e2x_journal_free(j);
	if (!err)
		return 1;
	if (jproblem(ctx, PR_0_JOURNAL_BAD, error_message(err), 0, 0))
		fsck_journal_drop(ctx);
	return 0;
}

static int recover(struct fsck_ctx *ctx)
{
	struct e2x_journal_opts o = { .ext_journal = ctx->opt.journal_path };
	struct e2x_journal_result *r = &ctx->jres;
	int dry = ctx->opt.mode == MODE_NO;
	char why[128];
	errcode_t err;

	if (dry)
		o.flags |= E2X_JOURNAL_DRY_RUN;
	err = e2x_journal_recover(ctx->fs, &o, r);
	ctx->have_jres = 1;
	if (err && dry) {
		jproblem(ctx, PR_0_JOURNAL_RECOVER_FAILED, error_message(err),
			 0, 0);
		return 0;
	}
	if (err == E2X_ERR_JOURNAL_CSUM) {
		/* the log up to the damaged transaction is written back and
		 * the journal emptied, as the kernel's replay leaves it: a
		 * change made, not an error left (the passes check the rest) */
		jproblem(ctx, PR_0_JOURNAL_REPLAYED_PART, error_message(err),
			 r->transactions, 0);
		ctx->problems_fixed++;
		return reopen(ctx, NULL) ? -1 : 0;
	}
	if (err) {
		/* nothing was written; a log that cannot be replayed would
		 * stop every mount: it goes (made again after pass 5) */
		snprintf(why, sizeof(why), "recovery failed: %s",
			 error_message(err));
		if (reopen(ctx, NULL))
			return -1;
		if (jproblem(ctx, PR_0_JOURNAL_BAD, why, 0, 0))
			fsck_journal_drop(ctx);
		return 0;
	}
	if (dry) {
		if (!r->fs_overlay) {
			jproblem(ctx, PR_0_JOURNAL_NOT_REPLAYED, NULL, 0, 0);
			return 0;
		}
		if (reopen(ctx, r->fs_overlay))
			return -1;
		ctx->overlay = r->fs_overlay;
		jproblem(ctx, PR_0_JOURNAL_REPLAYED_DRY, NULL, r->transactions,
			 r->blocks_replayed);
		return 0;
	}
	jproblem(ctx, PR_0_JOURNAL_REPLAYED, NULL, r->transactions,
		 r->blocks_replayed);
	return reopen(ctx, NULL) ? -1 : 0;
}

/*
 * One line per orphan, in the reference's layout (scripts grep for
 * "Clearing orphaned inode"): verb, inode, owner, mode and size as they
 * were before the release.
 */
static int orphan_report(ext2_filsys fs, ext2_ino_t ino,
			 const struct ext2_inode_large *before,
			 enum e2x_orphan_action action, void *data)
{
	struct fsck_ctx *ctx = data;
	struct problem_ctx pctx;
	int dry = ctx->opt.mode == MODE_NO;
	char what[128];

	pctx_clear(&pctx);
	pctx.ino = ino;
	if (action != E2X_ORPHAN_RELEASED && action != E2X_ORPHAN_TRUNCATED) {
		pctx.str = action == E2X_ORPHAN_BAD_INODE ?
			   "not a valid orphan" : "bad orphan file block";
		fix_problem(ctx, PR_0_ORPHAN_BAD, &pctx);
		return 0;
	}
	snprintf(what, sizeof(what), "uid=%u, gid=%u, mode=0%o, size=%llu",
		 inode_uid(*before), inode_gid(*before), before->i_mode,
		 (unsigned long long)EXT2_I_SIZE(before));
	pctx.name = action == E2X_ORPHAN_RELEASED ? "Clearing" : "Truncating";
	pctx.namelen = -1;
	pctx.str = what;
	fix_problem(ctx, dry ? PR_0_ORPHAN_RELEASED_DRY :
			       PR_0_ORPHAN_RELEASED, &pctx);
	return 0;
}

static int has_orphans(ext2_filsys fs)
{
	return fs->super->s_last_orphan ||
	       ext2fs_has_feature_orphan_present(fs->super);
}

static int release_orphans(struct fsck_ctx *ctx)
{
	struct e2x_orphan_result res = { 0 };
	errcode_t err;

	if (ctx->opt.mode == MODE_NO && !ctx->overlay) {
		err = e2x_overlay_create(ctx->opt.device, &ctx->own_overlay);
		if (err || reopen(ctx, ctx->own_overlay)) {
			ctx->orphan_chain = 1;
			jproblem(ctx, PR_0_ORPHANS_PRESENT, NULL, 0, 0);
			return err ? 0 : -1;
		}
		ctx->overlay = ctx->own_overlay;
	}
	err = e2x_orphans_process(ctx->fs, 0, orphan_report, ctx, &res);
	if (err) {
		ctx->orphan_chain = 1;
		jproblem(ctx, PR_0_ORPHANS_PRESENT, NULL, 0, 0);
		return 0;
	}
	/* write what was released, then check the result */
	err = ext2fs_flush(ctx->fs);
	if (err) {
		fprintf(stderr, "%s: cannot write the released orphans: %s\n",
			ctx->prog, error_message(err));
		return -1;
	}
	return 0;
}

int fsck_journal_startup(struct fsck_ctx *ctx)
{
	__u32 jnl[EXT2_N_BLOCKS + 2];
	int backup = 0, usable = journal_usable(ctx, &backup, jnl);

	if (ext2fs_has_feature_journal_needs_recovery(ctx->fs->super)) {
		if (usable) {
			if (recover(ctx))
				return 1;
		} else {
			jproblem(ctx, PR_0_JOURNAL_NOT_REPLAYED, NULL, 0, 0);
		}
	}
	if (backup && ctx->fs_rw)
		restore_jinode(ctx, jnl);
	if (ctx->opt.journal_only)
		return 0;
	/* releasing reads the bitmaps: not on a layout check_super() will
	 * call fatal */
	if (has_orphans(ctx->fs) && !fsck_geometry_sane(ctx->fs)) {
		ctx->orphan_chain = 1;
		jproblem(ctx, PR_0_ORPHANS_PRESENT, NULL, 0, 0);
	} else if (has_orphans(ctx->fs) && release_orphans(ctx)) {
		return 1;
	}
	return 0;
}

int fsck_journal_replayed(const struct fsck_ctx *ctx)
{
	return ctx->have_jres && ctx->jres.transactions > 0;
}

void fsck_journal_release(struct fsck_ctx *ctx)
{
	if (ctx->have_jres)
		e2x_journal_result_release(&ctx->jres);
	if (ctx->own_overlay)
		e2x_overlay_release(ctx->own_overlay);
	ctx->have_jres = 0;
	ctx->own_overlay = ctx->overlay = NULL;
}
