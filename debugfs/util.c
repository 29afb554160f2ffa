/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.c --- session helpers shared by the debugfs commands: the one-line
 * error report, path / inode spec resolution, inode and block arguments.
 */
#include "config.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "debugfs.h"

/* "prog: cmd: message: error text" on stderr, one line. */
void dbg_error(struct dbg_ctx *ctx, const char *cmd, errcode_t code,
	       const char *fmt, ...)
{
	va_list ap;

	fflush(ctx->out);
	fprintf(stderr, "%s: ", ctx->prog);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	if (fmt) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	if (code)
		fprintf(stderr, "%s%s", fmt ? ": " : "", error_message(code));
	fputc('\n', stderr);
}

void dbg_usage(struct dbg_ctx *ctx, const char *cmd)
{
	const struct dbg_cmd *c = dbg_find_command(cmd);

	dbg_error(ctx, NULL, 0, "usage: %s %s", c ? c->name : cmd,
		  c && c->usage ? c->usage : "");
}

void dbg_reset_getopt(void)
{
	optind = 0;	/* glibc: full re-initialisation */
	opterr = 0;
}

int dbg_resolve(struct dbg_ctx *ctx, const char *cmd, const char *spec,
		ext2_ino_t *ino)
{
	errcode_t err;
	int ok;

	if (dbg_parse_ino_spec(spec, ctx->fs->super->s_inodes_count, ino,
			       &ok)) {
		if (ok)
			return 0;
		dbg_error(ctx, cmd, 0, "%s: bad inode spec (want <1..%u>)",
			  spec, ctx->fs->super->s_inodes_count);
		return 1;
	}
	if (!*spec) {
		dbg_error(ctx, cmd, 0, "empty path");
		return 1;
	}
	err = ext2fs_namei(ctx->fs, ctx->root, ctx->cwd, spec, ino);
	if (err) {
		if (err == EXT2_ET_FILE_NOT_FOUND)
			dbg_error(ctx, cmd, 0, "%s: no such file or directory",
				  spec);
		else
			dbg_error(ctx, cmd, err, "%s", spec);
		return 1;
	}
	return 0;
}

int dbg_resolve_dir(struct dbg_ctx *ctx, const char *cmd, const char *spec,
		    ext2_ino_t *ino)
{
	errcode_t err;

	if (dbg_resolve(ctx, cmd, spec, ino))
		return 1;
	err = ext2fs_check_directory(ctx->fs, *ino);
	if (err) {
		if (err == EXT2_ET_NO_DIRECTORY)
			dbg_error(ctx, cmd, 0, "%s: not a directory", spec);
		else
			dbg_error(ctx, cmd, err, "%s", spec);
		return 1;
	}
	return 0;
}

int dbg_read_inode(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		   struct ext2_inode_large *inode)
{
	errcode_t err;

	memset(inode, 0, sizeof(*inode));
	err = ext2fs_read_inode_full(ctx->fs, ino, (struct ext2_inode *)inode,
				     sizeof(*inode));
	if (err) {
		dbg_error(ctx, cmd, err, "reading inode %u", ino);
		return 1;
	}
	return 0;
}

int dbg_parse_block(struct dbg_ctx *ctx, const char *cmd, const char *s,
		    blk64_t *blk)
{
	uint64_t v;
	blk64_t max = ext2fs_blocks_count(ctx->fs->super);

	if (dbg_parse_u64(s, UINT64_MAX, &v) || v >= max) {
		dbg_error(ctx, cmd, 0, "%s: bad block number (want 0..%llu)",
			  s, (unsigned long long)max - 1);
		return 1;
	}
	*blk = v;
	return 0;
}

/*
 * Bitmaps are read once per session, on first need.  Later commands use the
 * in-memory copy so allocations made in this session are never thrown away
 * by re-reading the on-disk bitmaps.
 */
int dbg_need_bitmaps(struct dbg_ctx *ctx, const char *cmd)
{
	errcode_t err;

	if (ctx->open.catastrophic) {
		dbg_error(ctx, cmd, 0,
			  "bitmaps are not loaded in catastrophic mode (-c)");
		return 1;
	}
	if (ctx->fs->block_map && ctx->fs->inode_map)
		return 0;
	err = ext2fs_read_bitmaps(ctx->fs);
	if (err) {
		dbg_error(ctx, cmd, err, "reading bitmaps");
		return 1;
	}
	return 0;
}

void dbg_print_name(FILE *f, const char *name, int len, int raw)
{
	int i;

	if (raw) {
		fwrite(name, 1, len, f);
		return;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
}

int dbg_has_extra(ext2_filsys fs, const struct ext2_inode_large *in,
		  size_t end)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);

	return isize > EXT2_GOOD_OLD_INODE_SIZE &&
	       EXT2_GOOD_OLD_INODE_SIZE + (size_t)in->i_extra_isize >= end &&
	       end <= isize;
}

const char *dbg_mode_type(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "regular";
	case S_IFDIR:
		return "directory";
	case S_IFLNK:
		return "symlink";
	case S_IFCHR:
		return "chardev";
	case S_IFBLK:
		return "blockdev";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	}
	return "unknown";
}

int dbg_file_arg(struct dbg_ctx *ctx, int argc, char **argv, ext2_ino_t *ino,
		 struct ext2_inode_large *in)
{
	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	return dbg_resolve(ctx, argv[0], argv[1], ino) ||
	       dbg_read_inode(ctx, argv[0], *ino, in);
}

struct ext2_inode_large *dbg_file_arg_new(struct dbg_ctx *ctx, int argc,
					  char **argv, ext2_ino_t *ino)
{
	struct ext2_inode_large *in;

	in = calloc(1, e2x_inode_buf_size(ctx->fs));
	if (!in) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return NULL;
	}
	if (dbg_file_arg(ctx, argc, argv, ino, in)) {
		free(in);
		return NULL;
	}
	return in;
}
