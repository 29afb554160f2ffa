/*
 * inode_undelete.c --- take a deleted inode back into use where it lies
 * (debugfs undelete): its blocks (mapping blocks and attribute block
 * included) and its bit marked in use again, counters following, dtime
 * cleared.  Whether the blocks still hold its data is the caller's bet;
 * a block that is in use again already is left to its new owner.
 */
#include "config.h"
#include <stdlib.h>
#include "e2x.h"

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
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ino < EXT2_FIRST_INODE(fs->super) ||
	    ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	if (!fs->block_map || !fs->inode_map)
		return EXT2_ET_NO_BLOCK_BITMAP;
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
