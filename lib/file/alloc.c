/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * alloc.c --- blocks for a file's or directory's content: lookup, mapping
 * of a new block through the extent tree, freeing a tail; bigalloc aware.
 *
 * On bigalloc a logical cluster maps to one physical cluster, block offsets
 * within the cluster equal, and i_blocks counts every cluster in full.
 */
#include "config.h"
#include <string.h>
#include "file/file-int.h"

static struct ext2_inode *small(struct ext2_inode_large *inode)
{
	return (struct ext2_inode *)inode;
}

errcode_t e2x_extent_root_init(ext2_filsys fs,
			       struct ext2_inode_large *inode)
{
	struct ext3_extent_header eh;
	size_t i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!ext2fs_has_feature_extents(fs->super))
		return E2X_ERR_UNSUPPORTED;
	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return E2X_ERR_HAS_BLOCKS;
	if (inode->i_flags & EXT4_EXTENTS_FL) {
		memcpy(&eh, inode->i_block, sizeof(eh));
		if (ext2fs_le16_to_cpu(eh.eh_magic) == EXT3_EXT_MAGIC &&
		    eh.eh_entries == 0)
			goto init;
	}
	for (i = 0; i < EXT2_N_BLOCKS; i++)
		if (inode->i_block[i])
			return E2X_ERR_HAS_BLOCKS;
init:
	memset(inode->i_block, 0, sizeof(inode->i_block));
	memset(&eh, 0, sizeof(eh));
	eh.eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	eh.eh_max = ext2fs_cpu_to_le16((sizeof(inode->i_block) - sizeof(eh)) /
				       sizeof(struct ext3_extent));
	memcpy(inode->i_block, &eh, sizeof(eh));
	inode->i_flags |= EXT4_EXTENTS_FL;
	return 0;
}

errcode_t e2x_map_file_block(ext2_filsys fs, ext2_ino_t ino,
			     struct ext2_inode_large *inode, blk64_t lblk,
			     blk64_t *pblk, int *flags)
{
	int ret_flags = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*pblk = 0;
	if (flags)
		*flags = 0;
	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return 0;
	err = ext2fs_bmap2(fs, ino, small(inode), NULL, 0, lblk, &ret_flags,
			   pblk);
	if (err)
		return err;
	if (*pblk && (*pblk < fs->super->s_first_data_block ||
		      *pblk >= ext2fs_blocks_count(fs->super)))
		return E2X_ERR_CORRUPT;
	if (flags && (ret_flags & BMAP_RET_UNINIT))
		*flags = E2X_MAP_UNINIT;
	return 0;
}

/* Put the mapping LBLK -> PBLK into the extent tree. */
static errcode_t extent_map(ext2_filsys fs, ext2_ino_t ino,
			    struct ext2_inode_large *inode, blk64_t lblk,
			    blk64_t pblk)
{
	ext2_extent_handle_t h = NULL;
	errcode_t err;

	err = ext2fs_extent_open2(fs, ino, small(inode), &h);
	if (err)
		return err;
	err = ext2fs_extent_set_bmap(h, lblk, pblk, 0);
	ext2fs_extent_free(h);
	return err;
}

/* A block for LBLK: in the physical cluster its logical cluster already
 * uses, else in a newly allocated cluster near the file (*fresh set). */
static errcode_t pick_block(ext2_filsys fs, ext2_ino_t ino,
			    struct ext2_inode_large *inode, blk64_t lblk,
			    int nozero, blk64_t *pblk, int *fresh)
{
	struct blk_alloc_ctx ctx;
	blk64_t goal, mask = EXT2FS_CLUSTER_MASK(fs);
	char *zbuf = NULL;
	errcode_t err;

	*fresh = 0;
	*pblk = 0;
	if (ext2fs_has_feature_bigalloc(fs->super)) {
		err = ext2fs_map_cluster_block(fs, ino, small(inode), lblk,
					       pblk);
		if (err)
			return err;
		if (*pblk)
			return 0;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.ino = ino;
	ctx.inode = small(inode);
	ctx.lblk = lblk;
	ctx.flags = BLOCK_ALLOC_DATA;
	goal = ext2fs_find_inode_goal(fs, ino, small(inode), lblk);
	/* The caller fills the block: no zeroing write (unless a program
	 * hooked the allocator, which then gets its call). */
	if (nozero && !fs->get_alloc_block && !fs->get_alloc_block2) {
		err = ext2fs_new_block3(fs, goal, NULL, pblk, &ctx);
		if (err)
			return err;
		ext2fs_block_alloc_stats2(fs, *pblk, +1);
		goto got;
	}
	/* With a buffer libext2fs zeroes the new block through the I/O
	 * cache; without one it issues a zero-out call for every block. */
	err = ext2fs_get_mem(fs->blocksize, &zbuf);
	if (err)
		return err;
	err = ext2fs_alloc_block3(fs, goal, zbuf, pblk, &ctx);
	ext2fs_free_mem(&zbuf);
	if (err)
		return err;
got:
	*pblk = (*pblk & ~mask) | (lblk & mask);
	*fresh = 1;
	return 0;
}

errcode_t e2x_alloc_file_block(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *inode, blk64_t lblk,
			       int flags, blk64_t *pblk)
{
	int fresh;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*pblk = 0;
	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return E2X_ERR_UNSUPPORTED;
	if (e2x_file_is_indirect(fs, inode)) {
		/* ext2/ext3-style inodes (directories too) keep their map */
		err = e2x_map_file_block(fs, ino, inode, lblk, pblk, NULL);
		if (err || *pblk)
			return err;
		return e2x_indirect_alloc_block(fs, ino, inode, lblk, pblk);
	}
	if (!(inode->i_flags & EXT4_EXTENTS_FL)) {
		err = e2x_extent_root_init(fs, inode);
		if (err)
			return err;
	}
	err = e2x_map_file_block(fs, ino, inode, lblk, pblk, NULL);
	if (err || *pblk)
		return err;
	err = pick_block(fs, ino, inode, lblk, flags & E2X_ALLOC_NOZERO, pblk,
			 &fresh);
	if (err)
		return err;
	if (!(flags & E2X_ALLOC_NOZERO)) {
		err = ext2fs_zero_blocks2(fs, *pblk, 1, NULL, NULL);
		if (err)
			goto out;
	}
	err = extent_map(fs, ino, inode, lblk, *pblk);
	if (err)
		goto out;
	if (fresh)
		err = ext2fs_iblk_add_blocks(fs, small(inode), 1);
out:
	if (err && fresh)
		ext2fs_block_alloc_stats2(fs, *pblk, -1);
	if (err)
		*pblk = 0;
	return err;
}

errcode_t e2x_free_file_blocks(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *inode, blk64_t lblk)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return 0;
	return ext2fs_punch(fs, ino, small(inode), NULL, lblk, ~0ULL);
}
