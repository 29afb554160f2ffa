/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1.h --- what the pieces of pass 1 share: the state of the one inode
 * being checked.  Everything per inode lives here, so a parallel pass 1
 * can give each thread its own inode range and its own p1_inode.
 */
#ifndef E2FSCK_PASS1_H
#define E2FSCK_PASS1_H

#include "problem.h"

/* What a claimed block is to its inode. */
enum blk_kind {
	BK_DATA,		/* file or directory data */
	BK_MAP,			/* extent node or indirect block */
	BK_EA,			/* extended attribute block */
};

struct p1_inode;
typedef void (*blk_visit_fn)(struct p1_inode *st, blk64_t pblk, blk64_t n,
			     enum blk_kind kind);

struct p1_inode {
	struct fsck_ctx *ctx;
	ext2_filsys fs;
	ext2_ino_t ino;
	struct ext2_inode_large *inode;
	unsigned int isize;
	int is_dir;
	int quiet;		/* pass 1b re-walk: report nothing */
	int bad;		/* serious damage: later passes skip it */
	int nerrors;		/* block errors so far (walks stop at a limit) */
	int64_t last_lblk;	/* highest mapped logical block, -1 if none */
	int64_t last_init_lblk;	/* highest initialised one */
	uint64_t nclusters;	/* clusters (blocks) counted for i_blocks */
	uint64_t ndata;		/* data blocks mapped */
	blk64_t last_data_cluster; /* bigalloc: data cluster just claimed */
	uint64_t last_lcluster;	/* bigalloc: logical cluster just mapped */
	blk64_t last_pcluster;	/* and the cluster it went to */
	uint32_t ext_next;	/* extent walk: first lblk still free */
	uint32_t inline_cap;	/* inline data: bytes it can hold */
	uint32_t ea_inodes;	/* value inodes charged to this inode */
	uint64_t walked;	/* blocks and map nodes visited (loop guard) */
	uint64_t claims;	/* visits made for this inode */
	int dirty;		/* repaired in memory: write at the end */
	int clear;		/* to be cleared (fix_inode.c) */
	int fix_map;		/* the block map needs repair */
	int rebuild_ext;	/* ... by rebuilding the extent tree */
	int close_gaps;		/* ... moving a directory's extents down */
	blk_visit_fn visit;	/* pass 1 claims; pass 1b counts */
	void *priv;
};

#define P1_MAX_BLOCK_ERRORS 12
/* Extent tree depth: the kernel reads at most 5 below the root; deeper
 * trees are reported but walked up to 8 so their blocks are counted. */
#define P1_KERNEL_EXTENT_DEPTH 5
#define P1_MAX_EXTENT_DEPTH 8
#define FSCK_XATTR_INDEX_SYSTEM 7	/* "system." names: system.data */

/* pass1_blocks.c */
void p1_mark_metadata(struct fsck_ctx *ctx);
/* pass1_nodes.c: extent leaves lying in metadata, moved between rounds. */
int p1_node_in_meta(struct fsck_ctx *ctx, ext2_ino_t ino,
		    struct ext2_inode_large *in);
int p1_nodes_move(struct fsck_ctx *ctx);
void p1_nodes_free(struct fsck_ctx *ctx);
void p1_claim(struct p1_inode *st, blk64_t pblk, blk64_t n,
	      enum blk_kind kind);
void p1_walk_blocks(struct p1_inode *st);
/* Turn block_found into a plain bit array once that is the smaller. */
void p1_found_compact(struct fsck_ctx *ctx);
/* Report a block-map problem unless quiet; counts toward the limit. */
void p1_block_problem(struct p1_inode *st, problem_t code,
		      struct problem_ctx *pctx);

/* fix_inode.c: report CODE (PCTX->ino defaults to the inode) and, when
 * the answer is yes, apply its repair to st->inode; returns the answer. */
int p1_fix(struct p1_inode *st, problem_t code, struct problem_ctx *pctx);
void p1_clear_inode(struct p1_inode *st);
void p1_fix_map(struct p1_inode *st);
void p1_write_fixed(struct p1_inode *st);
void p1_report_write(struct fsck_ctx *ctx, ext2_ino_t ino, errcode_t err);
/* An inline symlink with an attribute block gets its target moved to a
 * block after pass 1 (PR_1_INLINE_SYMLINK_EA). */
void p1_check_inline_symlink_ea(struct p1_inode *st);
void p1_promote_symlinks(struct fsck_ctx *ctx);


/* pass1_inline.c */
/* Find an in-inode xattr; sets *VOFF and *VLEN to the value's place in the
 * inode buffer.  Returns 0, E2X_ERR_NOT_FOUND or E2X_ERR_CORRUPT (with a
 * reason in *WHY). */
errcode_t p1_ibody_find(ext2_filsys fs, const struct ext2_inode_large *inode,
			int index, const char *name, unsigned int *voff,
			unsigned int *vlen, uint32_t *vinum, const char **why);
void p1_check_ibody_ea(struct p1_inode *st);
void p1_note_ibody_ea_inodes(struct p1_inode *st);
void p1_check_inline(struct p1_inode *st);

/* pass1_itree.c: claim a directory's itree node blocks */
void p1_claim_itree(struct p1_inode *st);

/* pass1_xattr.c */
void p1_check_ea_block(struct p1_inode *st);
void p1_ea_finish(struct fsck_ctx *ctx);
int p1_block_xattr(struct p1_inode *st, int index, const char *name,
		   void *out, unsigned int max);
#define EA_IN_BLOCK	0x1	/* the entries are an attribute block's */
#define EA_NO_DROP	0x2	/* count only: an inline inode's attributes */
int p1_check_ea_entries(struct p1_inode *st, const char *base,
			unsigned int first, unsigned int size,
			unsigned int value_base, blk64_t blk, int flags);

#endif
