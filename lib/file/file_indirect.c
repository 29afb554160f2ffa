/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file_indirect.c --- the indirect block map of ext2/ext3-style files:
 * which inodes use it, how far it reaches, and a new block for a hole.
 * Such files stay indirect-mapped, as the kernel keeps them.
 */
#include "config.h"
#include <string.h>
#include "file/file-int.h"

int e2x_file_is_indirect(ext2_filsys fs,
			 const struct ext2_inode_large *inode)
{
	size_t i;

	if (inode->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL))
		return 0;
	if (!ext2fs_has_feature_extents(fs->super))
		return 1;
	for (i = 0; i < EXT2_N_BLOCKS; i++)
		if (inode->i_block[i])
			return 1;
	return 0;
}

/* Logical blocks the map reaches: 12 + n + n^2 + n^3, n = bs / 4. */
static uint64_t indirect_max_blocks(ext2_filsys fs)
{
	uint64_t n = fs->blocksize / sizeof(__u32);
	uint64_t max = EXT2_NDIR_BLOCKS + n + n * n + n * n * n;

	return max < (1ULL << 32) ? max : (1ULL << 32);
}

uint64_t e2x_indirect_max_bytes(ext2_filsys fs)
{
	return indirect_max_blocks(fs) * fs->blocksize;
}

errcode_t e2x_indirect_alloc_block(ext2_filsys fs, ext2_ino_t ino,
				   struct ext2_inode_large *inode,
				   blk64_t lblk, blk64_t *pblk)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*pblk = 0;
	if (!e2x_file_is_indirect(fs, inode))
		return E2X_ERR_UNSUPPORTED;
	if (lblk >= indirect_max_blocks(fs))
		return EXT2_ET_FILE_TOO_BIG;
	/* libext2fs picks each block next to the one before it in the
	 * same (indirect) block, zeroes it and counts it in i_blocks. */
	return ext2fs_bmap2(fs, ino, (struct ext2_inode *)inode, NULL,
			    BMAP_ALLOC, lblk, NULL, pblk);
}
