/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_clone.c --- give an inode its own copy of blocks it shares with
 * other inodes or with file system metadata (e2fsck pass 1b); on bigalloc,
 * of clusters, putting each logical cluster in one physical cluster.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"
#include "journal/u64map.h"

struct clone_walk {
	const struct e2x_clone_ops *ops;
	int extents;		/* extent nodes are not moved */
	char *buf;
	uint64_t cloned;
	errcode_t err;
	/* bigalloc: the logical cluster being walked and its home */
	uint64_t lcluster;
	blk64_t home;			/* physical cluster; ~0: none yet */
	/* physical cluster -> 1 + the one logical cluster whose blocks it
	 * holds, each at its own offset; MIXED when that is not so */
	struct u64map owners;
	/* extent trees: the inode's node blocks -> 0, or 1 + the slot in
	 * saved holding what the block held before the walk, when the
	 * inode maps it as data too (rewriting the node must not change
	 * what the data copy gets) */
	struct u64map nodes;
	char *saved;
	size_t nsaved;
};

#define MIXED (~(uint64_t)0)

/* First walk (bigalloc): which logical cluster owns each cluster. */
static int note_owner(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		      blk64_t ref_blk, int ref_offset, void *priv)
{
	struct clone_walk *w = priv;
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs);
	uint64_t pc = EXT2FS_B2C(fs, *blocknr), *v;
	uint64_t own = (*blocknr & mask) == ((blk64_t)lblk & mask) ?
			       EXT2FS_B2C(fs, lblk) + 1 : MIXED;

	(void)ref_blk;
	(void)ref_offset;
	v = u64map_find(&w->owners, pc);
	if (v && *v == own)
		return 0;
	w->err = u64map_put(&w->owners, pc, v ? MIXED : own);
	return w->err ? BLOCK_ABORT : 0;
}

/* First of two read-only walks (extent trees): note the node blocks. */
static int note_node(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct clone_walk *w = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (lblk >= 0 || u64map_find(&w->nodes, *blocknr))
		return 0;
	w->err = u64map_put(&w->nodes, *blocknr, 0);
	return w->err ? BLOCK_ABORT : 0;
}

/* Second: a data block that is also a node block is read now, before
 * any node is rewritten. */
static int save_node_data(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
			  blk64_t ref_blk, int ref_offset, void *priv)
{
	struct clone_walk *w = priv;
	uint64_t *v = u64map_find(&w->nodes, *blocknr);

	(void)ref_blk;
	(void)ref_offset;
	if (lblk < 0 || !v || *v)
		return 0;
	w->err = ext2fs_resize_mem(w->nsaved * fs->blocksize,
				   (w->nsaved + 1) * fs->blocksize, &w->saved);
	if (!w->err)
		w->err = io_channel_read_blk64(fs->io, *blocknr, 1,
					       w->saved +
						       w->nsaved * fs->blocksize);
	if (!w->err)
		w->err = u64map_put(&w->nodes, *blocknr, ++w->nsaved);
	return w->err ? BLOCK_ABORT : 0;
}

/* Copy block OLD to NEW and map NEW at LBLK in its place. */
static int copy_block(ext2_filsys fs, struct clone_walk *w, blk64_t *blocknr,
		      blk64_t new, e2_blkcnt_t lblk)
{
	blk64_t old = *blocknr;
	uint64_t *v = lblk >= 0 ? u64map_find(&w->nodes, old) : NULL;

	if (v && *v) {
		memcpy(w->buf, w->saved + (*v - 1) * fs->blocksize,
		       fs->blocksize);
		w->err = 0;
	} else {
		w->err = io_channel_read_blk64(fs->io, old, 1, w->buf);
	}
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

/*
 * Bigalloc: the first block of each logical cluster picks its home: the
 * cluster it lies in when that cluster holds only blocks of this logical
 * cluster, each at its own offset (so copies into it overwrite nothing
 * the inode maps), and is not wanted for a copy; else a new cluster.
 * Every block of the logical cluster not at its offset in the home is
 * copied there.
 */
static void pick_home(ext2_filsys fs, struct clone_walk *w, blk64_t old,
		      e2_blkcnt_t lblk)
{
	blk64_t pc = EXT2FS_B2C(fs, old);
	uint64_t *own = u64map_find(&w->owners, pc);

	w->lcluster = EXT2FS_B2C(fs, lblk);
	w->home = ~(blk64_t)0;
	if (own && *own == w->lcluster + 1 && !w->ops->want(w->ops->priv, old))
		w->home = pc;
}

static int clone_in_cluster(ext2_filsys fs, struct clone_walk *w,
			    blk64_t *blocknr, e2_blkcnt_t lblk)
{
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs), new;

	if (lblk < 0)
		return 0;
	if (EXT2FS_B2C(fs, lblk) != w->lcluster)
		pick_home(fs, w, *blocknr, lblk);
	if (w->home != ~(blk64_t)0 &&
	    *blocknr == EXT2FS_C2B(fs, w->home) + ((blk64_t)lblk & mask))
		return 0;
	if (w->home == ~(blk64_t)0) {
		w->err = ext2fs_alloc_block2(fs, *blocknr, NULL, &new);
		if (w->err)
			return BLOCK_ABORT;
		w->home = EXT2FS_B2C(fs, new);
	}
	new = EXT2FS_C2B(fs, w->home) + ((blk64_t)lblk & mask);
	return copy_block(fs, w, blocknr, new, lblk);
}

static int clone_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct clone_walk *w = priv;
	blk64_t old = *blocknr, new = 0;

	(void)ref_blk;
	(void)ref_offset;
	if (fs->cluster_ratio_bits)
		return clone_in_cluster(fs, w, blocknr, lblk);
	if ((lblk < 0 && w->extents) || !w->ops->want(w->ops->priv, old))
		return 0;
	w->err = ext2fs_alloc_block2(fs, old, NULL, &new);
	if (w->err)
		return BLOCK_ABORT;
	return copy_block(fs, w, blocknr, new, lblk);
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
	w.lcluster = ~(uint64_t)0;
	u64map_init(&w.owners);
	u64map_init(&w.nodes);
	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &in);
	if (!err)
		err = ext2fs_get_mem(fs->blocksize, &w.buf);
	if (!err)
		err = e2x_read_inode(fs, ino, in);
	if (err || !ext2fs_inode_has_valid_blocks2(fs, (void *)in))
		goto out;
	w.extents = !!(in->i_flags & EXT4_EXTENTS_FL);
	if (w.extents) {
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
					    note_node, &w);
		if (!err)
			err = w.err;
		if (!err && w.nodes.count)
			err = ext2fs_block_iterate3(fs, ino,
						    BLOCK_FLAG_READ_ONLY |
							    BLOCK_FLAG_DATA_ONLY,
						    NULL, save_node_data, &w);
		if (!err)
			err = w.err;
		if (err)
			goto out;
	}
	if (fs->cluster_ratio_bits) {
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
						     BLOCK_FLAG_DATA_ONLY,
					    NULL, note_owner, &w);
		if (!err)
			err = w.err;
		if (err)
			goto out;
	}
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
	u64map_free(&w.owners);
	u64map_free(&w.nodes);
	ext2fs_free_mem(&w.saved);
	ext2fs_free_mem(&w.buf);
	ext2fs_free_mem(&in);
	return err;
}
