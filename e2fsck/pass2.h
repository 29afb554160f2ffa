/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2.h --- what pass 2's files share: one directory being checked
 * (its blocks, its hash index map) and the htree walker (pass2_htree.c).
 */
#ifndef E2FSCK_PASS2_H
#define E2FSCK_PASS2_H

#include "problem.h"

/* Role of a directory block in a hash-indexed directory. */
enum dx_role {
	DX_NONE = 0,		/* not indexed (or not reached yet) */
	DX_INDEX,		/* root or interior node */
	DX_LEAF,		/* entries, hashes in [lo, hi] */
};

struct dx_block {
	enum dx_role role;
	uint32_t lo;		/* lowest hash allowed */
	uint64_t hi;		/* next leaf's first hash (bit 0: collision) */
};

struct dir_block {
	blk64_t pblk;
	uint64_t lblk;
};

struct p2_dir {
	struct fsck_ctx *ctx;
	ext2_filsys fs;
	ext2_ino_t ino;
	struct ext2_inode_large *inode;
	unsigned int isize;
	struct dir_block *blocks;	/* sorted by lblk */
	size_t nblocks;
	int htree;			/* index valid: check hash order */
	int hash_version;		/* for e2x_name_policy_init */
	struct dx_block *dx;		/* per lblk (< nblocks), or NULL */
	size_t ndx;
	int encrypted;
	int casefold;
	uint64_t *names;		/* name fingerprints (pass2_names.c) */
	size_t nnames, names_cap;
	int names_lost;			/* out of memory: no duplicate check */
	char *buf;			/* one block */
	int hash_ok;			/* hash_version read from the root */
	int itree;			/* has an itree to verify */
	unsigned int itree_reports;
	int dirty;			/* buf (or the inline area) changed */
	int touched;			/* a block was rewritten */
	int reindex;			/* rebuild the index at the end */
};

/* pass2.c: report CODE for an entry of pd's directory (naming INO2). */
int entry_problem(struct p2_dir *pd, problem_t code, ext2_ino_t ino2,
		  const char *name, int len, uint64_t num, uint64_t num2);
/* fix_dir.c: repairs of the region being walked and their write-back */
void p2_fix_clear(struct p2_dir *pd, char *buf, unsigned int end,
		  unsigned int off, int prev);
unsigned int p2_fix_salvage(struct p2_dir *pd, char *buf, unsigned int end,
			    unsigned int off, int prev, int inline_dir);
void p2_fix_itable_unused(struct p2_dir *pd, ext2_ino_t ino);
void p2_fix_dup_name(struct p2_dir *pd, struct ext2_dir_entry *d);
void p2_fix_unname(struct p2_dir *pd, struct ext2_dir_entry *d);
void p2_fix_name(struct p2_dir *pd, struct ext2_dir_entry *d);
void p2_fix_name_encoding(struct p2_dir *pd, struct ext2_dir_entry *d);
void p2_fix_type(struct p2_dir *pd, struct ext2_dir_entry *d, int ft);
void p2_fix_dot(struct p2_dir *pd, struct ext2_dir_entry *d,
		unsigned int rec_len, int slot, ext2_ino_t ino);
/* Holes larger than this are a size or map problem, not blocks to fill. */
#define P2_HOLE_MAX 1024
int p2_fix_holes(struct p2_dir *pd, uint64_t from, uint64_t to);
void p2_fix_flush(struct p2_dir *pd, blk64_t pblk, int dx_root);
void p2_fix_finish(struct p2_dir *pd);
/* pass2_rewalk.c: call FN for each entry check_entry() saw, reading the
 * directory again; a nonzero return from FN stops the walk and is
 * returned. */
typedef int (*p2_entry_fn)(struct p2_dir *pd,
			   const struct ext2_dir_entry *d, void *priv);
int p2_each_entry(struct p2_dir *pd, p2_entry_fn fn, void *priv);
/* pass2_names.c: names given twice, checked once the directory is read */
void p2_names_add(struct p2_dir *pd, const char *name, int len);
void p2_names_check(struct p2_dir *pd);
/* pass2_htree.c: build pd->dx from the index; sets pd->htree. */
void p2_htree_map(struct p2_dir *pd);
/* Check that NAME lies inside the hash range of leaf LBLK. */
void p2_htree_check_entry(struct p2_dir *pd, uint64_t lblk, const char *name,
			  int len);
/* pass2_itree.c: verify the tree once the directory was read. */
void p2_itree_verify(struct p2_dir *pd);
/* Read logical block LBLK of the directory; 0 on success. */
int p2_read_lblk(struct p2_dir *pd, uint64_t lblk, char *buf);

#endif
