/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xattr_cmds.c --- extended attributes of one inode (in-inode area and the
 * xattr block): ea_list, ea_get, and the list stat prints.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

static int printable(const char *v, size_t len)
{
	size_t i;

	if (len && v[len - 1] == 0)
		len--;		/* a trailing NUL is common in strings */
	for (i = 0; i < len; i++)
		if (!isprint((unsigned char)v[i]))
			return 0;
	return 1;
}

static void print_value(FILE *o, const char *v, size_t len, int hex)
{
	size_t i;

	if (!hex && printable(v, len)) {
		fputc('"', o);
		dbg_print_name(o, v, len && !v[len - 1] ? len - 1 : len, 0);
		fputc('"', o);
		return;
	}
	for (i = 0; i < len; i++)
		fprintf(o, "%s%02x", i ? " " : "", (unsigned char)v[i]);
}

struct xa_print {
	FILE *o;
	int values;
	int n;
};

static int print_one(char *name, char *value, size_t len, void *priv)
{
	struct xa_print *p = priv;

	if (!p->n++ && !p->values)
		fputs("Extended attributes:\n", p->o);
	fprintf(p->o, "  %s (%zu)", name, len);
	if (p->values || len <= 40) {
		fputs(" = ", p->o);
		print_value(p->o, value, len, 0);
	}
	fputc('\n', p->o);
	return 0;
}

static errcode_t open_xattrs(struct dbg_ctx *ctx, ext2_ino_t ino,
			     struct ext2_xattr_handle **h)
{
	errcode_t err;

	err = ext2fs_xattrs_open(ctx->fs, ino, h);
	if (err)
		return err;
	err = ext2fs_xattrs_read(*h);
	if (err) {
		ext2fs_xattrs_close(h);
		*h = NULL;
	}
	return err;
}

int dbg_print_xattrs(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		     int values)
{
	struct ext2_xattr_handle *h = NULL;
	struct xa_print p = { ctx->out, values, 0 };
	errcode_t err;

	if (!ext2fs_has_feature_xattr(ctx->fs->super) &&
	    !ext2fs_has_feature_inline_data(ctx->fs->super))
		return 0;
	err = open_xattrs(ctx, ino, &h);
	if (!err)
		err = ext2fs_xattrs_iterate(h, print_one, &p);
	if (h)
		ext2fs_xattrs_close(&h);
	if (err) {
		if (cmd)
			dbg_error(ctx, cmd, err, "extended attributes of "
				  "inode %u", ino);
		else
			fprintf(ctx->out, "Extended attributes: unreadable "
				"(%s)\n", error_message(err));
		return 1;
	}
	return 0;
}

int do_ea_list(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	return dbg_print_xattrs(ctx, argv[0], ino, 1);
}

static int write_value(struct dbg_ctx *ctx, const char *cmd, const char *path,
		       const char *v, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(v, 1, len, f) != len) {
		dbg_error(ctx, cmd, 0, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	if (fclose(f)) {
		dbg_error(ctx, cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

int do_ea_get(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_xattr_handle *h = NULL;
	const char *out = NULL;
	ext2_ino_t ino;
	void *value = NULL;
	size_t len = 0;
	errcode_t err;
	int c, hex = 0, ret = 1;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "xf:")) != -1) {
		if (c == 'x')
			hex = 1;
		else if (c == 'f')
			out = optarg;
		else {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc - 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[optind], &ino))
		return 1;
	err = open_xattrs(ctx, ino, &h);
	if (!err)
		err = ext2fs_xattr_get(h, argv[optind + 1], &value, &len);
	if (err == EXT2_ET_EA_KEY_NOT_FOUND) {
		dbg_error(ctx, argv[0], 0, "%s: no attribute %s",
			  argv[optind], argv[optind + 1]);
		goto out;
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[optind]);
		goto out;
	}
	if (out) {
		ret = write_value(ctx, argv[0], out, value, len);
		goto out;
	}
	print_value(ctx->out, value, len, hex);
	fputc('\n', ctx->out);
	ret = 0;
out:
	if (value)
		ext2fs_free_mem(&value);
	if (h)
		ext2fs_xattrs_close(&h);
	return ret;
}
