/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * group_meta.c --- a group's bitmaps and inode table moved to new blocks:
 * the repair for metadata a descriptor places out of its range or on top
 * of other metadata.  The new blocks are zeroed (a new inode table holds
 * no inodes; the caller recounts the bitmaps) and the descriptor, its
 * checksum and the superblock are updated in memory, written at close.
 * Also the resize inode, which reserves the room descriptors grow into:
 * cleared when it is not valid, and made again once the bitmaps are.
 */
#include "config.h"
#include <string.h>
#include <time.h>
#include "e2x.h"

/* Blocks group G's metadata of kind K may use: its own group first. */
static void meta_area(ext2_filsys fs, dgrp_t g, int wide, blk64_t *lo,
		      blk64_t *hi)
{
	if (wide) {
		*lo = fs->super->s_first_data_block;
		*hi = ext2fs_blocks_count(fs->super) - 1;
	} else {
		*lo = ext2fs_group_first_block2(fs, g);
		*hi = ext2fs_group_last_block2(fs, g);
	}
}

blk64_t e2x_group_meta_len(ext2_filsys fs, enum e2x_group_meta k)
{
	return k == E2X_GM_INODE_TABLE ? fs->inode_blocks_per_group : 1;
}

blk64_t e2x_group_meta_loc(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k)
{
	switch (k) {
	case E2X_GM_BLOCK_BITMAP:
		return ext2fs_block_bitmap_loc(fs, g);
	case E2X_GM_INODE_BITMAP:
		return ext2fs_inode_bitmap_loc(fs, g);
	default:
		return ext2fs_inode_table_loc(fs, g);
	}
}

void e2x_group_meta_set(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k,
			blk64_t blk)
{
	switch (k) {
	case E2X_GM_BLOCK_BITMAP:
		ext2fs_block_bitmap_loc_set(fs, g, blk);
		break;
	case E2X_GM_INODE_BITMAP:
		ext2fs_inode_bitmap_loc_set(fs, g, blk);
		break;
	default:
		ext2fs_inode_table_loc_set(fs, g, blk);
		break;
	}
}

/* Kind K's location in descriptor D (one of the backup's). */
static blk64_t desc_meta_loc(ext2_filsys fs, const struct ext4_group_desc *d,
			     enum e2x_group_meta k)
{
	int wide = EXT2_DESC_SIZE(fs->super) >= EXT2_MIN_DESC_SIZE_64BIT;

	switch (k) {
	case E2X_GM_BLOCK_BITMAP:
		return d->bg_block_bitmap |
		       (wide ? (blk64_t)d->bg_block_bitmap_hi << 32 : 0);
	case E2X_GM_INODE_BITMAP:
		return d->bg_inode_bitmap |
		       (wide ? (blk64_t)d->bg_inode_bitmap_hi << 32 : 0);
	default:
		return d->bg_inode_table |
		       (wide ? (blk64_t)d->bg_inode_table_hi << 32 : 0);
	}
}

errcode_t e2x_group_meta_backup_loc(ext2_filsys fs, dgrp_t g,
				    enum e2x_group_meta k, blk64_t *blk)
{
	unsigned int per = EXT2_DESC_PER_BLOCK(fs->super);
	blk64_t sb, at;
	char *buf;
	errcode_t err;

	if (fs->group_desc_count < 2 || !ext2fs_bg_has_super(fs, 1))
		return E2X_ERR_NOT_FOUND;
	sb = ext2fs_group_first_block2(fs, 1);
	/* libext2fs puts descriptor block 0 one further on for bigalloc
	 * with 1k blocks (block 0 is not the file system's): true of the
	 * primary only, the backup's follow its superblock */
	if (!ext2fs_has_feature_meta_bg(fs->super) ||
	    g / per < fs->super->s_first_meta_bg)
		at = sb + 1 + g / per;
	else
		at = ext2fs_descriptor_block_loc2(fs, sb, g / per);
	if (!at || at >= ext2fs_blocks_count(fs->super))
		return E2X_ERR_NOT_FOUND;
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	err = io_channel_read_blk64(fs->io, at, 1, buf);
	if (!err)
		*blk = desc_meta_loc(fs, (const struct ext4_group_desc *)
				     (buf + (g % per) * EXT2_DESC_SIZE(fs->super)),
				     k);
	ext2fs_free_mem(&buf);
	return err;
}

/* A run of LEN blocks in [LO, HI] whose clusters are all free in USED,
 * starting on a cluster boundary. */
static errcode_t find_run(ext2_filsys fs, blk64_t lo, blk64_t hi,
			  blk64_t len, ext2fs_block_bitmap used, blk64_t *ret)
{
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(fs);
	blk64_t b = (lo + ratio - 1) & ~(ratio - 1);

	for (; b <= hi && hi - b + 1 >= len; b += ratio) {
		if (ext2fs_test_block_bitmap_range2(used, b, len)) {
			*ret = b;
			return 0;
		}
	}
	return EXT2_ET_BLOCK_ALLOC_FAIL;
}

errcode_t e2x_group_meta_move(ext2_filsys fs, dgrp_t g,
			      enum e2x_group_meta k,
			      ext2fs_block_bitmap used, blk64_t *newblk)
{
	int flex = ext2fs_has_feature_flex_bg(fs->super);
	blk64_t len = e2x_group_meta_len(fs, k), lo, hi, b = 0;
	errcode_t err;

	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	meta_area(fs, g, 0, &lo, &hi);
	err = find_run(fs, lo, hi, len, used, &b);
	if (err && flex) {
		meta_area(fs, g, 1, &lo, &hi);
		err = find_run(fs, lo, hi, len, used, &b);
	}
	if (err)
		return err;
	/* marked first: a write guard may ask USED whose the blocks are */
	ext2fs_mark_block_bitmap_range2(used, b, len);
	err = ext2fs_zero_blocks2(fs, b, len, NULL, NULL);
	if (err) {
		ext2fs_unmark_block_bitmap_range2(used, b, len);
		return err;
	}
	e2x_group_meta_set(fs, g, k, b);
	if (k == E2X_GM_INODE_TABLE)
		ext2fs_bg_flags_set(fs, g, EXT2_BG_INODE_ZEROED);
	ext2fs_group_desc_csum_set(fs, g);
	ext2fs_mark_super_dirty(fs);
	*newblk = b;
	return 0;
}

errcode_t e2x_resize_inode_clear(ext2_filsys fs)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	uint64_t version;
	errcode_t err;

	err = ext2fs_get_memzero(isize > sizeof(*in) ? isize : sizeof(*in),
				 &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, EXT2_RESIZE_INO, in);
	if (err)
		goto out;
	version = e2x_inode_get_version(in, isize);
	memset(in, 0, isize);
	if (isize > EXT2_GOOD_OLD_INODE_SIZE)
		in->i_extra_isize = sizeof(*in) - EXT2_GOOD_OLD_INODE_SIZE;
	e2x_inode_set_version(in, isize, version);
	err = e2x_write_inode(fs, EXT2_RESIZE_INO, in);
out:
	ext2fs_free_mem(&in);
	return err;
}

/*
 * The cleared inode gets its double indirect block first, allocated and
 * counted before anything is written to it (a write guard may ask the
 * bitmap whose a block is); libext2fs then fills in the reserved blocks.
 */
static errcode_t resize_dind(ext2_filsys fs)
{
	unsigned long long apb = fs->blocksize / 4;
	struct ext2_inode in;
	blk64_t b;
	errcode_t err;

	err = ext2fs_read_inode(fs, EXT2_RESIZE_INO, &in);
	if (err || in.i_block[EXT2_DIND_BLOCK])
		return err;
	err = ext2fs_new_block2(fs, 0, NULL, &b);
	if (err)
		return err;
	ext2fs_block_alloc_stats2(fs, b, +1);
	err = ext2fs_zero_blocks2(fs, b, 1, NULL, NULL);
	if (err) {
		ext2fs_block_alloc_stats2(fs, b, -1);
		return err;
	}
	in.i_mode = LINUX_S_IFREG | 0600;
	in.i_links_count = 1;
	in.i_block[EXT2_DIND_BLOCK] = b;
	ext2fs_iblk_set(fs, &in, 1);
	in.i_ctime = fs->now ? fs->now : time(NULL);
	err = ext2fs_inode_size_set(fs, &in, (apb * apb + apb +
					      EXT2_NDIR_BLOCKS) *
						     fs->blocksize);
	if (!err)
		err = ext2fs_write_inode(fs, EXT2_RESIZE_INO, &in);
	return err;
}

errcode_t e2x_resize_inode_rebuild(ext2_filsys fs)
{
	errcode_t err;

	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	if (!fs->block_map)
		return EXT2_ET_NO_BLOCK_BITMAP;
	err = resize_dind(fs);
	return err ? err : ext2fs_create_resize_inode(fs);
}
