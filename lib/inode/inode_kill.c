/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inode_kill.c --- free an inode where it stands (debugfs kill_file):
 * blocks, itree, attribute block reference, bitmap and counters; and take
 * a deleted inode back into use (debugfs undelete).
 */
#include "config.h"
#include <stdlib.h>
#include <time.h>
#include "e2x.h"

/* Drop the inode's reference to its attribute block; free it at zero. */
static errcode_t put_ea_block(ext2_filsys fs, ext2_ino_t ino,
			      struct ext2_inode_large *in)
{
	blk64_t blk = ext2fs_file_acl_block(fs, (struct ext2_inode *)in);
	__u32 count = 0;
	errcode_t err;

	if (!blk)
		return 0;
	if (blk < fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(fs->super))
		return E2X_ERR_CORRUPT;
	err = ext2fs_adjust_ea_refcount3(fs, blk, NULL, -1, &count, ino);
	if (err)
		return err;
	if (count == 0) {
		ext2fs_block_alloc_stats2(fs, blk, -1);
		ext2fs_iblk_sub_blocks(fs, (struct ext2_inode *)in, 1);
	}
	ext2fs_file_acl_block_set(fs, (struct ext2_inode *)in, 0);
	return 0;
}

/* Give back everything an inode holds outside itself: its itree (when a
 * directory), its blocks and its attribute-block reference.  IN is
 * changed in memory only; the caller writes it. */
errcode_t e2x_inode_release_storage(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in,
				    int itree_flags)
{
	errcode_t err = 0;

	if (LINUX_S_ISDIR(in->i_mode) && e2x_itree_present(fs, in))
		err = e2x_itree_drop(fs, ino, in, itree_flags);
	if (!err && ext2fs_inode_has_valid_blocks2(fs, (void *)in))
		err = e2x_free_file_blocks(fs, ino, in, 0);
	if (!err)
		err = put_ea_block(fs, ino, in);
	return err;
}

/* A user inode of FS, with its bitmaps loaded. */
static errcode_t check_args(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ino < EXT2_FIRST_INODE(fs->super) ||
	    ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	if (!fs->block_map || !fs->inode_map)
		return EXT2_ET_NO_BLOCK_BITMAP;
	return 0;
}

errcode_t e2x_inode_kill(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	unsigned int isz;
	struct ext2_inode_large *in;
	errcode_t err;
	int isdir;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = check_args(fs, ino, flags & ~E2X_INODE_KILL_UNLINK);
	if (err)
		return err;
	isz = EXT2_INODE_SIZE(fs->super);
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, in);
	if (err)
		goto out;
	isdir = LINUX_S_ISDIR(in->i_mode);
	err = e2x_inode_release_storage(fs, ino, in, E2X_ITREE_FORCE);
	if (err)
		goto out;
	in->i_dtime = (uint32_t)e2x_now(fs);
	if (flags & E2X_INODE_KILL_UNLINK)
		in->i_links_count = 0;
	err = e2x_write_inode(fs, ino, in);
	if (!err && ext2fs_test_inode_bitmap2(fs->inode_map, ino))
		ext2fs_inode_alloc_stats2(fs, ino, -1, isdir);
out:
	free(in);
	return err;
}

/* ---- undelete: the way back, while the block map survives ---------- */

/* Mark one block of a deleted inode in use again, unless it is already
 * (then it belongs to someone else now). */
static int mark_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		    blk64_t ref_blk, int ref_offset, void *priv)
{
	(void)blockcnt;
	(void)ref_blk;
	(void)ref_offset;
	(void)priv;
	if (*blocknr >= fs->super->s_first_data_block &&
	    *blocknr < ext2fs_blocks_count(fs->super) &&
	    !ext2fs_test_block_bitmap2(fs->block_map, *blocknr))
		ext2fs_block_alloc_stats2(fs, *blocknr, +1);
	return 0;
}

static errcode_t mark_storage(ext2_filsys fs, ext2_ino_t ino,
			      struct ext2_inode_large *in)
{
	blk64_t acl = ext2fs_file_acl_block(fs, (struct ext2_inode *)in);
	errcode_t err = 0;

	if (ext2fs_inode_has_valid_blocks2(fs, (struct ext2_inode *)in))
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY,
					    NULL, mark_one, NULL);
	if (!err && acl)
		mark_one(fs, &acl, 0, 0, 0, NULL);
	return err;
}

errcode_t e2x_inode_undelete(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	unsigned int isz;
	struct ext2_inode_large *in;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = check_args(fs, ino, flags);
	if (err)
		return err;
	if (ext2fs_test_inode_bitmap2(fs->inode_map, ino))
		return E2X_ERR_EXISTS;
	isz = EXT2_INODE_SIZE(fs->super);
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, in);
	if (!err)
		err = mark_storage(fs, ino, in);
	if (!err) {
		ext2fs_inode_alloc_stats2(fs, ino, +1,
					  LINUX_S_ISDIR(in->i_mode));
		in->i_dtime = 0;
		err = e2x_write_inode(fs, ino, in);
	}
	free(in);
	return err;
}
