/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zap_cmds.c --- raw state changes for a read-write session, as the
 * reference makes them: clri and zap_block (the bytes change through
 * libe2x, lib/meta/raw_edit.c, and nothing else follows) and undelete (an
 * inode and its blocks back in use, lib/inode/inode_kill.c).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

int do_clri(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;
	errcode_t err;
	int i;

	if (argc < 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (dbg_resolve(ctx, argv[0], argv[i], &ino))
			return 1;
		err = e2x_inode_clear(ctx->fs, ino, 0);
		if (err) {
			dbg_error(ctx, argv[0], err, "%s", argv[i]);
			return 1;
		}
	}
	return 0;
}

/* What zap_block was asked to do. */
struct zap_req {
	const char *file;	/* -f: the block number is logical in it */
	uint64_t offset, length, pattern;
	int64_t bit;		/* -b: flip this bit instead, -1 for none */
};

static int zap_options(struct dbg_ctx *ctx, int argc, char **argv,
		       struct zap_req *z)
{
	uint64_t max = ctx->fs->blocksize;
	int c, bad = 0;
	uint64_t v;

	memset(z, 0, sizeof(*z));
	z->length = ~0ULL;
	z->bit = -1;
	dbg_reset_getopt();
	while (!bad && (c = getopt(argc, argv, "b:f:l:o:p:")) != -1) {
		switch (c) {
		case 'f':
			z->file = optarg;
			break;
		case 'o':
			bad = dbg_parse_u64(optarg, max - 1, &z->offset);
			break;
		case 'l':
			bad = dbg_parse_u64(optarg, max, &z->length) ||
			      !z->length;
			break;
		case 'p':
			bad = dbg_parse_u64(optarg, 255, &z->pattern);
			break;
		case 'b':
			bad = dbg_parse_u64(optarg, max * 8 - 1, &v);
			z->bit = (int64_t)v;
			break;
		default:
			bad = 1;
		}
	}
	if (z->length == ~0ULL)
		z->length = max - z->offset;
	if (bad || optind != argc - 1 || z->offset + z->length > max) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	return 0;
}

/* The physical block zap_block works on: argv's last word, logical in
 * -f FILE when given. */
static int zap_target(struct dbg_ctx *ctx, const char *cmd,
		      const struct zap_req *z, const char *word, blk64_t *blk)
{
	ext2_ino_t ino;
	uint64_t lblk;
	errcode_t err;

	if (!z->file)
		return dbg_parse_block(ctx, cmd, word, blk);
	if (dbg_resolve(ctx, cmd, z->file, &ino))
		return 1;
	if (dbg_parse_u64(word, UINT32_MAX, &lblk)) {
		dbg_error(ctx, cmd, 0, "%s: bad logical block", word);
		return 1;
	}
	err = ext2fs_bmap2(ctx->fs, ino, NULL, NULL, 0, lblk, NULL, blk);
	if (!err && !*blk)
		err = EXT2_ET_BAD_BLOCK_NUM;	/* a hole */
	if (err) {
		dbg_error(ctx, cmd, err, "block %s of %s", word, z->file);
		return 1;
	}
	return 0;
}

int do_zap_block(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct zap_req z;
	blk64_t blk;
	errcode_t err;

	if (zap_options(ctx, argc, argv, &z) ||
	    zap_target(ctx, argv[0], &z, argv[argc - 1], &blk))
		return 1;
	if (z.bit >= 0)
		err = e2x_block_flip_bit(ctx->fs, blk, (unsigned int)z.bit);
	else
		err = e2x_block_fill(ctx->fs, blk, (unsigned int)z.offset,
				     (unsigned int)z.length,
				     (unsigned char)z.pattern);
	if (err)
		dbg_error(ctx, argv[0], err, "block %llu",
			  (unsigned long long)blk);
	return err != 0;
}

/* undelete <ino> [name]: the inode back in use, and under NAME (an entry
 * only; the link count stays what the inode says, as in the reference). */
int do_undelete(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino, dir = ctx->cwd;
	struct ext2_inode_large in;
	const char *name;
	errcode_t err;

	if (argc != 2 && argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino) ||
	    dbg_read_inode(ctx, argv[0], ino, &in))
		return 1;
	err = e2x_inode_undelete(ctx->fs, ino, 0);
	if (err == E2X_ERR_EXISTS) {
		dbg_error(ctx, argv[0], 0, "%s: inode is in use", argv[1]);
		return 1;
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		return 1;
	}
	if (argc == 2)
		return 0;
	name = strrchr(argv[2], '/');
	if (name) {
		char *head = strndup(argv[2], name == argv[2] ? 1 :
					     (size_t)(name - argv[2]));
		int bad = !head || dbg_resolve_dir(ctx, argv[0], head, &dir);

		free(head);
		if (bad)
			return 1;
		name++;
	} else {
		name = argv[2];
	}
	err = e2x_dir_add(ctx->fs, dir, name, strlen(name), ino,
			  e2x_ftype_of_mode(in.i_mode), 0);
	if (err)
		dbg_error(ctx, argv[0], err, "%s", argv[2]);
	return err != 0;
}
