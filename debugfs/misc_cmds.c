/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * misc_cmds.c --- small reading and session commands of the reference's
 * set: supported_features, set_current_time, lcd, bmap and filefrag.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <e2p/e2p.h>
#include "debugfs.h"
#include "e2x-itree.h"

/* The feature words this build can handle: libext2fs' and e2x's own. */
static uint32_t supported_word(int word)
{
	switch (word) {
	case E2P_FEATURE_COMPAT:
		return EXT2_LIB_FEATURE_COMPAT_SUPP;
	case E2P_FEATURE_INCOMPAT:
		return EXT2_LIB_FEATURE_INCOMPAT_SUPP;
	case E2P_FEATURE_RO_INCOMPAT:
		return EXT2_LIB_FEATURE_RO_COMPAT_SUPP |
		       E2X_FEATURE_RO_COMPAT_ITREE;
	}
	return 0;
}

static int feature_known(const char *name)
{
	int word;
	unsigned int mask;

	if (!strcmp(name, E2X_ITREE_FEATURE_NAME))
		return 1;
	if (!e2p_string2feature((char *)name, &word, &mask))
		return (supported_word(word) & mask) != 0;
	return !e2p_jrnl_string2feature((char *)name, &word, &mask);
}

int do_supported_features(struct dbg_ctx *ctx, int argc, char **argv)
{
	FILE *o = ctx->out;
	int w, bit, ret = 0, i;

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			if (feature_known(argv[i])) {
				fprintf(o, "Supported feature: %s\n", argv[i]);
			} else {
				dbg_error(ctx, argv[0], 0,
					  "%s: unknown feature", argv[i]);
				ret = 1;
			}
		}
		return ret;
	}
	fputs("Supported features:", o);
	for (w = 0; w < 3; w++)
		for (bit = 0; bit < 32; bit++)
			if (supported_word(w) & (1u << bit))
				fprintf(o, " %s",
					dbg_feature_name(w, 1u << bit));
	fputc('\n', o);
	return 0;
}

/* YYYYMMDD[HHMM[SS]] (UTC), @seconds, or "now". */
static int parse_when(const char *s, time_t *t)
{
	struct tm tm;
	char *end;
	uint64_t v;

	if (!strcmp(s, "now")) {
		*t = time(NULL);
		return 0;
	}
	if (*s == '@')
		return dbg_parse_u64(s + 1, INT64_MAX, &v) ? 1 :
		       (*t = (time_t)v, 0);
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y%m%d", &tm);
	if (end && *end)
		end = strptime(end, "%H%M", &tm);
	if (end && *end)
		end = strptime(end, "%S", &tm);
	if (!end || *end)
		return 1;
	*t = timegm(&tm);
	return 0;
}

int do_set_current_time(struct dbg_ctx *ctx, int argc, char **argv)
{
	char buf[40];
	time_t t;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (parse_when(argv[1], &t)) {
		dbg_error(ctx, argv[0], 0, "%s: bad time", argv[1]);
		return 1;
	}
	ctx->now = t;
	if (ctx->fs)
		ctx->fs->now = t;
	dbg_format_time((int64_t)t, buf, sizeof(buf));
	fprintf(ctx->out, "Setting current time to %s UTC\n", buf);
	return 0;
}

int do_lcd(struct dbg_ctx *ctx, int argc, char **argv)
{
	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (chdir(argv[1])) {
		dbg_error(ctx, argv[0], errno, "%s", argv[1]);
		return 1;
	}
	return 0;
}

/* bmap file logical: the physical block behind one logical block (0 for
 * a hole), as libext2fs maps it, without allocating. */
int do_bmap(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;
	uint64_t lblk;
	blk64_t pblk = 0;
	int ret_flags = 0;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	if (dbg_parse_u64(argv[2], (1ULL << 32) - 1, &lblk)) {
		dbg_error(ctx, argv[0], 0, "%s: bad block number", argv[2]);
		return 1;
	}
	err = ext2fs_bmap2(ctx->fs, ino, NULL, NULL, 0, lblk, &ret_flags,
			   &pblk);
	if (err) {
		dbg_error(ctx, argv[0], err, "mapping block %llu of %s",
			  (unsigned long long)lblk, argv[1]);
		return 1;
	}
	fprintf(ctx->out, "%llu", (unsigned long long)pblk);
	if (ret_flags & BMAP_RET_UNINIT)
		fputs(" (uninit)", ctx->out);
	fputc('\n', ctx->out);
	return 0;
}

/* filefrag's count: runs of physically contiguous blocks. */
struct frag_count {
	blk64_t next;		/* the block that would continue the run */
	blk64_t blocks;
	unsigned long runs;
};

static int count_run(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct frag_count *fc = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0)
		return 0;	/* mapping blocks are not data */
	if (!fc->blocks || *blocknr != fc->next)
		fc->runs++;
	fc->blocks++;
	fc->next = *blocknr + 1;
	return 0;
}

/* One line of filefrag: NAME's contiguous runs. */
static int frag_line(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		     const char *name)
{
	struct ext2_inode_large in;
	struct frag_count fc = { 0, 0, 0 };
	errcode_t err;

	if (dbg_read_inode(ctx, cmd, ino, &in))
		return 1;
	if (ext2fs_inode_has_valid_blocks2(ctx->fs, (struct ext2_inode *)&in)) {
		err = ext2fs_block_iterate3(ctx->fs, ino, BLOCK_FLAG_READ_ONLY,
					    NULL, count_run, &fc);
		if (err) {
			dbg_error(ctx, cmd, err, "%s", name);
			return 1;
		}
	}
	fprintf(ctx->out, "%s: %lu contiguous extents%s\n", name, fc.runs,
		LINUX_S_ISDIR(in.i_mode) ? " (dir)" : "");
	return 0;
}

struct frag_dir {
	struct dbg_ctx *ctx;
	const char *cmd;
	const char *prefix;	/* "." or the directory as typed */
	int failed;
};

static int frag_entry(struct ext2_dir_entry *de, int offset, int blocksize,
		      char *buf, void *priv)
{
	struct frag_dir *fd = priv;
	unsigned int len = ext2fs_dirent_name_len(de);
	char name[4096];

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!de->inode || is_dot_or_dotdot(de->name, (int)len))
		return 0;
	snprintf(name, sizeof(name), "%s/%.*s", fd->prefix, (int)len,
		 de->name);
	fd->failed |= frag_line(fd->ctx, fd->cmd, de->inode, name);
	return 0;
}

/* filefrag [file]: one file, or every entry of a directory (the current
 * one by default); a blank line closes the report, as in the reference. */
int do_filefrag(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct frag_dir fd = { ctx, argv[0], ".", 0 };
	struct ext2_inode_large in;
	ext2_ino_t ino = ctx->cwd;
	errcode_t err;

	if (argc > 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (argc == 2 && (dbg_resolve(ctx, argv[0], argv[1], &ino) ||
			  dbg_read_inode(ctx, argv[0], ino, &in)))
		return 1;
	if (argc == 2 && !LINUX_S_ISDIR(in.i_mode)) {
		fd.failed = frag_line(ctx, argv[0], ino, argv[1]);
	} else {
		if (argc == 2)
			fd.prefix = argv[1];
		err = ext2fs_dir_iterate(ctx->fs, ino, 0, NULL, frag_entry,
					 &fd);
		if (err) {
			dbg_error(ctx, argv[0], err, "reading the directory");
			return 1;
		}
	}
	fputc('\n', ctx->out);
	return fd.failed;
}
