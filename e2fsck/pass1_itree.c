/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_itree.c --- pass 1's share of the itree: the node blocks of a
 * directory's itree live outside its block map, so they are claimed here
 * as the directory's (and charged to its i_blocks, as ir_clusters says).
 * The tree's structure and entries are checked in pass 2 through
 * e2x_itree_verify().
 */
#include "config.h"
#include <stdlib.h>
#include "pass1.h"

#define ITREE_MAX_BLOCKS (1U << 22)

struct blk_set {
	blk64_t *v;
	size_t n, cap;
};

static int set_add(struct blk_set *s, blk64_t b)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		blk64_t *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = b;
	return 0;
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Collect the node blocks reachable from the root, breadth first; stop
 * at anything malformed (pass 2 reports it). */
static void collect_nodes(struct p1_inode *st, blk64_t root, char *buf,
			  struct blk_set *s)
{
	ext2_filsys fs = st->fs;
	size_t i;

	size_t max = ITREE_MAX_BLOCKS;

	/* a tree has fewer nodes than the file system has blocks */
	if (ext2fs_blocks_count(fs->super) < max)
		max = ext2fs_blocks_count(fs->super);
	if (!fsck_block_in_fs(fs, root) || set_add(s, root))
		return;
	for (i = 0; i < s->n && s->n < max; i++) {
		struct e2x_itree_node *n = (void *)buf;
		struct e2x_itree_index_entry *ie;
		unsigned int k;

		if (io_channel_read_blk64(fs->io, s->v[i], 1, buf) ||
		    n->in_magic != E2X_ITREE_NODE_MAGIC || n->in_level == 0 ||
		    n->in_owner != st->ino)
			continue;
		ie = (void *)(buf + E2X_ITREE_HDR_SIZE);
		for (k = 0; k < n->in_count &&
			    E2X_ITREE_HDR_SIZE + (k + 1) * E2X_ITREE_INDEX_LEN <=
				    fs->blocksize;
		     k++)
			if (fsck_block_in_fs(fs, ie[k].ie_child))
				set_add(s, ie[k].ie_child);
	}
}

/* Spare blocks on the bigalloc free chain. */
static void collect_free(struct p1_inode *st, blk64_t b, char *buf,
			 struct blk_set *s)
{
	size_t guard = 0;

	while (b && fsck_block_in_fs(st->fs, b) && guard++ < ITREE_MAX_BLOCKS) {
		struct e2x_itree_node *n = (void *)buf;

		if (io_channel_read_blk64(st->fs->io, b, 1, buf) ||
		    n->in_magic != E2X_ITREE_FREE_MAGIC || set_add(s, b))
			return;
		b = n->in_next_free;
	}
}

void p1_claim_itree(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	struct e2x_itree_root root;
	struct blk_set s = { 0 };
	blk64_t last = ~(blk64_t)0;
	char *buf = NULL;
	size_t i;

	if (!e2x_itree_feature(fs) || !e2x_itree_present(fs, st->inode) ||
	    e2x_itree_root_get(fs, st->inode, &root))
		return;
	if (ext2fs_get_mem(fs->blocksize, &buf))
		return;
	collect_nodes(st, root.ir_root, buf, &s);
	collect_free(st, root.ir_free, buf, &s);
	qsort(s.v, s.n, sizeof(*s.v), cmp_blk);
	for (i = 0; i < s.n; i++) {
		blk64_t c = EXT2FS_B2C(fs, s.v[i]);

		if (c == last)
			continue;
		last = c;
		st->visit(st, EXT2FS_C2B(fs, c), 1, BK_MAP);
	}
	free(s.v);
	ext2fs_free_mem(&buf);
}
