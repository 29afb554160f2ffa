/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_itree.c --- pass 1's share of the itree: the node blocks of a
 * directory's itree live outside its block map, so they are claimed here
 * as the directory's (and charged to its i_blocks, as ir_clusters says):
 * what still reads as one of its nodes, as e2x_itree_claimed() finds.
 * The tree's structure and entries are checked in pass 2 through
 * e2x_itree_verify().
 */
#include "config.h"
#include <stdlib.h>
#include "pass1.h"

/* The clusters the tree holds, as the library finds them (a forced drop
 * of a damaged tree frees the same ones). */
void p1_claim_itree(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	blk64_t *cl;
	size_t i, n;

	if (!e2x_itree_feature(fs) || !e2x_itree_present(fs, st->inode) ||
	    e2x_itree_claimed(fs, st->ino, st->inode, &cl, &n))
		return;
	for (i = 0; i < n; i++)
		st->visit(st, cl[i], 1, BK_MAP);
	free(cl);
}
