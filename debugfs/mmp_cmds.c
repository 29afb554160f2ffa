/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mmp_cmds.c --- the multiple-mount protection block: dump_mmp shows it,
 * set_mmp_value changes one field (through libe2x; the checksum is
 * recomputed, as the reference does, so setting it has no lasting effect).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"
#include "fields.h"

static void print_mmp(FILE *o, const struct ext2_super_block *sb,
		      blk64_t blk, const struct mmp_struct *m)
{
	char when[40];

	dbg_format_time((int64_t)m->mmp_time, when, sizeof(when));
	fprintf(o, "block_number: %llu\n", (unsigned long long)blk);
	fprintf(o, "update_interval: %u\n", sb->s_mmp_update_interval);
	fprintf(o, "check_interval: %u\n", m->mmp_check_interval);
	fprintf(o, "sequence: %08x\n", m->mmp_seq);
	fprintf(o, "time: %llu -- %s UTC\n",
		(unsigned long long)m->mmp_time, when);
	fprintf(o, "node_name: %.*s\n", (int)sizeof(m->mmp_nodename),
		(const char *)m->mmp_nodename);
	fprintf(o, "device_name: %.*s\n", (int)sizeof(m->mmp_bdevname),
		(const char *)m->mmp_bdevname);
	fprintf(o, "magic: 0x%x\n", m->mmp_magic);
	fprintf(o, "checksum: 0x%08x\n", m->mmp_checksum);
}

/* dump_mmp [block]: the multiple-mount protection block. */
int do_dump_mmp(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	blk64_t blk = fs->super->s_mmp_block;
	errcode_t err;
	void *buf = NULL;

	if (argc > 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (argc == 2 && dbg_parse_block(ctx, argv[0], argv[1], &blk))
		return 1;
	if (argc == 1 && !ext2fs_has_feature_mmp(fs->super)) {
		dbg_error(ctx, argv[0], 0,
			  "MMP is not active on this file system");
		return 1;
	}
	err = e2x_mmp_read(fs, blk, &buf);
	if (err) {
		dbg_error(ctx, argv[0], err, "reading MMP block %llu",
			  (unsigned long long)blk);
		return 1;
	}
	print_mmp(ctx->out, fs->super, blk, buf);
	ext2fs_free_mem(&buf);
	return 0;
}

/* set_mmp_value field value | -l */
int do_set_mmp_value(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	const struct dbg_field *f;
	void *buf = NULL;
	errcode_t err;
	int idx, rc;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		dbg_list_fields(ctx, dbg_mmp_fields);
		return 0;
	}
	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	f = dbg_field_find(dbg_mmp_fields, argv[1], &idx);
	if (!f) {
		dbg_error(ctx, argv[0], 0, "%s: unknown MMP field "
			  "(set_mmp_value -l lists them)", argv[1]);
		return 1;
	}
	if (!ext2fs_has_feature_mmp(fs->super)) {
		dbg_error(ctx, argv[0], 0,
			  "MMP is not active on this file system");
		return 1;
	}
	/* libext2fs holds the block it wrote at open and compares the disk
	 * with it at close: change that copy, so the close agrees */
	buf = fs->mmp_buf;
	if (!buf) {
		dbg_error(ctx, argv[0], 0, "the MMP block is not held open");
		return 1;
	}
	rc = dbg_field_set(f, idx, buf, sizeof(struct mmp_struct), argv[2]);
	if (!rc)
		err = e2x_mmp_store(fs, fs->super->s_mmp_block, buf, 0);
	if (rc)
		return dbg_field_error(ctx, argv[0], rc, argv[1], argv[2]);
	if (err)
		dbg_error(ctx, argv[0], err, "writing the MMP block");
	return err != 0;
}
