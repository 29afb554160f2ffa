/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * context.h --- the one e2fsck context: options as typed, the open file
 * system, and everything the passes learn and hand to each other.
 *
 * There are no option or state globals: every pass takes the context.
 * State a future parallel pass 1 would split per inode range lives in
 * struct p1_inode (pass1.h); the context holds only shared results.
 */
#ifndef E2FSCK_CONTEXT_H
#define E2FSCK_CONTEXT_H

#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include "e2x.h"

/* Exit codes (a bit mask, as e2fsprogs documents them). */
#define FSCK_OK			0
#define FSCK_NONDESTRUCT	1	/* errors corrected */
#define FSCK_REBOOT		2	/* corrected; system should reboot */
#define FSCK_UNCORRECTED	4	/* errors left uncorrected */
#define FSCK_ERROR		8	/* operational error */
#define FSCK_USAGE		16	/* usage or syntax error */
#define FSCK_CANCELED		32	/* canceled by user request */
#define FSCK_LIBRARY		128	/* shared library error */

/* How problems are answered (exactly one). */
enum fsck_mode {
	MODE_INTERACTIVE = 0,
	MODE_NO,		/* -n: answer no, open read-only */
	MODE_YES,		/* -y: answer yes */
	MODE_PREEN,		/* -p / -a: fix only what is safe */
};

/* What the user typed; never changed by the passes. */
struct fsck_options {
	const char *device;
	enum fsck_mode mode;
	int force;		/* -f */
	int verbose;		/* -v */
	int timing;		/* -t (given twice: per pass as well) */
	int progress_fd;	/* -C fd; -1 when off */
	blk64_t superblock;	/* -b; 0 = primary */
	unsigned int blocksize;	/* -B; 0 = probe */
	const char *journal_path; /* -j */
	int journal_only;	/* -E journal_only */
	int fixes_only;		/* -E fixes_only (accepted) */
	int debug;		/* -d */
	int optimize_dirs;	/* -D (rehash.c) */
	const char *undo_file;	/* -z */
};

/* Per-directory facts gathered by pass 1 and 2 for pass 3. */
struct dir_info {
	ext2_ino_t ino;
	ext2_ino_t dotdot;	/* what '..' says (0 = none seen) */
	ext2_ino_t parent;	/* directory holding an entry for it */
};

/* Pass timing for -t. */
struct pass_time {
	const char *name;
	double seconds;
};

#define FSCK_MAX_PASSES 10
#define FSCK_RESTART_BB 2	/* ctx->restart: bad-blocks list changed */
#define FSCK_QUOTA_TYPES 3	/* user, group, project */
struct qmap;

struct fsck_ctx {
	struct fsck_options opt;
	const char *prog;
	ext2_filsys fs;
	int fs_rw;		/* opened read-write */
	int used_backup_sb;	/* opened from a backup superblock */
	blk64_t sb_blk;		/* ... at this block (0: the primary) */
	time_t now;

	/* Problem accounting (problem.c). */
	unsigned long problems_fixed;
	unsigned long problems_unfixed;
	unsigned long problems_info;
	int abort;		/* stop running passes */
	int exit_extra;		/* extra exit bits (8, 32) */
	int preen_bailed;	/* preen met a problem it may not fix */
	int modified;		/* something was written (a repair, a replay) */
	int hold_repairs;	/* answer yes but change nothing (unsafe now) */
	int alloc_ready;	/* repairs may allocate (fix_alloc.c) */
	int restart;		/* a repair changed what pass 1 reads
				 * (FSCK_RESTART_BB: bad blocks unlisted) */
	int bitmaps_changed;	/* a repair allocated or freed (fix_alloc.c) */

	/* Results of pass 1. */
	ext2fs_inode_bitmap inode_used;	/* in use (links > 0) */
	ext2fs_inode_bitmap inode_dir;
	ext2fs_inode_bitmap inode_reg;
	ext2fs_inode_bitmap inode_bad;	/* reported; later passes skip */
	ext2fs_inode_bitmap ea_inode_refd; /* value inodes an entry names */
	ext2_icount_t ea_inode_refs;	/* ... and how many entries (pass 4) */
	ext2fs_inode_bitmap ea_flag_set; /* value inodes pass 1 gave their
					  * flag (the scan may hold them
					  * without it) */
	ext2fs_inode_bitmap lnk_promote; /* inline symlinks to move to a
					  * block after pass 1 (fix_inode.c) */
	ext2fs_block_bitmap block_found; /* metadata and file blocks */
	ext2fs_block_bitmap block_meta;	/* fs metadata only */
	ext2fs_block_bitmap block_dup;	/* claimed twice */
	ext2fs_inode_bitmap inode_clusters; /* bigalloc cluster rules broken
					     * (pass 1b fixes; NULL: none) */
	ext2fs_block_bitmap ea_seen;	/* xattr blocks already checked */
	ext2_icount_t link_count;	/* i_links_count of in-use inodes */
	ext2_icount_t ref_count;	/* names found by pass 2 */
	ext2_dblist dblist;		/* every directory block */
	ext2fs_inode_bitmap inode_lnk;	/* symlinks (ftype.c) */
	struct ino_ftype *ftypes;	/* other types, sorted (ftype.c) */
	size_t nftypes, ftypes_cap;
	ext2_ino_t lpf_ino;		/* /lost+found, found by pass 2 */
	struct dir_info *dirs;		/* sorted by ino */
	size_t ndirs, dirs_cap;
	/* xattr block references: block -> count (pass1_xattr.c) */
	struct ea_ref *ea_refs;
	size_t nea_refs, ea_refs_cap;
	int has_dups;
	uint64_t found_claims;		/* ranges marked in block_found */
	blk64_t found_next;		/* block after the last range */
	int found_is_array;		/* block_found is a plain bit array */
	int orphan_chain;		/* s_last_orphan set: dtime is a link */
	int p1_restart;			/* a repair took back claimed blocks */
	/* extent leaves in metadata, moving (pass1_nodes.c) */
	struct node_move *node_moves;
	size_t nnode_moves, node_moves_cap;
	int journal_dropped;		/* an internal journal was cleared */

	/* Journal and orphans at start-up (journal.c). */
	struct e2x_journal_result jres;
	int have_jres;
	struct e2x_overlay *overlay;	/* -n: the fs is read through it */
	struct e2x_overlay *own_overlay; /* one journal.c created */

	/* The write guard (guard.c): blocks proved to be metadata. */
	ext2fs_block_bitmap guard_meta;
	FILE *guard_log;

	/* Misplaced group metadata (relocate.c). */
	struct gm_move *moves;
	size_t nmoves, moves_cap;
	int resize_rebuild;		/* inode 7 cleared: make it after pass 5 */
	int orphan_file_rebuild;	/* orphan file forgotten: make one
					 * after pass 5 */

	struct qmap *qmaps;		/* quota usage per type (quota.c) */
	struct fsck_enc *enc;		/* encryption policies (encrypt.c) */
	struct fsck_ra *ra;		/* readahead advice (readahead.c) */

	/* Counts for -v. */
	unsigned long n_files, n_dirs, n_regular, n_links, n_symlinks,
		n_fast_symlinks, n_devices, n_fifos, n_sockets, n_inline,
		n_extent, n_ind, n_bigfiles;

	/* Free totals pass 5 counted, for the summary line (unix.c). */
	int have_counted;
	uint64_t counted_free_blocks, counted_free_inodes;

	struct pass_time times[FSCK_MAX_PASSES];
	int ntimes;
	int progress_pass;
	double progress_drawn;	/* when the -C 0 bar was last drawn, 0: never */
	int progress_shown;	/* the bar is on the screen */
	int path_searches;	/* names looked up for messages (problem.c) */
};

/* ftype.c: file types of accepted inodes for pass 2 */
struct ino_ftype;
errcode_t fsck_ftype_set(struct fsck_ctx *ctx, ext2_ino_t ino, int ft);
int fsck_ftype_get(struct fsck_ctx *ctx, ext2_ino_t ino);
void fsck_ftype_free(struct fsck_ctx *ctx);

/* encrypt.c: encryption policies pass 1 accepted, for pass 2 */
#define FSCK_ENC_NONE		UINT32_MAX	/* not encrypted */
#define FSCK_ENC_UNKNOWN	(UINT32_MAX - 1) /* a later context version */
struct fsck_enc;
/* A context e2fsck accepts: version 1 or 2 at its size, or a later one. */
int fsck_enc_context_ok(const unsigned char *c, int len);
errcode_t fsck_enc_note(struct fsck_ctx *ctx, ext2_ino_t ino,
			const unsigned char *c, int len);
uint32_t fsck_enc_policy(struct fsck_ctx *ctx, ext2_ino_t ino);
void fsck_enc_free(struct fsck_ctx *ctx);

/* dirinfo.c */
errcode_t dir_info_add(struct fsck_ctx *ctx, ext2_ino_t ino);
struct dir_info *dir_info_get(struct fsck_ctx *ctx, ext2_ino_t ino);
void dir_info_free(struct fsck_ctx *ctx);

/* Progress for -C (unix.c). */
/* Wipe the -C 0 bar before printing a line of text (unix.c). */
void fsck_progress_clear(struct fsck_ctx *ctx);
void fsck_progress(struct fsck_ctx *ctx, int pass, unsigned long cur,
		   unsigned long max);

/* Blocks and clusters (pass1_blocks.c). */
int fsck_block_in_fs(ext2_filsys fs, blk64_t blk);
/* Inodes no directory names: reserved, journal, quota, orphan file,
 * attribute-value inodes (pass1.c).  INODE may be NULL. */
int fsck_ino_is_special(ext2_filsys fs, ext2_ino_t ino,
			const struct ext2_inode *inode);

/* quota.c: usage counted in pass 1, compared after pass 5. */
errcode_t fsck_quota_init(struct fsck_ctx *ctx);
int fsck_quota_enabled(ext2_filsys fs);
void fsck_quota_add(struct fsck_ctx *ctx, ext2_ino_t ino,
		    const struct ext2_inode_large *in, unsigned int isize,
		    uint64_t bytes, uint64_t inodes);
/* Take back what fsck_quota_add counted for an inode. */
void fsck_quota_take_back(struct fsck_ctx *ctx, ext2_ino_t ino,
			  const struct ext2_inode_large *in,
			  unsigned int isize, uint64_t bytes, uint64_t inodes);
void fsck_quota_check(struct fsck_ctx *ctx);
void fsck_quota_free(struct fsck_ctx *ctx);

/* Open, recover, check and close ctx->opt.device; the exit code
 * (unix.c; never exits: the fuzz harness calls it once per input). */
int fsck_run(struct fsck_ctx *ctx);

/* First data block and clusters per group usable (super.c). */
int fsck_geometry_sane(ext2_filsys fs);
/* The inode count against the groups times the inodes per group: on a
 * difference PR_0_INODES_COUNT, the count set to the product when
 * repaired (and, read-only, in memory only).  0 when it agrees now, -1
 * when it still disagrees. */
int fsck_inodes_count(struct fsck_ctx *ctx);
/* What makes superblock SB contradict itself, or NULL; the field primary
 * P has wrong by its backup B, or NULL (super_trust.c). */
const char *fsck_super_contradiction(const struct ext2_super_block *sb);
const char *fsck_super_disagrees(const struct ext2_super_block *p,
				 const struct ext2_super_block *b);

/* guard.c: the write guard's policy over every writable open. */
void fsck_guard_start(struct fsck_ctx *ctx);
errcode_t fsck_guard_map(struct fsck_ctx *ctx);
void fsck_guard_stop(struct fsck_ctx *ctx);

/* relocate.c: misplaced bitmaps and inode tables, moved after pass 1. */
struct gm_move;
void fsck_relocate_note(struct fsck_ctx *ctx, dgrp_t g, enum e2x_group_meta k,
			int fix);
int fsck_relocate_pending(struct fsck_ctx *ctx, dgrp_t g,
			  enum e2x_group_meta k);
void fsck_relocate(struct fsck_ctx *ctx);
void fsck_resize_rebuild(struct fsck_ctx *ctx);
void fsck_orphan_file_rebuild(struct fsck_ctx *ctx);
void fsck_relocate_free(struct fsck_ctx *ctx);

/* table_find.c: where group G's inode table, which its descriptor lost,
 * lies in [LO, HI] by mke2fs's layout and the inodes found there: 1 and
 * *WHERE, or 0. */
int fsck_itable_find(struct fsck_ctx *ctx, dgrp_t g, blk64_t lo, blk64_t hi,
		     blk64_t *where);

/* The stored bitmaps, loaded in the form pass 1 chose (pass5.c). */
errcode_t fsck_read_bitmaps(struct fsck_ctx *ctx);

/* fix_alloc.c: allocation while repairing (0, or -1 when no repair may
 * allocate: read-only, or the bitmaps cannot be read). */
int fsck_alloc_prepare(struct fsck_ctx *ctx);
void fsck_alloc_done(struct fsck_ctx *ctx);
errcode_t fsck_inode_guard_begin(struct fsck_ctx *ctx,
				 ext2fs_inode_bitmap *saved);
void fsck_inode_guard_end(struct fsck_ctx *ctx, ext2fs_inode_bitmap saved,
			  ext2_ino_t new_ino);

/* fix_connect.c: repairs of passes 3 and 4. */
ext2_ino_t fsck_lost_found(struct fsck_ctx *ctx);
int fsck_lpf_room(struct fsck_ctx *ctx);
ext2_ino_t fsck_lpf_in_root(struct fsck_ctx *ctx);
int fsck_root_create(struct fsck_ctx *ctx);
int fsck_lpf_encrypted(struct fsck_ctx *ctx, ext2_ino_t ino);
int fsck_reconnect(struct fsck_ctx *ctx, ext2_ino_t ino);
int fsck_fix_dotdot(struct fsck_ctx *ctx, struct dir_info *d,
		    ext2_ino_t want);
int fsck_clear_unattached(struct fsck_ctx *ctx, ext2_ino_t ino);
void fsck_ref_move(struct fsck_ctx *ctx, ext2_ino_t from, ext2_ino_t to);
errcode_t dir_info_insert(struct fsck_ctx *ctx, ext2_ino_t ino);
/* Free blocks (BLOCKS != 0) or inodes summed over the group descriptors
 * (super.c). */
uint64_t groups_free(ext2_filsys fs, int blocks);

/* The passes. */
void check_super(struct fsck_ctx *ctx);
/* file_claims.c: the blocks files claim, read-only, when some group's
 * metadata is not where the backup descriptors put it (else NULL). */
errcode_t fsck_file_claims(struct fsck_ctx *ctx, ext2fs_block_bitmap *ret);
void pass1(struct fsck_ctx *ctx);
void pass1_rerun(struct fsck_ctx *ctx);
void pass1b(struct fsck_ctx *ctx);
void pass2(struct fsck_ctx *ctx);
void pass3(struct fsck_ctx *ctx);
void pass4(struct fsck_ctx *ctx);
void pass5(struct fsck_ctx *ctx);
/* rehash.c */
void rehash_dirs(struct fsck_ctx *ctx);

#endif
