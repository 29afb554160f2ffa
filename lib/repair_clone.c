/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_clone.c --- give an inode its own copy of blocks it shares with
 * other inodes or with file system metadata (e2fsck pass 1b).
 */
#include "config.h"
#include "e2x.h"

struct clone_walk {
	const struct e2x_clone_ops *ops;
	int extents;		/* extent nodes are not moved */
	char *buf;
	uint64_t cloned;
	errcode_t err;
};

static int clone_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct clone_walk *w = priv;
	blk64_t old = *blocknr, new = 0;

	(void)ref_blk;
	(void)ref_offset;
	if ((lblk < 0 && w->extents) || !w->ops->want(w->ops->priv, old))
		return 0;
	w->err = ext2fs_alloc_block2(fs, old, NULL, &new);
	if (!w->err)
		w->err = io_channel_read_blk64(fs->io, old, 1, w->buf);
	if (!w->err)
		w->err = io_channel_write_blk64(fs->io, new, 1, w->buf);
	if (w->err)
		return BLOCK_ABORT;
	if (w->ops->moved)
		w->ops->moved(w->ops->priv, old, new, lblk);
	*blocknr = new;
	w->cloned++;
	return BLOCK_CHANGED;
}

errcode_t e2x_repair_clone_blocks(ext2_filsys fs, ext2_ino_t ino,
				  const struct e2x_clone_ops *ops,
				  uint64_t *cloned)
{
	struct ext2_inode_large *in = NULL;
	struct clone_walk w = { .ops = ops };
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*cloned = 0;
	if (fs->cluster_ratio_bits)
		return E2X_ERR_UNSUPPORTED;	/* clusters move whole */
	err = ext2fs_get_memzero(EXT2_INODE_SIZE(fs->super) < sizeof(*in) ?
					 sizeof(*in) :
					 EXT2_INODE_SIZE(fs->super),
				 &in);
	if (!err)
		err = ext2fs_get_mem(fs->blocksize, &w.buf);
	if (!err)
		err = e2x_read_inode(fs, ino, in);
	if (err || !ext2fs_inode_has_valid_blocks2(fs, (void *)in))
		goto out;
	w.extents = !!(in->i_flags & EXT4_EXTENTS_FL);
	err = ext2fs_block_iterate3(fs, ino, 0, NULL, clone_one, &w);
	if (!err)
		err = w.err;
	*cloned = w.cloned;
	/* the walk stored the inode itself; once more for i_version */
	if (w.cloned) {
		errcode_t e2 = e2x_read_inode(fs, ino, in);

		if (!e2)
			e2 = e2x_write_inode(fs, ino, in);
		if (!err)
			err = e2;
	}
out:
	ext2fs_free_mem(&w.buf);
	ext2fs_free_mem(&in);
	return err;
}
