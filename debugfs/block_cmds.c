/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * block_cmds.c --- blocks and bitmaps: bd (hex dump), icheck (owner of a
 * block), testb, testi, ffb, ffi and freefrag.  Every bitmap question is
 * answered from the session's in-memory bitmaps, never by re-reading the
 * on-disk ones.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

int do_bd(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	const char *file = NULL;
	ext2_ino_t ino = 0;
	unsigned char *buf = NULL;
	blk64_t blk, pblk, i;
	uint64_t count = 1;
	errcode_t err;
	int c, ret = 1;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "f:")) != -1) {
		if (c != 'f') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		file = optarg;
	}
	if (optind != argc - 1 && optind != argc - 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (file && dbg_resolve(ctx, argv[0], file, &ino))
		return 1;
	if (file) {
		uint64_t v;

		if (dbg_parse_u64(argv[optind], UINT32_MAX, &v)) {
			dbg_error(ctx, argv[0], 0, "%s: bad logical block",
				  argv[optind]);
			return 1;
		}
		blk = v;
	} else if (dbg_parse_block(ctx, argv[0], argv[optind], &blk)) {
		return 1;
	}
	if (optind == argc - 2 &&
	    (dbg_parse_u64(argv[optind + 1], 1u << 20, &count) || !count)) {
		dbg_error(ctx, argv[0], 0, "%s: bad count", argv[optind + 1]);
		return 1;
	}
	buf = malloc(fs->blocksize);
	if (!buf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	for (i = 0; i < count; i++) {
		pblk = blk + i;
		if (file) {
			err = ext2fs_bmap2(fs, ino, NULL, NULL, 0, blk + i,
					   NULL, &pblk);
			if (err) {
				dbg_error(ctx, argv[0], err, "mapping block "
					  "%llu of %s",
					  (unsigned long long)(blk + i), file);
				goto out;
			}
			if (!pblk) {
				fprintf(ctx->out, "Logical block %llu: hole\n",
					(unsigned long long)(blk + i));
				continue;
			}
		}
		if (pblk >= ext2fs_blocks_count(fs->super)) {
			dbg_error(ctx, argv[0], 0, "block %llu is past the end",
				  (unsigned long long)pblk);
			goto out;
		}
		err = io_channel_read_blk64(fs->io, pblk, 1, buf);
		if (err) {
			dbg_error(ctx, argv[0], err, "reading block %llu",
				  (unsigned long long)pblk);
			goto out;
		}
		fprintf(ctx->out, "Block %llu:\n", (unsigned long long)pblk);
		dbg_hexdump(ctx->out, buf, fs->blocksize, 0);
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* icheck: one inode scan, every block of every inode compared with the
 * wanted list. */
struct icheck {
	blk64_t *blk;
	ext2_ino_t *owner;
	size_t n, left;
	ext2_ino_t ino;
};

static void icheck_hit(struct icheck *ic, blk64_t b)
{
	size_t i;

	for (i = 0; i < ic->n; i++)
		if (ic->blk[i] == b && !ic->owner[i]) {
			ic->owner[i] = ic->ino;
			ic->left--;
		}
}

static int icheck_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
			blk64_t ref_blk, int ref_off, void *priv)
{
	struct icheck *ic = priv;

	icheck_hit(ic, *blocknr);
	return ic->left ? 0 : BLOCK_ABORT;
}

int do_icheck(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct icheck ic;
	ext2_inode_scan scan = NULL;
	struct ext2_inode in;
	ext2_ino_t ino;
	errcode_t err;
	char *bbuf = NULL;
	size_t i;
	int ret = 1;

	if (argc < 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	memset(&ic, 0, sizeof(ic));
	ic.n = ic.left = argc - 1;
	ic.blk = calloc(ic.n, sizeof(*ic.blk));
	ic.owner = calloc(ic.n, sizeof(*ic.owner));
	bbuf = malloc(ctx->fs->blocksize * 3);
	if (!ic.blk || !ic.owner || !bbuf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		goto out;
	}
	for (i = 0; i < ic.n; i++)
		if (dbg_parse_block(ctx, argv[0], argv[i + 1], &ic.blk[i]))
			goto out;
	err = ext2fs_open_inode_scan(ctx->fs, 0, &scan);
	if (err) {
		dbg_error(ctx, argv[0], err, "opening inode scan");
		goto out;
	}
	while (ic.left && !(err = ext2fs_get_next_inode(scan, &ino, &in)) &&
	       ino) {
		if (!in.i_links_count || in.i_dtime)
			continue;
		ic.ino = ino;
		if (ext2fs_file_acl_block(ctx->fs, &in))
			icheck_hit(&ic, ext2fs_file_acl_block(ctx->fs, &in));
		if (!ext2fs_inode_has_valid_blocks2(ctx->fs, &in))
			continue;
		ext2fs_block_iterate3(ctx->fs, ino, BLOCK_FLAG_READ_ONLY, bbuf,
				      icheck_block, &ic);
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "scanning inodes");
		goto out;
	}
	fputs("Block\tInode number\n", ctx->out);
	for (i = 0; i < ic.n; i++) {
		if (ic.owner[i])
			fprintf(ctx->out, "%llu\t%u\n",
				(unsigned long long)ic.blk[i], ic.owner[i]);
		else
			fprintf(ctx->out, "%llu\t<block not found>\n",
				(unsigned long long)ic.blk[i]);
	}
	ret = 0;
out:
	if (scan)
		ext2fs_close_inode_scan(scan);
	free(ic.blk);
	free(ic.owner);
	free(bbuf);
	return ret;
}

/* Parse "block [count]" within the file system. */
static int parse_range(struct dbg_ctx *ctx, int argc, char **argv,
		       blk64_t *blk, uint64_t *count)
{
	uint64_t max;

	if (argc != 2 && argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_parse_block(ctx, argv[0], argv[1], blk))
		return 1;
	*count = 1;
	max = ext2fs_blocks_count(ctx->fs->super) - *blk;
	if (argc == 3 && (dbg_parse_u64(argv[2], max, count) || !*count)) {
		dbg_error(ctx, argv[0], 0, "%s: bad count (1..%llu)", argv[2],
			  (unsigned long long)max);
		return 1;
	}
	return 0;
}

int do_testb(struct dbg_ctx *ctx, int argc, char **argv)
{
	blk64_t blk;
	uint64_t count, i;

	if (parse_range(ctx, argc, argv, &blk, &count))
		return 1;
	for (i = 0; i < count; i++)
		fprintf(ctx->out, "Block %llu %s\n",
			(unsigned long long)(blk + i),
			ext2fs_test_block_bitmap2(ctx->fs->block_map, blk + i) ?
			"marked in use" : "not in use");
	return 0;
}

int do_testi(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	fprintf(ctx->out, "Inode %u %s\n", ino,
		ext2fs_test_inode_bitmap2(ctx->fs->inode_map, ino) ?
		"marked in use" : "not in use");
	return 0;
}

int do_ffb(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	blk64_t first = fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(fs->super) - 1;
	blk64_t goal = first, b;
	uint64_t count = 1, found = 0, v;
	int wrapped = 0;

	if (argc > 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (argc > 1 && (dbg_parse_u64(argv[1], last, &count) || !count)) {
		dbg_error(ctx, argv[0], 0, "%s: bad count", argv[1]);
		return 1;
	}
	if (argc > 2) {
		if (dbg_parse_u64(argv[2], last, &v) || v < first) {
			dbg_error(ctx, argv[0], 0, "%s: bad goal", argv[2]);
			return 1;
		}
		goal = v;
	}
	b = goal;
	while (found < count) {
		blk64_t end = wrapped ? goal - 1 : last, hit;

		if (b > end ||
		    ext2fs_find_first_zero_block_bitmap2(fs->block_map, b, end,
							 &hit)) {
			if (wrapped || goal == first)
				break;
			wrapped = 1;
			b = first;
			continue;
		}
		fprintf(ctx->out, "%s%llu", found ? " " : "Free blocks found: ",
			(unsigned long long)hit);
		found++;
		b = hit + EXT2FS_CLUSTER_RATIO(fs);
		b &= ~(blk64_t)EXT2FS_CLUSTER_MASK(fs);
	}
	if (found)
		fputc('\n', ctx->out);
	if (found < count) {
		dbg_error(ctx, argv[0], 0, "only %llu free blocks found",
			  (unsigned long long)found);
		return 1;
	}
	return 0;
}

int do_ffi(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t dir = ctx->root, ino;
	uint64_t mode = 010644;
	errcode_t err;

	if (argc > 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (argc > 1 && dbg_resolve_dir(ctx, argv[0], argv[1], &dir))
		return 1;
	if (argc > 2 && dbg_parse_u64(argv[2], 0177777, &mode)) {
		dbg_error(ctx, argv[0], 0, "%s: bad mode", argv[2]);
		return 1;
	}
	err = ext2fs_new_inode(ctx->fs, dir, mode, NULL, &ino);
	if (err) {
		dbg_error(ctx, argv[0], err, "finding a free inode");
		return 1;
	}
	fprintf(ctx->out, "Free inode found: %u\n", ino);
	return 0;
}

/* freefrag: free extents of the in-memory cluster bitmap. */
#define FF_BUCKETS 48

struct freefrag {
	uint64_t free_clusters, extents;
	uint64_t min, max;
	uint64_t hist_n[FF_BUCKETS], hist_c[FF_BUCKETS];
	uint64_t chunk, free_chunks;	/* in clusters */
};

static int log2_floor(uint64_t v)
{
	int l = 0;

	while (v >>= 1)
		l++;
	return l;
}

static void ff_extent(struct freefrag *ff, uint64_t start, uint64_t len)
{
	int b = log2_floor(len);
	uint64_t first_chunk;

	ff->free_clusters += len;
	ff->extents++;
	if (!ff->min || len < ff->min)
		ff->min = len;
	if (len > ff->max)
		ff->max = len;
	ff->hist_n[b]++;
	ff->hist_c[b] += len;
	first_chunk = (start + ff->chunk - 1) / ff->chunk;
	if ((start + len) / ff->chunk > first_chunk)
		ff->free_chunks += (start + len) / ff->chunk - first_chunk;
}

static void ff_scan(ext2_filsys fs, struct freefrag *ff)
{
	int bits = fs->cluster_ratio_bits;
	blk64_t b = EXT2FS_B2C(fs, fs->super->s_first_data_block) << bits;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1;
	blk64_t z, s;

	while (b <= end) {
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, b, end,
							 &z))
			break;
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, z, end,
							&s))
			s = end + 1;
		s = EXT2FS_C2B(fs, EXT2FS_B2C(fs, s - 1) + 1);
		ff_extent(ff, EXT2FS_B2C(fs, z),
			  EXT2FS_B2C(fs, s - 1) - EXT2FS_B2C(fs, z) + 1);
		b = s;
	}
}

static void ff_print(struct dbg_ctx *ctx, struct freefrag *ff)
{
	ext2_filsys fs = ctx->fs;
	unsigned int csz = fs->blocksize << fs->cluster_ratio_bits;
	uint64_t total = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super));
	FILE *o = ctx->out;
	int i;

	fprintf(o, "Device: %s\nBlocksize: %u bytes\nCluster size: %u "
		"bytes\n", ctx->device, fs->blocksize, csz);
	fprintf(o, "Total clusters: %llu\nFree clusters: %llu (%.1f%%)\n",
		(unsigned long long)total,
		(unsigned long long)ff->free_clusters,
		total ? 100.0 * ff->free_clusters / total : 0.0);
	fprintf(o, "\nChunk size: %llu bytes (%llu clusters)\n"
		"Free chunks: %llu\n",
		(unsigned long long)ff->chunk * csz,
		(unsigned long long)ff->chunk,
		(unsigned long long)ff->free_chunks);
	fprintf(o, "\nFree extents: %llu\n", (unsigned long long)ff->extents);
	fprintf(o, "Min. free extent: %llu KB\nMax. free extent: %llu KB\n"
		"Avg. free extent: %llu KB\n",
		(unsigned long long)ff->min * csz / 1024,
		(unsigned long long)ff->max * csz / 1024,
		ff->extents ? (unsigned long long)(ff->free_clusters * csz /
						   1024 / ff->extents) : 0);
	fprintf(o, "\nHISTOGRAM OF FREE EXTENT SIZES:\n"
		"%24s : %12s %12s %7s\n", "Extent size (clusters)",
		"Free extents", "Free clusters", "Percent");
	for (i = 0; i < FF_BUCKETS; i++) {
		if (!ff->hist_n[i])
			continue;
		fprintf(o, "%11llu - %10llu : %12llu %12llu %6.2f%%\n",
			1ULL << i, (2ULL << i) - 1,
			(unsigned long long)ff->hist_n[i],
			(unsigned long long)ff->hist_c[i],
			100.0 * ff->hist_c[i] / (ff->free_clusters ?
						 ff->free_clusters : 1));
	}
}

int do_freefrag(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct freefrag ff;
	uint64_t kb = 0;
	unsigned int csz = ctx->fs->blocksize << ctx->fs->cluster_ratio_bits;
	int c;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "c:")) != -1) {
		if (c != 'c' || dbg_parse_u64(optarg, 1u << 30, &kb) || !kb ||
		    (kb & (kb - 1)) || kb * 1024 < csz) {
			dbg_error(ctx, argv[0], 0, "chunk size must be a power "
				  "of two of at least %u KB", csz / 1024);
			return 1;
		}
	}
	if (optind != argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	memset(&ff, 0, sizeof(ff));
	ff.chunk = kb ? kb * 1024 / csz : (1024 * 1024) / csz;
	if (!ff.chunk)
		ff.chunk = 1;
	ff_scan(ctx->fs, &ff);
	ff_print(ctx, &ff);
	return 0;
}
