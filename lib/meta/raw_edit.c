/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * raw_edit.c --- deliberate raw damage for making test cases and for
 * repairs by hand (debugfs clri, zap_block, set_mmp_value): the named
 * bytes change and
 * nothing else does (no bitmap, counter or reference follows), but the
 * inode checksum and i_version stay right.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

errcode_t e2x_inode_clear(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	unsigned int isz;
	struct ext2_inode_large *in;
	uint64_t version;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	isz = EXT2_INODE_SIZE(fs->super);
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, in);
	if (err == EXT2_ET_INODE_CSUM_INVALID)
		err = 0;	/* clearing a damaged inode is the point */
	if (!err) {
		/* the change counter keeps counting through the wipe */
		version = e2x_fs_has_iversion(fs) ?
				  e2x_inode_get_version(in, isz) : 0;
		memset(in, 0, isz);
		e2x_inode_set_version(in, isz, version);
		err = e2x_write_inode(fs, ino, in);
	}
	free(in);
	return err;
}

/* Read block BLK into a new buffer (to free with ext2fs_free_mem). */
static errcode_t block_get(ext2_filsys fs, blk64_t blk, unsigned char **buf)
{
	errcode_t err;

	if (blk >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_BAD_BLOCK_NUM;
	err = ext2fs_get_mem(fs->blocksize, buf);
	if (!err)
		err = io_channel_read_blk64(fs->io, blk, 1, *buf);
	if (err)
		ext2fs_free_mem(buf);
	return err;
}

static errcode_t block_put(ext2_filsys fs, blk64_t blk, unsigned char **buf)
{
	errcode_t err = io_channel_write_blk64(fs->io, blk, 1, *buf);

	ext2fs_free_mem(buf);
	return err;
}

errcode_t e2x_block_fill(ext2_filsys fs, blk64_t blk, unsigned int offset,
			 unsigned int len, unsigned char pattern)
{
	unsigned char *buf = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (offset > fs->blocksize || len > fs->blocksize - offset)
		return EXT2_ET_INVALID_ARGUMENT;
	err = block_get(fs, blk, &buf);
	if (err)
		return err;
	memset(buf + offset, pattern, len);
	return block_put(fs, blk, &buf);
}

errcode_t e2x_block_flip_bit(ext2_filsys fs, blk64_t blk, unsigned int bit)
{
	unsigned char *buf = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (bit >= fs->blocksize * 8)
		return EXT2_ET_INVALID_ARGUMENT;
	err = block_get(fs, blk, &buf);
	if (err)
		return err;
	buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	return block_put(fs, blk, &buf);
}

errcode_t e2x_mmp_read(ext2_filsys fs, blk64_t blk, void **mmp)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (blk < fs->super->s_first_data_block)
		return EXT2_ET_MMP_BAD_BLOCK;
	return block_get(fs, blk, (unsigned char **)mmp);
}

errcode_t e2x_mmp_store(ext2_filsys fs, blk64_t blk, void *mmp, int flags)
{
	unsigned char *buf = mmp;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	if (blk < fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_MMP_BAD_BLOCK;
	err = ext2fs_mmp_csum_set(fs, mmp);
	if (err)
		return err;
	return io_channel_write_blk64(fs->io, blk, 1, buf);
}
