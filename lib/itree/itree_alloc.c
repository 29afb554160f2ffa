/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_alloc.c --- blocks for itree nodes, charged to the directory.
 *
 * Without bigalloc every node is a block of its own, allocated near the
 * directory and freed when the node goes.  With bigalloc a tree takes whole
 * clusters and keeps the blocks it is not using on a list of spare blocks
 * (ir_free, chained through in_next_free), so the nodes of one directory
 * share its clusters; clusters go back to the fs when the tree is dropped.
 * i_blocks counts the clusters held (ir_clusters).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "itree/itree-int.h"

/* Write a spare-block header pointing at NEXT. */
static errcode_t write_spare(struct itree_ctx *c, blk64_t blk, blk64_t next)
{
	char *buf = c->spare[2];
	struct e2x_itree_node *h = itree_hdr(buf);

	memset(buf, 0, c->bs);
	h->in_magic = ext2fs_cpu_to_le32(E2X_ITREE_FREE_MAGIC);
	h->in_generation = ext2fs_cpu_to_le32(c->root.ir_generation);
	h->in_owner = ext2fs_cpu_to_le32(c->dir);
	h->in_next_free = ext2fs_cpu_to_le64(next);
	return itree_write_node(c, blk, buf);
}

/* Read a spare block and return the one after it. */
static errcode_t read_spare(struct itree_ctx *c, blk64_t blk, blk64_t *next)
{
	char *buf = c->spare[2];
	struct e2x_itree_node *h = itree_hdr(buf);
	errcode_t err;

	if (blk < c->fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(c->fs->super))
		return E2X_ERR_ITREE_CORRUPT;
	err = io_channel_read_blk64(c->fs->io, blk, 1, buf);
	if (err)
		return err;
	if (ext2fs_le32_to_cpu(h->in_magic) != E2X_ITREE_FREE_MAGIC ||
	    ext2fs_le32_to_cpu(h->in_owner) != c->dir ||
	    ext2fs_le32_to_cpu(h->in_generation) != c->root.ir_generation ||
	    (c->csum && ext2fs_le32_to_cpu(h->in_checksum) !=
				itree_node_csum(c, buf, blk)))
		return E2X_ERR_ITREE_CORRUPT;
	*next = ext2fs_le64_to_cpu(h->in_next_free);
	return 0;
}

/*
 * Where a tree's blocks go: after its root, or for a new tree at the start
 * of the group after the one the directory grows in.  Kept apart from the
 * directory's own blocks, which then stay contiguous (few extents).
 */
static blk64_t tree_goal(struct itree_ctx *c)
{
	ext2_filsys fs = c->fs;
	blk64_t dgoal;
	dgrp_t g;

	if (c->root.ir_root)
		return c->root.ir_root;
	dgoal = ext2fs_find_inode_goal(fs, c->dir,
				       (struct ext2_inode *)c->inode, 0);
	g = (ext2fs_group_of_blk2(fs, dgoal) + 1) % fs->group_desc_count;
	return ext2fs_group_first_block2(fs, g);
}

/* A fresh cluster (or block), counted in the fs and charged to the dir. */
static errcode_t take_cluster(struct itree_ctx *c, blk64_t *first)
{
	blk64_t blk;
	errcode_t err;

	if (!c->goal)
		c->goal = tree_goal(c);
	err = ext2fs_new_block2(c->fs, c->goal, NULL, &blk);
	if (err)
		return err == EXT2_ET_BLOCK_ALLOC_FAIL ? E2X_ERR_NO_SPACE : err;
	blk &= ~(blk64_t)EXT2FS_CLUSTER_MASK(c->fs);
	ext2fs_block_alloc_stats2(c->fs, blk, +1);
	err = ext2fs_iblk_add_blocks(c->fs, (struct ext2_inode *)c->inode, 1);
	if (err) {
		ext2fs_block_alloc_stats2(c->fs, blk, -1);
		return err;
	}
	c->root.ir_clusters++;
	c->goal = blk + c->ratio;
	*first = blk;
	return 0;
}

errcode_t itree_alloc_node(struct itree_ctx *c, blk64_t *blk)
{
	blk64_t first, next;
	unsigned int i;
	errcode_t err;

	if (c->ratio > 1 && c->root.ir_free) {
		err = read_spare(c, c->root.ir_free, &next);
		if (err)
			return err;
		*blk = c->root.ir_free;
		c->root.ir_free = next;
		goto got;
	}
	err = take_cluster(c, &first);
	if (err)
		return err;
	/* chain the rest of the cluster, lowest block first */
	for (i = c->ratio - 1; i >= 1; i--) {
		err = write_spare(c, first + i, c->root.ir_free);
		if (err)
			return err;
		c->root.ir_free = first + i;
	}
	*blk = first;
got:
	c->root.ir_nodes++;
	c->root_dirty = 1;
	itree_count(ITC_ALLOC);
	return 0;
}

errcode_t itree_free_node(struct itree_ctx *c, blk64_t blk)
{
	errcode_t err;

	c->root.ir_nodes--;
	c->root_dirty = 1;
	itree_count(ITC_FREE);
	if (c->ratio > 1) {
		err = write_spare(c, blk, c->root.ir_free);
		if (err)
			return err;
		c->root.ir_free = blk;
		return 0;
	}
	ext2fs_block_alloc_stats2(c->fs, blk, -1);
	c->root.ir_clusters--;
	return ext2fs_iblk_sub_blocks(c->fs, (struct ext2_inode *)c->inode, 1);
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Give back every cluster holding one of BLKS (the tree's nodes and spare
 * blocks, in any order) and uncharge them.  BLKS is sorted in place.
 */
errcode_t itree_release_all(struct itree_ctx *c, blk64_t *blks, size_t n)
{
	blk64_t mask = EXT2FS_CLUSTER_MASK(c->fs), last = 0;
	uint64_t freed = 0;
	size_t i;

	qsort(blks, n, sizeof(*blks), cmp_blk);
	for (i = 0; i < n; i++) {
		blk64_t cl = blks[i] & ~mask;

		if (i && cl == last)
			continue;
		last = cl;
		ext2fs_block_alloc_stats2(c->fs, cl, -1);
		freed++;
	}
	c->root.ir_clusters = 0;
	c->root.ir_nodes = 0;
	c->root.ir_free = 0;
	return ext2fs_iblk_sub_blocks(c->fs, (struct ext2_inode *)c->inode,
				      freed);
}
