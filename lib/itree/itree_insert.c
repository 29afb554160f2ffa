/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_insert.c --- adding an entry: into its leaf when it fits; past the
 * end of a full rightmost node a new node is appended (increasing inode
 * numbers leave full nodes behind); anywhere else the node is split in
 * half.  Separators go up the same way, growing a new root at the top.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

static errcode_t put_entry(struct itree_ctx *c, unsigned int level,
			   unsigned int pos, unsigned int off, const char *e,
			   unsigned int len);

/* Count the new nodes an insert of LEN bytes can need and set them aside,
 * so that running out of space never leaves a half-split tree. */
static errcode_t reserve_nodes(struct itree_ctx *c, unsigned int len)
{
	unsigned int l, need = 0;
	errcode_t err;

	for (l = 0; l < c->levels; l++) {
		struct e2x_itree_node *h = itree_hdr(c->path[l].buf);
		unsigned int add = l ? E2X_ITREE_INDEX_LEN : len;

		if (ext2fs_le16_to_cpu(h->in_used) + add <= c->area)
			break;
		need++;
	}
	if (l == c->levels) {
		if (c->levels >= E2X_ITREE_MAX_LEVELS)
			return E2X_ERR_ITREE_DEPTH;
		need++;		/* a new root */
	}
	for (c->nreserve = 0; c->nreserve < need; c->nreserve++) {
		err = itree_alloc_node(c, &c->reserve[c->nreserve]);
		if (err)
			return err;
	}
	return 0;
}

static blk64_t take_reserved(struct itree_ctx *c)
{
	return c->reserve[--c->nreserve];
}

static errcode_t unreserve(struct itree_ctx *c)
{
	errcode_t err = 0, e;

	while (c->nreserve) {
		e = itree_free_node(c, take_reserved(c));
		if (!err)
			err = e;
	}
	return err;
}

/* Hang CHILD (lowest key SEP) to the right of the node at LEVEL.  SEP is
 * also the key of CHILD's own entry 0 when CHILD is an index node (see
 * e2x-itree.5: entry 0 holds the node's lower bound). */
static errcode_t push_up(struct itree_ctx *c, unsigned int level,
			 const struct itree_key *sep, blk64_t child)
{
	char e[E2X_ITREE_INDEX_LEN];
	unsigned int pos;

	if (level + 1 == c->levels) {
		char *buf = c->spare[0];
		blk64_t blk = take_reserved(c);
		errcode_t err;

		/* the old root is the left edge: its lower bound is (0, 0) */
		itree_node_init(c, buf, level + 1);
		itree_index_fill(itree_entry(buf, 0), 0, 0, c->path[level].blk);
		itree_index_fill(itree_entry(buf, E2X_ITREE_INDEX_LEN),
				 sep->ino, sep->hash, child);
		itree_node_set_used(c, buf, 2, 2 * E2X_ITREE_INDEX_LEN);
		err = itree_write_node(c, blk, buf);
		if (err)
			return err;
		c->root.ir_root = blk;
		c->levels++;
		c->root_dirty = 1;
		return 0;
	}
	itree_index_fill(e, sep->ino, sep->hash, child);
	pos = c->path[level + 1].idx + 1;
	return put_entry(c, level + 1, pos, pos * E2X_ITREE_INDEX_LEN, e,
			 E2X_ITREE_INDEX_LEN);
}

/* The node at LEVEL is full and the entry goes past its end on the right
 * edge of the tree: start a new node with just that entry. */
static errcode_t append_node(struct itree_ctx *c, unsigned int level,
			     const char *e, unsigned int len)
{
	char *buf = c->spare[0];
	blk64_t blk = take_reserved(c);
	struct itree_key sep;
	errcode_t err;

	itree_node_init(c, buf, level);
	memcpy(itree_entry(buf, 0), e, len);
	itree_node_set_used(c, buf, 1, len);
	err = itree_write_node(c, blk, buf);
	if (err)
		return err;
	itree_count(ITC_APPEND);
	itree_entry_key(e, level == 0, &sep);
	return push_up(c, level, &sep, blk);
}

/* Split the node at LEVEL with E inserted at byte OFF. */
static errcode_t split_node(struct itree_ctx *c, unsigned int level,
			    unsigned int off, const char *e, unsigned int len)
{
	char *buf = c->path[level].buf, *right = c->spare[0];
	unsigned int used = ext2fs_le16_to_cpu(itree_hdr(buf)->in_used);
	unsigned int total = used + len, n, s;
	blk64_t blk = take_reserved(c);
	struct itree_key sep;
	errcode_t err;

	memcpy(c->wide, itree_entry(buf, 0), off);
	memcpy(c->wide + off, e, len);
	memcpy(c->wide + off + len, itree_entry(buf, off), used - off);
	n = itree_area_offsets(c->wide, total, level == 0, c->offs);
	s = itree_split_point(c->offs, n, total, c->area);
	if (!s)
		return E2X_ERR_ITREE_CORRUPT;

	memcpy(itree_entry(buf, 0), c->wide, c->offs[s]);
	itree_node_set_used(c, buf, s, c->offs[s]);
	itree_node_init(c, right, level);
	memcpy(itree_entry(right, 0), c->wide + c->offs[s],
	       total - c->offs[s]);
	itree_node_set_used(c, right, n - s, total - c->offs[s]);
	err = itree_write_node(c, c->path[level].blk, buf);
	if (!err)
		err = itree_write_node(c, blk, right);
	if (err)
		return err;
	itree_count(ITC_SPLIT);
	itree_entry_key(itree_entry(right, 0), level == 0, &sep);
	return push_up(c, level, &sep, blk);
}

/* Put entry E (LEN bytes) at index POS, byte OFF of the node at LEVEL. */
static errcode_t put_entry(struct itree_ctx *c, unsigned int level,
			   unsigned int pos, unsigned int off, const char *e,
			   unsigned int len)
{
	char *buf = c->path[level].buf;
	struct e2x_itree_node *h = itree_hdr(buf);
	unsigned int n = ext2fs_le16_to_cpu(h->in_count);
	unsigned int used = ext2fs_le16_to_cpu(h->in_used);

	if (used + len <= c->area) {
		memmove(itree_entry(buf, off + len), itree_entry(buf, off),
			used - off);
		memcpy(itree_entry(buf, off), e, len);
		itree_node_set_used(c, buf, n + 1, used + len);
		return itree_write_node(c, c->path[level].blk, buf);
	}
	if (pos == n && itree_rightmost(c, level))
		return append_node(c, level, e, len);
	return split_node(c, level, off, e, len);
}

errcode_t e2x_itree_insert(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode_large *dir_inode,
			   const struct e2x_itree_entry *ent, int flags)
{
	char e[E2X_ITREE_LEAF_LEN(255)];
	struct itree_ctx c;
	struct itree_key k;
	unsigned int pos, off, count, len;
	errcode_t err, err2;
	int found;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!e2x_itree_feature(fs))
		return 0;
	if (!ent || !ent->name || !ent->name_len || ent->name_len > 255 ||
	    !ent->ino)
		return EXT2_ET_INVALID_ARGUMENT;
	err = itree_ctx_init(&c, fs, dir, dir_inode, 1);
	if (err)
		return err == E2X_ERR_NOT_FOUND ? 0 : err;
	k.ino = ent->ino;
	k.hash = ent->hash;
	k.name_len = ent->name_len;
	k.name = ent->name;
	len = itree_leaf_fill(e, ent);
	if (itree_insert_in_place(&c, &k, e, len)) {
		itree_count(ITC_INSERT);
		goto out;
	}
	err = itree_descend_find(&c, &k, &pos, &off, &count, &found);
	if (err)
		goto out;
	if (found) {
		err = E2X_ERR_EXISTS;
		goto out;
	}
	err = reserve_nodes(&c, len);
	if (!err)
		err = put_entry(&c, 0, pos, off, e, len);
	err2 = unreserve(&c);
	if (!err)
		err = err2;
	itree_count(ITC_INSERT);
out:
	if (c.root_dirty) {
		err2 = itree_root_store(&c);
		if (!err)
			err = err2;
	}
	itree_ctx_free(&c);
	return err;
}
