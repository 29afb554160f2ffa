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
 * set.  Directory entries naming it are left alone (kill_file). */
errcode_t e2x_inode_kill(ext2_filsys fs, ext2_ino_t ino, int flags);

/* Free an inode's itree (itree_flags as e2x_itree_drop), blocks and
 * attribute-block reference; IN is changed in memory, not written. */
errcode_t e2x_inode_release_storage(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in,
				    int itree_flags);

/* file_space.c --- blocks of a file without content: allocate [START,
 * END] (logical blocks, inclusive; unwritten extents, i_size
 * kept) and punch them out again (whole clusters freed only when no other
 * block of the file uses them).  Inline content is moved to a block
 * before fallocate and punched as bytes. */
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

#endif /* E2X_EDIT_H */
