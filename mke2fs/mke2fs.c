/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mke2fs.c --- main of e2x mke2fs: parse, validate, calculate, write.
 * Everything that could refuse runs before the first byte is written, so
 * a refused target is left exactly as it was.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mke2fs.h"

static int fail(const struct mkfs_ctx *ctx, int code, const char *what)
{
	fprintf(stderr, "%s: %s\n", ctx->prog, what);
	return code;
}

/* Exit code for a geometry or layout error. */
static int geometry_exit(errcode_t err)
{
	switch (err) {
	case E2X_ERR_BAD_OPTION:
	case E2X_ERR_UNKNOWN_FEATURE:
		return EXIT_USAGE;
	case E2X_ERR_GEOMETRY:
	case E2X_ERR_TOO_SMALL:
	case E2X_ERR_CLUSTER_RANGE:
	case E2X_ERR_BLOCKSIZE_RANGE:
	case E2X_ERR_INODE_SIZE:
	case E2X_ERR_FEATURE_CONFLICT:
	case E2X_ERR_UNSUPPORTED:
		return EXIT_GEOMETRY;
	case EBUSY:
		return EXIT_REFUSED;
	default:
		return EXIT_IO;
	}
}

static int load_profile(struct mkfs_ctx *ctx)
{
	int line = 0;
	errcode_t err = e2x_profile_load(NULL, &ctx->prof, &line);

	if (err == E2X_ERR_BAD_OPTION) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "mke2fs.conf: cannot parse line %d", line);
		return fail(ctx, EXIT_USAGE, ctx->why);
	}
	if (err) {
		snprintf(ctx->why, sizeof(ctx->why), "mke2fs.conf: %s",
			 error_message(err));
		return fail(ctx, EXIT_USAGE, ctx->why);
	}
	return EXIT_OK;
}

/* Ask on a terminal; anywhere else an existing file system is a refusal. */
static int confirm_overwrite(struct mkfs_ctx *ctx)
{
	char what[256], answer[16];

	if (ctx->force && ctx->quiet)
		return EXIT_OK;	/* the probe would only feed a message */
	if (!target_signature(&ctx->target, what, sizeof(what)))
		return EXIT_OK;
	if (ctx->force) {
		if (!ctx->quiet)
			fprintf(stderr, "%s: %s holds %s; replacing it (-F)\n",
				ctx->prog, ctx->device, what);
		return EXIT_OK;
	}
	if (!isatty(0)) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "%s holds %s; not replacing it without -F",
			 ctx->device, what);
		return fail(ctx, EXIT_REFUSED, ctx->why);
	}
	fprintf(stderr, "%s: %s holds %s.\nproceed? (y,N) ", ctx->prog,
		ctx->device, what);
	if (!fgets(answer, sizeof(answer), stdin) ||
	    (answer[0] != 'y' && answer[0] != 'Y')) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "%s left unchanged (not confirmed)", ctx->device);
		return fail(ctx, EXIT_REFUSED, ctx->why);
	}
	return EXIT_OK;
}

/* parse -> validate -> calculate: everything before the first write. */
static int plan(struct mkfs_ctx *ctx)
{
	errcode_t err;
	int rc;

	if ((rc = load_profile(ctx)))
		return rc;
	if ((rc = populate_open(ctx)))
		return rc;
	rc = target_inspect(&ctx->target, ctx->device, ctx->why,
			    sizeof(ctx->why));
	if (rc)
		return fail(ctx, rc, ctx->why);
	if (!ctx->dry_run &&
	    (rc = target_in_use(&ctx->target, ctx->why, sizeof(ctx->why))))
		return fail(ctx, rc, ctx->why);
	err = e2x_geometry_calc(&ctx->req, &ctx->target.info, ctx->prof,
				&ctx->geom, ctx->why, sizeof(ctx->why));
	if (err)
		return fail(ctx, geometry_exit(err),
			    ctx->why[0] ? ctx->why : error_message(err));
	return populate_fit_inodes(ctx);
}

/* Lay out in memory: on the null device for -n, else on the target. */
static int layout(struct mkfs_ctx *ctx)
{
	io_manager mgr = NULL;
	errcode_t err;
	int rc;

	if (!ctx->dry_run) {
		if ((rc = confirm_overwrite(ctx)))
			return rc;
		rc = target_prepare(&ctx->target, ctx->req.fs_bytes, ctx->why,
				    sizeof(ctx->why));
		if (rc)
			return fail(ctx, rc, ctx->why);
	}
	if (!ctx->dry_run && ctx->undo_file) {
		err = e2x_undo_manager(ctx->undo_file, &mgr);
		if (err) {
			target_rollback(&ctx->target);
			snprintf(ctx->why, sizeof(ctx->why), "%s: %s",
				 ctx->undo_file, error_message(err));
			return fail(ctx, EXIT_IO, ctx->why);
		}
		/* a discard could not be undone: skip it (the reference too) */
		ctx->geom.discard = 0;
	}
	err = e2x_mkfs_init_io(&ctx->geom, ctx->device,
			       ctx->dry_run ? E2X_MKFS_DRY_RUN : 0, mgr,
			       &ctx->fs, &ctx->journal_blocks, ctx->why,
			       sizeof(ctx->why));
	if (err) {
		target_rollback(&ctx->target);
		if (!ctx->why[0])
			snprintf(ctx->why, sizeof(ctx->why), "%s: %s",
				 ctx->device, error_message(err));
		return fail(ctx, geometry_exit(err), ctx->why);
	}
	rc = populate_fit_space(ctx);
	if (rc) {
		ext2fs_free(ctx->fs);
		ctx->fs = NULL;
		target_rollback(&ctx->target);
	}
	return rc;
}

static int write_fs(struct mkfs_ctx *ctx)
{
	char *text = NULL, *ctext = NULL;
	size_t len = 0, clen = 0;
	FILE *mem, *copied;
	errcode_t err;
	int rc;

	err = e2x_mkfs_write(ctx->fs, &ctx->geom, ctx->journal_blocks);
	if (err) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "writing the file system on %s failed: %s",
			 ctx->device, error_message(err));
		ext2fs_free(ctx->fs);
		ctx->fs = NULL;
		return fail(ctx, EXIT_IO, ctx->why);
	}
	/* The summary is shown only once everything is on disk, with the
	 * free counts left after the -d copy. */
	mem = open_memstream(&text, &len);
	copied = open_memstream(&ctext, &clen);
	rc = populate_run(ctx, copied);
	if (mem && !ctx->quiet && !rc)
		report_summary(ctx, mem);
	if (copied)
		fclose(copied);
	if (mem && ctext)
		fputs(ctext, mem);
	free(ctext);
	if (mem)
		fclose(mem);
	err = e2x_mkfs_close(&ctx->fs);
	if (rc) {
		free(text);
		return rc;
	}
	if (err) {
		free(text);
		snprintf(ctx->why, sizeof(ctx->why),
			 "flushing the file system to %s failed: %s",
			 ctx->device, error_message(err));
		return fail(ctx, EXIT_IO, ctx->why);
	}
	if (text)
		fputs(text, stdout);
	free(text);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct mkfs_ctx ctx;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.prog = "mke2fs";
	e2x_init_errors();
	rc = parse_command_line(&ctx, argc, argv);
	if (!rc)
		rc = plan(&ctx);
	if (!rc)
		rc = layout(&ctx);
	if (!rc) {
		report_notes(&ctx);
		if (ctx.dry_run) {
			report_summary(&ctx, stdout);
			ext2fs_free(ctx.fs);
		} else {
			rc = write_fs(&ctx);
		}
	}
	populate_close(&ctx);
	e2x_profile_free(ctx.prof);
	return rc;
}
