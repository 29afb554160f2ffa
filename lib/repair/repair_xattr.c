/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_xattr.c --- repair primitives for extended attribute blocks
 * (recompute the hashes and checksum, set the reference count) and for
 * value inodes (their flag and reference count).
 */
#include "config.h"
#include "e2x.h"
#include <ext2fs/ext2_ext_attr.h>

/* Recompute the hash of every entry whose value lies in the block. */
static void rehash_entries(ext2_filsys fs, char *buf)
{
	unsigned int off = sizeof(struct ext2_ext_attr_header);

	while (off + sizeof(struct ext2_ext_attr_entry) <= fs->blocksize) {
		struct ext2_ext_attr_entry *e = (void *)(buf + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e) ||
		    off + EXT2_EXT_ATTR_LEN(e->e_name_len) > fs->blocksize)
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		if (e->e_value_inum ||
		    (uint64_t)e->e_value_offs + e->e_value_size >
			    fs->blocksize)
			continue;
		e->e_hash = ext2fs_ext_attr_hash_entry(e, buf +
							  e->e_value_offs);
	}
}

static errcode_t rewrite(ext2_filsys fs, ext2_ino_t ino, blk64_t blk,
			 int rehash, int64_t refcount)
{
	struct ext2_ext_attr_header *h;
	char *buf = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (blk < fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_BAD_EA_BLOCK_NUM;
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	err = io_channel_read_blk64(fs->io, blk, 1, buf);
	h = (struct ext2_ext_attr_header *)buf;
	if (!err && h->h_magic != EXT2_EXT_ATTR_MAGIC)
		err = EXT2_ET_BAD_EA_HEADER;
	if (err)
		goto out;
	if (rehash) {
		rehash_entries(fs, buf);
		ext2fs_ext_attr_block_rehash(h, (void *)(buf + fs->blocksize));
	}
	if (refcount >= 0)
		h->h_refcount = refcount;
	err = ext2fs_write_ext_attr3(fs, blk, buf, ino);
out:
	ext2fs_free_mem(&buf);
	return err;
}

errcode_t e2x_repair_xattr_block(ext2_filsys fs, ext2_ino_t ino,
				 blk64_t blk)
{
	return rewrite(fs, ino, blk, 1, -1);
}

errcode_t e2x_repair_xattr_refcount(ext2_filsys fs, blk64_t blk,
				    uint32_t count)
{
	return rewrite(fs, 0, blk, 0, count);
}

/* Read value inode INO, set its flag and, when COUNT >= 0, its reference
 * count, and write it once (no i_version bump: the flag is set first). */
static errcode_t edit_value_inode(ext2_filsys fs, ext2_ino_t ino,
				  int64_t count)
{
	struct ext2_inode_large *in = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (ino < EXT2_FIRST_INODE(fs->super) ||
	    ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, ino, in);
	if (err)
		goto out;
	in->i_flags |= EXT4_EA_INODE_FL;
	if (count >= 0)
		ext2fs_set_ea_inode_ref((struct ext2_inode *)in, count);
	err = e2x_write_inode(fs, ino, in);
out:
	ext2fs_free_mem(&in);
	return err;
}

errcode_t e2x_repair_ea_inode_flag(ext2_filsys fs, ext2_ino_t ino)
{
	return edit_value_inode(fs, ino, -1);
}

errcode_t e2x_repair_ea_inode_refs(ext2_filsys fs, ext2_ino_t ino,
				   uint64_t count)
{
	return edit_value_inode(fs, ino, (int64_t)(count & INT64_MAX));
}
