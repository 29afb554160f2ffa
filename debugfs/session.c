/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c --- opening and closing the image of a debugfs session, and the
 * open, close, init_filesys and params commands.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

static int open_flags(const struct dbg_open_opts *o)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_SOFTSUPP_FEATURES;

	if (o->rw)
		flags |= EXT2_FLAG_RW;
	if (o->catastrophic)
		flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS |
			 EXT2_FLAG_IGNORE_SB_ERRORS;
	if (o->direct)
		flags |= EXT2_FLAG_DIRECT_IO;
	if (o->force)
		flags |= EXT2_FLAG_FORCE;
	if (o->nocsum)
		flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	if (o->image)
		flags |= EXT2_FLAG_IMAGE_FILE;
	return flags;
}

/* Refuse to open a mounted device read-write: the kernel owns it. */
static int check_not_mounted(struct dbg_ctx *ctx, const char *device)
{
	int mflags = 0;
	errcode_t err;

	err = ext2fs_check_if_mounted(device, &mflags);
	if (err) {
		dbg_error(ctx, "open", err, "%s: checking mount state",
			  device);
		return 1;
	}
	if (mflags & EXT2_MF_MOUNTED) {
		dbg_error(ctx, "open", 0,
			  "%s is mounted; refusing to open it read-write",
			  device);
		return 1;
	}
	return 0;
}

/* -i opens an e2image file, read-only; -d only goes with it. */
static int check_image_opts(struct dbg_ctx *ctx,
			    const struct dbg_open_opts *opts)
{
	if (opts->data_source[0] && !opts->image) {
		dbg_error(ctx, "open", 0, "-d data_source_device needs -i "
			  "(it supplies the data blocks of an e2image file)");
		return 1;
	}
	if (opts->image && opts->rw) {
		dbg_error(ctx, "open", 0,
			  "an e2image file (-i) is read-only; drop -w");
		return 1;
	}
	return 0;
}

/* With -d, the blocks an e2image file lacks come from the device. */
static int attach_data_source(struct dbg_ctx *ctx, ext2_filsys fs,
			      const struct dbg_open_opts *opts)
{
	errcode_t err;

	if (!opts->data_source[0])
		return 0;
	err = e2x_image_data_source(fs, opts->data_source);
	if (err)
		dbg_error(ctx, "open", err, "%s: data source device",
			  opts->data_source);
	return err != 0;
}

/* The I/O manager of a session: plain, or with every overwritten block
 * saved first to the undo file (-z), in the format e2undo replays. */
static int pick_io(struct dbg_ctx *ctx, const char *device,
		   const struct dbg_open_opts *opts, io_manager *io)
{
	errcode_t err;

	*io = unix_io_manager;
	if (!opts->undo[0])
		return 0;
	err = e2x_undo_manager(opts->undo, io);
	if (err) {
		dbg_error(ctx, "open", err, "%s: undo file", opts->undo);
		return 1;
	}
	fprintf(ctx->out, "Changes can be undone with: e2undo %s %s\n",
		opts->undo, device);
	return 0;
}

int dbg_open_fs(struct dbg_ctx *ctx, const char *device,
		const struct dbg_open_opts *opts)
{
	io_manager io;
	ext2_filsys fs = NULL;
	errcode_t err;

	if (ctx->fs) {
		dbg_error(ctx, "open", 0, "%s is already open; close it first",
			  ctx->device);
		return 1;
	}
	if (opts->catastrophic && opts->rw) {
		dbg_error(ctx, "open", 0,
			  "catastrophic mode (-c) is read-only; drop -w");
		return 1;
	}
	if (!!opts->superblock != !!opts->blocksize) {
		dbg_error(ctx, "open", 0,
			  "-s superblock and -b blocksize go together");
		return 1;
	}
	if (access(device, F_OK)) {
		dbg_error(ctx, "open", 0, "%s: no such file or device",
			  device);
		return 1;
	}
	if (opts->undo[0] && !opts->rw) {
		dbg_error(ctx, "open", 0, "an undo file (-z) needs -w");
		return 1;
	}
	if (check_image_opts(ctx, opts))
		return 1;
	if (opts->rw && check_not_mounted(ctx, device))
		return 1;
	if (pick_io(ctx, device, opts, &io))
		return 1;
	/* libext2fs does not know e2x's own itree bit; libe2x does */
	err = e2x_open_fs(device, open_flags(opts), opts->superblock,
			  opts->blocksize, io, &fs);
	if (err) {
		dbg_error(ctx, "open", err, "%s", device);
		return 1;
	}
	if (attach_data_source(ctx, fs, opts)) {
		ext2fs_free(fs);
		return 1;
	}
	ctx->device = strdup(device);
	if (!ctx->device) {
		ext2fs_free(fs);
		dbg_error(ctx, "open", EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	ctx->fs = fs;
	ctx->open = *opts;
	ctx->root = ctx->cwd = EXT2_ROOT_INO;
	fs->now = ctx->now;
	if (opts->rw && dbg_need_bitmaps(ctx, "open")) {
		dbg_close_fs(ctx, 0);
		return 1;
	}
	return 0;
}

int dbg_close_fs(struct dbg_ctx *ctx, int all)
{
	errcode_t err = 0;
	int jfailed;

	if (!ctx->fs)
		return 0;
	dbg_extent_drop(ctx);
	jfailed = dbg_journal_close(ctx);
	if (ctx->open.rw) {
		if (all)
			ctx->fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
		else
			ctx->fs->flags |= EXT2_FLAG_MASTER_SB_ONLY;
		err = ext2fs_close_free(&ctx->fs);
	} else {
		ext2fs_free(ctx->fs);
	}
	ctx->fs = NULL;
	free(ctx->device);
	ctx->device = NULL;
	if (err) {
		dbg_error(ctx, "close", err, "writing the file system");
		return 1;
	}
	return jfailed;
}

/* Parse the open flags shared by the command line and the open command;
 * returns the option character on an unknown option, 0 on success. */
static int parse_open_opt(struct dbg_open_opts *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'w':
		o->rw = 1;
		return 0;
	case 'c':
		o->catastrophic = 1;
		return 0;
	case 'D':
		o->direct = 1;
		return 0;
	case 'f':
		o->force = 1;
		return 0;
	case 'n':
		o->nocsum = 1;
		return 0;
	case 'i':
		o->image = 1;
		return 0;
	case 'd':
		if (!arg || !*arg || strlen(arg) >= sizeof(o->data_source))
			return 'd';
		strcpy(o->data_source, arg);
		return 0;
	case 'z':
		if (!arg || !*arg || strlen(arg) >= sizeof(o->undo))
			return 'z';
		strcpy(o->undo, arg);
		return 0;
	case 'b':
		if (dbg_parse_u64(arg, 65536, &v) || v < 1024 || (v & (v - 1)))
			return 'b';
		o->blocksize = v;
		return 0;
	case 's':
		if (dbg_parse_u64(arg, UINT32_MAX, &v) || !v)
			return 's';
		o->superblock = v;
		return 0;
	}
	return c ? c : '?';
}

int do_open(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct dbg_open_opts o;
	int c;

	memset(&o, 0, sizeof(o));
	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "wcDfnib:s:d:z:")) != -1) {
		if (parse_open_opt(&o, c, optarg)) {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	return dbg_open_fs(ctx, argv[optind], &o);
}

/*
 * init_filesys device blocks_count: as the reference, a file system
 * structure made in memory by libext2fs (default geometry, no group
 * tables placed yet) over DEVICE; the session writes it at close.
 */
int do_init_filesys(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_super_block param;
	ext2_filsys fs = NULL;
	uint64_t blocks;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (ctx->fs) {
		dbg_error(ctx, argv[0], 0, "%s is already open; close it first",
			  ctx->device);
		return 1;
	}
	if (dbg_parse_u64(argv[2], UINT32_MAX, &blocks) || !blocks) {
		dbg_error(ctx, argv[0], 0, "Bad blocks count - %s", argv[2]);
		return 1;
	}
	if (check_not_mounted(ctx, argv[1]))
		return 1;
	memset(&param, 0, sizeof(param));
	ext2fs_blocks_count_set(&param, blocks);
	err = ext2fs_initialize(argv[1], 0, &param, unix_io_manager, &fs);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s: initializing", argv[1]);
		return 1;
	}
	ctx->device = strdup(argv[1]);
	if (!ctx->device) {
		ext2fs_free(fs);
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	ctx->fs = fs;
	memset(&ctx->open, 0, sizeof(ctx->open));
	ctx->open.rw = 1;
	ctx->root = ctx->cwd = EXT2_ROOT_INO;
	fs->now = ctx->now;
	return 0;
}

/* Used by main.c for its own option loop. */
int dbg_parse_open_option(struct dbg_open_opts *o, int c, const char *arg)
{
	return parse_open_opt(o, c, arg);
}

int do_close(struct dbg_ctx *ctx, int argc, char **argv)
{
	int all = 0, c;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "a")) != -1) {
		if (c != 'a') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		all = 1;
	}
	if (optind != argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	return dbg_close_fs(ctx, all);
}

int do_params(struct dbg_ctx *ctx, int argc, char **argv)
{
	char *cwd = NULL, *root = NULL;
	FILE *o = ctx->out;

	fprintf(o, "Open mode:        %s\n",
		!ctx->fs ? "none" :
		ctx->open.catastrophic ? "catastrophic (read-only)" :
		ctx->open.rw ? "read-write" : "read-only");
	if (!ctx->fs)
		return 0;
	fprintf(o, "Filesystem:       %s\n", ctx->device);
	fprintf(o, "Block size:       %u\n", ctx->fs->blocksize);
	if (ctx->open.superblock)
		fprintf(o, "Superblock:       %llu\n",
			(unsigned long long)ctx->open.superblock);
	fprintf(o, "Direct I/O:       %s\n", ctx->open.direct ? "yes" : "no");
	if (!ext2fs_get_pathname(ctx->fs, ctx->cwd, 0, &cwd))
		fprintf(o, "Current dir:      %s (inode %u)\n", cwd, ctx->cwd);
	if (!ext2fs_get_pathname(ctx->fs, ctx->root, 0, &root))
		fprintf(o, "Root dir:         %s (inode %u)\n", root,
			ctx->root);
	ext2fs_free_mem(&cwd);
	ext2fs_free_mem(&root);
	return 0;
}
