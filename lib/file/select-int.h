/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * select-int.h --- choosing inodes for a whole-file-system edit: one scan
 * of the inode table collects the numbers a predicate accepts, so the
 * edits that follow never write under a running scan.
 */
#ifndef E2X_SELECT_INT_H
#define E2X_SELECT_INT_H

#include "e2x.h"

typedef int (*e2x_pick_fn)(ext2_filsys fs, ext2_ino_t ino,
			   const struct ext2_inode_large *inode);

struct e2x_ino_list {
	ext2_ino_t *v;
	size_t n, cap;
};

/* Append to *L every in-use inode (the root or a non-reserved one, with
 * links and no dtime) that PICK accepts, in inode order. */
errcode_t e2x_select_inodes(ext2_filsys fs, e2x_pick_fn pick,
			    struct e2x_ino_list *l);
void e2x_ino_list_free(struct e2x_ino_list *l);

#endif /* E2X_SELECT_INT_H */
