/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * set_cmds.c --- raw changes for a read-write session: set_super_value,
 * set_inode_field, set_bg, setb / freeb, seti / freei, dirty and feature.  They
 * change exactly what they are told (that is their use: making test cases
 * and repairing by hand); counters move with the bitmaps.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <e2p/e2p.h>
#include "debugfs.h"
#include "fields.h"

void dbg_list_fields(struct dbg_ctx *ctx, const struct dbg_field *t)
{
	const struct dbg_field *f;

	for (f = t; f->name; f++) {
		if (f->count > 1)
			fprintf(ctx->out, "%s[0..%u]\n", f->name, f->count - 1);
		else
			fprintf(ctx->out, "%s\n", f->name);
	}
}

int dbg_field_error(struct dbg_ctx *ctx, const char *cmd, int rc,
		       const char *name, const char *value)
{
	if (rc == DBG_FIELD_OUT_OF_RANGE)
		dbg_error(ctx, cmd, 0, "%s: not stored in this inode "
			  "(inode size or i_extra_isize too small)", name);
	else
		dbg_error(ctx, cmd, 0, "%s: invalid value for %s", value,
			  name);
	return 1;
}

/* The UUID through the library, which keeps every checksum valid. */
static int set_uuid(struct dbg_ctx *ctx, const char *cmd,
		    const struct dbg_field *f, const char *value)
{
	struct ext2_super_block sb = *ctx->fs->super;
	errcode_t err;
	int rc;

	rc = dbg_field_set(f, 0, (unsigned char *)&sb, sizeof(sb), value);
	if (rc)
		return dbg_field_error(ctx, cmd, rc, f->name, value);
	err = e2x_fs_set_uuid(ctx->fs, sb.s_uuid, 0);
	if (err)
		dbg_error(ctx, cmd, err, "setting the UUID");
	return err != 0;
}

/* "checksum calc": the checksum the contents call for, as e2fsprogs'
 * debugfs takes it. */
static int is_calc(const struct dbg_field *f, const char *value)
{
	return !strcmp(f->name, "checksum") && !strcmp(value, "calc");
}

int do_ssv(struct dbg_ctx *ctx, int argc, char **argv)
{
	const struct dbg_field *f;
	int idx, rc;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		dbg_list_fields(ctx, dbg_super_fields);
		return 0;
	}
	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	f = dbg_field_find(dbg_super_fields, argv[1], &idx);
	if (!f) {
		dbg_error(ctx, argv[0], 0, "%s: unknown superblock field "
			  "(ssv -l lists them)", argv[1]);
		return 1;
	}
	if (!strcmp(f->name, "uuid"))
		return set_uuid(ctx, argv[0], f, argv[2]);
	if (is_calc(f, argv[2])) {	/* what the contents make it */
		ext2fs_superblock_csum_set(ctx->fs, ctx->fs->super);
		ext2fs_mark_super_dirty(ctx->fs);
		return 0;
	}
	rc = dbg_field_set(f, idx, (unsigned char *)ctx->fs->super,
			   sizeof(struct ext2_super_block), argv[2]);
	if (rc)
		return dbg_field_error(ctx, argv[0], rc, argv[1], argv[2]);
	ext2fs_mark_super_dirty(ctx->fs);
	return 0;
}

/* Bytes of the inode a field may touch: the base inode plus the extra
 * space i_extra_isize declares (never the in-inode xattr area). */
static size_t inode_field_limit(ext2_filsys fs,
				const struct ext2_inode_large *in,
				const struct dbg_field *f)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	size_t lim;

	if (isz <= EXT2_GOOD_OLD_INODE_SIZE)
		return EXT2_GOOD_OLD_INODE_SIZE;
	if (f->off == offsetof(struct ext2_inode_large, i_extra_isize))
		return EXT2_GOOD_OLD_INODE_SIZE + 2;
	lim = EXT2_GOOD_OLD_INODE_SIZE + (size_t)in->i_extra_isize;
	return lim < isz ? lim : isz;
}

int do_sif(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	const struct dbg_field *f;
	struct ext2_inode_large *in = NULL;
	ext2_ino_t ino;
	errcode_t err;
	int idx, rc, ret = 1;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		dbg_list_fields(ctx, dbg_inode_fields);
		return 0;
	}
	if (argc != 4) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	f = dbg_field_find(dbg_inode_fields, argv[2], &idx);
	if (!f) {
		dbg_error(ctx, argv[0], 0, "%s: unknown inode field "
			  "(sif -l lists them)", argv[2]);
		return 1;
	}
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = ext2fs_read_inode2(fs, ino, (struct ext2_inode *)in, isz,
				 READ_INODE_NOCSUM);
	if (err) {
		dbg_error(ctx, argv[0], err, "reading inode %u", ino);
		goto out;
	}
	if (is_calc(f, argv[3])) {
		err = e2x_write_inode_exact(fs, ino, in, 0);
		if (err)
			dbg_error(ctx, argv[0], err, "writing inode %u", ino);
		ret = err != 0;
		goto out;
	}
	rc = dbg_field_set(f, idx, (unsigned char *)in,
			   inode_field_limit(fs, in, f), argv[3]);
	if (rc) {
		dbg_field_error(ctx, argv[0], rc, argv[2], argv[3]);
		goto out;
	}
	/* Setting i_version or the checksum by hand must stick; every other
	 * change bumps i_version once (e2x_write_inode). */
	if (!strncmp(f->name, "version", 7))
		err = e2x_write_inode_exact(fs, ino, in, 0);
	else if (!strcmp(f->name, "checksum"))
		err = e2x_write_inode_exact(fs, ino, in, E2X_WRITE_NOCSUM);
	else
		err = e2x_write_inode(fs, ino, in);
	if (err) {
		dbg_error(ctx, argv[0], err, "writing inode %u", ino);
		goto out;
	}
	ret = 0;
out:
	free(in);
	return ret;
}

/* set_bg group field value: the descriptor checksum follows unless the
 * checksum itself is the field.  High halves exist only with 64-byte
 * descriptors; with 32-byte ones only the low half is stored. */
int do_set_bg(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	struct dbg_field lo;
	const struct dbg_field *f;
	unsigned char *gd;
	uint64_t group;
	int idx, rc;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		dbg_list_fields(ctx, dbg_bg_fields);
		return 0;
	}
	if (argc != 4) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_parse_u64(argv[1], fs->group_desc_count - 1, &group)) {
		dbg_error(ctx, argv[0], 0, "%s: bad group (0..%u)", argv[1],
			  fs->group_desc_count - 1);
		return 1;
	}
	f = dbg_field_find(dbg_bg_fields, argv[2], &idx);
	if (!f) {
		dbg_error(ctx, argv[0], 0, "%s: unknown group descriptor "
			  "field (set_bg -l lists them)", argv[2]);
		return 1;
	}
	if (f->hi_size && f->hi_off + f->hi_size > EXT2_DESC_SIZE(fs->super)) {
		lo = *f;
		lo.hi_size = 0;
		f = &lo;
	}
	gd = (unsigned char *)ext2fs_group_desc(fs, fs->group_desc,
						 (dgrp_t)group);
	if (is_calc(f, argv[3])) {
		ext2fs_group_desc_csum_set(fs, (dgrp_t)group);
		ext2fs_mark_super_dirty(fs);
		return 0;
	}
	rc = dbg_field_set(f, idx, gd, EXT2_DESC_SIZE(fs->super), argv[3]);
	if (rc)
		return dbg_field_error(ctx, argv[0], rc, argv[2], argv[3]);
	if (strcmp(f->name, "checksum"))
		ext2fs_group_desc_csum_set(fs, (dgrp_t)group);
	ext2fs_mark_super_dirty(fs);
	return 0;
}

/* setb / freeb: INUSE is +1 or -1. */
static int change_blocks(struct dbg_ctx *ctx, int argc, char **argv,
			 int inuse)
{
	ext2_filsys fs = ctx->fs;
	blk64_t blk, i;
	uint64_t count = 1, max;

	if (argc != 2 && argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_parse_block(ctx, argv[0], argv[1], &blk))
		return 1;
	max = ext2fs_blocks_count(fs->super) - blk;
	if (argc == 3 && (dbg_parse_u64(argv[2], max, &count) || !count)) {
		dbg_error(ctx, argv[0], 0, "%s: bad count (1..%llu)", argv[2],
			  (unsigned long long)max);
		return 1;
	}
	for (i = blk; i < blk + count; i++) {
		int used = !!ext2fs_test_block_bitmap2(fs->block_map, i);

		if (used == (inuse > 0)) {
			fprintf(ctx->out, "Block %llu already %s\n",
				(unsigned long long)i,
				used ? "marked in use" : "free");
			continue;
		}
		ext2fs_block_alloc_stats2(fs, i, inuse);
	}
	return 0;
}

int do_setb(struct dbg_ctx *ctx, int argc, char **argv)
{
	return change_blocks(ctx, argc, argv, +1);
}

int do_freeb(struct dbg_ctx *ctx, int argc, char **argv)
{
	return change_blocks(ctx, argc, argv, -1);
}

static int change_inode(struct dbg_ctx *ctx, int argc, char **argv,
			int inuse)
{
	struct ext2_inode in;
	ext2_ino_t ino;
	int used, isdir = 0;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	used = !!ext2fs_test_inode_bitmap2(ctx->fs->inode_map, ino);
	if (used == (inuse > 0)) {
		fprintf(ctx->out, "Inode %u already %s\n", ino,
			used ? "marked in use" : "free");
		return 0;
	}
	if (!ext2fs_read_inode(ctx->fs, ino, &in))
		isdir = LINUX_S_ISDIR(in.i_mode);
	ext2fs_inode_alloc_stats2(ctx->fs, ino, inuse, isdir);
	return 0;
}

int do_seti(struct dbg_ctx *ctx, int argc, char **argv)
{
	return change_inode(ctx, argc, argv, +1);
}

int do_freei(struct dbg_ctx *ctx, int argc, char **argv)
{
	return change_inode(ctx, argc, argv, -1);
}

int do_dirty(struct dbg_ctx *ctx, int argc, char **argv)
{
	if (argc != 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	ext2fs_mark_super_dirty(ctx->fs);
	return 0;
}

/* One feature word into W[3]: "name" sets, "-name" or "^name" clears. */
static int edit_feature(struct dbg_ctx *ctx, const char *cmd,
			const char *word, uint32_t w[3])
{
	int clear = word[0] == '-' || word[0] == '^';
	const char *name = word + clear;
	unsigned int mask;
	int compat;

	if (!strcmp(name, E2X_ITREE_FEATURE_NAME)) {
		compat = E2P_FEATURE_RO_INCOMPAT;
		mask = E2X_FEATURE_RO_COMPAT_ITREE;
	} else if (e2p_string2feature((char *)name, &compat, &mask) ||
		   compat < 0 || compat > 2) {
		dbg_error(ctx, cmd, 0, "%s: unknown feature", name);
		return 1;
	}
	if (clear)
		w[compat] &= ~mask;
	else
		w[compat] |= mask;
	return 0;
}

int do_feature(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_super_block *sb = ctx->fs->super;
	uint32_t w[3] = { sb->s_feature_compat, sb->s_feature_incompat,
			  sb->s_feature_ro_compat };
	int i;

	if (argc > 1 && !ctx->open.rw) {
		dbg_error(ctx, argv[0], 0,
			  "file system is open read-only (open it with -w)");
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (edit_feature(ctx, argv[0], argv[i], w))
			return 1;	/* nothing changed */
	if (argc > 1) {
		sb->s_feature_compat = w[0];
		sb->s_feature_incompat = w[1];
		sb->s_feature_ro_compat = w[2];
		ext2fs_mark_super_dirty(ctx->fs);
	}
	fputs("Filesystem features:", ctx->out);
	dbg_print_features(ctx->out, sb);
	return 0;
}
