/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inline.c --- raw inline storage of an inode's bytes: i_block (60 bytes)
 * followed by the value of the in-inode attribute system.data.
 *
 * Kernel rules followed here: the attribute exists whenever
 * EXT4_INLINE_DATA_FL is set, with an empty value while the bytes fit in
 * i_block; its value holds exactly the bytes past the first 60; an inline
 * inode has no extent tree, so EXT4_EXTENTS_FL is clear.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

static const char data_name[] = "data";

/* True when i_block holds no mapping: all zeros, or an empty extent root. */
static int iblock_unused(const struct ext2_inode_large *inode)
{
	const struct ext3_extent_header *eh;
	size_t i;

	if (inode->i_flags & EXT4_EXTENTS_FL) {
		eh = (const struct ext3_extent_header *)inode->i_block;
		if (ext2fs_le16_to_cpu(eh->eh_magic) == EXT3_EXT_MAGIC)
			return eh->eh_entries == 0;
	}
	for (i = 0; i < EXT2_N_BLOCKS; i++)
		if (inode->i_block[i])
			return 0;
	return 1;
}

errcode_t e2x_inline_capacity(ext2_filsys fs, ext2_ino_t ino,
			      const struct ext2_inode_large *inode,
			      size_t *max_bytes)
{
	size_t room;
	errcode_t err;

	(void)ino;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*max_bytes = 0;
	if (!ext2fs_has_feature_inline_data(fs->super))
		return E2X_ERR_UNSUPPORTED;
	err = e2x_xattr_ibody_room(fs, inode, E2X_XATTR_INDEX_SYSTEM,
				   data_name, &room);
	if (err == E2X_ERR_NO_SPACE)
		return E2X_ERR_UNSUPPORTED;
	if (err)
		return err;
	*max_bytes = E2X_INLINE_IBLOCK_SIZE + room;
	return 0;
}

errcode_t e2x_inline_size(ext2_filsys fs, ext2_ino_t ino,
			  const struct ext2_inode_large *inode, size_t *len)
{
	size_t vlen = 0;
	errcode_t err;

	(void)ino;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*len = 0;
	if (!e2x_inode_has_inline(inode))
		return EXT2_ET_NO_INLINE_DATA;
	err = e2x_xattr_ibody_get(fs, inode, E2X_XATTR_INDEX_SYSTEM,
				  data_name, NULL, 0, &vlen);
	if (err == E2X_ERR_NOT_FOUND || err == E2X_ERR_UNSUPPORTED)
		return E2X_ERR_CORRUPT;
	if (err)
		return err;
	*len = E2X_INLINE_IBLOCK_SIZE + vlen;
	return 0;
}

errcode_t e2x_inline_get(ext2_filsys fs, ext2_ino_t ino,
			 const struct ext2_inode_large *inode, void *buf,
			 size_t bufsize, size_t *len)
{
	size_t total, head;
	errcode_t err;

	err = e2x_inline_size(fs, ino, inode, &total);
	if (err)
		return err;
	head = bufsize < E2X_INLINE_IBLOCK_SIZE ? bufsize
						 : E2X_INLINE_IBLOCK_SIZE;
	memcpy(buf, inode->i_block, head);
	if (bufsize > E2X_INLINE_IBLOCK_SIZE) {
		err = e2x_xattr_ibody_get(fs, inode, E2X_XATTR_INDEX_SYSTEM,
					  data_name,
					  (char *)buf + E2X_INLINE_IBLOCK_SIZE,
					  bufsize - E2X_INLINE_IBLOCK_SIZE,
					  NULL);
		if (err)
			return err;
	}
	*len = total;
	return 0;
}

errcode_t e2x_inline_set(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode, const void *buf,
			 size_t len)
{
	size_t cap, head = len < E2X_INLINE_IBLOCK_SIZE ? len
						    : E2X_INLINE_IBLOCK_SIZE;
	const char *tail = "";
	errcode_t err;

	err = e2x_inline_capacity(fs, ino, inode, &cap);
	if (err)
		return err;
	if (len > cap)
		return E2X_ERR_INLINE_TOO_BIG;
	if (!e2x_inode_has_inline(inode) && !iblock_unused(inode))
		return E2X_ERR_HAS_BLOCKS;
	if (len > E2X_INLINE_IBLOCK_SIZE)
		tail = (const char *)buf + E2X_INLINE_IBLOCK_SIZE;
	err = e2x_xattr_ibody_set(fs, inode, E2X_XATTR_INDEX_SYSTEM, data_name,
				  tail, len - head);
	if (err)
		return err;
	/* memmove: a caller may hand us bytes read out of i_block itself. */
	if (head)
		memmove(inode->i_block, buf, head);
	memset((char *)inode->i_block + head, 0,
	       E2X_INLINE_IBLOCK_SIZE - head);
	inode->i_flags |= EXT4_INLINE_DATA_FL;
	inode->i_flags &= ~EXT4_EXTENTS_FL;
	return 0;
}

errcode_t e2x_inline_clear(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large *inode)
{
	errcode_t err;

	(void)ino;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!e2x_inode_has_inline(inode))
		return 0;
	err = e2x_xattr_ibody_remove(fs, inode, E2X_XATTR_INDEX_SYSTEM,
				     data_name);
	if (err && err != E2X_ERR_NOT_FOUND)
		return err;
	memset(inode->i_block, 0, sizeof(inode->i_block));
	inode->i_flags &= ~EXT4_INLINE_DATA_FL;
	return 0;
}
