/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_edit.c --- whole-directory edits for debuggers and test builders:
 * one more empty block, and building or dropping one directory's itree.
 */
#include "config.h"
#include <string.h>
#include "dir/dir-int.h"

/* A fresh leaf block: one unused record over the region, tail set. */
static errcode_t add_empty_leaf(struct e2x_dirh *d)
{
	struct e2x_dirregion r;
	blk64_t lblk;
	errcode_t err;

	err = dirh_append_block(d, &lblk);
	if (err)
		return err;
	memset(d->blk, 0, d->bs);
	if (d->csum)
		e2x_dirblk_tail_init(d->blk, d->bs);
	dirh_leaf_region(d, d->blk, &r);
	e2x_dirregion_init(&r);
	d->changed = 1;
	return dirh_write_leaf(d, lblk, d->blk);
}

errcode_t e2x_dir_expand(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags & ~E2X_KEEP_TIMES)
		return EXT2_ET_INVALID_ARGUMENT;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.keep_times = !!(flags & E2X_KEEP_TIMES);
	switch (d.form) {
	case E2X_DIR_FORM_INLINE:
		d.changed = 1;
		err = dirh_promote(&d);
		break;
	case E2X_DIR_FORM_LINEAR:
		err = add_empty_leaf(&d);
		break;
	default:
		err = E2X_ERR_UNSUPPORTED;
	}
	return dirh_close(&d, err);
}

errcode_t e2x_dir_itree_build(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags & ~E2X_KEEP_TIMES)
		return EXT2_ET_INVALID_ARGUMENT;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.keep_times = !!(flags & E2X_KEEP_TIMES);
	err = E2X_ERR_UNSUPPORTED;
	if (!dir_itree_wanted(&d))
		goto out;
	err = e2x_itree_room(fs, d.inode);
	if (err)
		goto out;
	err = dir_itree_build(&d);
out:
	return dirh_close(&d, err);
}

errcode_t e2x_dir_itree_drop(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags & ~E2X_KEEP_TIMES)
		return EXT2_ET_INVALID_ARGUMENT;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.keep_times = !!(flags & E2X_KEEP_TIMES);
	err = E2X_ERR_NOT_FOUND;
	if (dir_itree_present(&d))
		err = dir_itree_drop(&d);
	return dirh_close(&d, err);
}
