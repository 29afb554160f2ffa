/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_remove.c --- removing an entry, and coalescing: a non-root node
 * left below half full is merged with a neighbour when the two fit in
 * fifteen sixteenths of a node; one below a quarter that cannot merge is
 * evened with a neighbour.  The free sixteenth keeps a merged node from
 * splitting again at once, and a split node from merging back at once; a
 * root left with one child gives way to it.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

static errcode_t rebalance(struct itree_ctx *c, unsigned int level);

static unsigned int node_used(char *buf)
{
	return ext2fs_le16_to_cpu(itree_hdr(buf)->in_used);
}

static unsigned int node_count(char *buf)
{
	return ext2fs_le16_to_cpu(itree_hdr(buf)->in_count);
}

/* The root has a single child left: make the child the root. */
static errcode_t collapse_root(struct itree_ctx *c)
{
	char *buf = c->path[c->levels - 1].buf;
	blk64_t old = c->path[c->levels - 1].blk;

	c->root.ir_root = itree_index_child(itree_entry(buf, 0));
	c->levels--;
	c->root_dirty = 1;
	return itree_free_node(c, old);
}

/* Remove entry BIDX from the node at LEVEL (an interior node). */
static void drop_index(struct itree_ctx *c, unsigned int level,
		       unsigned int bidx)
{
	char *buf = c->path[level].buf;
	unsigned int n = node_count(buf);
	unsigned int off = bidx * E2X_ITREE_INDEX_LEN;

	memmove(itree_entry(buf, off), itree_entry(buf, off +
						   E2X_ITREE_INDEX_LEN),
		(n - bidx - 1) * E2X_ITREE_INDEX_LEN);
	itree_node_set_used(c, buf, n - 1, (n - 1) * E2X_ITREE_INDEX_LEN);
}

/* A and B are neighbours at LEVEL, B being child BIDX of the parent. */
struct pair {
	char *a, *b;
	blk64_t ablk, bblk;
	unsigned int bidx;
};

static errcode_t merge_pair(struct itree_ctx *c, unsigned int level,
			    struct pair *p)
{
	unsigned int ua = node_used(p->a), ub = node_used(p->b);
	errcode_t err;

	memcpy(itree_entry(p->a, ua), itree_entry(p->b, 0), ub);
	itree_node_set_used(c, p->a, node_count(p->a) + node_count(p->b),
			    ua + ub);
	err = itree_write_node(c, p->ablk, p->a);
	if (!err)
		err = itree_free_node(c, p->bblk);
	if (err)
		return err;
	itree_count(ITC_MERGE);
	drop_index(c, level + 1, p->bidx);
	return rebalance(c, level + 1);
}

/* Share the entries of A and B evenly and fix B's separator. */
static errcode_t even_pair(struct itree_ctx *c, unsigned int level,
			   struct pair *p)
{
	unsigned int ua = node_used(p->a), ub = node_used(p->b);
	unsigned int total = ua + ub, n, s;
	char *parent = c->path[level + 1].buf;
	struct itree_key sep;
	errcode_t err;

	memcpy(c->wide, itree_entry(p->a, 0), ua);
	memcpy(c->wide + ua, itree_entry(p->b, 0), ub);
	n = itree_area_offsets(c->wide, total, level == 0, c->offs);
	s = itree_split_point(c->offs, n, total, c->area);
	if (!s)
		return E2X_ERR_ITREE_CORRUPT;
	memcpy(itree_entry(p->a, 0), c->wide, c->offs[s]);
	itree_node_set_used(c, p->a, s, c->offs[s]);
	memcpy(itree_entry(p->b, 0), c->wide + c->offs[s], total - c->offs[s]);
	itree_node_set_used(c, p->b, n - s, total - c->offs[s]);
	itree_entry_key(itree_entry(p->b, 0), level == 0, &sep);
	itree_index_fill(itree_entry(parent, p->bidx * E2X_ITREE_INDEX_LEN),
			 sep.ino, sep.hash,
			 p->bblk);
	err = itree_write_node(c, p->ablk, p->a);
	if (!err)
		err = itree_write_node(c, p->bblk, p->b);
	if (!err)
		err = itree_write_node(c, c->path[level + 1].blk, parent);
	itree_count(ITC_SHIFT);
	return err;
}

/*
 * Three neighbours W, W+1, W+2 (the changed node among them) whose entries
 * fit in two nodes of MERGE sixteenths: share them out over the first two
 * and free the third.  Returns 1 when done, 0 when they do not fit.
 */
static int merge_three(struct itree_ctx *c, unsigned int level,
		       unsigned int w, errcode_t *errp)
{
	char *parent = c->path[level + 1].buf, *bufs[3];
	unsigned int pidx = c->path[level + 1].idx, i, k = 0, total = 0;
	unsigned int n, s;
	blk64_t blks[3];
	struct itree_key sep;
	errcode_t err = 0;

	for (i = 0; i < 3; i++) {
		blks[i] = itree_index_child(itree_entry(parent, (w + i) *
						E2X_ITREE_INDEX_LEN));
		if (w + i == pidx) {
			bufs[i] = c->path[level].buf;
		} else {
			bufs[i] = c->spare[k++];
			err = itree_read_node(c, blks[i], bufs[i], level);
			if (err)
				goto out;
		}
		if (level > 0 && i > 0)	/* entry 0 takes its separator */
			memcpy(itree_entry(bufs[i], 0),
			       itree_entry(parent, (w + i) *
					   E2X_ITREE_INDEX_LEN), 8);
		total += node_used(bufs[i]);
	}
	if (total * 16 > 2 * ITREE_MERGE_16 * c->area)
		return 0;
	for (i = 0, k = 0; i < 3; i++) {
		memcpy(c->wide + k, itree_entry(bufs[i], 0),
		       node_used(bufs[i]));
		k += node_used(bufs[i]);
	}
	n = itree_area_offsets(c->wide, total, level == 0, c->offs);
	s = itree_split_point(c->offs, n, total, c->area);
	if (!s)
		return 0;	/* long entries: no two-way cut fits */
	memcpy(itree_entry(bufs[0], 0), c->wide, c->offs[s]);
	itree_node_set_used(c, bufs[0], s, c->offs[s]);
	memcpy(itree_entry(bufs[1], 0), c->wide + c->offs[s],
	       total - c->offs[s]);
	itree_node_set_used(c, bufs[1], n - s, total - c->offs[s]);
	itree_entry_key(itree_entry(bufs[1], 0), level == 0, &sep);
	itree_index_fill(itree_entry(parent, (w + 1) * E2X_ITREE_INDEX_LEN),
			 sep.ino, sep.hash, blks[1]);
	err = itree_write_node(c, blks[0], bufs[0]);
	if (!err)
		err = itree_write_node(c, blks[1], bufs[1]);
	if (!err)
		err = itree_free_node(c, blks[2]);
	if (err)
		goto out;
	itree_count(ITC_MERGE);
	drop_index(c, level + 1, w + 2);
	err = rebalance(c, level + 1);
out:
	*errp = err;
	return 1;
}

/* Read neighbour SIDX of the node at LEVEL into a spare buffer and pair
 * the two in key order. */
static errcode_t load_pair(struct itree_ctx *c, unsigned int level,
			   unsigned int sidx, struct pair *p)
{
	struct itree_level *me = &c->path[level];
	char *parent = c->path[level + 1].buf, *sib = c->spare[1];
	unsigned int pidx = c->path[level + 1].idx;
	errcode_t err;

	err = itree_read_node(c, itree_index_child(itree_entry(parent,
				sidx * E2X_ITREE_INDEX_LEN)), sib, level);
	if (err)
		return err;
	p->a = sidx > pidx ? me->buf : sib;
	p->b = sidx > pidx ? sib : me->buf;
	p->bidx = sidx > pidx ? sidx : pidx;
	p->ablk = itree_index_child(itree_entry(parent, (p->bidx - 1) *
						E2X_ITREE_INDEX_LEN));
	p->bblk = itree_index_child(itree_entry(parent, p->bidx *
						E2X_ITREE_INDEX_LEN));
	/* entry 0 of an interior node takes the separator it lives under */
	if (level > 0)
		memcpy(itree_entry(p->b, 0),
		       itree_entry(parent, p->bidx * E2X_ITREE_INDEX_LEN), 8);
	return 0;
}

static int pair_fits(struct itree_ctx *c, struct pair *p)
{
	return (node_used(p->a) + node_used(p->b)) * 16 <=
	       ITREE_MERGE_16 * c->area;
}

/*
 * The node at LEVEL is the only child of its parent.  Appends start such
 * parents on the right edge, and they stay there, so the node is the
 * rightmost of its level, which may be underfull: it is kept while it has
 * entries.  Empty, it goes, leaving its parent empty, which the parent's
 * own rebalance then merges away (or frees in turn).
 */
static errcode_t only_child(struct itree_ctx *c, unsigned int level)
{
	struct itree_level *me = &c->path[level], *up = &c->path[level + 1];
	errcode_t err;

	if (node_count(me->buf) || level + 2 == c->levels) {
		err = itree_write_node(c, me->blk, me->buf);
		if (err || level + 2 != c->levels)
			return err;
		return collapse_root(c);	/* a root with one child */
	}
	if (!itree_rightmost(c, level + 1))
		return E2X_ERR_ITREE_CORRUPT;	/* not made by appends */
	err = itree_free_node(c, me->blk);
	if (err)
		return err;
	itree_count(ITC_MERGE);
	itree_node_set_used(c, up->buf, 0, 0);
	return rebalance(c, level + 1);
}

/*
 * The node at LEVEL changed: write it, and if it is below half full merge
 * it with its right neighbour, else its left one, when the two fit, else
 * fold three neighbours into two when they fit; below a quarter and unable
 * to merge, even it with a neighbour.
 */
static errcode_t rebalance(struct itree_ctx *c, unsigned int level)
{
	struct itree_level *me = &c->path[level];
	unsigned int pidx, pn, quarter;
	struct pair p;
	errcode_t err;

	if (level + 1 == c->levels) {
		if (level > 0 && node_count(me->buf) == 1)
			return collapse_root(c);
		return itree_write_node(c, me->blk, me->buf);
	}
	quarter = node_used(me->buf) * 4 / c->area;
	if (quarter >= ITREE_CHECK_Q)
		return itree_write_node(c, me->blk, me->buf);
	pidx = c->path[level + 1].idx;
	pn = node_count(c->path[level + 1].buf);
	if (pn < 2)
		return only_child(c, level);
	err = load_pair(c, level, pidx + 1 < pn ? pidx + 1 : pidx - 1, &p);
	if (err)
		return err;
	if (pair_fits(c, &p))
		return merge_pair(c, level, &p);
	if (pidx + 1 < pn && pidx > 0) {
		err = load_pair(c, level, pidx - 1, &p);
		if (err)
			return err;
		if (pair_fits(c, &p))
			return merge_pair(c, level, &p);
	}
	if (pn >= 3 && merge_three(c, level, pidx == 0 ? 0 : pidx + 1 < pn ?
				   pidx - 1 : pidx - 2, &err))
		return err;
	if (quarter >= ITREE_UNDER_Q)
		return itree_write_node(c, me->blk, me->buf);
	/* merge_three() took the spare buffers: load the pair again */
	err = load_pair(c, level, pidx + 1 < pn ? pidx + 1 : pidx - 1, &p);
	if (err)
		return err;
	return even_pair(c, level, &p);
}

errcode_t e2x_itree_remove(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode_large *dir_inode,
			   const struct e2x_itree_entry *ent, int flags)
{
	struct itree_ctx c;
	struct itree_key k;
	unsigned int pos, off, count, len, used;
	char *leaf;
	errcode_t err, err2;
	int found;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!e2x_itree_feature(fs))
		return 0;
	if (!ent || !ent->name || !ent->name_len || ent->name_len > 255)
		return EXT2_ET_INVALID_ARGUMENT;
	err = itree_ctx_init(&c, fs, dir, dir_inode, 1);
	if (err)
		return err == E2X_ERR_NOT_FOUND ? 0 : err;
	k.ino = ent->ino;
	k.hash = ent->hash;
	k.name_len = ent->name_len;
	k.name = ent->name;
	if (itree_remove_in_place(&c, &k)) {
		itree_count(ITC_REMOVE);
		goto out;
	}
	err = itree_descend_find(&c, &k, &pos, &off, &count, &found);
	if (err)
		goto out;
	if (!found) {
		err = E2X_ERR_NOT_FOUND;
		goto out;
	}
	leaf = c.path[0].buf;
	used = node_used(leaf);
	len = itree_entry_len(leaf, off);
	memmove(itree_entry(leaf, off), itree_entry(leaf, off + len),
		used - off - len);
	itree_node_set_used(&c, leaf, count - 1, used - len);
	err = rebalance(&c, 0);
	itree_count(ITC_REMOVE);
out:
	if (c.root_dirty) {
		err2 = itree_root_store(&c);
		if (!err)
			err = err2;
	}
	itree_ctx_free(&c);
	return err;
}
