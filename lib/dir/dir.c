/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir.c --- the directory dispatch: one table of forms (inline, linear,
 * htree) and the calls that go to the row of a directory's form (lookup,
 * add, remove, walk, parent, hash version); over them the read-only API:
 * lookup, iterate in any order, count, form and hash of a name.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

static const struct dir_form *form_of(struct e2x_dirh *d)
{
	switch (d->form) {
	case E2X_DIR_FORM_INLINE:
		return &dir_form_inline;
	case E2X_DIR_FORM_HTREE:
		return &dir_form_htree;
	default:
		return &dir_form_linear;
	}
}

errcode_t dirh_lookup(struct e2x_dirh *d, const char *name, unsigned int len,
		      ext2_ino_t *ino, unsigned int *type)
{
	return form_of(d)->lookup(d, name, len, ino, type);
}

errcode_t dirh_form_add(struct e2x_dirh *d, const char *name, unsigned int len,
			ext2_ino_t ino, unsigned int type, int grow)
{
	return form_of(d)->add(d, name, len, ino, type, grow);
}

errcode_t dirh_form_remove(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t *old_ino,
			   unsigned int *old_type)
{
	return form_of(d)->remove(d, name, len, old_ino, old_type);
}

errcode_t dirh_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn, void *priv)
{
	return form_of(d)->walk(d, dots, fn, priv);
}

errcode_t dirh_parent(struct e2x_dirh *d, ext2_ino_t *parent)
{
	return form_of(d)->parent(d, parent);
}

errcode_t dirh_set_parent(struct e2x_dirh *d, ext2_ino_t parent)
{
	return form_of(d)->set_parent(d, parent);
}

errcode_t dirh_order_version(struct e2x_dirh *d, int *version)
{
	int v;
	errcode_t err;

	err = form_of(d)->version(d, &v);
	if (!err)
		*version = dirh_hash_version(d, v);
	return err;
}

struct collect_ctx {
	struct dir_coll *c;
	int version;
};

static int collect_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		       struct e2x_dirent *de, void *priv)
{
	struct collect_ctx *cc = priv;
	struct dir_rec *r;
	errcode_t err;

	(void)lblk;
	(void)off;
	err = coll_add(cc->c, de->inode, de->name, de->name_len,
		       de->file_type);
	if (err)
		return (int)err;
	r = &cc->c->v[cc->c->n - 1];
	return (int)dirh_hash(d, cc->version, de->name, de->name_len,
			      &r->hash, &r->minor);
}

errcode_t dirh_collect(struct e2x_dirh *d, int version, struct dir_coll *c)
{
	struct collect_ctx cc = { c, version };

	return dirh_walk(d, 0, collect_rec, &cc);
}

errcode_t e2x_dir_hash(ext2_filsys fs, ext2_ino_t dir, const char *name,
		       unsigned int name_len, uint32_t *hash, uint32_t *minor)
{
	struct e2x_dirh d;
	int v;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_order_version(&d, &v);
	if (!err)
		err = dirh_hash(&d, v, name, name_len, hash, minor);
	return dirh_close(&d, err);
}

errcode_t e2x_dir_form(ext2_filsys fs, ext2_ino_t dir, enum e2x_dir_form *f)
{
	struct e2x_dirh d;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	*f = d.form;
	return dirh_close(&d, 0);
}

errcode_t e2x_dir_lookup(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, ext2_ino_t *ino,
			 unsigned int *file_type)
{
	struct e2x_dirh d;
	ext2_ino_t i = 0;
	unsigned int t = 0;
	errcode_t err;

	if (!name || name_len == 0)
		return EXT2_ET_INVALID_ARGUMENT;
	if (name_len > E2X_NAME_MAX)
		return E2X_ERR_NAME_TOO_LONG;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	if (name_len <= 2 && !memcmp(name, "..", name_len)) {
		/* '.' and '..' wherever the form keeps them */
		t = EXT2_FT_DIR;
		i = d.ino;
		if (name_len == 2)
			err = dirh_parent(&d, &i);
	} else {
		err = dirh_lookup(&d, name, name_len, &i, &t);
	}
	if (!err) {
		if (ino)
			*ino = i;
		if (file_type)
			*file_type = t;
	}
	return dirh_close(&d, err);
}

struct iter_ctx {
	e2x_dir_iter_fn fn;
	void *priv;
	int stopped;
};

static int iter_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		    struct e2x_dirent *de, void *priv)
{
	struct iter_ctx *ic = priv;
	struct e2x_dir_entry ent;
	int ret;

	(void)d;
	(void)lblk;
	(void)off;
	memset(&ent, 0, sizeof(ent));
	ent.ino = de->inode;
	ent.name = de->name;
	ent.name_len = de->name_len;
	ent.file_type = de->file_type;
	ret = ic->fn(&ent, ic->priv);
	if (ret == E2X_DIR_ITER_STOP) {
		ic->stopped = 1;
		return -1;
	}
	return ret;
}

static errcode_t iterate_sorted(struct e2x_dirh *d, int order, int flags,
				e2x_dir_iter_fn fn, void *priv)
{
	struct dir_coll c;
	struct e2x_dir_entry ent;
	int version, ret = 0;
	size_t i;
	errcode_t err;

	memset(&c, 0, sizeof(c));
	err = dirh_order_version(d, &version);
	if (err)
		return err;
	err = dirh_collect(d, version, &c);
	if (err)
		goto out;
	if (order == E2X_DIR_ORDER_INODE)
		coll_sort_inode(&c);
	else
		coll_sort_hash(&c);
	(void)flags;
	for (i = 0; i < c.n && !ret; i++) {
		memset(&ent, 0, sizeof(ent));
		ent.ino = c.v[i].ino;
		ent.name = coll_name(&c, &c.v[i]);
		ent.name_len = c.v[i].name_len;
		ent.file_type = c.v[i].file_type;
		ent.hash = c.v[i].hash;
		ent.minor_hash = c.v[i].minor;
		ret = fn(&ent, priv);
	}
	if (ret && ret != E2X_DIR_ITER_STOP)
		err = ret;
out:
	coll_free(&c);
	return err;
}

static int itree_iter_ent(const struct e2x_itree_entry *ie, void *priv)
{
	struct iter_ctx *ic = priv;
	struct e2x_dir_entry ent;
	int ret;

	memset(&ent, 0, sizeof(ent));
	ent.ino = ie->ino;
	ent.name = ie->name;
	ent.name_len = ie->name_len;
	ent.file_type = ie->file_type;
	ent.hash = ie->hash;
	ret = ic->fn(&ent, ic->priv);
	if (ret == E2X_DIR_ITER_STOP) {
		ic->stopped = 1;
		return E2X_ITREE_STOP;
	}
	return ret;
}

/* '.' and '..' first, for the sorted orders. */
static errcode_t iterate_dots(struct e2x_dirh *d, struct iter_ctx *ic)
{
	struct e2x_dir_entry ent;
	ext2_ino_t parent;
	errcode_t err;
	int ret;

	err = dirh_parent(d, &parent);
	if (err)
		return err;
	memset(&ent, 0, sizeof(ent));
	ent.file_type = EXT2_FT_DIR;
	ent.ino = d->ino;
	ent.name = ".";
	ent.name_len = 1;
	ret = ic->fn(&ent, ic->priv);
	if (!ret) {
		ent.ino = parent;
		ent.name = "..";
		ent.name_len = 2;
		ret = ic->fn(&ent, ic->priv);
	}
	if (ret == E2X_DIR_ITER_STOP)
		ic->stopped = 1;
	else if (ret)
		return ret;
	return 0;
}

errcode_t e2x_dir_iterate(ext2_filsys fs, ext2_ino_t dir,
			  enum e2x_dir_order order, int flags,
			  e2x_dir_iter_fn fn, void *priv)
{
	struct e2x_dirh d;
	struct iter_ctx ic = { fn, priv, 0 };
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	if (order == E2X_DIR_ORDER_DISK) {
		err = dirh_walk(&d, flags & E2X_DIR_ITER_DOTS, iter_rec, &ic);
		if (ic.stopped)
			err = 0;
		goto out;
	}
	if (flags & E2X_DIR_ITER_DOTS) {
		err = iterate_dots(&d, &ic);
		if (err || ic.stopped)
			goto out;
	}
	if (order == E2X_DIR_ORDER_INODE &&
	    e2x_itree_present(fs, d.inode)) {
		err = e2x_itree_iterate(fs, dir, d.inode, 0, itree_iter_ent,
					&ic);
		if (ic.stopped)
			err = 0;
		goto out;
	}
	err = iterate_sorted(&d, order, flags, fn, priv);
out:
	return dirh_close(&d, err);
}

static int count_ent(const struct e2x_dir_entry *ent, void *priv)
{
	(void)ent;
	(*(uint64_t *)priv)++;
	return 0;
}

errcode_t e2x_dir_count(ext2_filsys fs, ext2_ino_t dir, uint64_t *count)
{
	*count = 0;
	return e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_DISK, 0, count_ent,
			       count);
}
