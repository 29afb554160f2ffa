/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xattr_set_cmds.c --- ea_set and ea_rm for a read-write session, through
 * libe2x (in the inode or the attribute block, i_version moved once).
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

/* Whole host file PATH into a fresh buffer (at most one block's worth
 * times 16: attribute values beyond that do not fit anywhere we write). */
static int slurp(struct dbg_ctx *ctx, const char *cmd, const char *path,
		 char **buf, size_t *len)
{
	size_t cap = (size_t)ctx->fs->blocksize * 16;
	FILE *f = fopen(path, "rb");

	*buf = NULL;
	if (!f) {
		dbg_error(ctx, cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	*buf = malloc(cap + 1);
	*len = *buf ? fread(*buf, 1, cap + 1, f) : 0;
	fclose(f);
	if (!*buf || *len > cap) {
		dbg_error(ctx, cmd, 0, "%s: %s", path,
			  *buf ? "value too large" : "out of memory");
		free(*buf);
		*buf = NULL;
		return 1;
	}
	return 0;
}

int do_ea_set(struct dbg_ctx *ctx, int argc, char **argv)
{
	const char *file = NULL;
	char *buf = NULL;
	const void *value;
	size_t len;
	ext2_ino_t ino;
	errcode_t err;
	int c;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "f:")) != -1) {
		if (c != 'f') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		file = optarg;
	}
	if (argc - optind != (file ? 2 : 3)) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[optind], &ino))
		return 1;
	if (file) {
		if (slurp(ctx, argv[0], file, &buf, &len))
			return 1;
		value = buf;
	} else {
		value = argv[optind + 2];
		len = strlen(argv[optind + 2]);
	}
	err = e2x_xattr_set(ctx->fs, ino, argv[optind + 1], value, len, 0);
	free(buf);
	if (err == EXT2_ET_INVALID_ARGUMENT)
		dbg_error(ctx, argv[0], 0, "%s: bad attribute name (want "
			  "prefix.name)", argv[optind + 1]);
	else if (err == E2X_ERR_UNSUPPORTED)
		dbg_error(ctx, argv[0], 0, "%s: owned by libe2x, not settable",
			  argv[optind + 1]);
	else if (err)
		dbg_error(ctx, argv[0], err, "%s", argv[optind + 1]);
	return err != 0;
}

int do_ea_rm(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;
	errcode_t err;
	int i, ret = 0;

	if (argc < 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	for (i = 2; i < argc; i++) {
		err = e2x_xattr_remove(ctx->fs, ino, argv[i], 0);
		if (err == E2X_ERR_NOT_FOUND)
			dbg_error(ctx, argv[0], 0, "%s: no such attribute",
				  argv[i]);
		else if (err)
			dbg_error(ctx, argv[0], err, "%s", argv[i]);
		ret |= err != 0;
	}
	return ret;
}
