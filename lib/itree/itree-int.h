/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree-int.h --- private to the itree files: the per-operation context,
 * the path from root to leaf, and node helpers.
 */
#ifndef E2X_ITREE_INT_H
#define E2X_ITREE_INT_H

#include "e2x.h"

/* A full key: (ino, hash) then the name bytes break ties (hard links whose
 * names hash alike). */
struct itree_key {
	uint32_t ino;
	uint32_t hash;
	unsigned int name_len;
	const char *name;	/* NULL in index keys */
};

/* One node on the path: its block, a buffer and the index of the child
 * followed (interior) or of the entry found (leaf). */
struct itree_level {
	blk64_t blk;
	char *buf;
	int idx;
};

/* Most entries a node can hold (64 KiB leaf, one-byte names). */
#define ITREE_MAX_ENTRIES	(65536 / 12 + 1)

/* Everything one operation needs. */
struct itree_ctx {
	ext2_filsys fs;
	ext2_ino_t dir;
	struct ext2_inode_large *inode;
	struct e2x_itree_root root;
	int root_dirty;
	unsigned int bs;
	unsigned int area;	/* bs - header: bytes for entries */
	unsigned int ratio;	/* blocks per cluster */
	uint32_t seed;		/* checksum seed for this directory */
	int csum;
	unsigned int levels;	/* == root.ir_levels */
	struct itree_level path[E2X_ITREE_MAX_LEVELS];
	char *spare[3];		/* scratch node buffers */
	char *wide;		/* 2 * bs: a node with one entry too many */
	unsigned int *offs;	/* entry offsets of one node */
	blk64_t goal;		/* 0 until the first allocation */
	char *mem;		/* every buffer above, one allocation */
	size_t memlen;
	blk64_t reserve[E2X_ITREE_MAX_LEVELS + 1];	/* nodes set aside */
	unsigned int nreserve;
};

/* Coalescing rules (e2x-itree.5): after a removal leaves a non-root node
 * below CHECK quarters of its entry area it is merged with a neighbour
 * when the two fit in MERGE sixteenths; one below UNDER quarters that
 * cannot merge is evened with a neighbour instead. */
#define ITREE_CHECK_Q		2
#define ITREE_UNDER_Q		1
#define ITREE_MERGE_16		15


/* itree_memo.c: node bytes whose checksum was verified (or written) */
int itree_memo_hit(uint32_t seed, blk64_t blk, const char *buf,
		   unsigned int bs);
void itree_memo_put(uint32_t seed, blk64_t blk, const char *buf,
		    unsigned int bs);
/* the same keyed by a cache channel's content tag (0: no tag, no hit) */
int itree_memo_tag_hit(uint32_t seed, blk64_t blk, uint64_t tag);
void itree_memo_tag_put(uint32_t seed, blk64_t blk, uint64_t tag);

/* itree_node.c */
errcode_t itree_ctx_init(struct itree_ctx *c, ext2_filsys fs, ext2_ino_t dir,
			 struct ext2_inode_large *inode, int need_root);
void itree_ctx_free(struct itree_ctx *c);
errcode_t itree_root_store(struct itree_ctx *c);
struct e2x_itree_node *itree_hdr(char *buf);
unsigned int itree_entry_len(const char *buf, unsigned int off);
char *itree_entry(char *buf, unsigned int off);
errcode_t itree_offsets(struct itree_ctx *c, char *buf, unsigned int *offs,
			unsigned int *count);
void itree_node_init(struct itree_ctx *c, char *buf, unsigned int level);
void itree_node_set_used(struct itree_ctx *c, char *buf, unsigned int count,
			 unsigned int used);
uint32_t itree_node_csum(struct itree_ctx *c, const char *buf, blk64_t blk);
errcode_t itree_check_node(struct itree_ctx *c, blk64_t blk, const char *buf,
			   int level, uint64_t tag, uint64_t *aux);
uint64_t itree_csum_mark(struct itree_ctx *c);
uint64_t itree_csum_owed(struct itree_ctx *c);
#define ITREE_CSUM_PASSED	0x17ee
#define ITREE_CSUM_OWED		0x17ef
#define ITREE_LEAF_TILED	0x10000	/* and the entries tile */
uint32_t itree_csum_of(uint32_t seed, const char *buf, blk64_t blk,
		       unsigned int bs);
int itree_blk_ok(struct itree_ctx *c, blk64_t blk);
errcode_t itree_read_node(struct itree_ctx *c, blk64_t blk, char *buf,
			  int level);
errcode_t itree_write_node(struct itree_ctx *c, blk64_t blk, char *buf);
void itree_entry_key(const char *e, int leaf, struct itree_key *k);
int itree_key_cmp(const struct itree_key *a, const struct itree_key *b);
int itree_key_cmp_ih(const struct itree_key *a, const struct itree_key *b);
unsigned int itree_leaf_fill(char *dst, const struct e2x_itree_entry *ent);
void itree_index_fill(char *dst, uint32_t ino, uint32_t hash, blk64_t child);
blk64_t itree_index_child(const char *e);
unsigned int itree_index_pick(char *buf, const struct itree_key *k);
int itree_leaf_find(struct itree_ctx *c, char *buf, const struct itree_key *k,
		    unsigned int *pos, unsigned int *off, unsigned int *count);
errcode_t itree_descend(struct itree_ctx *c, const struct itree_key *k);
errcode_t itree_next_leaf(struct itree_ctx *c, int *end);
int itree_next_sep_equal(struct itree_ctx *c, const struct itree_key *k);
int itree_rightmost(struct itree_ctx *c, unsigned int from_level);
unsigned int itree_area_offsets(const char *area, unsigned int used, int leaf,
				unsigned int *offs);
unsigned int itree_split_point(const unsigned int *offs, unsigned int count,
			       unsigned int total, unsigned int cap);
errcode_t itree_descend_find(struct itree_ctx *c, const struct itree_key *k,
			     unsigned int *pos, unsigned int *off,
			     unsigned int *count, int *found);
void itree_count(int which);

/* itree_inplace.c: 1 when the entry E (LEN bytes, key K) went into its
 * leaf, or K's entry left it, in the cache channel's own copy with nothing
 * else changing; 0 when the ordinary path must run (nothing changed). */
int itree_insert_in_place(struct itree_ctx *c, const struct itree_key *k,
			  const char *e, unsigned int len);
int itree_remove_in_place(struct itree_ctx *c, const struct itree_key *k);

/* itree_build.c: entries gathered from a walk, sorted by key; the names
 * live in the arena at NAME_OFF. */
struct bent {
	uint32_t ino, hash;
	uint8_t name_len, file_type;
	size_t name_off;
};
struct collect {
	ext2_filsys fs;
	struct bent *v;
	size_t n, cap;
	char *arena;
	size_t alen, acap;
};
errcode_t itree_collect(ext2_filsys fs, ext2_ino_t dir, e2x_itree_walk_fn walk,
			void *walk_priv, int allow_dups, struct collect *cl);
void itree_collect_free(struct collect *cl);
int itree_collect_add(const struct e2x_itree_entry *ent, void *priv);
int itree_bent_cmp(const void *a, const void *b, void *arena);
/* Every block of the tree: the nodes first (*NNODES of them), then the
 * spare blocks.  Free *BLKS. */
errcode_t itree_gather_all(struct itree_ctx *c, blk64_t **blks, size_t *n,
			   size_t *nnodes);
struct blist {
	blk64_t *v;
	size_t n, cap;
};
/* Append BLK to B (grown as needed). */
errcode_t itree_blist_add(struct blist *b, blk64_t blk);	/* itree_claim.c */

/* itree_alloc.c */
errcode_t itree_alloc_node(struct itree_ctx *c, blk64_t *blk);
errcode_t itree_free_node(struct itree_ctx *c, blk64_t blk);
errcode_t itree_release_all(struct itree_ctx *c, blk64_t *blks, size_t n);

/* itree_stats.c: counter indexes for itree_count() */
enum { ITC_INSERT, ITC_REMOVE, ITC_SPLIT, ITC_APPEND, ITC_MERGE, ITC_SHIFT,
       ITC_ALLOC, ITC_FREE, ITC_MAX };

/* Little-endian accessors for unaligned fields. */
static inline uint32_t itree_get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ext2fs_le32_to_cpu(v);
}
static inline void itree_put32(void *p, uint32_t v)
{
	v = ext2fs_cpu_to_le32(v);
	memcpy(p, &v, 4);
}
static inline uint64_t itree_get64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return ext2fs_le64_to_cpu(v);
}
static inline void itree_put64(void *p, uint64_t v)
{
	v = ext2fs_cpu_to_le64(v);
	memcpy(p, &v, 8);
}

#endif
