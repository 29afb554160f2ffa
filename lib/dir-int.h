/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir-int.h --- private to the directory files of libe2x: the open
 * directory handle one operation works on, and the per-form entry points.
 */
#ifndef E2X_DIR_INT_H
#define E2X_DIR_INT_H

#include "e2x.h"

/* An open directory for the length of one operation. */
struct e2x_dirh {
	ext2_filsys fs;
	ext2_ino_t ino;
	struct ext2_inode_large *inode;	/* EXT2_INODE_SIZE bytes */
	unsigned int bs;
	int csum;			/* metadata_csum: tails and dx tails */
	uint32_t seed;			/* per-inode checksum seed */
	uint64_t nblocks;		/* i_size / bs for block forms */
	enum e2x_dir_form form;
	int changed;			/* write the inode at dirh_close */
	char *blk;			/* scratch block buffers */
	char *blk2;
	int pack_full;			/* htree build: fill leaves up */
};

/* A collected entry (iteration in HASH or INODE order, htree build). */
struct dir_rec {
	ext2_ino_t ino;
	uint32_t hash, minor;
	uint32_t name_off;	/* into the collection's name arena */
	uint8_t name_len, file_type;
};
struct dir_coll {
	struct dir_rec *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/* dir.c */
errcode_t dirh_lookup(struct e2x_dirh *d, const char *name, unsigned int len,
		      ext2_ino_t *ino, unsigned int *type);
errcode_t dirh_add(struct e2x_dirh *d, const char *name, unsigned int len,
		   ext2_ino_t ino, unsigned int type, int flags);
errcode_t dirh_remove(struct e2x_dirh *d, const char *name,
		      unsigned int len, int flags, ext2_ino_t *old_ino,
		      unsigned int *old_type);
/* Buffers only (for an inode being created), then its number. */
errcode_t dirh_alloc(ext2_filsys fs, struct e2x_dirh *d);
void dirh_set_ino(struct e2x_dirh *d, ext2_ino_t ino);
errcode_t dirh_open(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d);
/* Write the inode (once, bumping i_version) when changed, free buffers. */
errcode_t dirh_close(struct e2x_dirh *d, errcode_t err);
errcode_t dirh_read(struct e2x_dirh *d, blk64_t lblk, char *buf);
/* With metadata_csum: 0 when the leaf's tail / the index block's dx_tail
 * holds the right checksum, EXT2_ET_DIR_CSUM_INVALID (or E2X_ERR_CORRUPT
 * without a tail) otherwise.  Checked before any change. */
errcode_t dirh_check_leaf(struct e2x_dirh *d, const char *buf);
errcode_t dirh_check_dx(struct e2x_dirh *d, const char *buf,
			unsigned int cl_off);
/* Write a leaf block (checksum tail set when metadata_csum). */
errcode_t dirh_write_leaf(struct e2x_dirh *d, blk64_t lblk, char *buf);
/* Write an index block whose countlimit sits at CL_OFF. */
errcode_t dirh_write_dx(struct e2x_dirh *d, blk64_t lblk, char *buf,
			unsigned int cl_off);
/* Append one block to the directory; *LBLK gets its logical number. */
errcode_t dirh_append_block(struct e2x_dirh *d, blk64_t *lblk);
void dirh_set_size(struct e2x_dirh *d, uint64_t nblocks);
/* Usable leaf region of a block buffer. */
void dirh_leaf_region(struct e2x_dirh *d, char *buf, struct e2x_dirregion *r);
errcode_t dirh_hash(struct e2x_dirh *d, int version, const char *name,
		    unsigned int len, uint32_t *hash, uint32_t *minor);
/* Hash version used for DIR: the root's (htree) or the fs default, with
 * the unsigned variant applied. */
int dirh_hash_version(struct e2x_dirh *d, int root_version);
int dirh_name_ok(const char *name, unsigned int len);
unsigned int dir_ft_of_mode(unsigned int mode);

errcode_t coll_add(struct dir_coll *c, ext2_ino_t ino, const char *name,
		   unsigned int len, unsigned int type);
void coll_free(struct dir_coll *c);
const char *coll_name(const struct dir_coll *c, const struct dir_rec *r);
void coll_sort_hash(struct dir_coll *c);
void coll_sort_inode(struct dir_coll *c);
void coll_sort_name(struct dir_coll *c);
/* Collect every live entry (without '.' and '..'), hashing with VERSION. */
errcode_t dirh_collect(struct e2x_dirh *d, int version, struct dir_coll *c);

/* dir_linear.c: blocks without an index */
errcode_t linear_lookup(struct e2x_dirh *d, const char *name,
			unsigned int len, ext2_ino_t *ino, unsigned int *type);
/* E2X_ERR_NO_SPACE when the directory would need a second block and
 * may be indexed instead (ALLOW_GROW = 0). */
errcode_t linear_add(struct e2x_dirh *d, const char *name, unsigned int len,
		     ext2_ino_t ino, unsigned int type, int allow_grow);
errcode_t linear_remove(struct e2x_dirh *d, const char *name,
			unsigned int len, ext2_ino_t *old_ino,
			unsigned int *old_type);
/* Walk every leaf record in disk order (dx blocks skipped). */
typedef int (*dirh_rec_fn)(struct e2x_dirh *d, blk64_t lblk,
			   unsigned int off, struct e2x_dirent *de,
			   void *priv);
errcode_t blocks_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
		      void *priv);
/* Fill a fresh first block with '.', '..' and an empty rest. */
void linear_init_block0(struct e2x_dirh *d, char *buf, ext2_ino_t parent);

/* htree.c */
errcode_t htree_lookup(struct e2x_dirh *d, const char *name, unsigned int len,
		       ext2_ino_t *ino, unsigned int *type);
errcode_t htree_add(struct e2x_dirh *d, const char *name, unsigned int len,
		    ext2_ino_t ino, unsigned int type);
errcode_t htree_remove(struct e2x_dirh *d, const char *name,
		       unsigned int len, ext2_ino_t *old_ino,
		       unsigned int *old_type);
/* Root hash version (signed variant as stored). */
errcode_t htree_root_version(struct e2x_dirh *d, int *version);
/* Rebuild the directory as an htree from its collected entries. */
errcode_t htree_build(struct e2x_dirh *d, ext2_ino_t parent);
/* The same from collected entries C (hashed with the fs default version;
 * sorted here, still owned by the caller). */
errcode_t htree_build_coll(struct e2x_dirh *d, ext2_ino_t parent,
			   struct dir_coll *c);
/* The parent from '..' of block 0. */
errcode_t blocks_parent(struct e2x_dirh *d, ext2_ino_t *parent);
errcode_t blocks_set_parent(struct e2x_dirh *d, ext2_ino_t parent);

/* dir_inline.c */
errcode_t inline_lookup(struct e2x_dirh *d, const char *name,
			unsigned int len, ext2_ino_t *ino, unsigned int *type);
/* E2X_ERR_NO_SPACE when the entry does not fit inline (promote). */
errcode_t inline_add(struct e2x_dirh *d, const char *name, unsigned int len,
		     ext2_ino_t ino, unsigned int type);
errcode_t inline_remove(struct e2x_dirh *d, const char *name,
			unsigned int len, ext2_ino_t *old_ino,
			unsigned int *old_type);
errcode_t inline_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
		      void *priv);
/* Move the entries into one block with '.' and '..'. */
errcode_t inline_promote(struct e2x_dirh *d);
/* Create the inline storage of a fresh directory. */
errcode_t inline_init(struct e2x_dirh *d, ext2_ino_t parent);
errcode_t inline_parent(struct e2x_dirh *d, ext2_ino_t *parent);
errcode_t inline_set_parent(struct e2x_dirh *d, ext2_ino_t parent);
/* Pack the entries back inline if they fit (blocks freed). */
errcode_t inline_pack(struct e2x_dirh *d);

/* itree glue (dir_itree.c) */
int dir_itree_present(struct e2x_dirh *d);
errcode_t dir_itree_insert(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t ino,
			   unsigned int type);
errcode_t dir_itree_remove(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t ino);
errcode_t dir_itree_build(struct e2x_dirh *d);
errcode_t dir_itree_drop(struct e2x_dirh *d);
int dir_itree_wanted(struct e2x_dirh *d);
errcode_t dir_itree_verify(struct e2x_dirh *d, e2x_itree_problem_fn fn,
			   void *priv, unsigned int *nproblems);

#endif
