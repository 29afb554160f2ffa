/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * extent_edit.c --- a file's extent tree held open for walking and for
 * edits by hand (debugfs extent_open): insert, replace or delete the
 * entry under the cursor, split its node, fix the parents' keys, map
 * one block.  The tree changes through libext2fs' extent handle; the
 * inode the handle works on is ours, so that after each edit it is
 * written once more with its checksum and i_version moved once.
 */
#include "config.h"
#include <stdlib.h>
#include "e2x.h"

struct e2x_extent_edit {
	ext2_filsys fs;
	ext2_ino_t ino;
	struct ext2_inode_large *inode;	/* the handle's inode */
	ext2_extent_handle_t handle;
};

errcode_t e2x_extent_edit_open(ext2_filsys fs, ext2_ino_t ino, int flags,
			       struct e2x_extent_edit **out)
{
	struct e2x_extent_edit *ee;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	ee = calloc(1, sizeof(*ee));
	if (!ee)
		return EXT2_ET_NO_MEMORY;
	ee->fs = fs;
	ee->ino = ino;
	ee->inode = calloc(1, e2x_inode_buf_size(fs));
	err = ee->inode ? e2x_read_inode(fs, ino, ee->inode) :
			  EXT2_ET_NO_MEMORY;
	/* the handle keeps a pointer to this inode, not a copy */
	if (!err)
		err = ext2fs_extent_open2(fs, ino,
					  (struct ext2_inode *)ee->inode,
					  &ee->handle);
	if (err) {
		e2x_extent_edit_close(ee);
		return err;
	}
	*out = ee;
	return 0;
}

ext2_extent_handle_t e2x_extent_edit_handle(struct e2x_extent_edit *ee)
{
	return ee->handle;
}

ext2_ino_t e2x_extent_edit_ino(const struct e2x_extent_edit *ee)
{
	return ee->ino;
}

void e2x_extent_edit_close(struct e2x_extent_edit *ee)
{
	if (!ee)
		return;
	if (ee->handle)
		ext2fs_extent_free(ee->handle);
	free(ee->inode);
	free(ee);
}

/* The extent C describes, as libext2fs takes it. */
static struct ext2fs_extent extent_of(const struct e2x_extent_change *c)
{
	struct ext2fs_extent e = { 0 };

	e.e_lblk = c->lblk;
	e.e_pblk = c->pblk;
	e.e_len = c->len;
	if (c->flags & E2X_EXTENT_UNINIT)
		e.e_flags = EXT2_EXTENT_FLAGS_UNINIT;
	return e;
}

static errcode_t run_change(struct e2x_extent_edit *ee,
			    const struct e2x_extent_change *c)
{
	struct ext2fs_extent e = extent_of(c);

	switch (c->op) {
	case E2X_EXTENT_INSERT:
		return ext2fs_extent_insert(ee->handle,
					    (c->flags & E2X_EXTENT_AFTER) ?
						    EXT2_EXTENT_INSERT_AFTER :
						    0,
					    &e);
	case E2X_EXTENT_REPLACE:
		return ext2fs_extent_replace(ee->handle, 0, &e);
	case E2X_EXTENT_DELETE:
		return ext2fs_extent_delete(ee->handle, 0);
	case E2X_EXTENT_SPLIT:
		return ext2fs_extent_node_split(ee->handle);
	case E2X_EXTENT_FIX_PARENTS:
		return ext2fs_extent_fix_parents(ee->handle);
	case E2X_EXTENT_SET_BMAP:
		return ext2fs_extent_set_bmap(ee->handle, c->lblk, c->pblk,
					      (c->flags & E2X_EXTENT_UNINIT) ?
						      EXT2_EXTENT_SET_BMAP_UNINIT :
						      0);
	}
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t e2x_extent_edit_apply(struct e2x_extent_edit *ee,
				const struct e2x_extent_change *c)
{
	errcode_t err;

	if (!(ee->fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	err = run_change(ee, c);
	/* the handle wrote what it changed; the inode once more, for its
	 * i_version (the same buffer: i_block and i_blocks as it left them) */
	if (!err)
		err = e2x_write_inode(ee->fs, ee->ino, ee->inode);
	return err;
}
