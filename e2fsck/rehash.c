/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rehash.c --- e2fsck -D: once the passes left the file system
 * consistent, optimise every directory through the library (htrees
 * rebuilt compact in hash order, itrees with them, small directories
 * packed inline).  A rewrite counts as a change: exit code 1.
 */
#include "config.h"
#include <stdio.h>
#include "context.h"

void rehash_dirs(struct fsck_ctx *ctx)
{
	struct e2x_convert_stats st;
	errcode_t err;

	if (!ctx->opt.optimize_dirs || !ctx->fs_rw || ctx->abort ||
	    ctx->problems_unfixed || ctx->hold_repairs)
		return;
	if (ctx->opt.mode != MODE_PREEN)
		printf("Pass 6: optimising directories\n");
	err = e2x_optimize_dirs(ctx->fs, 0, &st);
	if (err) {
		fprintf(stderr, "%s: optimising directories: %s\n", ctx->prog,
			error_message(err));
		ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	if (!st.dirs)
		return;
	printf("%s: %lu directories optimised\n", ctx->opt.device, st.dirs);
	ctx->exit_extra |= FSCK_NONDESTRUCT;
}
