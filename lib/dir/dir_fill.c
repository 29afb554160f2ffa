/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_fill.c --- many new entries into one directory at once: every leaf
 * read and written once, a directory that outgrows one block indexed
 * straight from the sorted entries (mke2fs -d fills whole directories).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

static errcode_t check_new(ext2_filsys fs, const struct e2x_dir_new *e)
{
	if (!e->name || e->name_len > E2X_NAME_MAX)
		return E2X_ERR_NAME_TOO_LONG;
	if (!dirh_name_ok(e->name, e->name_len))
		return EXT2_ET_INVALID_ARGUMENT;
	if (!e->ino || e->ino > fs->super->s_inodes_count ||
	    e->file_type >= EXT2_FT_MAX)
		return EXT2_ET_INVALID_ARGUMENT;
	return 0;
}

/* Old and new entries of D in C, hashed as an index built now orders
 * them. */
static errcode_t collect_all(struct e2x_dirh *d, const struct e2x_dir_new *v,
			     size_t n, struct dir_coll *c)
{
	int version = dirh_hash_version(d, d->fs->super->s_def_hash_version);
	int ft = ext2fs_has_feature_filetype(d->fs->super);
	struct dir_rec *r;
	errcode_t err;
	size_t i;

	err = dirh_collect(d, version, c);
	for (i = 0; i < n && !err; i++) {
		err = coll_add(c, v[i].ino, v[i].name, v[i].name_len,
			       ft ? v[i].file_type : 0);
		if (err)
			break;
		r = &c->v[c->n - 1];
		err = dirh_hash(d, version, v[i].name, v[i].name_len, &r->hash,
				&r->minor);
	}
	return err;
}

/* E2X_ERR_EXISTS when two entries of C share a name (C sorted by name). */
static errcode_t check_distinct(struct dir_coll *c)
{
	size_t i;

	coll_sort_name(c);
	for (i = 1; i < c->n; i++)
		if (c->v[i].name_len == c->v[i - 1].name_len &&
		    !memcmp(coll_name(c, &c->v[i]), coll_name(c, &c->v[i - 1]),
			    c->v[i].name_len))
			return E2X_ERR_EXISTS;
	return 0;
}

static unsigned int leaf_room(struct e2x_dirh *d)
{
	return d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
}

static int fits_block0(struct e2x_dirh *d, const struct dir_coll *c)
{
	unsigned int need = 24;	/* '.' and '..' */
	size_t i;

	for (i = 0; i < c->n && need <= leaf_room(d); i++)
		need += e2x_dirent_min_len(c->v[i].name_len);
	return need <= leaf_room(d);
}

/* Block 0 anew: '.', '..', then C in inode order (a walk of the
 * directory then reads the inode table forward). */
static errcode_t write_block0(struct e2x_dirh *d, ext2_ino_t parent,
			      struct dir_coll *c)
{
	struct e2x_dirent *de = (void *)(d->blk + 12);
	unsigned int off = 24, sz = 12;
	size_t i;

	coll_sort_inode(c);
	blocks_init_block0(d, d->blk, parent);
	for (i = 0; i < c->n; i++) {
		e2x_dirent_set_rec_len(de, sz, d->bs);
		de = (void *)(d->blk + off);
		sz = e2x_dirent_min_len(c->v[i].name_len);
		e2x_dirent_fill(de, c->v[i].ino, coll_name(c, &c->v[i]),
				c->v[i].name_len, c->v[i].file_type);
		off += sz;
	}
	e2x_dirent_set_rec_len(de, leaf_room(d) - (off - sz), d->bs);
	return dirh_write_leaf(d, 0, d->blk);
}

/* Block forms: one block rewritten when all fits, else an index built
 * from every entry; E2X_ERR_UNSUPPORTED when neither applies (a linear
 * directory of several blocks, or no index allowed). */
static errcode_t fill_blocks(struct e2x_dirh *d, const struct e2x_dir_new *v,
			     size_t n, int flags)
{
	int may_index = ext2fs_has_feature_dir_index(d->fs->super) &&
			!(flags & E2X_DIR_NO_INDEX);
	struct dir_coll c;
	ext2_ino_t parent;
	errcode_t err;

	if (d->form == E2X_DIR_FORM_LINEAR && d->nblocks != 1)
		return E2X_ERR_UNSUPPORTED;
	if (d->form == E2X_DIR_FORM_HTREE && !may_index)
		return E2X_ERR_UNSUPPORTED;
	memset(&c, 0, sizeof(c));
	err = collect_all(d, v, n, &c);
	if (!err)
		err = check_distinct(&c);
	if (!err)
		err = dirh_parent(d, &parent);
	if (err)
		goto out;
	if (d->form == E2X_DIR_FORM_LINEAR && fits_block0(d, &c)) {
		err = write_block0(d, parent, &c);
	} else if (may_index) {
		d->pack_full = !!(flags & E2X_DIR_BUILD_FULL);
		err = dirh_index_coll(d, parent, &c);
	} else {
		err = E2X_ERR_UNSUPPORTED;
		goto out;
	}
	d->changed = 1;
out:
	coll_free(&c);
	return err;
}

errcode_t e2x_dir_add_many(ext2_filsys fs, ext2_ino_t dir,
			   const struct e2x_dir_new *v, size_t n, int flags)
{
	struct e2x_dirh d;
	size_t i;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	for (i = 0; i < n; i++) {
		err = check_new(fs, &v[i]);
		if (err)
			return err;
	}
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	for (i = 0; i < n && !err && d.form == E2X_DIR_FORM_INLINE; i++)
		err = dirh_add(&d, v[i].name, v[i].name_len, v[i].ino,
			       v[i].file_type, flags);
	if (!err && i < n) {
		err = fill_blocks(&d, v + i, n - i, flags);
		if (err == E2X_ERR_UNSUPPORTED)
			for (err = 0; i < n && !err; i++)
				err = dirh_add(&d, v[i].name, v[i].name_len,
					       v[i].ino, v[i].file_type,
					       flags);
	}
	return dirh_close(&d, err);
}
