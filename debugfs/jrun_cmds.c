/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jrun_cmds.c --- journal_run: replay the jbd2 journal of the open file
 * system through libe2x (as e2fsck and the kernel at mount do), then
 * reopen it so the session sees the recovered state.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"
#include "e2x-journal.h"

#define UNSAVED (EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY | EXT2_FLAG_IB_DIRTY)

/* Drop the in-memory file system unwritten (the replay rewrote the disk
 * under it) and open the device again with the session's options. */
static int reopen(struct dbg_ctx *ctx)
{
	struct dbg_open_opts opts = ctx->open;
	char *device = ctx->device;
	int ret;

	ext2fs_free(ctx->fs);
	ctx->fs = NULL;
	ctx->device = NULL;
	opts.undo[0] = 0;	/* the undo channel was closed with the fs */
	ret = dbg_open_fs(ctx, device, &opts);
	free(device);
	return ret;
}

int do_journal_run(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct e2x_journal_opts o;
	struct e2x_journal_result res;
	errcode_t err;

	if (argc != 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (ctx->fs->flags & UNSAVED) {
		dbg_error(ctx, argv[0], 0, "the session has unwritten changes; "
			  "close and open the file system first");
		return 1;
	}
	if (ctx->jwriter) {
		dbg_error(ctx, argv[0], 0, "close the journal (journal_close) "
			  "first");
		return 1;
	}
	if (ctx->open.undo[0]) {
		dbg_error(ctx, argv[0], 0, "not with an undo file (-z)");
		return 1;
	}
	memset(&o, 0, sizeof(o));
	err = e2x_journal_recover(ctx->fs, &o, &res);
	if (err == E2X_ERR_NOT_FOUND) {
		dbg_error(ctx, argv[0], 0, "the file system has no journal");
		return 1;
	}
	if (!err)
		fprintf(ctx->out, "Journal recovered: %llu transactions, "
			"%llu blocks replayed\n",
			(unsigned long long)res.transactions,
			(unsigned long long)res.blocks_replayed);
	else
		dbg_error(ctx, argv[0], err, "recovering the journal");
	e2x_journal_result_release(&res);
	if (reopen(ctx))
		return 1;
	return err != 0;
}
