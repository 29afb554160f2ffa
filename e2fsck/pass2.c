/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2.c --- pass 2: read every directory block (and inline directory)
 * and check each entry: record and name lengths, file type, the inode it
 * names (in range, in use, not reserved), '.' and '..', checksum tails,
 * names given twice, and the hash order of indexed directories.
 *
 * Repairs (fix_dir.c) change the block being walked and write it back
 * once it is done, so the counts gathered here are those of the repaired
 * directory.  Hands on: the number of names of every inode (pass 4), each
 * directory's parent and '..' (pass 3), and /lost+found's inode.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass1.h"
#include "pass2.h"
#include "csum.h"
#include "readahead.h"

/* Directory blocks in checking order: by directory, then logical block. */
static int cmp_db(const void *a, const void *b)
{
	const struct ext2_db_entry2 *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->blockcnt != y->blockcnt)
		return x->blockcnt < y->blockcnt ? -1 : 1;
	return 0;
}

int entry_problem(struct p2_dir *pd, problem_t code, ext2_ino_t ino2,
		  const char *name, int len, uint64_t num, uint64_t num2)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.ino2 = ino2;
	pctx.name = name;
	pctx.namelen = len;
	pctx.num = num;
	pctx.num2 = num2;
	return fix_problem(pd->ctx, code, &pctx);
}

/* ---- one entry ---------------------------------------------------------- */

static int in_lazy_area(ext2_filsys fs, ext2_ino_t ino)
{
	dgrp_t g = ext2fs_group_of_ino(fs, ino);
	ext2_ino_t idx = (ino - 1) % fs->super->s_inodes_per_group;

	if (!ext2fs_has_group_desc_csum(fs))
		return 0;
	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT))
		return 1;
	return idx >= fs->super->s_inodes_per_group -
			      ext2fs_bg_itable_unused(fs, g);
}

static void count_ref(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	if (ext2fs_test_inode_bitmap2(ctx->inode_used, ino))
		ext2fs_icount_increment(ctx->ref_count, ino, NULL);
}

/* An encrypted directory names only files, directories and symlinks
 * encrypted with its own policy (later context versions are not
 * compared); returns 1 when the entry is to be cleared. */
static int check_target_policy(struct p2_dir *pd, ext2_ino_t t,
			       const char *name, int len)
{
	uint32_t want = fsck_enc_policy(pd->ctx, pd->ino), got;
	int ft = fsck_ftype_get(pd->ctx, t);

	if (want == FSCK_ENC_NONE || (ft != EXT2_FT_REG_FILE &&
				      ft != EXT2_FT_DIR &&
				      ft != EXT2_FT_SYMLINK))
		return 0;
	got = fsck_enc_policy(pd->ctx, t);
	if (got == FSCK_ENC_NONE)
		return entry_problem(pd, PR_2_ENCRYPT_UNENCRYPTED, t, name, len,
				     0, 0);
	if (got != want && got != FSCK_ENC_UNKNOWN &&
	    want != FSCK_ENC_UNKNOWN)
		return entry_problem(pd, PR_2_ENCRYPT_POLICY, t, name, len, 0,
				     0);
	return 0;
}

/* Checks common to every named entry; returns 0 when the target is a
 * valid inode in use, 1 when the entry is to be cleared, -1 when it is
 * left as it is. */
static int check_target(struct p2_dir *pd, struct ext2_dir_entry *d,
			const char *name, int len)
{
	struct fsck_ctx *ctx = pd->ctx;
	ext2_filsys fs = pd->fs;
	ext2_ino_t t = d->inode;
	int ft = ext2fs_dirent_file_type(d);

	if (t > fs->super->s_inodes_count)
		return entry_problem(pd, PR_2_INODE_RANGE, t, name, len, 0, 0) ?
			       1 : -1;
	if (t < EXT2_FIRST_INODE(fs->super) && t != EXT2_ROOT_INO)
		return entry_problem(pd, PR_2_RESERVED_INODE, t, name, len, 0,
				     0) ? 1 : -1;
	if (!ext2fs_test_inode_bitmap2(ctx->inode_used, t)) {
		if (in_lazy_area(fs, t)) {
			if (entry_problem(pd, PR_2_INODE_UNINIT, t, name, len,
					  0, 0))
				p2_fix_itable_unused(pd, t);
			return -1;
		}
		return entry_problem(pd, PR_2_INODE_UNUSED, t, name, len, 0,
				     0) ? 1 : -1;
	}
	if (ext2fs_has_feature_filetype(fs->super) &&
	    fs->super->s_creator_os == EXT2_OS_HURD) {
		/* the Hurd keeps no file types: the feature is the problem
		 * (pass 0); without it the types go below */
	} else if (ext2fs_has_feature_filetype(fs->super)) {
		int want = fsck_ftype_get(ctx, t);

		if (want && ft != want &&
		    entry_problem(pd, PR_2_FILETYPE, t, name, len, ft, want))
			p2_fix_type(pd, d, want);
	} else if (ft && entry_problem(pd, PR_2_FILETYPE_NO_FEATURE, t, name,
				       len, 0, 0)) {
		p2_fix_type(pd, d, 0);
	}
	return pd->encrypted && check_target_policy(pd, t, name, len);
}

static int is_dot(const char *n, int len)
{
	return len == 1 && n[0] == '.';
}

static int is_dotdot(const char *n, int len)
{
	return len == 2 && n[0] == '.' && n[1] == '.';
}

/* An entry other than the '.' and '..' slots; returns 1 when the entry
 * is to be cleared. */
static int check_entry(struct p2_dir *pd, struct ext2_dir_entry *d,
		       uint64_t lblk)
{
	struct fsck_ctx *ctx = pd->ctx;
	const char *name = d->name;
	int len = ext2fs_dirent_name_len(d);
	struct dir_info *di;
	int rc;

	if (!len)
		return entry_problem(pd, PR_2_NAME_BAD, d->inode, name, len, 0,
				     0);
	if (is_dot(name, len) || is_dotdot(name, len))
		return entry_problem(pd, PR_2_DUP_DOT, d->inode, name, len, 0,
				     0);
	if (!pd->encrypted &&
	    (memchr(name, '/', len) || memchr(name, '\0', len)) &&
	    entry_problem(pd, PR_2_NAME_BAD, d->inode, name, len, 0, 0))
		p2_fix_name(pd, d);
	if (pd->casefold && pd->fs->encoding &&
	    ext2fs_check_encoded_name(pd->fs->encoding, d->name, len,
				      &(char *){ NULL }) > 0 &&
	    entry_problem(pd, PR_2_NAME_ENCODING, d->inode, name, len, 0, 0))
		p2_fix_name_encoding(pd, d);
	/* encrypted names are at least one cipher block long */
	if (pd->encrypted && len < 16 &&
	    entry_problem(pd, PR_2_NAME_BAD, d->inode, name, len, 0, 0))
		return 1;
	if (d->inode == pd->ino)
		return entry_problem(pd, PR_2_LINK_DOT, d->inode, name, len, 0,
				     0);
	rc = check_target(pd, d, name, len);
	if (rc > 0)
		return 1;
	p2_names_add(pd, name, len);
	if (pd->htree)
		p2_htree_check_entry(pd, lblk, name, len);
	if (rc)
		return 0;
	if (pd->ino == EXT2_ROOT_INO && len == 10 &&
	    !memcmp(name, "lost+found", 10))
		ctx->lpf_ino = d->inode;
	if (!ext2fs_test_inode_bitmap2(ctx->inode_dir, d->inode)) {
		count_ref(ctx, d->inode);
		return 0;
	}
	di = dir_info_get(ctx, d->inode);
	if (di && di->parent) {
		struct problem_ctx pctx;

		pctx_clear(&pctx);
		pctx.ino = pd->ino;
		pctx.ino2 = d->inode;
		pctx.dir = di->parent;
		pctx.name = name;
		pctx.namelen = len;
		if (fix_problem(ctx, PR_2_DIR_HARDLINK, &pctx))
			return 1;
	} else if (di) {
		di->parent = pd->ino;
	}
	count_ref(ctx, d->inode);
	return 0;
}

static void set_dotdot(struct p2_dir *pd, ext2_ino_t parent)
{
	struct dir_info *di = dir_info_get(pd->ctx, pd->ino);

	if (di)
		di->dotdot = parent;
	if (parent && parent <= pd->fs->super->s_inodes_count)
		count_ref(pd->ctx, parent);
}

/* The byte after the name of '.' or '..' (LEN long; its 12-byte record
 * has room for it) must be zero: salvaged records may keep old bytes. */
static void dot_name_padded(struct p2_dir *pd, struct ext2_dir_entry *d,
			    int len)
{
	if (!d->name[len])
		return;
	if (entry_problem(pd, PR_2_DOT_NUL, d->inode, d->name, len, 0, 0)) {
		memset(d->name + len, 0, 4 - len);
		pd->dirty = 1;
	}
}

/* A two-byte name of '.' and one NUL: '..' with a byte lost. */
static int damaged_dotdot(const char *n, int len)
{
	return len == 2 && ((n[0] == '.' && !n[1]) || (!n[0] && n[1] == '.'));
}

/* '.' and '..' name directories: with file types, theirs is a
 * directory's. */
static void check_dot_type(struct p2_dir *pd, struct ext2_dir_entry *d,
			   int len)
{
	ext2_filsys fs = pd->fs;
	int ft = ext2fs_dirent_file_type(d);

	if (!ext2fs_has_feature_filetype(fs->super) ||
	    fs->super->s_creator_os == EXT2_OS_HURD || ft == EXT2_FT_DIR ||
	    !entry_problem(pd, PR_2_FILETYPE, d->inode, d->name, len, ft,
			   EXT2_FT_DIR))
		return;
	p2_fix_type(pd, d, EXT2_FT_DIR);
}

/* '.' (slot 0) and '..' (slot 1) of the first block, REC_LEN long. */
static void check_dot_slot(struct p2_dir *pd, struct ext2_dir_entry *d,
			   int slot, unsigned int rec_len)
{
	const char *name = d->name;
	int len = ext2fs_dirent_name_len(d);

	if (d->inode && ext2fs_dirent_file_type(d) &&
	    !ext2fs_has_feature_filetype(pd->fs->super) &&
	    (slot ? is_dotdot(name, len) : is_dot(name, len)) &&
	    entry_problem(pd, PR_2_FILETYPE_NO_FEATURE, d->inode, name, len,
			  0, 0))
		p2_fix_type(pd, d, 0);
	if (slot == 0) {
		if (!d->inode || !is_dot(name, len)) {
			if (entry_problem(pd, PR_2_DOT_MISSING, 0, NULL, 0, 0,
					  0)) {
				p2_fix_dot(pd, d, rec_len, 0, pd->ino);
				count_ref(pd->ctx, pd->ino);
			}
			return;
		}
		if (d->inode != pd->ino) {
			if (!entry_problem(pd, PR_2_DOT_INODE, d->inode, name,
					   len, 0, 0))
				return;
			d->inode = pd->ino;
			pd->dirty = 1;
		}
		dot_name_padded(pd, d, 1);
		check_dot_type(pd, d, 1);
		count_ref(pd->ctx, pd->ino);
		return;
	}
	if (d->inode && damaged_dotdot(name, len)) {
		/* the '..' entry itself, one byte of its name lost: renamed
		 * in place, its inode kept for the checks below */
		if (!entry_problem(pd, PR_2_DOTDOT_MISSING, 0, NULL, 0, 0, 0)) {
			set_dotdot(pd, 0);
			return;
		}
		d->name[0] = d->name[1] = '.';
		pd->dirty = 1;
	} else if (!d->inode || !is_dotdot(name, len)) {
		if (entry_problem(pd, PR_2_DOTDOT_MISSING, 0, NULL, 0, 0, 0))
			p2_fix_dot(pd, d, rec_len, 1, 0);
		set_dotdot(pd, 0);
		return;
	}
	if (d->inode > pd->fs->super->s_inodes_count ||
	    (d->inode < EXT2_FIRST_INODE(pd->fs->super) &&
	     d->inode != EXT2_ROOT_INO)) {
		if (entry_problem(pd, PR_2_INODE_RANGE, d->inode, name, len, 0,
				  0)) {
			d->inode = 0;
			pd->dirty = 1;
		}
		set_dotdot(pd, 0);
		return;
	}
	dot_name_padded(pd, d, 2);
	check_dot_type(pd, d, 2);
	set_dotdot(pd, d->inode);
}

/* The region ended before '..': split '.' (at DOT, REC_LEN long) when it
 * has room for a '..' behind it. */
static void add_missing_dotdot(struct p2_dir *pd, struct ext2_dir_entry *dot,
			       unsigned int rec_len)
{
	if (!entry_problem(pd, PR_2_DOTDOT_MISSING, 0, NULL, 0, 0, 0))
		return;
	set_dotdot(pd, 0);
	if (rec_len < 24)
		return;
	ext2fs_set_rec_len(pd->fs, 12, dot);
	/* what lay behind '.' was its slack, not an entry to keep */
	memset((char *)dot + 9, 0, 15);
	p2_fix_dot(pd, (void *)((char *)dot + 12), rec_len - 12, 1, 0);
}

/* The second record of block 0 is no '..' and '.' before it grew over a
 * salvaged gap: '..' goes into that gap, and the record is an ordinary
 * entry (taking its place would cost a name).  1 when so. */
static int dotdot_into_gap(struct p2_dir *pd, char *buf,
			   struct ext2_dir_entry *d)
{
	struct ext2_dir_entry *dot = (void *)buf;
	unsigned int dot_len = 0;

	if (is_dotdot(d->name, ext2fs_dirent_name_len(d)) ||
	    ext2fs_get_rec_len(pd->fs, dot, &dot_len) || dot_len < 24 ||
	    (char *)d != buf + dot_len)
		return 0;
	add_missing_dotdot(pd, dot, dot_len);
	return 1;
}

/* A record that fails the structure checks at OFF: 1 when it is bad. */
static int record_bad(struct p2_dir *pd, char *buf, unsigned int off,
		      unsigned int end, int inline_dir, problem_t *code)
{
	struct ext2_dir_entry *d = (void *)(buf + off);
	unsigned int rec_len;
	int len;

	*code = inline_dir ? PR_2_INLINE_DIR : PR_2_REC_LEN;
	if (off + 8 > end || ext2fs_get_rec_len(pd->fs, d, &rec_len) ||
	    rec_len < (inline_dir ? 8U : 12U) || (rec_len & 3) ||
	    off + rec_len > end)
		return 1;
	len = ext2fs_dirent_name_len(d);
	*code = inline_dir ? PR_2_INLINE_DIR : PR_2_NAME_LEN;
	return ((len + 8 + 3) & ~3) > (int)rec_len;
}

/* Block 0 starts with a broken record but a sound one follows at 12,
 * where '..' lives: the broken one was '.', written again (12 bytes),
 * which keeps the rest of the block as it is.  1 when so. */
static int dot_rebuilt(struct p2_dir *pd, char *buf, unsigned int end)
{
	problem_t code;

	if (end < 24 || record_bad(pd, buf, 12, end, 0, &code) ||
	    !entry_problem(pd, PR_2_DOT_MISSING, 0, NULL, 0, 0, 0))
		return 0;
	memset(buf, 0, 12);
	p2_fix_dot(pd, (void *)buf, 12, 0, pd->ino);
	return 1;
}

/*
 * Walk the entries in BUF[0, END).  FIRST is 1 for a directory's block 0
 * (slots '.' and '..'), 2 for the htree root (only those two slots).
 * Returns -1 on a structural error (the rest of the region is skipped).
 */
static int walk_region(struct p2_dir *pd, char *buf, unsigned int end,
		       uint64_t lblk, int first, int inline_dir)
{
	ext2_filsys fs = pd->fs;
	unsigned int off = 0, rec_len = 0, salvaged = end;
	int slot = 0, prev = -1;
	problem_t code;

	while (off < end) {
		struct ext2_dir_entry *d = (void *)(buf + off);

		if (pd->ctx->restart)
			return 0;	/* every entry is checked again */
		if (record_bad(pd, buf, off, end, inline_dir, &code)) {
			if (first && !off && !inline_dir &&
			    dot_rebuilt(pd, buf, end))
				continue;	/* '.' is whole again */
			if (salvaged == off ||
			    !entry_problem(pd, code, 0, NULL, 0, lblk, off))
				return -1;
			salvaged = off;
			off = p2_fix_salvage(pd, buf, end, off, prev,
					     inline_dir);
			continue;
		}
		ext2fs_get_rec_len(fs, d, &rec_len);
		if (first && slot == 1 && dotdot_into_gap(pd, buf, d)) {
			unsigned int dot_len = 0;

			slot = 2;
			ext2fs_get_rec_len(fs, (void *)buf, &dot_len);
			if (dot_len == 12)
				prev = 12;	/* the new '..' */
		}
		if (first && slot < 2) {
			check_dot_slot(pd, d, slot, rec_len);
			ext2fs_get_rec_len(fs, d, &rec_len);
		} else if (d->inode && check_entry(pd, d, lblk)) {
			p2_fix_clear(pd, buf, end, off, prev);
			slot++;
			if (prev < 0)
				prev = (int)off;
			off += rec_len;
			continue;
		}
		prev = (int)off;
		slot++;
		off += rec_len;
		if (first == 2 && slot == 2)
			break;
	}
	if (first && slot == 1) {
		/* '.' as it is now: a salvage may have grown it */
		ext2fs_get_rec_len(fs, (void *)buf, &rec_len);
		add_missing_dotdot(pd, (void *)buf, rec_len);
	}
	else if (first && !slot)
		entry_problem(pd, PR_2_DOT_MISSING, 0, NULL, 0, 0, 0);
	return 0;
}

static int has_tail(ext2_filsys fs, const char *buf)
{
	const struct ext2_dir_entry_tail *t =
		(const void *)(buf + fs->blocksize - sizeof(*t));

	return !t->det_reserved_zero1 &&
	       t->det_rec_len == sizeof(*t) &&
	       t->det_reserved_name_len == EXT2_DIR_NAME_LEN_CSUM;
}

static void check_leaf_block(struct p2_dir *pd, uint64_t lblk, blk64_t pblk)
{
	ext2_filsys fs = pd->fs;
	unsigned int end = fs->blocksize;
	struct problem_ctx pctx;
	int first = lblk == 0;

	if (pd->dx && lblk < pd->ndx && pd->dx[lblk].role == DX_INDEX &&
	    (pd->htree || pd->reindex)) {
		if (lblk == 0)
			walk_region(pd, pd->buf, end, 0, 2, 0);
		p2_fix_flush(pd, pblk, 1);
		return;
	}
	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.num = lblk;
	pctx.blk = pblk;
	if (ext2fs_has_feature_metadata_csum(fs->super)) {
		if (!has_tail(fs, pd->buf)) {
			if (fix_problem(pd->ctx, PR_2_DIR_NO_TAIL, &pctx))
				pd->dirty = 1;
		} else {
			end -= sizeof(struct ext2_dir_entry_tail);
			if (!fsck_dirblock_csum_ok(fs, pd->ino,
						   pd->inode->i_generation,
						   pd->buf) &&
			    fix_problem(pd->ctx, PR_2_DIR_CSUM, &pctx))
				pd->dirty = 1;
		}
	}
	walk_region(pd, pd->buf, end, lblk, first, 0);
	p2_fix_flush(pd, pblk, 0);
}

/* Block 0 was a hole and now is a new empty leaf: check it like any
 * first block, so '.' and '..' are put in and counted. */
static int check_new_first(struct p2_dir *pd)
{
	blk64_t pblk = 0;

	if (ext2fs_bmap2(pd->fs, pd->ino, NULL, NULL, 0, 0, NULL, &pblk) ||
	    !pblk || io_channel_read_blk64(pd->fs->io, pblk, 1, pd->buf))
		return 0;
	check_leaf_block(pd, 0, pblk);
	return 1;
}

static void check_block_dir(struct p2_dir *pd)
{
	struct fsck_ctx *ctx = pd->ctx;
	uint64_t want = 0;
	int first_done = 0;
	size_t i;

	if (!pd->nblocks)
		return;
	if ((pd->inode->i_flags & EXT2_INDEX_FL) &&
	    ext2fs_has_feature_dir_index(pd->fs->super))
		p2_htree_map(pd);
	pd->itree = e2x_itree_feature(pd->fs) &&
		    e2x_itree_present(pd->fs, pd->inode);
	for (i = 0; i < pd->nblocks && !ctx->abort; i++) {
		struct dir_block *b = &pd->blocks[i];
		struct problem_ctx pctx;

		if (b->lblk != want) {
			pctx_clear(&pctx);
			pctx.ino = pd->ino;
			pctx.num = want;
			pctx.num2 = b->lblk - want;
			if (pctx.num2 > P2_HOLE_MAX)
				fix_problem(ctx, PR_2_DIR_HOLE_BIG, &pctx);
			else if (fix_problem(ctx, PR_2_DIR_HOLE, &pctx) &&
				 !p2_fix_holes(pd, want, b->lblk) && !want)
				first_done = check_new_first(pd);
		}
		want = b->lblk + 1;
		if (io_channel_read_blk64(pd->fs->io, b->pblk, 1, pd->buf)) {
			pctx_clear(&pctx);
			pctx.ino = pd->ino;
			pctx.num = b->lblk;
			pctx.blk = b->pblk;
			fix_problem(ctx, PR_2_DIR_READ, &pctx);
			continue;
		}
		check_leaf_block(pd, b->lblk, b->pblk);
	}
	if (pd->blocks[0].lblk != 0 && !first_done)
		entry_problem(pd, PR_2_DOT_MISSING, 0, NULL, 0, 0, 0);
	if (pd->itree)
		p2_itree_verify(pd);
}

/* Inline directory: '..' in the first 4 bytes, entries after it in
 * i_block and in the system.data value. */
static void check_inline_dir(struct p2_dir *pd)
{
	struct ext2_inode_large *in = pd->inode;
	unsigned int voff, vlen;
	uint32_t vinum, parent;
	const char *why;
	char *ib = (char *)in->i_block;

	memcpy(&parent, ib, 4);
	if (parent > pd->fs->super->s_inodes_count ||
	    (parent < EXT2_FIRST_INODE(pd->fs->super) &&
	     parent != EXT2_ROOT_INO)) {
		if (entry_problem(pd, PR_2_INLINE_DIR, parent, "..", 2, 0, 0)) {
			memset(ib, 0, 4);
			pd->dirty = 1;
		}
		parent = 0;
	}
	count_ref(pd->ctx, pd->ino);	/* the implicit '.' */
	set_dotdot(pd, parent);
	walk_region(pd, ib + EXT4_INLINE_DATA_DOTDOT_SIZE,
		    EXT4_MIN_INLINE_DATA_SIZE - EXT4_INLINE_DATA_DOTDOT_SIZE, 0,
		    0, 1);
	if (p1_ibody_find(pd->fs, in, FSCK_XATTR_INDEX_SYSTEM, "data",
			  &voff, &vlen, &vinum, &why) || !vlen || vinum)
		return;
	if (voff + vlen > pd->isize)
		return;
	walk_region(pd, (char *)in + voff, vlen, 1, 0, 1);
}

static void check_dir(struct fsck_ctx *ctx, struct p2_dir *pd)
{
	if (ext2fs_read_inode_full(pd->fs, pd->ino,
				   (struct ext2_inode *)pd->inode, pd->isize))
		return;
	pd->encrypted = !!(pd->inode->i_flags & EXT4_ENCRYPT_FL);
	pd->casefold = !!(pd->inode->i_flags & EXT4_CASEFOLD_FL) &&
		       !pd->encrypted;
	if (pd->inode->i_flags & EXT4_INLINE_DATA_FL)
		check_inline_dir(pd);
	else
		check_block_dir(pd);
	if (!ctx->restart)
		p2_names_check(pd);
	p2_fix_finish(pd);
}

static void reset_dir(struct p2_dir *pd)
{
	free(pd->dx);
	free(pd->names);
	pd->dx = NULL;
	pd->ndx = 0;
	pd->names = NULL;
	pd->nnames = pd->names_cap = 0;
	pd->names_lost = 0;
	pd->htree = 0;
	pd->hash_ok = 0;
	pd->itree = 0;
	pd->itree_reports = 0;
	pd->dirty = pd->touched = pd->reindex = 0;
}

/* Directory blocks read ahead of the check, in the order it reads them. */
#define P2_RA_BLOCKS 2048

/* The walk over the sorted directory block list (ctx->dblist). */
struct p2_walk {
	struct p2_dir *pd;
	size_t blocks_cap;
	unsigned long long idx, ra, total;
	int failed;
};

static int advise_db(ext2_filsys fs, struct ext2_db_entry2 *db, void *priv)
{
	if (db->blk)	/* 0: an inline directory's marker */
		fsck_ra_blocks(priv, db->blk, 1);
	return 0;
}

static void read_ahead(struct p2_walk *w)
{
	struct fsck_ctx *ctx = w->pd->ctx;
	unsigned long long want = w->idx + P2_RA_BLOCKS;

	if (!ctx->ra || w->ra >= want || w->ra >= w->total)
		return;
	ext2fs_dblist_iterate3(ctx->dblist, advise_db, w->ra, want - w->ra,
			       ctx);
	fsck_ra_flush(ctx);
	w->ra = want;
}

/* Check the directory whose blocks were gathered in w->pd. */
static void finish_dir(struct p2_walk *w)
{
	struct p2_dir *pd = w->pd;
	struct fsck_ctx *ctx = pd->ctx;

	if (!pd->ino)
		return;
	fsck_progress(ctx, 2, w->idx, w->total);
	if (!ext2fs_test_inode_bitmap2(ctx->inode_bad, pd->ino))
		check_dir(ctx, pd);
	reset_dir(pd);
	pd->ino = 0;
	pd->nblocks = 0;
}

static int visit_db(ext2_filsys fs, struct ext2_db_entry2 *db, void *priv)
{
	struct p2_walk *w = priv;
	struct p2_dir *pd = w->pd;

	if (db->ino != pd->ino) {
		finish_dir(w);
		if (pd->ctx->abort)
			return DIRENT_ABORT;
		read_ahead(w);
		pd->ino = db->ino;
	}
	w->idx++;
	if (!db->blk)
		return 0;
	if (pd->nblocks == w->blocks_cap) {
		size_t cap = w->blocks_cap ? w->blocks_cap * 2 : 64;
		struct dir_block *v = realloc(pd->blocks, cap * sizeof(*v));

		if (!v) {
			w->failed = 1;
			return DIRENT_ABORT;
		}
		pd->blocks = v;
		w->blocks_cap = cap;
	}
	pd->blocks[pd->nblocks].pblk = db->blk;
	pd->blocks[pd->nblocks].lblk = db->blockcnt;
	pd->nblocks++;
	return 0;
}

void pass2(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct p2_dir pd = { .ctx = ctx, .fs = fs };
	struct p2_walk w = { .pd = &pd };

	if (ctx->abort || !ctx->dblist)
		return;
	pd.isize = EXT2_INODE_SIZE(fs->super);
	if (ext2fs_get_memzero(pd.isize < sizeof(*pd.inode) ?
				       sizeof(*pd.inode) : pd.isize,
			       &pd.inode) ||
	    ext2fs_get_mem(fs->blocksize, &pd.buf))
		goto out;
	/* sorted in place: no copy of a list that can be large */
	ext2fs_dblist_sort2(ctx->dblist, cmp_db);
	w.total = ext2fs_dblist_count2(ctx->dblist);
	ext2fs_dblist_iterate3(ctx->dblist, visit_db, 0, w.total, &w);
	if (!w.failed)
		finish_dir(&w);
	if (w.failed) {
		fprintf(stderr, "%s: out of memory in pass 2\n", ctx->prog);
		ctx->abort = 1;
		ctx->exit_extra |= FSCK_ERROR;
	}
	fsck_progress(ctx, 2, w.total, w.total);
out:
	reset_dir(&pd);
	free(pd.blocks);
	ext2fs_free_mem(&pd.inode);
	ext2fs_free_mem(&pd.buf);
}
