/*
 * storage_switch.c --- moving a small inode's content between its blocks
 * and the inode itself so that a crash at any write loses nothing: the new
 * copy is written first, then the inode switches to it in one inode
 * write, and only then are the old blocks freed (in the bitmaps, which
 * reach the disk later still).  Used by packing and promotion.
 */
#include "config.h"
#include <string.h>
#include "file-int.h"

static int collect_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
		       blk64_t ref_blk, int ref_offset, void *priv)
{
	struct e2x_blk_list *l = priv;

	(void)fs;
	(void)cnt;
	(void)ref_blk;
	(void)ref_offset;
	if (l->n == E2X_BLK_LIST_MAX) {
		l->overflow = 1;
		return BLOCK_ABORT;
	}
	l->v[l->n++] = *blocknr;
	return 0;
}

errcode_t e2x_blocks_collect(ext2_filsys fs, ext2_ino_t ino,
			     struct e2x_blk_list *l)
{
	errcode_t err;

	memset(l, 0, sizeof(*l));
	err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				    collect_one, l);
	if (!err && l->overflow)
		err = E2X_ERR_INLINE_TOO_BIG;
	return err;
}

void e2x_blocks_release(ext2_filsys fs, const struct e2x_blk_list *l)
{
	blk64_t done[E2X_BLK_LIST_MAX];
	size_t i, j, ndone = 0;

	for (i = 0; i < l->n; i++) {
		blk64_t c = EXT2FS_B2C(fs, l->v[i]);

		for (j = 0; j < ndone && done[j] != c; j++)
			;
		if (j < ndone)
			continue;	/* a cluster is freed once */
		done[ndone++] = c;
		ext2fs_block_alloc_stats2(fs, l->v[i], -1);
	}
}

void e2x_storage_forget(ext2_filsys fs, struct ext2_inode_large *inode)
{
	memset(inode->i_block, 0, sizeof(inode->i_block));
	inode->i_flags &= ~EXT4_EXTENTS_FL;
	/* what stays counted is the attribute block, if any */
	ext2fs_iblk_set(fs, (struct ext2_inode *)inode,
			inode->i_file_acl ? 1 : 0);
}

errcode_t e2x_storage_new_block(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode,
				const void *buf)
{
	blk64_t goal, pblk;
	errcode_t err;

	goal = ext2fs_find_inode_goal(fs, ino, (struct ext2_inode *)inode, 0);
	err = ext2fs_new_block3(fs, goal, NULL, &pblk, NULL);
	if (!err)
		err = io_channel_write_blk64(fs->io, pblk, 1, buf);
	if (!err)
		err = e2x_storage_map_one(fs, inode, pblk);
	if (!err)
		ext2fs_block_alloc_stats2(fs, pblk, +1);
	return err;
}

errcode_t e2x_storage_map_one(ext2_filsys fs, struct ext2_inode_large *inode,
			      blk64_t pblk)
{
	struct ext3_extent_header *eh;
	struct ext3_extent *ex;
	errcode_t err;

	if (!ext2fs_has_feature_extents(fs->super)) {
		memset(inode->i_block, 0, sizeof(inode->i_block));
		inode->i_block[0] = (__u32)pblk;
	} else {
		err = e2x_extent_root_init(fs, inode);
		if (err)
			return err;
		eh = (struct ext3_extent_header *)inode->i_block;
		ex = (struct ext3_extent *)(eh + 1);
		ex->ee_block = 0;
		ex->ee_len = ext2fs_cpu_to_le16(1);
		ex->ee_start = ext2fs_cpu_to_le32((__u32)pblk);
		ex->ee_start_hi = ext2fs_cpu_to_le16((__u16)(pblk >> 32));
		eh->eh_entries = ext2fs_cpu_to_le16(1);
	}
	return ext2fs_iblk_add_blocks(fs, (struct ext2_inode *)inode,
				      1);
}
