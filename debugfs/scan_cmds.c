/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan_cmds.c --- whole-image scans for recovery work: lsdel (deleted
 * inodes that still map blocks) and dump_unused (free blocks holding
 * data).  Both read the session's in-memory bitmaps.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "debugfs.h"

struct del_count {
	ext2_filsys fs;
	uint64_t blocks, free_blocks;
};

static int count_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		       blk64_t ref_blk, int ref_off, void *priv)
{
	struct del_count *dc = priv;

	if (*blocknr < fs->super->s_first_data_block ||
	    *blocknr >= ext2fs_blocks_count(fs->super))
		return BLOCK_ABORT;
	dc->blocks++;
	if (fs->block_map && !ext2fs_test_block_bitmap2(fs->block_map,
							 *blocknr))
		dc->free_blocks++;
	return 0;
}

int do_lsdel(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	ext2_inode_scan scan = NULL;
	struct ext2_inode in;
	ext2_ino_t ino;
	uint64_t secs = 0, found = 0;
	time_t now = time(NULL);
	errcode_t err;
	char *bbuf = NULL, tbuf[40];
	int ret = 1;

	if (argc > 2 || (argc == 2 && dbg_parse_u64(argv[1], UINT32_MAX,
						     &secs))) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (!ctx->open.catastrophic && dbg_need_bitmaps(ctx, argv[0]))
		return 1;
	bbuf = malloc(fs->blocksize * 3);
	if (!bbuf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err) {
		dbg_error(ctx, argv[0], err, "opening inode scan");
		goto out;
	}
	fprintf(ctx->out, "%8s %6s %7s %12s %13s %s\n", "Inode", "Owner",
		"Mode", "Size", "Free/Blocks", "Time deleted");
	while (!(err = ext2fs_get_next_inode(scan, &ino, &in)) && ino) {
		struct del_count dc = { fs, 0, 0 };

		if (!in.i_dtime || in.i_links_count || !in.i_mode)
			continue;
		if (secs && (int64_t)now - (int64_t)in.i_dtime > (int64_t)secs)
			continue;
		if (ext2fs_inode_has_valid_blocks2(fs, &in))
			ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY,
					      bbuf, count_block, &dc);
		if (!dc.blocks)
			continue;
		dbg_format_time((int32_t)in.i_dtime, tbuf, sizeof(tbuf));
		fprintf(ctx->out, "%8u %6u %7o %12llu %6llu/%6llu %s\n", ino,
			inode_uid(in), in.i_mode,
			(unsigned long long)EXT2_I_SIZE(&in),
			(unsigned long long)dc.free_blocks,
			(unsigned long long)dc.blocks, tbuf);
		found++;
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "scanning inodes");
		goto out;
	}
	fprintf(ctx->out, "%llu deleted inodes found.\n",
		(unsigned long long)found);
	ret = 0;
out:
	if (scan)
		ext2fs_close_inode_scan(scan);
	free(bbuf);
	return ret;
}

static int all_zero(const unsigned char *b, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

int do_dump_unused(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	blk64_t b, end = ext2fs_blocks_count(fs->super) - 1;
	unsigned char *buf;
	uint64_t n = 0;
	errcode_t err;

	if (argc != 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	buf = malloc(fs->blocksize);
	if (!buf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	b = fs->super->s_first_data_block;
	while (b <= end && !ext2fs_find_first_zero_block_bitmap2(fs->block_map,
								 b, end, &b)) {
		err = io_channel_read_blk64(fs->io, b, 1, buf);
		if (err) {
			dbg_error(ctx, argv[0], err, "reading block %llu",
				  (unsigned long long)b);
			free(buf);
			return 1;
		}
		if (!all_zero(buf, fs->blocksize)) {
			fprintf(ctx->out, "Unused block %llu contains non-zero "
				"data:\n", (unsigned long long)b);
			dbg_hexdump(ctx->out, buf, fs->blocksize, 0);
			n++;
		}
		b++;
	}
	fprintf(ctx->out, "%llu unused blocks hold data.\n",
		(unsigned long long)n);
	free(buf);
	return 0;
}
