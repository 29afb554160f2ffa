/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-inline.h --- inline data: an inode's bytes kept in i_block plus the
 * system.data in-inode attribute (inline.c).  Included from e2x.h; inode
 * buffers as in e2x-inode.h.
 */
#ifndef E2X_INLINE_H
#define E2X_INLINE_H

/*
 * inline.c --- raw inline storage of an inode's bytes: the first 60 bytes
 * in i_block, the rest in the value of system.data (which exists, maybe
 * empty, whenever EXT4_INLINE_DATA_FL is set).  Raw means: no knowledge of
 * files or directories, and i_size is left to the caller.
 */
#define E2X_INLINE_IBLOCK_SIZE	60	/* sizeof(i_block) */

static inline int e2x_inode_has_inline(const struct ext2_inode_large *inode)
{
	return (inode->i_flags & EXT4_INLINE_DATA_FL) != 0;
}
/* Most bytes this inode can hold inline: 60 + the room system.data could
 * take in the in-inode attribute area (counting its present value).
 * E2X_ERR_UNSUPPORTED when the fs lacks inline_data or the inode has no
 * in-inode attribute space. */
errcode_t e2x_inline_capacity(ext2_filsys fs, ext2_ino_t ino,
			      const struct ext2_inode_large *inode,
			      size_t *max_bytes);
/* Bytes stored inline now: 60 + length of the system.data value.
 * E2X_ERR_CORRUPT if the flag is set but system.data is missing. */
errcode_t e2x_inline_size(ext2_filsys fs, ext2_ino_t ino,
			  const struct ext2_inode_large *inode, size_t *len);
/* Copy up to BUFSIZE stored bytes into BUF; *LEN is the stored size (may
 * exceed BUFSIZE, then only BUFSIZE bytes were copied). */
errcode_t e2x_inline_get(ext2_filsys fs, ext2_ino_t ino,
			 const struct ext2_inode_large *inode, void *buf,
			 size_t bufsize, size_t *len);
/* Store exactly LEN bytes inline (LEN <= capacity, else
 * E2X_ERR_INLINE_TOO_BIG and nothing changes): i_block gets the first 60
 * (zero padded), system.data the rest (empty value when LEN <= 60);
 * sets EXT4_INLINE_DATA_FL, clears EXT4_EXTENTS_FL.  An inode that is
 * not inline yet must map no blocks (E2X_ERR_HAS_BLOCKS).  In memory only;
 * i_size untouched. */
errcode_t e2x_inline_set(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode, const void *buf,
			 size_t len);
/* Drop inline storage: remove system.data, zero i_block, clear the flag.
 * The inode then maps nothing (ready for e2x_alloc_file_block()).  In
 * memory only; i_size untouched.  No-op on an inode that is not inline. */
errcode_t e2x_inline_clear(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large *inode);

#endif /* E2X_INLINE_H */
