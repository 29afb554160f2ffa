/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pack_all.c --- conversion to inline data: walk every inode and pack the
 * regular files and symlinks whose content now fits in the inode.
 */
#include "config.h"
#include <string.h>
#include "file/select-int.h"

/* Flags that rule packing out: encrypted content, a Merkle tree stored
 * past EOF, an EA-value inode, DAX (no inline data by kernel rule). */
#define NO_PACK_FLAGS \
	(EXT4_ENCRYPT_FL | EXT4_VERITY_FL | EXT4_EA_INODE_FL | FS_DAX_FL)

/* True when INODE is a live regular file or symlink worth trying. */
static int pack_candidate(ext2_filsys fs, ext2_ino_t ino,
			  const struct ext2_inode_large *inode)
{
	if (ino < EXT2_FIRST_INODE(fs->super))
		return 0;
	if (!LINUX_S_ISREG(inode->i_mode) && !LINUX_S_ISLNK(inode->i_mode))
		return 0;
	if (inode->i_flags & (NO_PACK_FLAGS | EXT4_INLINE_DATA_FL))
		return 0;
	if (LINUX_S_ISLNK(inode->i_mode) &&
	    EXT2_I_SIZE(inode) < E2X_INLINE_IBLOCK_SIZE &&
	    !ext2fs_inode_data_blocks2(fs, (struct ext2_inode *)inode))
		return 0;	/* a fast symlink already */
	/* Nothing longer than the inode itself can fit into it. */
	return EXT2_I_SIZE(inode) <= EXT2_INODE_SIZE(fs->super);
}

errcode_t e2x_file_pack_all(ext2_filsys fs, int flags, unsigned long *packed)
{
	struct e2x_ino_list l = { 0 };
	errcode_t err;
	size_t i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (packed)
		*packed = 0;
	if (!ext2fs_has_feature_inline_data(fs->super))
		return E2X_ERR_UNSUPPORTED;
	err = e2x_select_inodes(fs, pack_candidate, &l);
	for (i = 0; !err && i < l.n; i++) {
		err = e2x_file_pack(fs, l.v[i], flags);
		if (err == E2X_ERR_INLINE_TOO_BIG ||
		    err == E2X_ERR_UNSUPPORTED) {
			err = 0;
			continue;
		}
		if (!err && packed)
			(*packed)++;
	}
	e2x_ino_list_free(&l);
	return err;
}
