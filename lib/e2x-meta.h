/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-meta.h --- metadata outside inodes and directories: a group's
 * bitmaps and inode table, the resize inode (group_meta.c), the MMP block
 * and raw block edits for a debugger (raw_edit.c).  Included from e2x.h.
 */
#ifndef E2X_META_H
#define E2X_META_H

/* group_meta.c --- a group's block bitmap, inode bitmap or inode table
 * (kind K) and the repair that moves it to blocks free in USED. */
enum e2x_group_meta {
	E2X_GM_BLOCK_BITMAP,
	E2X_GM_INODE_BITMAP,
	E2X_GM_INODE_TABLE,
	E2X_GM_KINDS
};
blk64_t e2x_group_meta_len(ext2_filsys fs, enum e2x_group_meta k);
blk64_t e2x_group_meta_loc(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k);
void e2x_group_meta_set(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k,
			blk64_t blk);
/* Where the descriptor backup next to the superblock backup in group 1
 * puts group G's K (*BLK), read from the device: E2X_ERR_NOT_FOUND
 * (or a read error) when group 1 holds no backup. */
errcode_t e2x_group_meta_backup_loc(ext2_filsys fs, dgrp_t g,
				    enum e2x_group_meta k, blk64_t *blk);
/* Move group G's K to zeroed blocks free in USED (a cluster bitmap; the
 * group's own blocks first, any group's with flex_bg), mark them in USED
 * and point the descriptor there (checksum set, superblock dirty).  The
 * old blocks are not touched.  EXT2_ET_BLOCK_ALLOC_FAIL when no room. */
errcode_t e2x_group_meta_move(ext2_filsys fs, dgrp_t g,
			      enum e2x_group_meta k,
			      ext2fs_block_bitmap used, blk64_t *newblk);
/* The resize inode (inode 7): cleared to zeroes (i_version moved once),
 * and made again from the reserved descriptor blocks once the block
 * bitmap is right (its double indirect block is allocated from it; the
 * rebuild does not move i_version: call it after the clear). */
errcode_t e2x_resize_inode_clear(ext2_filsys fs);
errcode_t e2x_resize_inode_rebuild(ext2_filsys fs);

/* raw_edit.c --- deliberate raw changes of blocks (debugfs zap_block):
 * only the named bytes change; nothing follows them. */
/* Fill LEN bytes at OFFSET of block BLK with PATTERN. */
errcode_t e2x_block_fill(ext2_filsys fs, blk64_t blk, unsigned int offset,
			 unsigned int len, unsigned char pattern);
/* Flip bit BIT (0 = lowest bit of byte 0) of block BLK. */
errcode_t e2x_block_flip_bit(ext2_filsys fs, blk64_t blk, unsigned int bit);
/* Read the MMP block BLK into a new block-sized *MMP (free with
 * ext2fs_free_mem), and store one back with its checksum recomputed
 * (FLAGS must be 0). */
errcode_t e2x_mmp_read(ext2_filsys fs, blk64_t blk, void **mmp);
errcode_t e2x_mmp_store(ext2_filsys fs, blk64_t blk, void *mmp, int flags);

#endif /* E2X_META_H */
