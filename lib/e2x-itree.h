/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-itree.h --- the itree: a per-directory B+tree keyed by (inode number,
 * name hash) whose leaves hold the entries of an indexed directory in inode
 * order.  On-disk format in man/e2x-itree.5.  Included from e2x.h.
 *
 * Inode buffers: every "struct ext2_inode_large *dir_inode" points to a
 * buffer of EXT2_INODE_SIZE(fs->super) bytes, as filled by e2x_read_inode();
 * the root record lives in its in-inode attribute area.  The functions
 * change *dir_inode in memory only (root record, i_blocks); the caller
 * writes the inode once per operation with e2x_write_inode().  Tree nodes
 * are written by the functions themselves.  Allocation needs the block
 * bitmap loaded (ext2fs_read_bitmaps()).
 *
 * Hooks for the directory engine: call e2x_itree_insert() after adding an
 * entry and e2x_itree_remove() after removing one (both are no-ops when the
 * directory has no itree), e2x_itree_build() when a directory becomes
 * indexed, e2x_itree_drop() before freeing a directory's blocks.  '.' and
 * '..' are never in an itree.  An entry's hash is the htree major hash the
 * directory orders its name by; the verifier compares it too.
 *
 * The feature bit is unknown to libext2fs: ext2fs_open() of an itree file
 * system read-write needs EXT2_FLAG_FORCE (programs then check the
 * features themselves).
 */
#ifndef E2X_ITREE_H
#define E2X_ITREE_H

/*
 * On-disk format.  All fields little-endian; offsets in the comments.
 */

/* Superblock s_feature_ro_compat bit (the top bit: farthest from the bits
 * upstream hands out in order, see e2x-itree.5). */
#define E2X_FEATURE_RO_COMPAT_ITREE	0x80000000u
#define E2X_ITREE_FEATURE_NAME		"itree"

/* The root record is the value of the in-inode attribute "system.itree". */
#define E2X_ITREE_XATTR_INDEX		7	/* "system." */
#define E2X_ITREE_XATTR_NAME		"itree"
#define E2X_ITREE_VERSION		1

struct e2x_itree_root {
/*00*/	uint64_t ir_root;	/* block of the root node */
/*08*/	uint64_t ir_free;	/* bigalloc: first spare block, or 0 */
/*10*/	uint32_t ir_generation;	/* copied into every node */
/*14*/	uint32_t ir_clusters;	/* clusters held, in i_blocks */
/*18*/	uint8_t ir_version;	/* E2X_ITREE_VERSION */
/*19*/	uint8_t ir_levels;	/* 1 = the root is a leaf */
/*1A*/	uint16_t ir_flags;	/* 0 */
/*1C*/	uint32_t ir_nodes;	/* live nodes */
};				/* 0x20 bytes */

/* Every node block starts with this header. */
#define E2X_ITREE_NODE_MAGIC	0x45525449u	/* "ITRE" */
#define E2X_ITREE_FREE_MAGIC	0x45455246u	/* "FREE": spare block */
struct e2x_itree_node {
/*00*/	uint32_t in_magic;
/*04*/	uint16_t in_count;	/* entries */
/*06*/	uint16_t in_used;	/* bytes of the entry area in use */
/*08*/	uint8_t in_level;	/* 0 = leaf */
/*09*/	uint8_t in_fullness;	/* in_used * 4 / area (0..4) */
/*0A*/	uint16_t in_flags;	/* 0 */
/*0C*/	uint32_t in_generation;	/* ir_generation */
/*10*/	uint32_t in_owner;	/* directory inode */
/*14*/	uint32_t in_checksum;	/* crc32c or 0 */
/*18*/	uint64_t in_next_free;	/* spare blocks: the next */
};				/* 0x20 bytes; entries follow */
#define E2X_ITREE_HDR_SIZE	32

/* Leaf entry, variable size: E2X_ITREE_LEAF_LEN(name_len) bytes. */
struct e2x_itree_leaf_entry {
/*00*/	uint32_t le_ino;
/*04*/	uint32_t le_hash;	/* htree major hash of the name */
/*08*/	uint8_t le_name_len;
/*09*/	uint8_t le_file_type;	/* EXT2_FT_* */
/*0A*/	char le_name[];		/* padded with zeros to 4 bytes */
};
#define E2X_ITREE_LEAF_HDR	10
#define E2X_ITREE_LEAF_LEN(name_len) \
	((E2X_ITREE_LEAF_HDR + (unsigned int)(name_len) + 3) & ~3u)

/* Index entry: the lowest (ino, hash) of the child's subtree (entry 0 of a
 * node is not used for searching). */
struct e2x_itree_index_entry {
/*00*/	uint32_t ie_ino;
/*04*/	uint32_t ie_hash;
/*08*/	uint64_t ie_child;	/* block of the child node */
};				/* 0x10 bytes */
#define E2X_ITREE_INDEX_LEN	16

/* Most levels a tree may have: 7, 6 and 5 levels already span the largest
 * large_dir htree of 1, 4 and 64 KiB blocks (e2x-itree.5, DEPTH LIMIT). */
#define E2X_ITREE_MAX_LEVELS	8

/*
 * API
 */

/* One directory entry as the itree sees it. */
struct e2x_itree_entry {
	ext2_ino_t ino;
	uint32_t hash;		/* htree major hash of the name */
	unsigned int name_len;
	unsigned int file_type;
	const char *name;	/* no NUL; valid during a callback */
};

/* Called for each entry; return 0 to go on, E2X_ITREE_STOP to stop, any
 * other value is an error code passed back. */
#define E2X_ITREE_STOP	1
typedef int (*e2x_itree_entry_fn)(const struct e2x_itree_entry *ent,
				  void *priv);
/* A caller-supplied producer of a directory's entries (for build and
 * verify): it must call EMIT(ent, emit_priv) once per entry except '.' and
 * '..', in any order, and return 0 or an error (a nonzero value from EMIT
 * must be passed back). */
typedef errcode_t (*e2x_itree_walk_fn)(ext2_filsys fs, ext2_ino_t dir,
				       void *walk_priv,
				       e2x_itree_entry_fn emit,
				       void *emit_priv);

/* itree_root.c --- the feature bit and the root record */
static inline int e2x_itree_feature(ext2_filsys fs)
{
	return (fs->super->s_feature_ro_compat &
		E2X_FEATURE_RO_COMPAT_ITREE) != 0;
}
/* 1 when the fs has the feature and DIR_INODE carries a root record. */
int e2x_itree_present(ext2_filsys fs, const struct ext2_inode_large *dir_inode);
/* Copy the root record out (E2X_ERR_NOT_FOUND when absent,
 * E2X_ERR_ITREE_CORRUPT when malformed). */
errcode_t e2x_itree_root_get(ext2_filsys fs,
			     const struct ext2_inode_large *dir_inode,
			     struct e2x_itree_root *root);
/* 0 when DIR_INODE has room for a root record (or has one);
 * E2X_ERR_UNSUPPORTED otherwise. */
errcode_t e2x_itree_room(ext2_filsys fs,
			 const struct ext2_inode_large *dir_inode);

/* itree_insert.c --- add one entry (split, or append on the right edge).
 * No-op returning 0 when the directory has no itree.  E2X_ERR_EXISTS if
 * the same (ino, hash, name) is present. */
errcode_t e2x_itree_insert(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode_large *dir_inode,
			   const struct e2x_itree_entry *ent, int flags);
/* itree_remove.c --- remove one entry (coalescing underfull nodes).
 * No-op returning 0 when the directory has no itree; E2X_ERR_NOT_FOUND if
 * the entry is absent.  ENT->file_type is ignored. */
errcode_t e2x_itree_remove(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode_large *dir_inode,
			   const struct e2x_itree_entry *ent, int flags);

/* itree_build.c --- build a tree from WALK's entries, replacing any tree
 * the directory had (E2X_ERR_UNSUPPORTED without the feature or without
 * inode room; E2X_ERR_EXISTS on a duplicate entry); and drop a tree,
 * freeing every node (no-op without one).  Drop reads only the root record
 * and the nodes it reaches; with E2X_ITREE_FORCE it removes the record even
 * when the tree is damaged, freeing what e2x_itree_claimed() finds (for
 * fsck, whose pass 1 charged exactly those to the directory). */
#define E2X_ITREE_FORCE	0x0001
errcode_t e2x_itree_build(ext2_filsys fs, ext2_ino_t dir,
			  struct ext2_inode_large *dir_inode,
			  e2x_itree_walk_fn walk, void *walk_priv, int flags);
errcode_t e2x_itree_drop(ext2_filsys fs, ext2_ino_t dir,
			 struct ext2_inode_large *dir_inode, int flags);

/* itree_claim.c --- the clusters DIR's tree holds, found without trusting
 * the tree (node magic and owner only): what fsck charges to the
 * directory and what a forced drop frees.  *CLUSTERS (sorted, first block
 * of each cluster, free() it) is NULL and *N 0 without a tree. */
errcode_t e2x_itree_claimed(ext2_filsys fs, ext2_ino_t dir,
			    const struct ext2_inode_large *dir_inode,
			    blk64_t **clusters, size_t *n);

/* itree_iterate.c --- call FN for each entry in (ino, hash, name) order.
 * E2X_ERR_NOT_FOUND when the directory has no itree. */
errcode_t e2x_itree_iterate(ext2_filsys fs, ext2_ino_t dir,
			    const struct ext2_inode_large *dir_inode, int flags,
			    e2x_itree_entry_fn fn, void *priv);

/* itree_verify.c --- every violated invariant of one tree */
enum e2x_itree_problem_code {
	E2X_ITREEP_ROOT = 1,	/* root record malformed */
	E2X_ITREEP_BLOCK,	/* node block out of range or unreadable */
	E2X_ITREEP_MAGIC,
	E2X_ITREEP_CSUM,
	E2X_ITREEP_OWNER,	/* in_owner / in_generation not this tree */
	E2X_ITREEP_LEVEL,	/* level not one below the parent's */
	E2X_ITREEP_COUNT,	/* in_count / in_used / in_fullness wrong */
	E2X_ITREEP_ENTRY,	/* entry malformed (length, name, type) */
	E2X_ITREEP_ORDER,	/* keys out of order or outside the parent */
	E2X_ITREEP_UNDERFULL,	/* node below the fullness bound */
	E2X_ITREEP_SHARED,	/* block reached twice */
	E2X_ITREEP_MISSING,	/* directory entry not in the itree */
	E2X_ITREEP_EXTRA,	/* itree entry not in the directory */
	E2X_ITREEP_ACCOUNT,	/* node, cluster or spare count */
	E2X_ITREEP_DEPTH,	/* more than E2X_ITREE_MAX_LEVELS */
	E2X_ITREEP_MAX
};
struct e2x_itree_problem {
	enum e2x_itree_problem_code code;
	blk64_t blk;		/* node block, or 0 */
	ext2_ino_t ino;		/* entry concerned, or 0 */
	unsigned int index;	/* entry index in the node */
};
/* Return nonzero to stop verifying. */
typedef int (*e2x_itree_problem_fn)(const struct e2x_itree_problem *p,
				    void *priv);
/* Check the tree of DIR; WALK (may be NULL) supplies the directory's
 * entries, which must equal the tree's exactly.  *NPROBLEMS (may be NULL)
 * gets the count.  Returns an error only when the check could not run;
 * E2X_ERR_NOT_FOUND when the directory has no itree. */
errcode_t e2x_itree_verify(ext2_filsys fs, ext2_ino_t dir,
			   const struct ext2_inode_large *dir_inode,
			   e2x_itree_walk_fn walk, void *walk_priv,
			   e2x_itree_problem_fn fn, void *priv,
			   unsigned int *nproblems);
const char *e2x_itree_problem_name(enum e2x_itree_problem_code code);

/* itree_stats.c --- shape of one tree, and operation counters (process
 * wide, for the benchmark; shifts counts evenings of two nodes). */
struct e2x_itree_stats {
	uint64_t entries;
	uint64_t nodes;
	uint64_t leaves;
	uint64_t clusters;
	unsigned int levels;
	uint64_t leaf_bytes_used;	/* sum of in_used over leaves */
	uint64_t leaf_bytes_cap;	/* leaves * entry area size */
	uint64_t reserved[4];
};
errcode_t e2x_itree_stats(ext2_filsys fs, ext2_ino_t dir,
			  const struct ext2_inode_large *dir_inode,
			  struct e2x_itree_stats *st);
struct e2x_itree_counters {
	uint64_t inserts, removes;
	uint64_t splits, appends, merges, shifts;
	uint64_t nodes_allocated, nodes_freed;
	uint64_t reserved[4];
};
void e2x_itree_counters_get(struct e2x_itree_counters *c);
void e2x_itree_counters_reset(void);

#endif /* E2X_ITREE_H */
