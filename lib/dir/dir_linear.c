/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_linear.c --- directories stored as a list of blocks without an index
 * ('.' and '..' first in block 0): lookup, add (growing by one block when
 * allowed) and remove; the walk and '..' are dir_block.c's.
 */
#include "config.h"
#include <string.h>
#include "dir/dir-int.h"

/* Read block LBLK into d->blk and check its leaf records. */
static errcode_t read_leaf(struct e2x_dirh *d, blk64_t lblk,
			   struct e2x_dirregion *r)
{
	errcode_t err = dirh_read(d, lblk, d->blk);

	if (!err)
		err = dirh_check_leaf(d, d->blk);
	if (err)
		return err;
	dirh_leaf_region(d, d->blk, r);
	return e2x_dirregion_check(r);
}

/* Find NAME: its block stays in d->blk, *LBLK, *OFF, *PREV set. */
static errcode_t linear_find(struct e2x_dirh *d, const char *name,
			     unsigned int len, blk64_t *lblk, int *off,
			     int *prev)
{
	struct e2x_dirregion r;
	blk64_t b;
	errcode_t err;

	for (b = 0; b < d->nblocks; b++) {
		err = read_leaf(d, b, &r);
		if (err)
			return err;
		*off = e2x_dirregion_find(&r, name, len, prev);
		if (*off >= 0 && !(b == 0 && *off < 24)) {
			*lblk = b;
			return 0;
		}
	}
	return E2X_ERR_NOT_FOUND;
}

static errcode_t linear_lookup(struct e2x_dirh *d, const char *name,
			       unsigned int len, ext2_ino_t *ino,
			       unsigned int *type)
{
	struct e2x_dirent *de;
	blk64_t lblk;
	int off, prev;
	errcode_t err;

	err = linear_find(d, name, len, &lblk, &off, &prev);
	if (err)
		return err;
	de = (void *)(d->blk + off);
	if (ino)
		*ino = de->inode;
	if (type)
		*type = de->file_type;
	return 0;
}

static errcode_t linear_add(struct e2x_dirh *d, const char *name,
			    unsigned int len, ext2_ino_t ino, unsigned int type,
			    int allow_grow)
{
	struct e2x_dirregion r;
	blk64_t b;
	errcode_t err;

	for (b = 0; b < d->nblocks; b++) {
		err = read_leaf(d, b, &r);
		if (err)
			return err;
		err = e2x_dirregion_insert(&r, ino, name, len, type);
		if (!err)
			return dirh_write_leaf(d, b, d->blk);
		if (err != E2X_ERR_NO_SPACE)
			return err;
	}
	if (!allow_grow)
		return E2X_ERR_NO_SPACE;
	err = dirh_append_block(d, &b);
	if (err)
		return err;
	memset(d->blk, 0, d->bs);
	dirh_leaf_region(d, d->blk, &r);
	r.size = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	e2x_dirregion_init(&r);
	if (d->csum)
		e2x_dirblk_tail_init(d->blk, d->bs);
	err = e2x_dirregion_insert(&r, ino, name, len, type);
	if (err)
		return err;
	return dirh_write_leaf(d, b, d->blk);
}

static errcode_t linear_remove(struct e2x_dirh *d, const char *name,
			       unsigned int len, ext2_ino_t *old_ino,
			       unsigned int *old_type)
{
	struct e2x_dirregion r;
	struct e2x_dirent *de;
	blk64_t lblk;
	int off, prev;
	errcode_t err;

	err = linear_find(d, name, len, &lblk, &off, &prev);
	if (err)
		return err;
	de = (void *)(d->blk + off);
	*old_ino = de->inode;
	*old_type = de->file_type;
	dirh_leaf_region(d, d->blk, &r);
	e2x_dirregion_remove(&r, off, prev);
	return dirh_write_leaf(d, lblk, d->blk);
}


const struct dir_form dir_form_linear = {
	.lookup = linear_lookup,
	.add = linear_add,
	.remove = linear_remove,
	.walk = blocks_walk,
	.parent = blocks_parent,
	.set_parent = blocks_set_parent,
	.version = dirh_default_version,
};
