/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * populate.c --- mke2fs -d: open the source before anything is written,
 * copy it once the file system is laid out, show progress on a terminal,
 * print what was copied, and say what state a failed target is in.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "mke2fs.h"

/* The source must not be the target itself. */
static int same_object(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
		return sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Called from plan(): refusals here leave the target untouched. */
int populate_open(struct mkfs_ctx *ctx)
{
	errcode_t err;

	if (!ctx->populate_from)
		return EXIT_OK;
	if (same_object(ctx->populate_from, ctx->device)) {
		fprintf(stderr, "%s: -d %s is the target itself\n", ctx->prog,
			ctx->populate_from);
		return EXIT_USAGE;
	}
	ctx->why[0] = 0;
	err = e2x_pop_source_open(ctx->populate_from, 0, &ctx->pop_src,
				  ctx->why, sizeof(ctx->why));
	if (err) {
		fprintf(stderr, "%s: %s\n", ctx->prog,
			ctx->why[0] ? ctx->why : error_message(err));
		return err == E2X_ERR_MOUNTED || err == E2X_ERR_JOURNAL ?
			EXIT_REFUSED : EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Inodes the copy needs: the reserved ones, lost+found, one per entry
 * (hard links counted as entries: a little more than needed). */
static uint64_t inodes_needed(const struct mkfs_ctx *ctx)
{
	return ctx->pop_entries + EXT2_GOOD_OLD_FIRST_INO + 1;
}

/*
 * An inode bitmap is one block: a group holds at most 8 * blocksize
 * inodes.  With bigalloc the default group spans 8 * blocksize clusters,
 * so a small file system has few groups; when the inodes wanted need
 * more, ask for smaller groups (-g counts clusters there).
 */
static void more_groups(struct mkfs_ctx *ctx)
{
	const struct e2x_geometry *g = &ctx->geom;
	uint64_t per = 8ULL * g->blocksize, groups, clusters, cpg;

	if (ctx->req.blocks_per_group || g->cluster_size == g->blocksize)
		return;
	clusters = g->blocks / (g->cluster_size / g->blocksize);
	groups = (ctx->req.num_inodes + per - 1) / per;
	if ((clusters + per - 1) / per >= groups)
		return;
	cpg = clusters / groups / 8 * 8;
	/* below the minimum the geometry refuses, with its reason */
	ctx->req.blocks_per_group = cpg ? cpg : 8;
}

/*
 * Called from plan() once the geometry is known: count the source, and
 * when the geometry has too few inodes for it, make enough (a quarter
 * more, for what comes later) unless the user chose -N or -i, in which
 * case refuse before anything is written.
 */
int populate_fit_inodes(struct mkfs_ctx *ctx)
{
	uint64_t need, have = ctx->geom.sb.s_inodes_count;
	errcode_t err;

	if (!ctx->pop_src)
		return EXIT_OK;
	err = ctx->pop_src->ops->count(ctx->pop_src->priv, &ctx->pop_entries,
				       &ctx->pop_bytes);
	if (err) {
		fprintf(stderr, "%s: cannot count the entries of %s: %s\n",
			ctx->prog, ctx->populate_from, error_message(err));
		return EXIT_IO;
	}
	need = inodes_needed(ctx);
	if (have >= need)
		return EXIT_OK;
	if (ctx->req.num_inodes || ctx->req.inode_ratio) {
		fprintf(stderr, "%s: %s holds %llu entries; %llu inodes are "
			"needed and the file system would have %llu: raise -N "
			"or lower -i\n", ctx->prog, ctx->populate_from,
			(unsigned long long)ctx->pop_entries,
			(unsigned long long)need, (unsigned long long)have);
		return EXIT_GEOMETRY;
	}
	ctx->default_inodes = have;
	ctx->req.num_inodes = need + need / 4;
	more_groups(ctx);
	err = e2x_geometry_calc(&ctx->req, &ctx->target.info, ctx->prof,
				&ctx->geom, ctx->why, sizeof(ctx->why));
	if (err) {
		fprintf(stderr, "%s: %s holds %llu entries; %llu inodes do not "
			"fit here: %s\n", ctx->prog, ctx->populate_from,
			(unsigned long long)ctx->pop_entries,
			(unsigned long long)ctx->req.num_inodes,
			ctx->why[0] ? ctx->why : error_message(err));
		return EXIT_GEOMETRY;
	}
	return EXIT_OK;
}

/*
 * Called from layout() with the file system laid out in memory: refuse
 * a source whose file data alone exceeds the free space (a lower bound:
 * a copy that passes may still run out, and is then marked broken).
 */
int populate_fit_space(struct mkfs_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	uint64_t free_b = ext2fs_free_blocks_count(fs->super);
	uint64_t avail, cl = EXT2_CLUSTER_SIZE(fs->super);

	if (!ctx->pop_src)
		return EXIT_OK;
	free_b = free_b > ctx->journal_blocks ? free_b - ctx->journal_blocks :
						0;
	avail = free_b * fs->blocksize;
	if ((ctx->pop_bytes + cl - 1) / cl * cl <= avail)
		return EXIT_OK;
	fprintf(stderr, "%s: %s does not fit: it holds %llu KiB of file "
		"data and the file system would have %llu KiB free: make it "
		"larger\n", ctx->prog, ctx->populate_from,
		(unsigned long long)(ctx->pop_bytes >> 10),
		(unsigned long long)(avail >> 10));
	return EXIT_GEOMETRY;
}

void populate_close(struct mkfs_ctx *ctx)
{
	e2x_pop_source_close(ctx->pop_src);
	ctx->pop_src = NULL;
}

static void show_progress(uint64_t done, uint64_t total, void *priv)
{
	struct mkfs_ctx *ctx = priv;

	if (!total)
		fprintf(stderr, "\rCopying files: %llu entries",
			(unsigned long long)done);
	else
		fprintf(stderr, "\rCopying files: %3u%% (%llu/%llu)",
			(unsigned int)(done > total ? 100 :
				       done * 100 / total),
			(unsigned long long)done, (unsigned long long)total);
	ctx->progress_shown = 1;
}

static void print_summary(const struct e2x_pop_summary *s, FILE *out)
{
	fprintf(out, "Copied %llu files, %llu directories, %llu symlinks, "
		"%llu special files, %llu extra hard links; %llu bytes of "
		"file data\n",
		(unsigned long long)s->files, (unsigned long long)s->dirs,
		(unsigned long long)s->symlinks,
		(unsigned long long)s->specials,
		(unsigned long long)s->hardlinks,
		(unsigned long long)s->bytes);
	if (s->inlined)
		fprintf(out, "Stored %llu inline (files, symlinks, "
			"directories), saving %llu KiB of blocks\n",
			(unsigned long long)s->inlined,
			(unsigned long long)(s->inline_saved >> 10));
}

/* The copy failed after the file system was written: mark it as having
 * errors so that neither the kernel nor e2fsck -p take it as good. */
static void mark_incomplete(struct mkfs_ctx *ctx)
{
	ctx->fs->super->s_state &= ~EXT2_VALID_FS;
	ctx->fs->super->s_state |= EXT2_ERROR_FS;
	ext2fs_mark_super_dirty(ctx->fs);
}

/* How much the source needs against what the target has. */
static void say_needed(struct mkfs_ctx *ctx, const struct e2x_pop_summary *s)
{
	uint64_t entries = 0, bytes = 0;
	ext2_filsys fs = ctx->fs;

	if (ctx->pop_src->ops->count(ctx->pop_src->priv, &entries, &bytes))
		entries = bytes = 0;
	fprintf(stderr, "%s: the source does not fit: it holds %llu entries "
		"and %llu KiB of data (%llu entries, %llu KiB copied when "
		"the target was full); the target has %llu KiB in blocks "
		"and %u inodes: make it larger, or give more inodes (-N)\n",
		ctx->prog, (unsigned long long)entries,
		(unsigned long long)(bytes >> 10),
		(unsigned long long)s->entries,
		(unsigned long long)(s->bytes >> 10),
		(unsigned long long)(ext2fs_blocks_count(fs->super) *
				     fs->blocksize >> 10),
		fs->super->s_inodes_count);
}

/* Called from write_fs() after the empty file system is on disk. */
int populate_run(struct mkfs_ctx *ctx, FILE *report)
{
	struct e2x_pop_summary sum;
	struct e2x_pop_opts opts;
	errcode_t err;
	int rc = EXIT_OK;

	if (!ctx->pop_src)
		return EXIT_OK;
	memset(&opts, 0, sizeof(opts));
	if (ctx->req.given & E2X_GIVEN_ROOT_OWNER)
		opts.flags |= E2X_POP_KEEP_ROOT_OWNER;
	if (!ctx->quiet && isatty(2)) {
		opts.progress = show_progress;
		opts.progress_priv = ctx;
		opts.total = ctx->pop_entries;
	}
	err = e2x_populate(ctx->fs, EXT2_ROOT_INO, ctx->pop_src, &opts, &sum);
	if (ctx->progress_shown)
		fputc('\n', stderr);
	if (err) {
		mark_incomplete(ctx);
		fprintf(stderr, "%s: copying %s failed at %s: %s\n", ctx->prog,
			ctx->populate_from,
			sum.fail_path ? sum.fail_path : "(start)",
			error_message(err));
		if (err == EXT2_ET_BLOCK_ALLOC_FAIL ||
		    err == EXT2_ET_INODE_ALLOC_FAIL ||
		    err == EXT2_ET_DIR_NO_SPACE || err == ENOSPC) {
			say_needed(ctx, &sum);
			rc = EXIT_GEOMETRY;
		} else {
			rc = EXIT_IO;
		}
		fprintf(stderr, "%s: %s holds an incomplete copy, marked as "
			"having errors; do not use it: run mke2fs again\n",
			ctx->prog, ctx->device);
	} else if (report && !ctx->quiet) {
		print_summary(&sum, report);
	}
	e2x_pop_summary_free(&sum);
	populate_close(ctx);
	return rc;
}
