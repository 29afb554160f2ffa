/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * storage_switch.c --- moving a small inode's content between its blocks
 * and the inode itself so that a crash at any write loses nothing: the new
 * copy is written first, then the inode switches to it in one inode
 * write, and only then are the old blocks freed (in the bitmaps, which
 * reach the disk later still).  Used by packing and promotion.
 */
#include "config.h"
#include <string.h>
#include "file/file-int.h"

static int collect_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
		       blk64_t ref_blk, int ref_offset, void *priv)
{
	struct e2x_blk_list *l = priv;
	size_t cap;

	(void)fs;
	(void)cnt;
	(void)ref_blk;
	(void)ref_offset;
	if (l->n == l->cap) {
		cap = l->cap ? l->cap * 2 : 64;
		l->err = ext2fs_resize_mem(l->cap * sizeof(*l->v),
					   cap * sizeof(*l->v), &l->v);
		if (l->err)
			return BLOCK_ABORT;
		l->cap = cap;
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
	return err ? err : l->err;
}

void e2x_blocks_release(ext2_filsys fs, struct e2x_blk_list *l)
{
	blk64_t last = ~0ULL;
	size_t i;

	/* a cluster is freed once; a file's blocks come in cluster runs
	 * (map blocks aside, which sit in clusters of their own) */
	for (i = 0; i < l->n; i++) {
		if (EXT2FS_B2C(fs, l->v[i]) == last)
			continue;
		last = EXT2FS_B2C(fs, l->v[i]);
		ext2fs_block_alloc_stats2(fs, l->v[i], -1);
	}
	e2x_blocks_free(l);
}

void e2x_blocks_free(struct e2x_blk_list *l)
{
	ext2fs_free_mem(&l->v);
	l->n = l->cap = 0;
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
		err = e2x_storage_map_range(fs, inode, pblk, 1);
	if (!err)
		ext2fs_block_alloc_stats2(fs, pblk, +1);
	return err;
}

errcode_t e2x_storage_map_range(ext2_filsys fs,
				struct ext2_inode_large *inode, blk64_t pblk,
				blk64_t len)
{
	struct ext3_extent_header *eh;
	struct ext3_extent *ex;
	blk64_t done = 0, n;
	errcode_t err;

	if (!ext2fs_has_feature_extents(fs->super)) {
		if (len != 1)
			return E2X_ERR_UNSUPPORTED;
		memset(inode->i_block, 0, sizeof(inode->i_block));
		inode->i_block[0] = (__u32)pblk;
		return ext2fs_iblk_add_blocks(fs, (struct ext2_inode *)inode,
					      1);
	}
	if (len > 4ULL * EXT_INIT_MAX_LEN)	/* i_block holds 4 extents */
		return E2X_ERR_UNSUPPORTED;
	err = e2x_extent_root_init(fs, inode);
	if (err)
		return err;
	eh = (struct ext3_extent_header *)inode->i_block;
	for (ex = (struct ext3_extent *)(eh + 1); done < len; ex++) {
		n = len - done < EXT_INIT_MAX_LEN ? len - done :
						    EXT_INIT_MAX_LEN;
		ex->ee_block = ext2fs_cpu_to_le32((__u32)done);
		ex->ee_len = ext2fs_cpu_to_le16((__u16)n);
		ex->ee_start = ext2fs_cpu_to_le32((__u32)(pblk + done));
		ex->ee_start_hi = ext2fs_cpu_to_le16((__u16)((pblk + done) >>
							     32));
		eh->eh_entries = ext2fs_cpu_to_le16(
			ext2fs_le16_to_cpu(eh->eh_entries) + 1);
		done += n;
	}
	return ext2fs_iblk_add_blocks(fs, (struct ext2_inode *)inode,
				      EXT2FS_NUM_B2C(fs, len));
}
