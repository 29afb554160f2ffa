/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table_find.c --- an inode table its descriptor lost, found again where
 * it must be when no backup descriptor says (a file system of one group
 * has none): mke2fs places the table behind the inode bitmaps, and the
 * inodes read there prove it (their checksums, which cover the inode
 * number; without checksums, the root directory of group 0 and inodes
 * that all look whole).  Read-only; super.c decides what to do with it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "csum.h"

/* Table blocks read to judge a candidate (their inodes are sampled). */
#define TF_SAMPLE_BLOCKS 8

/* Where mke2fs would have put group G's table: behind the inode bitmaps
 * of its flex group (one slot per group), next to another group's table
 * of the flex group, or right behind its own inode bitmap.  The number of
 * candidates in OUT. */
static int candidates(ext2_filsys fs, dgrp_t g, blk64_t out[4])
{
	blk64_t ipb = fs->inode_blocks_per_group, ib, it;
	int n = 0;

	if (ext2fs_has_feature_flex_bg(fs->super) &&
	    fs->super->s_log_groups_per_flex < 31) {
		dgrp_t fbs = (dgrp_t)1 << fs->super->s_log_groups_per_flex;
		dgrp_t first = g - g % fbs, other;

		ib = ext2fs_inode_bitmap_loc(fs, first);
		if (ib)
			out[n++] = ib + fbs + (blk64_t)(g - first) * ipb;
		other = g + 1 < fs->group_desc_count && g + 1 - first < fbs ?
				g + 1 : (g > first ? g - 1 : g);
		it = other != g ? ext2fs_inode_table_loc(fs, other) : 0;
		if (it && other > g && it > ipb)
			out[n++] = it - ipb;
		else if (it && other < g)
			out[n++] = it + ipb;
	}
	ib = ext2fs_inode_bitmap_loc(fs, g);
	if (ib)
		out[n++] = ib + 1;
	return n;
}

/* An inode that is neither zeros nor junk by its looks (no checksum). */
static int looks_whole(const struct ext2_inode_large *in)
{
	uint16_t type = in->i_mode & LINUX_S_IFMT;

	return in->i_links_count && !in->i_dtime &&
	       (type == LINUX_S_IFREG || type == LINUX_S_IFDIR ||
		type == LINUX_S_IFLNK || type == LINUX_S_IFCHR ||
		type == LINUX_S_IFBLK || type == LINUX_S_IFIFO ||
		type == LINUX_S_IFSOCK);
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	return !n || (!c[0] && !memcmp(c, c + 1, n - 1));
}

/*
 * Do the blocks from B hold group G's inodes?  With metadata checksums:
 * some inodes there verify as this group's and most written ones do.
 * Without: group 0's inode 2 is a directory and every written inode
 * sampled looks whole.
 */
static int holds_group_inodes(ext2_filsys fs, dgrp_t g, blk64_t b)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	unsigned int per = fs->blocksize / isize;
	blk64_t nblk = fs->inode_blocks_per_group;
	int csum = ext2fs_has_feature_metadata_csum(fs->super);
	unsigned int good = 0, bad = 0, i;
	int root_dir = 0;
	char *buf;
	blk64_t k;

	if (nblk > TF_SAMPLE_BLOCKS)
		nblk = TF_SAMPLE_BLOCKS;
	buf = malloc(fs->blocksize);
	if (!buf)
		return 0;
	for (k = 0; k < nblk; k++) {
		if (io_channel_read_blk64(fs->io, b + k, 1, buf))
			break;
		for (i = 0; i < per; i++) {
			struct ext2_inode_large *in = (void *)(buf + i * isize);
			ext2_ino_t ino = g * fs->super->s_inodes_per_group +
					 k * per + i + 1;

			if (all_zero(in, isize))
				continue;
			if (csum ? fsck_inode_csum_ok(fs, ino, in, isize) :
				   looks_whole(in))
				good++;
			else if (!csum || in->i_links_count)
				bad++;
			if (ino == EXT2_ROOT_INO &&
			    LINUX_S_ISDIR(in->i_mode) && in->i_links_count >= 2)
				root_dir = 1;
		}
	}
	free(buf);
	if (csum)
		return good >= 2 && good >= 4 * bad;
	return bad == 0 && good >= 2 && (g != 0 || root_dir);
}

int fsck_itable_find(struct fsck_ctx *ctx, dgrp_t g, blk64_t lo, blk64_t hi,
		     blk64_t *where)
{
	ext2_filsys fs = ctx->fs;
	blk64_t c[4], ipb = fs->inode_blocks_per_group;
	int n = candidates(fs, g, c), i;

	for (i = 0; i < n; i++) {
		if (c[i] < lo || c[i] > hi || hi - c[i] < ipb - 1 ||
		    c[i] == ext2fs_inode_table_loc(fs, g))
			continue;
		if (holds_group_inodes(fs, g, c[i])) {
			*where = c[i];
			return 1;
		}
	}
	return 0;
}
