/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inode_cmds.c --- commands that show one inode: stat (every field), idump
 * (hex), blocks, ex (extent tree) and imap (where the inode lives).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "debugfs.h"

static const struct {
	uint32_t mask;
	const char *name;
} inode_flags[] = {
	{ EXT2_SECRM_FL, "secure_rm" },
	{ EXT2_UNRM_FL, "undelete" },
	{ EXT2_COMPR_FL, "compress" },
	{ EXT2_SYNC_FL, "sync" },
	{ EXT2_IMMUTABLE_FL, "immutable" },
	{ EXT2_APPEND_FL, "append" },
	{ EXT2_NODUMP_FL, "nodump" },
	{ EXT2_NOATIME_FL, "noatime" },
	{ EXT2_DIRTY_FL, "dirty" },
	{ EXT2_COMPRBLK_FL, "compr_blk" },
	{ EXT2_NOCOMPR_FL, "nocompr" },
	{ EXT4_ENCRYPT_FL, "encrypt" },
	{ EXT2_INDEX_FL, "index" },
	{ EXT2_IMAGIC_FL, "imagic" },
	{ EXT3_JOURNAL_DATA_FL, "journal_data" },
	{ EXT2_NOTAIL_FL, "notail" },
	{ EXT2_DIRSYNC_FL, "dirsync" },
	{ EXT2_TOPDIR_FL, "topdir" },
	{ EXT4_HUGE_FILE_FL, "huge_file" },
	{ EXT4_EXTENTS_FL, "extents" },
	{ EXT4_VERITY_FL, "verity" },
	{ EXT4_EA_INODE_FL, "ea_inode" },
	{ EXT4_SNAPFILE_FL, "snapfile" },
	{ EXT4_SNAPFILE_DELETED_FL, "snapfile_deleted" },
	{ EXT4_SNAPFILE_SHRUNK_FL, "snapfile_shrunk" },
	{ EXT4_INLINE_DATA_FL, "inline_data" },
	{ EXT4_PROJINHERIT_FL, "projinherit" },
	{ EXT4_CASEFOLD_FL, "casefold" },
};

static void print_flags(FILE *o, uint32_t flags)
{
	uint32_t left = flags;
	const char *sep = " (";
	size_t i;

	fprintf(o, "0x%08x", flags);
	for (i = 0; i < sizeof(inode_flags) / sizeof(inode_flags[0]); i++)
		if (flags & inode_flags[i].mask) {
			left &= ~inode_flags[i].mask;
			fprintf(o, "%s%s", sep, inode_flags[i].name);
			sep = " ";
		}
	if (left)
		fprintf(o, "%s0x%x", sep, left);
	if (flags)
		fputc(')', o);
}

static void print_one_time(FILE *o, const char *label, uint32_t sec,
			   uint32_t extra, int ext)
{
	uint32_t ns;
	int64_t t = dbg_decode_time(sec, extra, ext, &ns);
	char buf[40];

	dbg_format_time(t, buf, sizeof(buf));
	if (ext)
		fprintf(o, "%7s: 0x%08x:%08x -- %s.%09u\n", label, sec, extra,
			buf, ns);
	else
		fprintf(o, "%7s: 0x%08x -- %s\n", label, sec, buf);
}

static void print_times(FILE *o, ext2_filsys fs,
			const struct ext2_inode_large *in)
{
	print_one_time(o, "ctime", in->i_ctime, in->i_ctime_extra,
		       dbg_has_extra(fs, in, DBG_EXTRA_END(i_ctime_extra)));
	print_one_time(o, "atime", in->i_atime, in->i_atime_extra,
		       dbg_has_extra(fs, in, DBG_EXTRA_END(i_atime_extra)));
	print_one_time(o, "mtime", in->i_mtime, in->i_mtime_extra,
		       dbg_has_extra(fs, in, DBG_EXTRA_END(i_mtime_extra)));
	if (dbg_has_extra(fs, in, DBG_EXTRA_END(i_crtime)))
		print_one_time(o, "crtime", in->i_crtime, in->i_crtime_extra,
			       dbg_has_extra(fs, in,
					     DBG_EXTRA_END(i_crtime_extra)));
	if (in->i_dtime)
		print_one_time(o, "dtime", in->i_dtime, 0, 0);
}

/* Collects physically contiguous runs of a block-mapped file. */
struct run_list {
	FILE *o;
	int n;
	e2_blkcnt_t lstart;
	blk64_t pstart, count;
};

static void run_flush(struct run_list *r)
{
	if (!r->count)
		return;
	fprintf(r->o, "%s(%lld", r->n++ ? ", " : "", (long long)r->lstart);
	if (r->count > 1)
		fprintf(r->o, "-%lld", (long long)(r->lstart + r->count - 1));
	fprintf(r->o, "):%llu", (unsigned long long)r->pstart);
	if (r->count > 1)
		fprintf(r->o, "-%llu",
			(unsigned long long)(r->pstart + r->count - 1));
	r->count = 0;
}

static int run_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		     blk64_t ref_blk, int ref_off, void *priv)
{
	struct run_list *r = priv;
	static const char *const meta[] = { "IND", "DIND", "TIND" };

	if (lblk < 0) {
		run_flush(r);
		fprintf(r->o, "%s(%s):%llu", r->n++ ? ", " : "",
			lblk >= -3 ? meta[-lblk - 1] : "?",
			(unsigned long long)*blocknr);
		return 0;
	}
	if (r->count && lblk == r->lstart + (e2_blkcnt_t)r->count &&
	    *blocknr == r->pstart + r->count) {
		r->count++;
		return 0;
	}
	run_flush(r);
	r->lstart = lblk;
	r->pstart = *blocknr;
	r->count = 1;
	return 0;
}

static void print_extent_list(struct dbg_ctx *ctx, ext2_ino_t ino,
			      struct ext2_inode_large *inode)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT, n = 0;
	FILE *o = ctx->out;

	err = ext2fs_extent_open2(ctx->fs, ino, (struct ext2_inode *)inode,
				  &h);
	if (err) {
		fprintf(o, "(extent tree unreadable: %s)\n",
			error_message(err));
		return;
	}
	while (!(err = ext2fs_extent_get(h, op, &e))) {
		op = EXT2_EXTENT_NEXT;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			struct ext2_extent_info info;

			if (!(e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT) &&
			    !ext2fs_extent_get_info(h, &info))
				fprintf(o, "%s(ETB%d):%llu", n++ ? ", " : "",
					info.curr_level,
					(unsigned long long)e.e_pblk);
			continue;
		}
		fprintf(o, "%s(%llu", n++ ? ", " : "",
			(unsigned long long)e.e_lblk);
		if (e.e_len > 1)
			fprintf(o, "-%llu",
				(unsigned long long)(e.e_lblk + e.e_len - 1));
		fprintf(o, "%s):%llu", (e.e_flags & EXT2_EXTENT_FLAGS_UNINIT) ?
			"[u]" : "", (unsigned long long)e.e_pblk);
		if (e.e_len > 1)
			fprintf(o, "-%llu",
				(unsigned long long)(e.e_pblk + e.e_len - 1));
	}
	fputc('\n', o);
	if (err != EXT2_ET_EXTENT_NO_NEXT)
		fprintf(o, "(extent tree walk stopped: %s)\n",
			error_message(err));
	ext2fs_extent_free(h);
}

void dbg_print_block_list(struct dbg_ctx *ctx, ext2_ino_t ino,
			  struct ext2_inode_large *inode)
{
	struct run_list r = { ctx->out, 0, 0, 0, 0 };
	errcode_t err;

	if (inode->i_flags & EXT4_EXTENTS_FL) {
		fputs("EXTENTS:\n", ctx->out);
		print_extent_list(ctx, ino, inode);
		return;
	}
	fputs("BLOCKS:\n", ctx->out);
	err = ext2fs_block_iterate3(ctx->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				    run_block, &r);
	run_flush(&r);
	fputc('\n', ctx->out);
	if (err)
		fprintf(ctx->out, "(block map walk stopped: %s)\n",
			error_message(err));
}

static int is_fast_symlink(const struct ext2_inode_large *in)
{
	return LINUX_S_ISLNK(in->i_mode) &&
	       !(in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL)) &&
	       in->i_size < sizeof(in->i_block) && !in->i_blocks;
}

/* Bytes stored inline (i_block plus system.data), through libe2x. */
static errcode_t inline_size(ext2_filsys fs, ext2_ino_t ino, size_t *sz)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *full;
	errcode_t err;

	full = calloc(1, isz < sizeof(*full) ? sizeof(*full) : isz);
	if (!full)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, full);
	if (!err)
		err = e2x_inline_size(fs, ino, full, sz);
	free(full);
	return err;
}

static void print_data(struct dbg_ctx *ctx, ext2_ino_t ino,
		       struct ext2_inode_large *in)
{
	FILE *o = ctx->out;
	size_t sz = 0;
	errcode_t err;

	if (in->i_flags & EXT4_INLINE_DATA_FL) {
		err = inline_size(ctx->fs, ino, &sz);
		if (err)
			fprintf(o, "Inline data size: unreadable (%s)\n",
				error_message(err));
		else
			fprintf(o, "Inline data size: %zu\n", sz);
		return;
	}
	if (is_fast_symlink(in)) {
		fputs("Fast link dest: \"", o);
		dbg_print_name(o, (const char *)in->i_block,
			       strnlen((const char *)in->i_block,
				       in->i_size), 0);
		fputs("\"\n", o);
		return;
	}
	if (LINUX_S_ISCHR(in->i_mode) || LINUX_S_ISBLK(in->i_mode)) {
		uint32_t d0 = in->i_block[0], d1 = in->i_block[1];

		if (d0)
			fprintf(o, "Device major/minor number: %02u:%02u "
				"(old encoding)\n", (d0 >> 8) & 255, d0 & 255);
		else
			fprintf(o, "Device major/minor number: %02u:%02u\n",
				(d1 & 0xfff00) >> 8,
				(d1 & 0xff) | ((d1 >> 12) & 0xfff00));
		return;
	}
	if (LINUX_S_ISFIFO(in->i_mode) || LINUX_S_ISSOCK(in->i_mode))
		return;
	dbg_print_block_list(ctx, ino, in);
}

/* Verify the checksum over the whole on-disk inode. */
static int csum_ok(ext2_filsys fs, ext2_ino_t ino)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *full = calloc(1, isz);
	int ok = 0;

	if (full && !ext2fs_read_inode2(fs, ino, (struct ext2_inode *)full,
					isz, READ_INODE_NOCSUM))
		ok = ext2fs_inode_csum_verify(fs, ino, full);
	free(full);
	return ok;
}

static void print_inode(struct dbg_ctx *ctx, ext2_ino_t ino,
			struct ext2_inode_large *in)
{
	ext2_filsys fs = ctx->fs;
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	uint64_t ver = e2x_inode_get_version(in, isz);
	FILE *o = ctx->out;
	uint32_t csum;

	fprintf(o, "Inode: %u   Type: %s   Mode: %04o   Flags: ", ino,
		dbg_mode_type(in->i_mode), in->i_mode & 07777);
	print_flags(o, in->i_flags);
	fprintf(o, "\nGeneration: %u   Version: 0x%08x:%08x\n",
		in->i_generation, (uint32_t)(ver >> 32), (uint32_t)ver);
	fprintf(o, "User: %u   Group: %u", inode_uid(*in), inode_gid(*in));
	if (dbg_has_extra(fs, in, DBG_EXTRA_END(i_projid)))
		fprintf(o, "   Project: %u", in->i_projid);
	fprintf(o, "   Size: %llu\n",
		(unsigned long long)EXT2_I_SIZE(in));
	fprintf(o, "File ACL: %llu\n", (unsigned long long)
		(in->i_file_acl | ((uint64_t)in->osd2.linux2.l_i_file_acl_high
				   << 32)));
	fprintf(o, "Links: %u   Blockcount: %llu\n", in->i_links_count,
		(unsigned long long)ext2fs_get_stat_i_blocks(
			fs, (struct ext2_inode *)in));
	print_times(o, fs, in);
	if (isz > EXT2_GOOD_OLD_INODE_SIZE)
		fprintf(o, "Size of extra inode fields: %u\n",
			in->i_extra_isize);
	if (ext2fs_has_feature_metadata_csum(fs->super)) {
		csum = in->osd2.linux2.l_i_checksum_lo;
		if (dbg_has_extra(fs, in, DBG_EXTRA_END(i_checksum_hi)))
			csum |= (uint32_t)in->i_checksum_hi << 16;
		fprintf(o, "Inode checksum: 0x%08x%s\n", csum,
			csum_ok(fs, ino) ? "" : " (does not match)");
	}
	dbg_print_xattrs(ctx, NULL, ino, 0);
	print_data(ctx, ino, in);
}

int do_stat(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large in;
	ext2_ino_t ino;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	/* libext2fs caches an inode written in this session with its old
	 * checksum: read it back from the disk copy. */
	ext2fs_flush_icache(ctx->fs);
	if (dbg_read_inode(ctx, argv[0], ino, &in))
		return 1;
	print_inode(ctx, ino, &in);
	return 0;
}

/* Hex dump with offsets, 16 bytes a line, collapsing repeated lines. */
void dbg_hexdump(FILE *o, const unsigned char *buf, size_t len,
		 uint64_t base)
{
	size_t i, j;
	int star = 0;

	for (i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;

		if (i && i + 16 <= len && !memcmp(buf + i, buf + i - 16, 16)) {
			if (!star)
				fputs("*\n", o);
			star = 1;
			continue;
		}
		star = 0;
		fprintf(o, "%06llx  ", (unsigned long long)(base + i));
		for (j = 0; j < 16; j++) {
			if (j < n)
				fprintf(o, "%02x", buf[i + j]);
			else
				fputs("  ", o);
			if (j & 1)
				fputc(' ', o);
		}
		fputc(' ', o);
		for (j = 0; j < n; j++)
			fputc(buf[i + j] >= 0x20 && buf[i + j] < 0x7f ?
			      buf[i + j] : '.', o);
		fputc('\n', o);
	}
	if (star)
		fprintf(o, "%06llx\n", (unsigned long long)(base + len));
}

int do_idump(struct dbg_ctx *ctx, int argc, char **argv)
{
	unsigned int isz = EXT2_INODE_SIZE(ctx->fs->super);
	unsigned char *buf = NULL;
	size_t off = 0, len = isz;
	ext2_ino_t ino;
	errcode_t err;
	int c, part = 0, ret = 1;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "bex")) != -1) {
		if (c == '?' || part) {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		part = c;
	}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[optind], &ino))
		return 1;
	buf = calloc(1, isz);
	if (!buf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = ext2fs_read_inode_full(ctx->fs, ino, (struct ext2_inode *)buf,
				     isz);
	if (err) {
		dbg_error(ctx, argv[0], err, "reading inode %u", ino);
		goto out;
	}
	if (part == 'b') {
		off = offsetof(struct ext2_inode, i_block);
		len = sizeof(((struct ext2_inode *)0)->i_block);
	} else if (part == 'e' || part == 'x') {
		unsigned int extra = ((struct ext2_inode_large *)buf)
					     ->i_extra_isize;

		if (isz <= EXT2_GOOD_OLD_INODE_SIZE) {
			dbg_error(ctx, argv[0], 0,
				  "inodes are %u bytes: no extra space", isz);
			goto out;
		}
		off = EXT2_GOOD_OLD_INODE_SIZE;
		if (part == 'x') {
			if (EXT2_GOOD_OLD_INODE_SIZE + extra + 4 > isz) {
				dbg_error(ctx, argv[0], 0,
					  "no room for in-inode xattrs "
					  "(i_extra_isize %u)", extra);
				goto out;
			}
			off += extra;
		}
		len = isz - off;
	}
	dbg_hexdump(ctx->out, buf + off, len, off);
	ret = 0;
out:
	free(buf);
	return ret;
}

/* blocks: every block of the file as libext2fs walks it (map and tree
 * blocks included, in walk order), numbers separated by spaces, as the
 * reference prints them for scripts. */
static int print_one_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
			   blk64_t ref_blk, int ref_off, void *priv)
{
	(void)fs;
	(void)lblk;
	(void)ref_blk;
	(void)ref_off;
	fprintf(priv, "%llu ", (unsigned long long)*blocknr);
	return 0;
}

int do_blocks(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large in;
	ext2_ino_t ino;
	errcode_t err;
	int i, ret = 0;

	if (argc < 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (dbg_resolve(ctx, argv[0], argv[i], &ino) ||
		    dbg_read_inode(ctx, argv[0], ino, &in)) {
			ret = 1;
			continue;
		}
		err = 0;
		if (!(in.i_flags & EXT4_INLINE_DATA_FL) &&
		    !is_fast_symlink(&in))
			err = ext2fs_block_iterate3(ctx->fs, ino,
						    BLOCK_FLAG_READ_ONLY, NULL,
						    print_one_block, ctx->out);
		fputc('\n', ctx->out);
		if (err) {
			dbg_error(ctx, argv[0], err, "%s", argv[i]);
			ret = 1;
		}
	}
	return ret;
}

/* ex: the extent tree, one line per node entry with its level. */
int do_ex(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large in;
	ext2_extent_handle_t h = NULL;
	struct ext2fs_extent e;
	struct ext2_extent_info info;
	ext2_ino_t ino;
	errcode_t err;
	int c, only_nodes = 0, only_leaves = 0, op = EXT2_EXTENT_ROOT;
	FILE *o = ctx->out;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "nl")) != -1) {
		if (c == 'n')
			only_nodes = 1;
		else if (c == 'l')
			only_leaves = 1;
		else {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (!only_nodes && !only_leaves)
		only_nodes = only_leaves = 1;
	if (dbg_resolve(ctx, argv[0], argv[optind], &ino) ||
	    dbg_read_inode(ctx, argv[0], ino, &in))
		return 1;
	if (!(in.i_flags & EXT4_EXTENTS_FL)) {
		dbg_error(ctx, argv[0], 0, "%s: inode %u has no extent tree",
			  argv[optind], ino);
		return 1;
	}
	err = ext2fs_extent_open2(ctx->fs, ino, (struct ext2_inode *)&in, &h);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[optind]);
		return 1;
	}
	fprintf(o, "Level Entries %14s %20s %8s Flags\n", "Logical",
		"Physical", "Length");
	while (!(err = ext2fs_extent_get(h, op, &e))) {
		int leaf = !!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF);

		op = EXT2_EXTENT_NEXT;
		if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if ((leaf && !only_leaves) || (!leaf && !only_nodes))
			continue;
		if (ext2fs_extent_get_info(h, &info))
			break;
		fprintf(o, "%2d/%2d %3d/%3d %6llu - %6llu %9llu",
			info.curr_level, info.max_depth, info.curr_entry,
			info.num_entries, (unsigned long long)e.e_lblk,
			(unsigned long long)(e.e_lblk + (e.e_len ? e.e_len - 1
							 : 0)),
			(unsigned long long)e.e_pblk);
		if (leaf && e.e_len)
			fprintf(o, " - %9llu",
				(unsigned long long)(e.e_pblk + e.e_len - 1));
		else
			fprintf(o, "   %9s", "");
		fprintf(o, " %8u %s%s\n", e.e_len, leaf ? "leaf" : "index",
			(e.e_flags & EXT2_EXTENT_FLAGS_UNINIT) ? " uninit" :
			"");
	}
	ext2fs_extent_free(h);
	if (err && err != EXT2_ET_EXTENT_NO_NEXT) {
		dbg_error(ctx, argv[0], err, "walking the extent tree");
		return 1;
	}
	return 0;
}

int do_imap(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_filsys fs = ctx->fs;
	ext2_ino_t ino;
	dgrp_t g;
	uint64_t off;
	blk64_t blk;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	g = (ino - 1) / fs->super->s_inodes_per_group;
	off = (uint64_t)((ino - 1) % fs->super->s_inodes_per_group) *
	      EXT2_INODE_SIZE(fs->super);
	blk = ext2fs_inode_table_loc(fs, g);
	if (!blk || blk >= ext2fs_blocks_count(fs->super)) {
		dbg_error(ctx, argv[0], 0, "group %u has no valid inode table",
			  g);
		return 1;
	}
	fprintf(ctx->out, "Inode %u is part of block group %u\n"
		"\tlocated at block %llu, offset 0x%04llx\n", ino, g,
		(unsigned long long)(blk + off / fs->blocksize),
		(unsigned long long)(off % fs->blocksize));
	return 0;
}
