/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * select.c --- one scan of the inode table collecting the inodes that a
 * whole-file-system edit (packing, a conversion) will visit.
 */
#include "config.h"
#include "file/select-int.h"

static errcode_t list_push(struct e2x_ino_list *l, ext2_ino_t ino)
{
	errcode_t err;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;

		err = ext2fs_resize_mem(l->cap * sizeof(*l->v),
					cap * sizeof(*l->v), &l->v);
		if (err)
			return err;
		l->cap = cap;
	}
	l->v[l->n++] = ino;
	return 0;
}

static int in_use(ext2_filsys fs, ext2_ino_t ino,
		  const struct ext2_inode_large *inode)
{
	return (ino == EXT2_ROOT_INO || ino >= EXT2_FIRST_INODE(fs->super)) &&
	       inode->i_links_count && !inode->i_dtime;
}

errcode_t e2x_select_inodes(ext2_filsys fs, e2x_pick_fn pick,
			    struct e2x_ino_list *l)
{
	struct ext2_inode_large *inode = NULL;
	ext2_inode_scan scan = NULL;
	int isz = EXT2_INODE_SIZE(fs->super);
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_get_memzero(isz, &inode);
	if (!err)
		err = ext2fs_open_inode_scan(fs, 0, &scan);
	while (!err) {
		err = ext2fs_get_next_inode_full(scan, &ino,
						 (struct ext2_inode *)inode,
						 isz);
		if (err || !ino)
			break;
		if (in_use(fs, ino, inode) && pick(fs, ino, inode))
			err = list_push(l, ino);
	}
	if (scan)
		ext2fs_close_inode_scan(scan);
	ext2fs_free_mem(&inode);
	return err;
}

void e2x_ino_list_free(struct e2x_ino_list *l)
{
	ext2fs_free_mem(&l->v);
	l->n = l->cap = 0;
}
