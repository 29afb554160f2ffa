/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-inode.h --- one inode as a whole: reading and writing it with its
 * checksum and i_version (iversion.c), a fresh one (inode_new.c), freeing
 * it in place, taking it back and clearing it (inode_kill.c, raw_edit.c).
 * Included from e2x.h.
 *
 * Inode buffers: every "struct ext2_inode_large *inode" in the inode,
 * xattr, inline and file headers points to a buffer of
 * e2x_inode_buf_size(fs) bytes, as filled by e2x_read_inode(); the in-inode
 * attribute area lives past the struct.  Functions that take an inode
 * buffer change it in memory only; the caller writes it once with
 * e2x_write_inode() so that i_version moves once per operation.  Functions
 * that take only an inode number read and write the inode themselves,
 * once.  FLAGS arguments are reserved unless a flag is defined: pass 0.
 */
#ifndef E2X_INODE_H
#define E2X_INODE_H

/* iversion.c --- the 64-bit inode change counter (i_version) */
uint64_t e2x_inode_get_version(const struct ext2_inode_large *inode,
			       unsigned int inode_size);
void e2x_inode_set_version(struct ext2_inode_large *inode,
			   unsigned int inode_size, uint64_t version);
/* Increment i_version once; a no-op for EA-value inodes (ea_inode feature),
 * whose version field holds a reference count. */
void e2x_inode_bump_version(struct ext2_inode_large *inode,
			    unsigned int inode_size);
/* False on a Hurd file system, whose osd1 word holds the translator block
 * where Linux keeps l_i_version: nothing may count there. */
int e2x_fs_has_iversion(ext2_filsys fs);
/* Read / write a whole inode (fs->super->s_inode_size bytes).  The write
 * bumps i_version once (not on the Hurd), recomputes the checksum and
 * stores the inode. */
errcode_t e2x_read_inode(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode);
errcode_t e2x_write_inode(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode_large *inode);
/* Bytes to allocate for an inode buffer of FS: the on-disk inode size, and
 * never less than struct ext2_inode_large, so that its fields past 128
 * bytes read as zero on a file system of 128-byte inodes. */
size_t e2x_inode_buf_size(ext2_filsys fs);
/* Store INODE as given, i_version included (no bump): for a debugger that
 * sets the field, or restores it, by hand.  E2X_WRITE_NOCSUM keeps the
 * checksum field as given too. */
#define E2X_WRITE_NOCSUM	0x0001
errcode_t e2x_write_inode_exact(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode, int flags);

/* Flag for the file and directory edits that a conversion calls
 * (e2x_file_pack/promote, e2x_dir_pack_inline/expand/itree_build/drop):
 * the content is unchanged, so mtime and ctime are left as they are. */
#define E2X_KEEP_TIMES		0x8000

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

/* inode_kill.c --- free an inode's itree (itree_flags as e2x_itree_drop),
 * blocks and attribute-block reference; IN is changed in memory, not
 * written. */
errcode_t e2x_inode_release_storage(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in,
				    int itree_flags);

/* raw_edit.c --- a deliberate raw change (debugfs clri): no bitmap,
 * counter or reference follows.  Clear inode INO to zeros (its checksum
 * and i_version, bumped once, stay right; an inode with a bad checksum can
 * be cleared). */
errcode_t e2x_inode_clear(ext2_filsys fs, ext2_ino_t ino, int flags);

/*
 * inode_new.c --- a fresh inode: number allocated and counted, fields
 * initialised (extra_isize, times; for regular files empty inline storage
 * when the feature is on, else an empty extent tree; directories and
 * symlinks get an empty i_block for their own code to fill).  Not linked
 * into any directory and not written: the caller writes it once.
 */
errcode_t e2x_inode_new(ext2_filsys fs, ext2_ino_t dir, uint16_t mode,
			struct ext2_inode_large *inode, ext2_ino_t *ino);
/* The fields of a fresh inode INO of MODE, as e2x_inode_new sets them,
 * without allocating the number (a repair recreating a fixed inode). */
errcode_t e2x_inode_setup(ext2_filsys fs, ext2_ino_t ino, uint16_t mode,
			  struct ext2_inode_large *inode);

#endif /* E2X_INODE_H */
