/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file-int.h --- private to the file-content code (file.c and its
 * helpers): the indirect (ext2/ext3 block-mapped) form of a file.
 */
#ifndef E2X_FILE_INT_H
#define E2X_FILE_INT_H

#include "e2x.h"

/* True when INODE keeps (or, having no map yet on a file system without
 * extents, will keep) its content in the indirect block map. */
int e2x_file_is_indirect(ext2_filsys fs,
			 const struct ext2_inode_large *inode);
/* Bytes an indirect map can address: 12 direct, single, double and
 * triple indirect blocks (capped at 2^32 logical blocks). */
uint64_t e2x_indirect_max_bytes(ext2_filsys fs);
/* Map LBLK of an indirect-mapped inode to a new zeroed block, allocating
 * the indirect blocks on the way, all near the file's blocks; i_blocks
 * counts every block allocated.  libext2fs stores the inode when blocks
 * were added (no i_version move); the caller still writes it once. */
errcode_t e2x_indirect_alloc_block(ext2_filsys fs, ext2_ino_t ino,
				   struct ext2_inode_large *inode,
				   blk64_t lblk, blk64_t *pblk);

/* e2x_file_write / e2x_symlink_write flag, private to libe2x: the inode
 * was created by the same library call, which already moved its
 * i_version, so this write stores it without a second move. */
#define E2X_FILE_FRESH_INODE	0x40000000

/* storage_switch.c --- crash-safe moves of a small inode's storage:
 * collect the old blocks, switch the inode (one write by the caller),
 * then release them. */
struct e2x_blk_list {
	blk64_t *v;
	size_t n, cap;
	errcode_t err;
};
/* Every block INO maps on disk now (data and map blocks). */
errcode_t e2x_blocks_collect(ext2_filsys fs, ext2_ino_t ino,
			     struct e2x_blk_list *l);
/* Free the clusters of L in the bitmaps and counters (each once), then
 * the list itself; e2x_blocks_free only drops the list. */
void e2x_blocks_release(ext2_filsys fs, struct e2x_blk_list *l);
void e2x_blocks_free(struct e2x_blk_list *l);
/* In memory: INODE maps nothing (i_block cleared, no extent flag,
 * i_blocks counting only its attribute block). */
void e2x_storage_forget(ext2_filsys fs, struct ext2_inode_large *inode);
/* In memory: INODE, mapping nothing, maps logical blocks 0..LEN-1 to the
 * run at PBLK (up to 4 extents in i_block, or i_block[0] for one block
 * without extents; else E2X_ERR_UNSUPPORTED); i_blocks counts them. */
errcode_t e2x_storage_map_range(ext2_filsys fs,
				struct ext2_inode_large *inode, blk64_t pblk,
				blk64_t len);
/* Write BUF (one block) to a new block near INO's goal and map it as
 * logical block 0 of INODE (mapping nothing yet), in memory: the caller's
 * inode write is the switch. */
errcode_t e2x_storage_new_block(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode,
				const void *buf);

#endif /* E2X_FILE_INT_H */
