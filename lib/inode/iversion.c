/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iversion.c --- the 64-bit inode change counter (i_version).
 *
 * The low 32 bits live in osd1 (l_i_version), the high 32 bits in
 * i_version_hi, which exists only when i_extra_isize reaches past it.
 * Every inode write in libe2x goes through e2x_write_inode(), which bumps
 * the counter, so NFS and IMA notice changes made offline.  A file system
 * made by the Hurd has no counter: its osd1 word is the translator block.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

/* True when the inode's extra space covers i_version_hi. */
static int has_version_hi(const struct ext2_inode_large *inode,
			  unsigned int inode_size)
{
	size_t end = offsetof(struct ext2_inode_large, i_version_hi) +
		     sizeof(inode->i_version_hi);

	if (inode_size <= EXT2_GOOD_OLD_INODE_SIZE)
		return 0;
	return EXT2_GOOD_OLD_INODE_SIZE + inode->i_extra_isize >= end;
}

uint64_t e2x_inode_get_version(const struct ext2_inode_large *inode,
			       unsigned int inode_size)
{
	uint64_t v = inode->osd1.linux1.l_i_version;

	if (has_version_hi(inode, inode_size))
		v |= (uint64_t)inode->i_version_hi << 32;
	return v;
}

void e2x_inode_set_version(struct ext2_inode_large *inode,
			   unsigned int inode_size, uint64_t version)
{
	inode->osd1.linux1.l_i_version = (uint32_t)version;
	if (has_version_hi(inode, inode_size))
		inode->i_version_hi = (uint32_t)(version >> 32);
}

void e2x_inode_bump_version(struct ext2_inode_large *inode,
			    unsigned int inode_size)
{
	uint64_t v;

	if (inode->i_flags & EXT4_EA_INODE_FL)
		return;
	v = e2x_inode_get_version(inode, inode_size);
	if (!has_version_hi(inode, inode_size) && v == UINT32_MAX)
		v = 0;		/* only 32 bits stored: wrap explicitly */
	e2x_inode_set_version(inode, inode_size, v + 1);
}

int e2x_fs_has_iversion(ext2_filsys fs)
{
	return fs->super->s_creator_os != EXT2_OS_HURD;
}

size_t e2x_inode_buf_size(ext2_filsys fs)
{
	size_t isz = EXT2_INODE_SIZE(fs->super);

	return isz < sizeof(struct ext2_inode_large) ?
		       sizeof(struct ext2_inode_large) : isz;
}

errcode_t e2x_read_inode(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	return ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)inode,
				      EXT2_INODE_SIZE(fs->super));
}

errcode_t e2x_write_inode(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode_large *inode)
{
	unsigned int size;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	size = EXT2_INODE_SIZE(fs->super);
	if (e2x_fs_has_iversion(fs))
		e2x_inode_bump_version(inode, size);
	return ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)inode,
				       size);
}

errcode_t e2x_write_inode_exact(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode, int flags)
{
	unsigned int size;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	size = EXT2_INODE_SIZE(fs->super);
	if (flags & E2X_WRITE_NOCSUM)
		return ext2fs_write_inode2(fs, ino, (struct ext2_inode *)inode,
					   size, WRITE_INODE_NOCSUM);
	return ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)inode,
				       size);
}
