/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inode_new.c --- a fresh inode ready to receive content: number allocated
 * and counted, fields set, storage initialised; not linked, not written.
 */
#include "config.h"
#include <string.h>
#include <time.h>
#include "e2x.h"

/* Extra inode bytes we ask for: up to and including i_projid. */
static unsigned int want_extra_isize(ext2_filsys fs)
{
	int isz = EXT2_INODE_SIZE(fs->super);
	unsigned int want = sizeof(struct ext2_inode_large) -
			    EXT2_GOOD_OLD_INODE_SIZE;

	if (isz <= EXT2_GOOD_OLD_INODE_SIZE)
		return 0;
	if (fs->super->s_want_extra_isize >= want &&
	    EXT2_GOOD_OLD_INODE_SIZE + fs->super->s_want_extra_isize <= isz)
		want = fs->super->s_want_extra_isize;
	return want;
}

/* Content storage of a new regular file: empty inline storage when the
 * feature is on, else an empty extent tree.  Directories, symlinks and
 * special files get an empty i_block: their own code picks the kind. */
static errcode_t init_storage(ext2_filsys fs, ext2_ino_t ino,
			      struct ext2_inode_large *inode)
{
	size_t cap;

	if (!LINUX_S_ISREG(inode->i_mode))
		return 0;
	if (e2x_inline_capacity(fs, ino, inode, &cap) == 0)
		return e2x_inline_set(fs, ino, inode, NULL, 0);
	if (ext2fs_has_feature_extents(fs->super))
		return e2x_extent_root_init(fs, inode);
	return 0;
}

errcode_t e2x_inode_setup(ext2_filsys fs, ext2_ino_t ino, uint16_t mode,
			  struct ext2_inode_large *inode)
{
	uint32_t now = (uint32_t)e2x_now(fs);
	unsigned int extra;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(inode, 0, EXT2_INODE_SIZE(fs->super));
	inode->i_mode = mode;
	inode->i_links_count = 1;
	inode->i_atime = inode->i_ctime = inode->i_mtime = now;
	extra = want_extra_isize(fs);
	inode->i_extra_isize = (uint16_t)extra;
	if (extra >= offsetof(struct ext2_inode_large, i_crtime) + 4 -
			     EXT2_GOOD_OLD_INODE_SIZE)
		inode->i_crtime = now;
	return init_storage(fs, ino, inode);
}

errcode_t e2x_inode_new(ext2_filsys fs, ext2_ino_t dir, uint16_t mode,
			struct ext2_inode_large *inode, ext2_ino_t *ino)
{
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*ino = 0;
	if (!fs->inode_map) {
		err = ext2fs_read_inode_bitmap(fs);
		if (err)
			return err;
	}
	err = ext2fs_new_inode(fs, dir, mode, NULL, ino);
	if (err)
		return err;
	err = e2x_inode_setup(fs, *ino, mode, inode);
	if (err) {
		*ino = 0;
		return err;
	}
	ext2fs_inode_alloc_stats2(fs, *ino, +1, LINUX_S_ISDIR(mode));
	return 0;
}
