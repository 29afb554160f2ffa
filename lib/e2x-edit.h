/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-edit.h --- single edits a debugger or test builder asks for: grow a
 * directory by an empty block, (re)build or drop one directory's itree,
 * kill an inode in place, preallocate or punch file blocks, and set or
 * remove an extended attribute of any kind.  Included from e2x.h.
 *
 * Each function reads and writes the inodes it changes itself and moves
 * i_version once per call.  FLAGS arguments are reserved: pass 0.
 */
#ifndef E2X_EDIT_H
#define E2X_EDIT_H

/* dir_edit.c --- whole-directory edits over the directory engine */
/* Append one empty leaf block to a linear directory; an inline directory
 * is moved into its first block instead.  E2X_ERR_UNSUPPORTED for an
 * indexed directory (a block outside the index would be lost). */
errcode_t e2x_dir_expand(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Build (or rebuild) the itree of an htree directory from its entries.
 * E2X_ERR_UNSUPPORTED without the itree feature, for a directory that is
 * not indexed, or without in-inode room for the root record. */
errcode_t e2x_dir_itree_build(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Drop a directory's itree, freeing its nodes (E2X_ERR_NOT_FOUND when it
 * has none). */
errcode_t e2x_dir_itree_drop(ext2_filsys fs, ext2_ino_t dir, int flags);

/* inode_kill.c --- free an inode in place: its blocks (and itree), its
 * extended-attribute block reference, its bitmap bit and counters; dtime
 * set.  Directory entries naming it are left alone (kill_file).  With
 * E2X_INODE_KILL_UNLINK its link count goes to 0 as well (a repair that
 * clears an inode: checkers then read it as free). */
#define E2X_INODE_KILL_UNLINK	0x0001
errcode_t e2x_inode_kill(ext2_filsys fs, ext2_ino_t ino, int flags);

/* inode_kill.c --- take deleted inode INO back into use: its blocks
 * (those not in use again) and its bitmap bit marked, counters
 * following, dtime cleared; its link count and names are left alone.
 * E2X_ERR_EXISTS when the inode is in use.  Bitmaps must be loaded. */
errcode_t e2x_inode_undelete(ext2_filsys fs, ext2_ino_t ino, int flags);

/* raw_edit.c --- deliberate raw changes (debugfs clri, zap_block): only
 * the named bytes change; no bitmap, counter or reference follows.
 * Clear inode INO to zeros (its checksum and i_version, bumped once,
 * stay right; an inode with a bad checksum can be cleared). */
errcode_t e2x_inode_clear(ext2_filsys fs, ext2_ino_t ino, int flags);
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

/* Free an inode's itree (itree_flags as e2x_itree_drop), blocks and
 * attribute-block reference; IN is changed in memory, not written. */
errcode_t e2x_inode_release_storage(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in,
				    int itree_flags);

/* file_space.c --- blocks of a file without content: allocate [START,
 * END] (logical blocks, inclusive; unwritten extents, i_size
 * kept) and punch them out again (whole clusters freed only when no other
 * block of the file uses them).  Inline content is moved to a block
 * before fallocate; a punch from block 0 empties it (size 0, still a
 * valid inline file). */
errcode_t e2x_file_fallocate(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			     blk64_t end, int flags);
errcode_t e2x_file_punch(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			 blk64_t end, int flags);

/* xattr.c --- extended attributes by full name ("user.x",
 * "trusted.y", ...), in the inode or in an attribute block as they fit. */
errcode_t e2x_xattr_set(ext2_filsys fs, ext2_ino_t ino, const char *name,
			const void *value, size_t len, int flags);
/* Copy the value of NAME into BUF (up to BUFSIZE bytes; BUF may be NULL
 * to learn the length); *VALUE_LEN is the full length.  Values kept in
 * EA inodes are read and checked (inode in range, EA_INODE_FL, i_size,
 * value and entry hashes): E2X_ERR_CORRUPT when any is wrong.
 * E2X_ERR_NOT_FOUND when the attribute is absent. */
errcode_t e2x_xattr_get(ext2_filsys fs, ext2_ino_t ino, const char *name,
			void *buf, size_t bufsize, size_t *value_len);
/* E2X_ERR_NOT_FOUND when the attribute is absent. */
errcode_t e2x_xattr_remove(ext2_filsys fs, ext2_ino_t ino, const char *name,
			   int flags);

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

#endif /* E2X_EDIT_H */
