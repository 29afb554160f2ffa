/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-repair.h --- repair primitives e2fsck builds its fixes from.
 * Included from e2x.h.
 *
 * Inodes (repair_inode.c, repair_extent.c, repair_xattr.c,
 * repair_clone.c, repair_journal.c): changes to one inode and the map
 * blocks it owns.  They work on an inode held in memory: the caller writes
 * it once with e2x_write_inode(), so i_version moves once per repaired
 * inode.  Map blocks they rewrite get their checksums recomputed.
 *
 * Directories (repair_dir.c): salvage the records of a damaged directory
 * block, write a repaired block back with its checksum, drop a damaged
 * hash index, reconnect an inode into a directory.  Functions that change
 * an inode write it once (one i_version bump).  FLAGS arguments are
 * reserved: pass 0.
 */
#ifndef E2X_REPAIR_H
#define E2X_REPAIR_H

/* repair_inode.c */
/* Mark IN deleted: no links, deletion time NOW, no flags that make a
 * later check read its (possibly garbage) map. */
void e2x_repair_clear_inode(struct ext2_inode_large *in, uint32_t now);
/* Take the N blocks BLKS off the bad-blocks inode's list and rewrite it
 * (its map blocks through the file system's allocator); BLKS stay marked
 * in use. */
errcode_t e2x_repair_bb_unlist(ext2_filsys fs, const blk64_t *blks,
			       size_t n);
/* Forget the in-inode extended attributes of IN (ISIZE bytes): the area
 * after i_extra_isize is zeroed. */
void e2x_repair_clear_ibody_xattrs(struct ext2_inode_large *in,
				   unsigned int isize);
/* Drop every pointer of an indirect map that lies outside the data area,
 * leads to an unreadable indirect block or maps logical blocks from
 * MAX_LBLK on (0: no limit); rewrite changed indirect blocks.  *DROPPED
 * counts the pointers removed. */
errcode_t e2x_repair_ind_map(ext2_filsys fs, struct ext2_inode_large *in,
			     uint64_t max_lblk, uint64_t *dropped);

/* Give IN (a block-mapped inode, in memory) an extent tree in i_block
 * mapping the same data blocks; its indirect blocks are forgotten (the
 * caller's bitmaps decide).  E2X_ERR_NO_SPACE when the data lies in more
 * runs than the inode holds; IN is then unchanged. */
errcode_t e2x_repair_map_to_extents(ext2_filsys fs,
				    struct ext2_inode_large *in);

/* repair_extent.c */
#define E2X_REPAIR_EXT_DIR	0x1	/* a directory: no unwritten extents */
#define E2X_REPAIR_EXT_DIR_LIMIT 0x2	/* drop extents past 4 GiB (a directory
				   without largedir) */
#define E2X_REPAIR_EXT_CLOSE_GAPS 0x4	/* move each extent down to close the
				   gap before it (a directory, which may
				   have no holes) */
/*
 * Repair an extent tree in place: drop extents that are empty, outside
 * the data area, past the largest offset, out of order or overlapping,
 * or (bigalloc) misaligned within their cluster; cut an extent reaching
 * past the start of the next node's range short there; drop index
 * entries whose node cannot be read or is not a node of the right depth,
 * or ends up empty; set each index key to its node's first key; rewrite
 * every node changed with a fresh checksum.  The tree's shape is kept: nothing is
 * allocated.  *DROPPED counts extents and index entries removed.
 */
errcode_t e2x_repair_extent_tree(ext2_filsys fs, ext2_ino_t ino,
				 struct ext2_inode_large *in, int flags,
				 uint64_t *dropped);
/*
 * Whether the extent node EH (SIZE bytes: a block) is sound but for its
 * magic number: DEPTH as its parent wants, the entry limit a block holds,
 * at least one entry.  e2x_repair_extent_tree() writes the magic back
 * into such a node and keeps it.
 */
struct ext3_extent_header;
int e2x_extent_magic_only_lost(const struct ext3_extent_header *eh,
			       size_t size, int depth);
/* Leaf extent EX (NLEFT more after it) is the odd one out: it starts at
 * or past the end of the file (EOF_LBLK, by i_size), and the next extent
 * starts before EX ends yet follows the extents before EX (NEXT_FREE,
 * the first logical block they leave free) and ends, within the file
 * and below HI, before EX starts.  A damaged start is then EX's, not
 * every later extent's: EX is the one to drop. */
struct ext3_extent;
int e2x_extent_odd_one_out(const struct ext3_extent *ex, int nleft,
			   uint64_t next_free, uint64_t hi, uint64_t eof_lblk);
/*
 * Rebuild IN's extent tree as shallow as it goes: keep its sound extents
 * (as e2x_repair_extent_tree() judges them, FLAGS alike) and write them
 * into full new nodes, reusing the blocks of the old tree's sound nodes
 * (nothing is allocated; old node blocks left over are the caller's
 * bitmaps to free).  The root goes into IN (in memory) for the caller to
 * write.  E2X_ERR_NO_SPACE when the old nodes are too few or the tree
 * would still be deeper than four index levels; IN is then unchanged.
 */
errcode_t e2x_repair_extent_rebuild(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in, int flags,
				    uint64_t *dropped);

/* repair_xattr.c */
/* Rewrite attribute block BLK (of inode INO, for the checksum) with every
 * entry hash, the block hash and the checksum recomputed. */
errcode_t e2x_repair_xattr_block(ext2_filsys fs, ext2_ino_t ino,
				 blk64_t blk);
/* Set the reference count of attribute block BLK to COUNT. */
errcode_t e2x_repair_xattr_refcount(ext2_filsys fs, blk64_t blk,
				    uint32_t count);
/* Value inodes (ea_inode): give inode INO the EA_INODE flag, or set the
 * count of attribute entries that use it to COUNT.  One inode write each;
 * a value inode's i_version holds that count and is not bumped. */
errcode_t e2x_repair_ea_inode_flag(ext2_filsys fs, ext2_ino_t ino);
errcode_t e2x_repair_ea_inode_refs(ext2_filsys fs, ext2_ino_t ino,
				   uint64_t count);

/* repair_clone.c */
struct e2x_clone_ops {
	/* Whether the inode gets its own copy of BLK. */
	int (*want)(void *priv, blk64_t blk);
	/* Told after each copy (LBLK < 0: an indirect block); may be NULL. */
	void (*moved)(void *priv, blk64_t old, blk64_t new, e2_blkcnt_t lblk);
	void *priv;
};
/*
 * Copy each block of inode INO that OPS->want() picks to a new block (from
 * the allocator of FS: e2fsck installs one over what it found in use) and
 * map the copy in its place; extent nodes stay.  Reads and writes the
 * inode itself, bumping i_version once.  *CLONED counts the copies.
 * Bigalloc: the cluster rules are put right as well.  The first block of
 * each logical cluster decides its home: the cluster that block lies in,
 * when the inode maps nothing there but blocks of this logical cluster at
 * their own offsets and want() (asked once per logical cluster, with that
 * block) does not pick it; else a new cluster.  Every block of the
 * logical cluster not at its offset in the home is copied there.
 */
errcode_t e2x_repair_clone_blocks(ext2_filsys fs, ext2_ino_t ino,
				  const struct e2x_clone_ops *ops,
				  uint64_t *cloned);

/* repair_journal.c */
/* Drop the journal: the journal inode emptied (its blocks not freed: the
 * caller's bitmaps decide), the journal features and fields cleared. */
errcode_t e2x_repair_drop_journal(ext2_filsys fs);
/* Put the fields of an internal journal's superblock right: a version 1
 * block loses the version 2 fields, a version 2 one gets one user, and
 * a recorded error number is cleared. */
errcode_t e2x_repair_journal_super(ext2_filsys fs);
/* Make a new internal journal of the default size (the block bitmap must
 * be loaded and right, the free block count too).  EXT2_ET_BLOCK_ALLOC_FAIL
 * when there is no room: the file system is then left as it was. */
errcode_t e2x_repair_recreate_journal(ext2_filsys fs);
/* Make a new orphan file of the default size for a file system whose
 * orphan_file feature is on but whose s_orphan_file_inum is 0 (the
 * caller forgot a bad one; the block and inode bitmaps must be loaded and
 * right).  It takes the first free inode. */
errcode_t e2x_repair_orphan_file_rebuild(ext2_filsys fs);

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
 * leaves, the index flag is cleared.  Every entry stays where it is.
 * This and the rebuild below keep the directory's times, owner and mode:
 * its entries are the same; i_version moves once. */
errcode_t e2x_repair_dir_unindex(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Drop the index of DIR, then index it again from its entries (htree, and
 * itree when the file system has it) when it spans more than one block.
 * Index nodes of any limit are taken (those of the other checksum mode,
 * left by a metadata_csum switch cut short, too). */
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

/* repair_quota.c */
/* Write quota file INO anew holding RECS[0..N) (sorted here by id; ids
 * must be unique) through e2x_file_write(): the old length is overwritten
 * whole, and the file grows (blocks allocated) when the tree needs more
 * room. */
errcode_t e2x_repair_quota_write(ext2_filsys fs, ext2_ino_t ino,
				 const struct e2x_quota_info *info,
				 struct e2x_dquot *recs, size_t n);

/* repair_super.c */
/* The primary superblock of DEVICE (opened through MGR, unix_io when
 * NULL) says 64bit with a descriptor size of 0, which libext2fs refuses
 * to open: set the size 64-bit file systems are made with (64) and the
 * superblock checksum.  EXT2_ET_INVALID_ARGUMENT when the superblock is
 * not in that state.  FLAGS: pass 0. */
errcode_t e2x_repair_desc_size_unset(const char *device, io_manager mgr,
				     int flags);
/* The multi-mount protection block FS's superblock names (in range)
 * does not hold a valid record: write a fresh one there, marked clean.
 * EXT2_ET_INVALID_ARGUMENT without mmp or with the block out of range. */
errcode_t e2x_repair_mmp_rewrite(ext2_filsys fs);

#endif /* E2X_REPAIR_H */
