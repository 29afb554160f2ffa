/*
 * e2x-repair.h --- repair primitives e2fsck builds its fixes from: salvage
 * the records of a damaged directory block, write a repaired block back
 * with its checksum, drop a damaged hash index, reconnect an inode into a
 * directory.  Included from e2x.h.
 *
 * Functions that change an inode write it once (one i_version bump).
 * FLAGS arguments are reserved: pass 0.
 */
#ifndef E2X_REPAIR_H
#define E2X_REPAIR_H

/* repair_dir.c --- directory blocks and directories */

/* Make the record at OFF of region R well-formed, keeping every record
 * that can still be read: a wrong rec_len is cut or stretched to the next
 * record that looks whole, a record that cannot be read is absorbed by
 * PREV (the record before it, or -1: it becomes an unused record).
 * MIN_REC is the smallest record length allowed (12 in a block, 8 inline),
 * MAX_INO the largest inode number.  Returns the offset the walk resumes
 * at (OFF itself, or the next record when OFF was absorbed). */
unsigned int e2x_dirregion_salvage(struct e2x_dirregion *r, unsigned int off,
				   int prev, unsigned int min_rec,
				   uint32_t max_ino);
#define E2X_REPAIR_NO_CSUM	0x0001	/* dirblk_write: as it is (an index
					 * root that is rebuilt next) */
/* Write leaf block BUF of directory DIR to physical block PBLK.  With
 * metadata_csum the checksum tail is made when missing (room taken from
 * the last record; E2X_ERR_NO_SPACE when it has none) and set.  The
 * directory inode is not written (see e2x_repair_dir_touch).  Flags:
 * E2X_REPAIR_NO_CSUM. */
errcode_t e2x_repair_dirblk_write(ext2_filsys fs, ext2_ino_t dir,
				  blk64_t pblk, void *buf, int flags);
/* Write inline directory DIR whose entries were repaired in INODE (in
 * i_block and in the system.data value in place): the value is stored
 * again so its attribute entry stays right, then the inode is written. */
errcode_t e2x_repair_inline_dir_write(ext2_filsys fs, ext2_ino_t dir,
				      struct ext2_inode_large *inode,
				      int flags);
/* Map logical block LBLK of directory DIR, a hole, to a new empty leaf
 * (E2X_ERR_EXISTS when it is mapped). */
errcode_t e2x_repair_dir_fill_hole(ext2_filsys fs, ext2_ino_t dir,
				   blk64_t lblk, int flags);
/* Bump DIR's i_version once after its blocks were repaired. */
errcode_t e2x_repair_dir_touch(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Drop a directory's hash index (and its itree): index blocks become empty
 * leaves, the index flag is cleared.  Every entry stays where it is. */
errcode_t e2x_repair_dir_unindex(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Drop the index of DIR, then index it again from its entries (htree, and
 * itree when the file system has it) when it spans more than one block. */
errcode_t e2x_repair_dir_reindex(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Give INO, which no directory names, the name NAME in directory DIR: a
 * file's link count becomes 1; a directory gets '..' pointed at DIR and
 * DIR one more link (the old parent's count is the caller's). */
errcode_t e2x_repair_reconnect(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t ino,
			       const char *name, int flags);
/* Point directory INO's '..' at PARENT (block or inline directory); the
 * link counts are left to the caller. */
errcode_t e2x_repair_set_dotdot(ext2_filsys fs, ext2_ino_t ino,
				ext2_ino_t parent, int flags);

/* Make the root directory again in inode 2: one block with '.' and '..',
 * links 2.  What inode 2 held is overwritten; with E2X_REPAIR_FREE_OLD its
 * blocks are freed first (only when its map is known to be sound). */
#define E2X_REPAIR_FREE_OLD	0x0002
errcode_t e2x_repair_root_create(ext2_filsys fs, int flags);

#endif /* E2X_REPAIR_H */
