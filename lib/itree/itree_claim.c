/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_claim.c --- the blocks a directory's itree holds, found without
 * trusting the tree: every block reachable from the root record that
 * still reads as one of the directory's nodes (node magic and owner;
 * checksums, counts and levels not trusted), and the spare blocks of the
 * free chain.  e2fsck's pass 1 claims exactly these, and a forced drop of
 * a damaged tree frees exactly these, so one run leaves the bitmaps right.
 */
#include "config.h"
#include <stdlib.h>
#include "itree/itree-int.h"

#define CLAIM_MAX_BLOCKS (1U << 22)

struct claim {
	ext2_filsys fs;
	ext2_ino_t dir;
	struct blist got;
	size_t max;
	char *buf;
};

/* Append BLK to the growing list B (shared with itree_build.c, which
 * calls down into this file, never the other way). */
errcode_t itree_blist_add(struct blist *b, blk64_t blk)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		blk64_t *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return EXT2_ET_NO_MEMORY;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = blk;
	return 0;
}

static int in_fs(ext2_filsys fs, blk64_t b)
{
	return b >= fs->super->s_first_data_block &&
	       b < ext2fs_blocks_count(fs->super);
}

/* Block B read into c->buf when it is one of the directory's blocks with
 * header magic MAGIC. */
static int owned_node(struct claim *c, blk64_t b, uint32_t magic)
{
	const struct e2x_itree_node *h = (const void *)c->buf;

	return in_fs(c->fs, b) &&
	       !io_channel_read_blk64(c->fs->io, b, 1, c->buf) &&
	       ext2fs_le32_to_cpu(h->in_magic) == magic &&
	       ext2fs_le32_to_cpu(h->in_owner) == c->dir;
}

/* Breadth first from ROOT: a block that is not an owned node is left out,
 * and so is what it points to. */
static errcode_t claim_nodes(struct claim *c, blk64_t root)
{
	struct blist kids = { NULL, 0, 0 };
	size_t i, k;
	errcode_t err = 0;

	if (!owned_node(c, root, E2X_ITREE_NODE_MAGIC))
		return 0;
	err = itree_blist_add(&c->got, root);
	for (i = 0; !err && i < c->got.n && c->got.n < c->max; i++) {
		const struct e2x_itree_node *h = (const void *)c->buf;
		const struct e2x_itree_index_entry *ie;
		unsigned int count;

		if (!owned_node(c, c->got.v[i], E2X_ITREE_NODE_MAGIC) ||
		    !h->in_level)
			continue;
		ie = (const void *)(c->buf + E2X_ITREE_HDR_SIZE);
		count = ext2fs_le16_to_cpu(h->in_count);
		kids.n = 0;
		for (k = 0; !err && k < count && E2X_ITREE_HDR_SIZE +
				(k + 1) * E2X_ITREE_INDEX_LEN <= c->fs->blocksize;
		     k++)
			err = itree_blist_add(&kids,
					ext2fs_le64_to_cpu(ie[k].ie_child));
		/* children read after this node's entries are copied out */
		for (k = 0; !err && k < kids.n && c->got.n < c->max; k++)
			if (owned_node(c, kids.v[k], E2X_ITREE_NODE_MAGIC))
				err = itree_blist_add(&c->got, kids.v[k]);
	}
	free(kids.v);
	return err;
}

static errcode_t claim_free_chain(struct claim *c, blk64_t b)
{
	const struct e2x_itree_node *h = (const void *)c->buf;
	size_t guard = 0;
	errcode_t err = 0;

	while (!err && b && guard++ < c->max &&
	       owned_node(c, b, E2X_ITREE_FREE_MAGIC)) {
		err = itree_blist_add(&c->got, b);
		b = ext2fs_le64_to_cpu(h->in_next_free);
	}
	return err;
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted, one block per cluster, no repeats (a damaged tree may point
 * twice at one node). */
static void claim_settle(struct claim *c)
{
	blk64_t mask = EXT2FS_CLUSTER_MASK(c->fs);
	size_t i, out = 0;

	blk64_t *v = c->got.v;

	if (!c->got.n)
		return;		/* nothing claimed: no list (qsort of NULL) */
	for (i = 0; i < c->got.n; i++)
		v[i] &= ~mask;
	qsort(v, c->got.n, sizeof(*v), cmp_blk);
	for (i = 0; i < c->got.n; i++)
		if (!out || v[out - 1] != v[i])
			v[out++] = v[i];
	c->got.n = out;
}

errcode_t e2x_itree_claimed(ext2_filsys fs, ext2_ino_t dir,
			    const struct ext2_inode_large *dir_inode,
			    blk64_t **clusters, size_t *n)
{
	struct e2x_itree_root root;
	struct claim c = { .fs = fs, .dir = dir, .max = CLAIM_MAX_BLOCKS };
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*clusters = NULL;
	*n = 0;
	if (!e2x_itree_feature(fs) || e2x_itree_root_get(fs, dir_inode, &root))
		return 0;
	if (ext2fs_blocks_count(fs->super) < c.max)
		c.max = ext2fs_blocks_count(fs->super);
	err = ext2fs_get_mem(fs->blocksize, &c.buf);
	if (err)
		return err;
	err = claim_nodes(&c, root.ir_root);
	if (!err)
		err = claim_free_chain(&c, root.ir_free);
	ext2fs_free_mem(&c.buf);
	if (err) {
		free(c.got.v);
		return err;
	}
	claim_settle(&c);
	*clusters = c.got.v;
	*n = c.got.n;
	return 0;
}
