/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * htree_cmds.c --- directory hashing: htree_dump (the dx index of a
 * directory and its leaves) and dx_hash, plus the hash helpers ls uses.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include <e2p/e2p.h>
#include "debugfs.h"

#define DX_INFO_OFF	24	/* dx_root_info after '.' and '..' */
#define DX_NODE_CL_OFF	8	/* countlimit after the fake entry */
#define DX_MAX_LEVELS	3

/* Read logical block LBLK of INO into BUF (no checksum check). */
static errcode_t read_lblk(ext2_filsys fs, ext2_ino_t ino, blk64_t lblk,
			   char *buf, blk64_t *pblk)
{
	errcode_t err;

	err = ext2fs_bmap2(fs, ino, NULL, NULL, 0, lblk, NULL, pblk);
	if (err)
		return err;
	if (!*pblk || *pblk >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_BAD_BLOCK_NUM;
	return io_channel_read_blk64(fs->io, *pblk, 1, buf);
}

int dbg_dir_hash_alg(struct dbg_ctx *ctx, ext2_ino_t dir, int *alg,
		     int *flags)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode in;
	blk64_t pblk;
	char *buf = NULL;

	*alg = e2x_name_hash_version(fs, fs->super->s_def_hash_version);
	*flags = 0;
	if (ext2fs_read_inode(fs, dir, &in))
		return 1;
	if (in.i_flags & EXT4_CASEFOLD_FL)
		*flags = EXT4_CASEFOLD_FL;
	if (!(in.i_flags & EXT2_INDEX_FL) ||
	    (in.i_flags & EXT4_INLINE_DATA_FL))
		return 0;
	if (ext2fs_get_mem(fs->blocksize, &buf))
		return 1;
	if (!read_lblk(fs, dir, 0, buf, &pblk))
		*alg = e2x_name_hash_version(fs,
				(unsigned char)buf[DX_INFO_OFF + 4]);
	ext2fs_free_mem(&buf);
	return 0;
}

void dbg_name_hash(struct dbg_ctx *ctx, int alg, int flags, const char *name,
		   int len, uint32_t *hash, uint32_t *minor)
{
	struct e2x_name_policy p;

	e2x_name_policy_init(ctx->fs, flags, alg, &p);
	if (e2x_name_hash(&p, name, (unsigned int)len, hash, minor))
		*hash = *minor = 0;
}

struct htree_walk {
	struct dbg_ctx *ctx;
	ext2_ino_t dir;
	int alg, hflags;
	int levels;
	unsigned int bs;
	int errors;
};

static void dump_leaf(struct htree_walk *w, blk64_t lblk)
{
	ext2_filsys fs = w->ctx->fs;
	FILE *o = w->ctx->out;
	char *buf = malloc(w->bs);
	unsigned int off = 0, rec_len;
	blk64_t pblk = 0;
	errcode_t err;

	if (!buf)
		return;
	err = read_lblk(fs, w->dir, lblk, buf, &pblk);
	if (err) {
		fprintf(o, "  leaf block %llu unreadable: %s\n",
			(unsigned long long)lblk, error_message(err));
		w->errors++;
		goto out;
	}
	fprintf(o, "  Leaf block %llu (physical %llu):\n",
		(unsigned long long)lblk, (unsigned long long)pblk);
	while (off + 8 <= w->bs) {
		struct ext2_dir_entry *de = (void *)(buf + off);
		unsigned int len = ext2fs_dirent_name_len(de);
		uint32_t h, m;

		if (ext2fs_get_rec_len(fs, de, &rec_len) || rec_len < 8 ||
		    (rec_len & 3) ||
		    off + rec_len > w->bs || 8 + len > rec_len) {
			fprintf(o, "    bad record at offset %u\n", off);
			w->errors++;
			break;
		}
		if (de->inode) {
			dbg_name_hash(w->ctx, w->alg, w->hflags, de->name, len,
				      &h, &m);
			fprintf(o, "    %u 0x%08x-%08x (%u) ", de->inode, h, m,
				rec_len);
			dbg_print_name(o, de->name, len, 0);
			fputc('\n', o);
		}
		off += rec_len;
	}
out:
	free(buf);
}

/* Print the index entries at BUF+CL_OFF and walk their children. */
static void dump_index(struct htree_walk *w, char *buf, unsigned int cl_off,
		       int level)
{
	FILE *o = w->ctx->out;
	uint16_t limit, count;
	unsigned int i;

	if (cl_off + 4 > w->bs) {
		fprintf(o, "  index header out of the block\n");
		w->errors++;
		return;
	}
	memcpy(&limit, buf + cl_off, 2);
	memcpy(&count, buf + cl_off + 2, 2);
	limit = ext2fs_le16_to_cpu(limit);
	count = ext2fs_le16_to_cpu(count);
	fprintf(o, "Index level %d: count %u, limit %u\n", level, count,
		limit);
	if (count > limit || cl_off + (size_t)limit * 8 > w->bs) {
		fprintf(o, "  count/limit out of bounds\n");
		w->errors++;
		return;
	}
	for (i = 0; i < count; i++) {
		uint32_t hash, blk;

		memcpy(&hash, buf + cl_off + i * 8, 4);
		memcpy(&blk, buf + cl_off + i * 8 + 4, 4);
		hash = i ? ext2fs_le32_to_cpu(hash) : 0;
		blk = ext2fs_le32_to_cpu(blk);
		fprintf(o, "Entry #%u: hash 0x%08x, block %u\n", i, hash, blk);
		if (level < w->levels) {
			char *child = malloc(w->bs);
			blk64_t pblk;

			if (!child)
				return;
			if (read_lblk(w->ctx->fs, w->dir, blk, child, &pblk)) {
				fprintf(o, "  index block %u unreadable\n",
					blk);
				w->errors++;
			} else {
				dump_index(w, child, DX_NODE_CL_OFF,
					   level + 1);
			}
			free(child);
		} else {
			dump_leaf(w, blk);
		}
	}
}

int do_htree_dump(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct htree_walk w;
	struct ext2_inode_large in;
	ext2_ino_t dir;
	blk64_t pblk;
	char *buf = NULL;
	unsigned char *info;
	errcode_t err;
	int c, ret = 1;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "l")) != -1)
		if (c != 'l') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[optind], &dir) ||
	    dbg_read_inode(ctx, argv[0], dir, &in))
		return 1;
	if (!(in.i_flags & EXT2_INDEX_FL) ||
	    (in.i_flags & EXT4_INLINE_DATA_FL)) {
		dbg_error(ctx, argv[0], 0, "%s: not a hash-indexed directory",
			  argv[optind]);
		return 1;
	}
	memset(&w, 0, sizeof(w));
	w.ctx = ctx;
	w.dir = dir;
	w.bs = ctx->fs->blocksize;
	buf = malloc(w.bs);
	if (!buf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = read_lblk(ctx->fs, dir, 0, buf, &pblk);
	if (err) {
		dbg_error(ctx, argv[0], err, "reading the root block");
		goto out;
	}
	info = (unsigned char *)buf + DX_INFO_OFF;
	dbg_dir_hash_alg(ctx, dir, &w.alg, &w.hflags);
	w.levels = info[6];
	fprintf(ctx->out, "Root node (block 0, physical %llu):\n"
		"  Hash version: %u (%s)\n  Info length: %u\n"
		"  Indirect levels: %u\n  Flags: %u\n",
		(unsigned long long)pblk, info[4], e2p_hash2string(info[4]),
		info[5], info[6], info[7]);
	if (w.levels >= DX_MAX_LEVELS || info[5] < 8) {
		dbg_error(ctx, argv[0], 0, "corrupt root: %u levels, info "
			  "length %u", info[6], info[5]);
		goto out;
	}
	dump_index(&w, buf, DX_INFO_OFF + info[5], 0);
	ret = w.errors ? 1 : 0;
	if (w.errors)
		dbg_error(ctx, argv[0], 0, "%d problems in the index",
			  w.errors);
out:
	free(buf);
	return ret;
}

/* Hash names: e2p knows the signed three; ours add the rest. */
static const char *const hash_names[] = {
	[EXT2_HASH_LEGACY_UNSIGNED] = "legacy_unsigned",
	[EXT2_HASH_HALF_MD4_UNSIGNED] = "half_md4_unsigned",
	[EXT2_HASH_TEA_UNSIGNED] = "tea_unsigned",
	[EXT2_HASH_SIPHASH] = "siphash",
};

static int parse_hash_alg(const char *s)
{
	uint64_t v;
	size_t i;

	if (!dbg_parse_u64(s, EXT2_HASH_SIPHASH, &v))
		return (int)v;
	for (i = 0; i < sizeof(hash_names) / sizeof(hash_names[0]); i++)
		if (hash_names[i] && !strcmp(s, hash_names[i]))
			return (int)i;
	return e2p_string2hash((char *)s);
}

int do_dx_hash(struct dbg_ctx *ctx, int argc, char **argv)
{
	uint32_t seed[4] = { 0, 0, 0, 0 };
	struct e2x_name_policy p;
	uint32_t h = 0, m = 0;
	const struct ext2fs_nls_table *enc = NULL;
	int c, alg = EXT2_HASH_HALF_MD4, flags = 0;
	errcode_t err;
	uuid_t u;

	if (ctx->fs) {
		alg = e2x_name_hash_version(ctx->fs,
				ctx->fs->super->s_def_hash_version);
		memcpy(seed, ctx->fs->super->s_hash_seed, sizeof(seed));
		enc = ctx->fs->encoding;
	}
	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "h:s:c")) != -1) {
		switch (c) {
		case 'h':
			alg = parse_hash_alg(optarg);
			if (alg < 0) {
				dbg_error(ctx, argv[0], 0,
					  "%s: unknown hash algorithm",
					  optarg);
				return 1;
			}
			break;
		case 's':
			if (uuid_parse(optarg, u)) {
				dbg_error(ctx, argv[0], 0,
					  "%s: seed must be a UUID", optarg);
				return 1;
			}
			memcpy(seed, u, sizeof(seed));
			break;
		case 'c':
			flags = EXT4_CASEFOLD_FL;
			break;
		default:
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (flags && !enc) {
		dbg_error(ctx, argv[0], 0,
			  "-c needs an open file system with casefold");
		return 1;
	}
	memset(&p, 0, sizeof(p));
	p.version = alg;
	p.seed = seed;
	p.encoding = enc;
	p.casefold = !!flags;
	err = e2x_name_hash(&p, argv[optind], strlen(argv[optind]), &h, &m);
	if (err) {
		dbg_error(ctx, argv[0], err, "hashing %s", argv[optind]);
		return 1;
	}
	fprintf(ctx->out, "Hash of %s is 0x%08x (minor 0x%08x)\n",
		argv[optind], h, m);
	return 0;
}
