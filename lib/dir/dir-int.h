/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir-int.h --- private to the directory files of libe2x: the open
 * directory handle one operation works on, and the per-form entry points.
 */
#ifndef E2X_DIR_INT_H
#define E2X_DIR_INT_H

#include "e2x.h"
#include "file/file-int.h"

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
	int keep_times;			/* a conversion: no mtime/ctime */
	/* e2x_dir_build_htree: the new index is written to a fresh run of
	 * blocks (shadow, shadow_len; writes of block N go to shadow + N)
	 * and the inode switches to it; the old blocks (old) are freed
	 * after dirh_close's inode write. */
	int shadow_build;
	blk64_t shadow;
	uint64_t shadow_len;
	struct e2x_blk_list old;
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

/*
 * The layers, each calling only those below it:
 *   dir_change.c  dir_itree.c  changes of form, itree upkeep, add/remove
 *   dir.c                      dispatch over the table of forms
 *   dir_inline.c dir_linear.c htree.c   one row each, never each other
 *   dir_block.c                what the block forms share
 *   dir_io.c  dir_coll.c       handle I/O and hash; entry collections
 *   dirent.c  dir_name.c       entry format; name policy
 */

/* dir_io.c: the handle and its block I/O */
/* Buffers only (for an inode being created), then its number. */
errcode_t dirh_alloc(ext2_filsys fs, struct e2x_dirh *d);
void dirh_set_ino(struct e2x_dirh *d, ext2_ino_t ino);
errcode_t dirh_open(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d);
/* The same for work on '.' and '..' only (DOTS_ONLY): names that are
 * encrypted or case-folded are then not refused. */
errcode_t dirh_open_dots(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d,
			 int dots_only);
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
/* Hash NAME with VERSION (unsigned variant already applied) under the
 * directory's name policy (dir_name.c). */
errcode_t dirh_hash(struct e2x_dirh *d, int version, const char *name,
		    unsigned int len, uint32_t *hash, uint32_t *minor);
/* VERSION as stored with the unsigned variant applied. */
int dirh_hash_version(struct e2x_dirh *d, int root_version);
/* The file system's default version, as stored. */
errcode_t dirh_default_version(struct e2x_dirh *d, int *version);
int dirh_name_ok(const char *name, unsigned int len);

/* dir_coll.c */
errcode_t coll_add(struct dir_coll *c, ext2_ino_t ino, const char *name,
		   unsigned int len, unsigned int type);
void coll_free(struct dir_coll *c);
const char *coll_name(const struct dir_coll *c, const struct dir_rec *r);
void coll_sort_hash(struct dir_coll *c);
void coll_sort_inode(struct dir_coll *c);
void coll_sort_name(struct dir_coll *c);

/* dir_ops.c: point directory INO's '..' at PARENT (any form) */
errcode_t dir_set_parent(ext2_filsys fs, ext2_ino_t ino, ext2_ino_t parent);

/* A record visitor: nonzero stops the walk and is returned. */
typedef int (*dirh_rec_fn)(struct e2x_dirh *d, blk64_t lblk,
			   unsigned int off, struct e2x_dirent *de,
			   void *priv);

/* dir_block.c: shared by the linear and htree forms */
/* Walk every leaf record in disk order (dx blocks skipped). */
errcode_t blocks_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
		      void *priv);
/* The parent from '..' of block 0, and its change. */
errcode_t blocks_parent(struct e2x_dirh *d, ext2_ino_t *parent);
errcode_t blocks_set_parent(struct e2x_dirh *d, ext2_ino_t parent);
/* Fill a fresh first block with '.', '..' and an empty rest. */
void blocks_init_block0(struct e2x_dirh *d, char *buf, ext2_ino_t parent);

/* One row per form of directory; dir.c picks the row of d->form. */
struct dir_form {
	errcode_t (*lookup)(struct e2x_dirh *d, const char *name,
			    unsigned int len, ext2_ino_t *ino,
			    unsigned int *type);
	/* E2X_ERR_NO_SPACE when the entry needs a change of form; GROW lets
	 * a linear directory append a block by itself. */
	errcode_t (*add)(struct e2x_dirh *d, const char *name,
			 unsigned int len, ext2_ino_t ino, unsigned int type,
			 int grow);
	errcode_t (*remove)(struct e2x_dirh *d, const char *name,
			    unsigned int len, ext2_ino_t *old_ino,
			    unsigned int *old_type);
	errcode_t (*walk)(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
			  void *priv);
	errcode_t (*parent)(struct e2x_dirh *d, ext2_ino_t *parent);
	errcode_t (*set_parent)(struct e2x_dirh *d, ext2_ino_t parent);
	/* The hash version the names are ordered by, as stored. */
	errcode_t (*version)(struct e2x_dirh *d, int *version);
};
extern const struct dir_form dir_form_inline, dir_form_linear,
	dir_form_htree;

/* dir_inline.c: beside its row, fresh storage and packed bytes */
/* Create the inline storage of a fresh directory. */
errcode_t inline_init(struct e2x_dirh *d, ext2_ino_t parent);
/* The inline bytes that would hold C with PARENT (*BUF allocated), or
 * E2X_ERR_INLINE_TOO_BIG; nothing is changed. */
errcode_t inline_layout(struct e2x_dirh *d, struct dir_coll *c,
			ext2_ino_t parent, char **buf, size_t *len);
/* Make D, whose blocks are freed, an inline directory of BUF. */
errcode_t inline_store(struct e2x_dirh *d, char *buf, size_t len);

/* htree.c: beside its row, an index written from a collection */
/* Write D as an htree over C (hashed with the fs default version; sorted
 * here, still owned by the caller).  No itree upkeep. */
errcode_t htree_build_coll(struct e2x_dirh *d, ext2_ino_t parent,
			   struct dir_coll *c);

/* dir.c: the dispatch */
errcode_t dirh_lookup(struct e2x_dirh *d, const char *name, unsigned int len,
		      ext2_ino_t *ino, unsigned int *type);
errcode_t dirh_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn,
		    void *priv);
errcode_t dirh_parent(struct e2x_dirh *d, ext2_ino_t *parent);
errcode_t dirh_set_parent(struct e2x_dirh *d, ext2_ino_t parent);
/* The version entries of D are ordered by (unsigned variant applied). */
errcode_t dirh_order_version(struct e2x_dirh *d, int *version);
/* The form's own add and remove: no change of form, no itree. */
errcode_t dirh_form_add(struct e2x_dirh *d, const char *name,
			unsigned int len, ext2_ino_t ino, unsigned int type,
			int grow);
errcode_t dirh_form_remove(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t *old_ino,
			   unsigned int *old_type);
/* Collect every live entry (without '.' and '..'), hashing with VERSION. */
errcode_t dirh_collect(struct e2x_dirh *d, int version, struct dir_coll *c);

/* dir_itree.c: the itree kept in step */
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

/* dir_change.c: add and remove with changes of form and itree upkeep */
errcode_t dirh_add(struct e2x_dirh *d, const char *name, unsigned int len,
		   ext2_ino_t ino, unsigned int type, int flags);
errcode_t dirh_remove(struct e2x_dirh *d, const char *name,
		      unsigned int len, int flags, ext2_ino_t *old_ino,
		      unsigned int *old_type);
/* An inline directory moved into one block with '.' and '..'. */
errcode_t dirh_promote(struct e2x_dirh *d);
/* D indexed as an htree over its own entries (itree rebuilt). */
errcode_t dirh_index(struct e2x_dirh *d, ext2_ino_t parent);
/* The same over collected entries C (see htree_build_coll). */
errcode_t dirh_index_coll(struct e2x_dirh *d, ext2_ino_t parent,
			  struct dir_coll *c);
/* Pack a block directory back inline if its entries fit. */
errcode_t dirh_pack_inline(struct e2x_dirh *d);

#endif
