/*
 * e2x-repair.h --- repair primitives for e2fsck: changes to one inode
 * (and the map blocks it owns) that put a damaged inode right.
 *
 * They work on an inode held in memory: the caller writes it once with
 * e2x_write_inode(), so i_version moves once per repaired inode.  Map
 * blocks they rewrite get their checksums recomputed.  They do not touch
 * the allocation bitmaps: e2fsck recomputes those from what it finds.
 */
#ifndef E2X_REPAIR_H
#define E2X_REPAIR_H

/* repair_inode.c */
/* Mark IN deleted: no links, deletion time NOW, no flags that make a
 * later check read its (possibly garbage) map. */
void e2x_repair_clear_inode(struct ext2_inode_large *in, uint32_t now);
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

/* repair_extent.c */
#define E2X_REPAIR_EXT_DIR	0x1	/* a directory: no unwritten extents */
#define E2X_REPAIR_EXT_DIR_LIMIT 0x2	/* drop extents past 4 GiB (a directory
				   without largedir) */
/*
 * Repair an extent tree in place: drop extents that are empty, outside
 * the data area, past the largest offset, out of order or overlapping,
 * or (bigalloc) misaligned within their cluster; drop index entries whose
 * node cannot be read or is not a node of the right depth, or ends up
 * empty; set each index key to its node's first key; rewrite every node
 * changed with a fresh checksum.  The tree's shape is kept: nothing is
 * allocated.  *DROPPED counts extents and index entries removed.
 */
errcode_t e2x_repair_extent_tree(ext2_filsys fs, ext2_ino_t ino,
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
 * E2X_ERR_UNSUPPORTED on bigalloc.
 */
errcode_t e2x_repair_clone_blocks(ext2_filsys fs, ext2_ino_t ino,
				  const struct e2x_clone_ops *ops,
				  uint64_t *cloned);

/* repair_journal.c */
/* Drop the journal: the journal inode emptied (its blocks not freed: the
 * caller's bitmaps decide), the journal features and fields cleared. */
errcode_t e2x_repair_drop_journal(ext2_filsys fs);
/* Put the fields of an internal journal's superblock right: a version 1
 * block loses the version 2 fields, a version 2 one gets one user. */
errcode_t e2x_repair_journal_super(ext2_filsys fs);
/* Make a new internal journal of the default size (the block bitmap must
 * be loaded and right). */
errcode_t e2x_repair_recreate_journal(ext2_filsys fs);

#endif
