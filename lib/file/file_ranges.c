/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file_ranges.c --- the mapped ranges of an inode's data in logical order:
 * the leaves of an extent tree as stored (unwritten ones flagged), a block
 * map as runs of blocks consecutive in both numberings.  For readers that
 * copy or list a file's blocks (debugfs cat, dump, rdump, blocks; the image
 * source of populate), also on an e2image file read with a data device.
 * Nothing is written; ranges are not checked against
 * the file system's size, that is the reader's call.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

static errcode_t extent_ranges(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode *inode, e2x_file_range_fn fn,
			       void *priv)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent ex;
	struct e2x_file_range r;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open2(fs, ino, inode, &h);
	if (err)
		return err;
	for (;;) {
		err = ext2fs_extent_get(h, op, &ex);
		op = EXT2_EXTENT_NEXT_LEAF;
		if (err == EXT2_ET_EXTENT_NO_NEXT ||
		    err == EXT2_ET_NO_CURRENT_NODE) {
			err = 0;
			break;
		}
		if (err)
			break;
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF) || !ex.e_len)
			continue;
		memset(&r, 0, sizeof(r));
		r.lblk = ex.e_lblk;
		r.pblk = ex.e_pblk;
		r.len = ex.e_len;
		if (ex.e_flags & EXT2_EXTENT_FLAGS_UNINIT)
			r.flags = E2X_RANGE_UNWRITTEN;
		err = fn(fs, &r, priv);
		if (err)
			break;
	}
	ext2fs_extent_free(h);
	return err;
}

struct map_ctx {
	struct e2x_file_range run;
	e2x_file_range_fn fn;
	void *priv;
	errcode_t err;
};

static int map_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
		     blk64_t ref_blk, int ref_off, void *priv)
{
	struct map_ctx *mc = priv;
	struct e2x_file_range *r = &mc->run;

	(void)ref_blk;
	(void)ref_off;
	if (lblk < 0 || !*blocknr)
		return 0;
	if (r->len && (uint64_t)lblk == r->lblk + r->len &&
	    *blocknr == r->pblk + r->len) {
		r->len++;
		return 0;
	}
	if (r->len) {
		mc->err = mc->fn(fs, r, mc->priv);
		if (mc->err)
			return BLOCK_ABORT;
	}
	r->lblk = (uint64_t)lblk;
	r->pblk = *blocknr;
	r->len = 1;
	return 0;
}

static errcode_t map_ranges(ext2_filsys fs, ext2_ino_t ino,
			    e2x_file_range_fn fn, void *priv)
{
	struct map_ctx mc;
	errcode_t err;

	memset(&mc, 0, sizeof(mc));
	mc.fn = fn;
	mc.priv = priv;
	err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
				    BLOCK_FLAG_DATA_ONLY, NULL, map_block,
				    &mc);
	if (!err)
		err = mc.err;
	if (!err && mc.run.len)
		err = fn(fs, &mc.run, priv);
	return err;
}

/*
 * An e2image file with a data device attached: libext2fs's block walk
 * reads its indirect blocks as zeros (ext2fs_read_ind_block), while bmap
 * reads them from the device.  Walk such maps one block at a time.
 */
static int image_with_data(ext2_filsys fs)
{
	return (fs->flags & EXT2_FLAG_IMAGE_FILE) && fs->io != fs->image_io;
}

static errcode_t bmap_ranges(ext2_filsys fs, ext2_ino_t ino,
			     struct ext2_inode *inode, e2x_file_range_fn fn,
			     void *priv)
{
	uint64_t nblocks = (EXT2_I_SIZE(inode) + fs->blocksize - 1) /
			   fs->blocksize;
	struct map_ctx mc;
	blk64_t lblk, pblk;
	errcode_t err = 0;

	memset(&mc, 0, sizeof(mc));
	mc.fn = fn;
	mc.priv = priv;
	for (lblk = 0; lblk < nblocks && !err; lblk++) {
		pblk = 0;
		err = ext2fs_bmap2(fs, ino, inode, NULL, 0, lblk, NULL, &pblk);
		if (!err && map_block(fs, &pblk, lblk, 0, 0, &mc))
			err = mc.err;
	}
	if (!err && mc.run.len)
		err = fn(fs, &mc.run, priv);
	return err;
}

errcode_t e2x_file_ranges(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode *inode, int flags,
			  e2x_file_range_fn fn, void *priv)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	(void)flags;
	if ((inode->i_flags & EXT4_INLINE_DATA_FL) ||
	    !ext2fs_inode_has_valid_blocks2(fs, inode))
		return 0;
	if (inode->i_flags & EXT4_EXTENTS_FL)
		return extent_ranges(fs, ino, inode, fn, priv);
	if (image_with_data(fs))
		return bmap_ranges(fs, ino, inode, fn, priv);
	return map_ranges(fs, ino, fn, priv);
}
