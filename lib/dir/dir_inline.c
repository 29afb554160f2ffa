/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_inline.c --- inline directories: the parent inode (4 bytes) and a
 * chain of entries in the rest of i_block, a second chain in system.data:
 * the form's row of the table (lookup, add, remove, walk, parent), fresh
 * inline storage, and the inline bytes a packed directory gets.  Changes of
 * form themselves are dir_change.c's.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"
#include "file/file-int.h"

#define IBLOCK E2X_INLINE_IBLOCK_SIZE

/* The inline bytes of a directory, split in its two regions. */
struct ibuf {
	char *buf;
	size_t len, cap;
	struct e2x_dirregion r[2];
	int nr;
};

static void ibuf_regions(struct e2x_dirh *d, struct ibuf *ib)
{
	ib->r[0].buf = ib->buf + E2X_INLINE_DOTDOT_SIZE;
	ib->r[0].size = IBLOCK - E2X_INLINE_DOTDOT_SIZE;
	ib->r[0].bs = d->bs;
	ib->nr = 1;
	if (ib->len > IBLOCK) {
		ib->r[1].buf = ib->buf + IBLOCK;
		ib->r[1].size = (unsigned int)(ib->len - IBLOCK);
		ib->r[1].bs = d->bs;
		ib->nr = 2;
	}
}

static errcode_t ibuf_load(struct e2x_dirh *d, struct ibuf *ib)
{
	errcode_t err;
	int i;

	memset(ib, 0, sizeof(*ib));
	ib->cap = EXT2_INODE_SIZE(d->fs->super) + IBLOCK;
	ib->buf = calloc(1, ib->cap);
	if (!ib->buf)
		return EXT2_ET_NO_MEMORY;
	err = e2x_inline_get(d->fs, d->ino, d->inode, ib->buf, ib->cap,
			     &ib->len);
	if (!err && (ib->len < IBLOCK || ib->len > ib->cap))
		err = E2X_ERR_CORRUPT;
	if (err)
		return err;
	ibuf_regions(d, ib);
	for (i = 0; i < ib->nr; i++)
		if (e2x_dirregion_check(&ib->r[i]))
			return E2X_ERR_CORRUPT;
	return 0;
}

static errcode_t ibuf_store(struct e2x_dirh *d, struct ibuf *ib)
{
	errcode_t err;

	err = e2x_inline_set(d->fs, d->ino, d->inode, ib->buf, ib->len);
	if (err)
		return err;
	ext2fs_inode_size_set(d->fs, (struct ext2_inode *)d->inode, ib->len);
	d->changed = 1;
	return 0;
}

static void ibuf_free(struct ibuf *ib)
{
	free(ib->buf);
	ib->buf = NULL;
}

/* Find NAME: region index and offsets, or -1. */
static int ibuf_find(struct ibuf *ib, const char *name, unsigned int len,
		     int *off, int *prev)
{
	int i;

	for (i = 0; i < ib->nr; i++) {
		*off = e2x_dirregion_find(&ib->r[i], name, len, prev);
		if (*off >= 0)
			return i;
	}
	return -1;
}

static errcode_t inline_parent(struct e2x_dirh *d, ext2_ino_t *parent)
{
	struct ibuf ib;
	errcode_t err;

	err = ibuf_load(d, &ib);
	if (!err)
		memcpy(parent, ib.buf, 4);
	ibuf_free(&ib);
	return err;
}

static errcode_t inline_set_parent(struct e2x_dirh *d, ext2_ino_t parent)
{
	struct ibuf ib;
	errcode_t err;

	err = ibuf_load(d, &ib);
	if (!err) {
		memcpy(ib.buf, &parent, 4);
		err = ibuf_store(d, &ib);
	}
	ibuf_free(&ib);
	return err;
}

static errcode_t inline_lookup(struct e2x_dirh *d, const char *name,
			       unsigned int len, ext2_ino_t *ino,
			       unsigned int *type)
{
	struct ibuf ib;
	struct e2x_dirent *de;
	int reg, off, prev;
	errcode_t err;

	err = ibuf_load(d, &ib);
	if (err)
		goto out;
	reg = ibuf_find(&ib, name, len, &off, &prev);
	err = E2X_ERR_NOT_FOUND;
	if (reg < 0)
		goto out;
	de = (void *)(ib.r[reg].buf + off);
	if (ino)
		*ino = de->inode;
	if (type)
		*type = de->file_type;
	err = 0;
out:
	ibuf_free(&ib);
	return err;
}

/* Grow system.data by NEED bytes: the last record of the second region
 * (or a new second region) covers the new room. */
static errcode_t ibuf_grow(struct e2x_dirh *d, struct ibuf *ib,
			   unsigned int need)
{
	struct e2x_dirregion *r;
	struct e2x_dirent *de;
	unsigned int off = 0, len;
	size_t cap;
	errcode_t err;

	err = e2x_inline_capacity(d->fs, d->ino, d->inode, &cap);
	if (err)
		return err == E2X_ERR_UNSUPPORTED ? E2X_ERR_NO_SPACE : err;
	if (ib->len + need > cap || ib->len + need > ib->cap)
		return E2X_ERR_NO_SPACE;
	if (ib->nr == 1) {
		ib->len = IBLOCK + need;
		ibuf_regions(d, ib);
		e2x_dirregion_init(&ib->r[1]);
		return 0;
	}
	r = &ib->r[1];
	for (;;) {
		de = (void *)(r->buf + off);
		len = e2x_dirent_rec_len(de, d->bs);
		if (off + len >= r->size)
			break;
		off += len;
	}
	memset(ib->buf + ib->len, 0, need);
	e2x_dirent_set_rec_len(de, len + need, d->bs);
	ib->len += need;
	ibuf_regions(d, ib);
	return 0;
}

static errcode_t inline_add(struct e2x_dirh *d, const char *name,
			    unsigned int len, ext2_ino_t ino, unsigned int type,
			    int grow)
{
	struct ibuf ib;
	int i;
	errcode_t err;

	(void)grow;	/* full: E2X_ERR_NO_SPACE, the caller promotes */
	err = ibuf_load(d, &ib);
	if (err)
		goto out;
	for (i = 0; i < ib.nr; i++) {
		err = e2x_dirregion_insert(&ib.r[i], ino, name, len, type);
		if (err != E2X_ERR_NO_SPACE)
			break;
	}
	if (err == E2X_ERR_NO_SPACE) {
		err = ibuf_grow(d, &ib, e2x_dirent_min_len(len));
		if (!err)
			err = e2x_dirregion_insert(&ib.r[ib.nr - 1], ino, name,
						   len, type);
	}
	if (!err)
		err = ibuf_store(d, &ib);
out:
	ibuf_free(&ib);
	return err;
}

static errcode_t inline_remove(struct e2x_dirh *d, const char *name,
			       unsigned int len, ext2_ino_t *old_ino,
			       unsigned int *old_type)
{
	struct ibuf ib;
	struct e2x_dirent *de;
	int reg, off, prev;
	errcode_t err;

	err = ibuf_load(d, &ib);
	if (err)
		goto out;
	reg = ibuf_find(&ib, name, len, &off, &prev);
	err = E2X_ERR_NOT_FOUND;
	if (reg < 0)
		goto out;
	de = (void *)(ib.r[reg].buf + off);
	*old_ino = de->inode;
	*old_type = de->file_type;
	e2x_dirregion_remove(&ib.r[reg], off, prev);
	err = ibuf_store(d, &ib);
out:
	ibuf_free(&ib);
	return err;
}

static errcode_t inline_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
			     void *priv)
{
	struct ibuf ib;
	struct e2x_dirent *de;
	union {
		struct e2x_dirent de;
		char raw[12];
	} fake;
	unsigned int off, len;
	int i, ret = 0;
	errcode_t err;

	err = ibuf_load(d, &ib);
	if (err)
		goto out;
	if (dots) {
		memset(&fake, 0, sizeof(fake));
		e2x_dirent_fill(&fake.de, d->ino, ".", 1, EXT2_FT_DIR);
		fake.de.rec_len = 12;
		ret = fn(d, 0, 0, &fake.de, priv);
		if (!ret) {
			memcpy(&fake.de.inode, ib.buf, 4);
			e2x_dirent_fill(&fake.de, fake.de.inode, "..", 2,
					EXT2_FT_DIR);
			ret = fn(d, 0, 0, &fake.de, priv);
		}
	}
	for (i = 0; i < ib.nr && !ret; i++) {
		for (off = 0; off < ib.r[i].size && !ret; off += len) {
			de = (void *)(ib.r[i].buf + off);
			len = e2x_dirent_rec_len(de, d->bs);
			if (de->inode)
				ret = fn(d, 0,
					 (unsigned int)(ib.r[i].buf - ib.buf) +
						 off,
					 de, priv);
		}
	}
	err = ret;
out:
	ibuf_free(&ib);
	return err;
}

errcode_t inline_init(struct e2x_dirh *d, ext2_ino_t parent)
{
	char buf[IBLOCK];
	struct e2x_dirregion r = { buf + 4, IBLOCK - 4, d->bs };
	errcode_t err;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &parent, 4);
	e2x_dirregion_init(&r);
	err = e2x_inline_set(d->fs, d->ino, d->inode, buf, IBLOCK);
	if (err)
		return err;
	ext2fs_inode_size_set(d->fs, (struct ext2_inode *)d->inode, IBLOCK);
	d->form = E2X_DIR_FORM_INLINE;
	d->changed = 1;
	return 0;
}

/* Lay COLL out as inline bytes in IB: the i_block region first, the rest
 * (packed exactly) in system.data. */
static void pack_layout(struct e2x_dirh *d, struct dir_coll *c,
			ext2_ino_t parent, struct ibuf *ib)
{
	struct e2x_dirent *de, *last[2] = { NULL, NULL };
	unsigned int off[2] = { 0, 0 }, room0 = IBLOCK - 4, sz;
	size_t i;
	char *base[2];

	memset(ib->buf, 0, ib->cap);
	memcpy(ib->buf, &parent, 4);
	base[0] = ib->buf + 4;
	base[1] = ib->buf + IBLOCK;
	for (i = 0; i < c->n; i++) {
		int reg;

		sz = e2x_dirent_min_len(c->v[i].name_len);
		reg = (off[1] == 0 && off[0] + sz <= room0) ? 0 : 1;
		de = (void *)(base[reg] + off[reg]);
		e2x_dirent_fill(de, c->v[i].ino, coll_name(c, &c->v[i]),
				c->v[i].name_len, c->v[i].file_type);
		e2x_dirent_set_rec_len(de, sz, d->bs);
		off[reg] += sz;
		last[reg] = de;
	}
	if (last[0])
		e2x_dirent_set_rec_len(last[0], room0 - (unsigned int)
				       ((char *)last[0] - base[0]), d->bs);
	else
		e2x_dirent_set_rec_len((void *)base[0], room0, d->bs);
	ib->len = IBLOCK + off[1];
	ibuf_regions(d, ib);
}

errcode_t inline_layout(struct e2x_dirh *d, struct dir_coll *c,
			ext2_ino_t parent, char **buf, size_t *len)
{
	struct ibuf ib;
	size_t cap, need = IBLOCK, i;
	unsigned int in_iblock = 0, sz;
	errcode_t err;

	for (i = 0; i < c->n; i++) {
		sz = e2x_dirent_min_len(c->v[i].name_len);
		if (need == IBLOCK && in_iblock + sz <= IBLOCK - 4)
			in_iblock += sz;
		else
			need += sz;
	}
	err = e2x_inline_capacity(d->fs, d->ino, d->inode, &cap);
	if (err)
		return err;
	if (need > cap)
		return E2X_ERR_INLINE_TOO_BIG;
	memset(&ib, 0, sizeof(ib));
	ib.cap = need;
	ib.buf = calloc(1, need);
	if (!ib.buf)
		return EXT2_ET_NO_MEMORY;
	pack_layout(d, c, parent, &ib);
	*buf = ib.buf;
	*len = ib.len;
	return 0;
}

errcode_t inline_store(struct e2x_dirh *d, char *buf, size_t len)
{
	struct ibuf ib;

	memset(&ib, 0, sizeof(ib));
	ib.buf = buf;
	ib.len = ib.cap = len;
	memset(d->inode->i_block, 0, sizeof(d->inode->i_block));
	d->inode->i_flags &= ~(EXT2_INDEX_FL | EXT4_EXTENTS_FL);
	d->nblocks = 0;
	d->form = E2X_DIR_FORM_INLINE;
	return ibuf_store(d, &ib);
}

const struct dir_form dir_form_inline = {
	.lookup = inline_lookup,
	.add = inline_add,
	.remove = inline_remove,
	.walk = inline_walk,
	.parent = inline_parent,
	.set_parent = inline_set_parent,
	.version = dirh_default_version,
};
