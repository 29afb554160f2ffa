/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_xattr.c --- pass 1's checks of extended attribute blocks (header,
 * checksum, entries, hashes, reference counts) and of attribute entries
 * that point at value inodes (ea_inode).
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass1.h"
#include <ext2fs/ext2_ext_attr.h>

/* One xattr block: its stored and counted references.  An open hash
 * table keyed by block number (ctx->ea_refs, capacity a power of two). */
struct ea_ref {
	blk64_t blk;		/* 0 = empty slot */
	uint32_t stored;	/* h_refcount */
	uint32_t counted;
	ext2_ino_t first_ino;
	uint32_t charge;	/* clusters of value inodes it references */
	uint32_t charge_inodes;	/* and how many value inodes */
};

static size_t ea_slot(struct ea_ref *t, size_t cap, blk64_t blk)
{
	size_t i = (size_t)(blk * 0x9E3779B97F4A7C15ULL) & (cap - 1);

	while (t[i].blk && t[i].blk != blk)
		i = (i + 1) & (cap - 1);
	return i;
}

static int ea_grow(struct fsck_ctx *ctx)
{
	size_t cap = ctx->ea_refs_cap ? ctx->ea_refs_cap * 2 : 1024, i;
	struct ea_ref *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < ctx->ea_refs_cap; i++)
		if (ctx->ea_refs[i].blk)
			t[ea_slot(t, cap, ctx->ea_refs[i].blk)] =
				ctx->ea_refs[i];
	free(ctx->ea_refs);
	ctx->ea_refs = t;
	ctx->ea_refs_cap = cap;
	return 0;
}

static struct ea_ref *ea_lookup(struct fsck_ctx *ctx, blk64_t blk, int add)
{
	size_t i;

	if (!ctx->ea_refs_cap || (add && ctx->nea_refs * 2 >= ctx->ea_refs_cap))
		if (ea_grow(ctx))
			return NULL;
	i = ea_slot(ctx->ea_refs, ctx->ea_refs_cap, blk);
	if (!ctx->ea_refs[i].blk) {
		if (!add)
			return NULL;
		ctx->ea_refs[i].blk = blk;
		ctx->nea_refs++;
	}
	return &ctx->ea_refs[i];
}

static void ea_problem(struct p1_inode *st, problem_t code, blk64_t blk,
		       const char *str)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = st->ino;
	pctx.blk = blk;
	pctx.str = str;
	p1_fix(st, code, &pctx);
}

/* The kernel charges a value inode's clusters to the inode using it. */
static uint64_t ea_inode_charge(ext2_filsys fs, uint64_t size)
{
	uint64_t blocks = (size + fs->blocksize - 1) / fs->blocksize;

	return (blocks + EXT2FS_CLUSTER_RATIO(fs) - 1) >> fs->cluster_ratio_bits;
}

/* A value inode written by the kernel (its hash in the entry) is charged
 * to the inode using it; old Lustre-style references are not. */
static int ea_entry_charged(ext2_filsys fs, struct ext2_ext_attr_entry *e)
{
	__u32 hash = 0, shash = 0;

	return e->e_value_inum <= fs->super->s_inodes_count &&
	       e->e_value_inum >= EXT2_FIRST_INODE(fs->super) &&
	       !ext2fs_ext_attr_hash_entry3(fs, e, NULL, &hash, &shash) &&
	       (e->e_hash == hash || e->e_hash == shash);
}

static uint64_t ea_entry_charge(ext2_filsys fs, struct ext2_ext_attr_entry *e)
{
	if (!ea_entry_charged(fs, e))
		return 0;
	return ea_inode_charge(fs, e->e_value_size);
}

/*
 * Judge the value inode entry E of inode ST names: 0 when the reference
 * stands, else the problem, with PCTX filled in.  A reference stands when
 * the entry's hash covers the value inode's hash (the kernel's way), or
 * when the value inode names ST by its mtime and generation (values
 * written by Lustre before the kernel had value inodes).
 */
static problem_t judge_value_inode(struct p1_inode *st,
				   struct ext2_ext_attr_entry *e,
				   struct ext2_inode *vi,
				   struct problem_ctx *pctx)
{
	struct ext2_super_block *sb = st->fs->super;
	__u32 hash = 0, shash = 0;

	if (e->e_value_inum < EXT2_FIRST_INODE(sb) ||
	    e->e_value_inum > sb->s_inodes_count) {
		pctx->str = "inode number out of range";
		return PR_1_EA_INODE_REF;
	}
	if (ext2fs_read_inode(st->fs, e->e_value_inum, vi)) {
		pctx->str = "it cannot be read";
		return PR_1_EA_INODE_REF;
	}
	if (!ext2fs_ext_attr_hash_entry3(st->fs, e, NULL, &hash, &shash) &&
	    (e->e_hash == hash || e->e_hash == shash))
		return 0;
	if (vi->i_mtime == st->ino &&
	    vi->i_generation == st->inode->i_generation)
		return 0;
	if (!(vi->i_flags & EXT4_EA_INODE_FL)) {
		pctx->str = "not a value inode, and the hash does not match";
		return PR_1_EA_INODE_REF;
	}
	pctx->num = e->e_hash;
	return PR_1_EA_INODE_HASH;
}

/*
 * A value inode given its flag is no file of its own: quota charged it
 * as one if pass 1 has accepted it already; if not, the scan may still
 * hold it without the flag (check_inode re-reads it from ea_flag_set).
 */
static void note_flag_set(struct p1_inode *st, ext2_ino_t vino,
			  const struct ext2_inode *vi)
{
	struct fsck_ctx *ctx = st->ctx;
	struct ext2_inode_large big = { 0 };

	if (!ctx->ea_flag_set &&
	    ext2fs_allocate_inode_bitmap(st->fs, "value inodes flagged",
					 &ctx->ea_flag_set))
		return;
	ext2fs_mark_inode_bitmap2(ctx->ea_flag_set, vino);
	if (!ext2fs_test_inode_bitmap2(ctx->inode_used, vino))
		return;		/* not accounted yet */
	memcpy(&big, vi, sizeof(*vi));
	fsck_quota_take_back(ctx, vino, &big, EXT2_GOOD_OLD_INODE_SIZE,
			     ext2fs_get_stat_i_blocks(st->fs,
				     (struct ext2_inode *)vi) * 512, 1);
}

/* A value inode in use lacks its flag: give it the flag. */
static void check_value_inode_flag(struct p1_inode *st,
				   struct ext2_ext_attr_entry *e,
				   const struct ext2_inode *vi)
{
	struct problem_ctx pctx;
	errcode_t err;

	if (vi->i_flags & EXT4_EA_INODE_FL)
		return;
	pctx_clear(&pctx);
	pctx.ino = st->ino;
	pctx.ino2 = e->e_value_inum;
	if (!fix_problem(st->ctx, PR_1_EA_INODE_FLAG, &pctx))
		return;
	err = e2x_repair_ea_inode_flag(st->fs, e->e_value_inum);
	p1_report_write(st->ctx, e->e_value_inum, err);
	if (!err)
		note_flag_set(st, e->e_value_inum, vi);
}

/* Every value-inode entry of the area must stand; returns -1 when one
 * does not and the repair dropped the area (its block or the in-inode
 * attributes). */
static int check_value_inodes(struct p1_inode *st, const char *base,
			      unsigned int first, unsigned int size,
			      blk64_t blk)
{
	unsigned int off = first;

	while (off + sizeof(struct ext2_ext_attr_entry) <= size) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);
		struct ext2_inode vi;
		struct problem_ctx pctx;
		problem_t code;

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		if (!e->e_value_inum)
			continue;
		pctx_clear(&pctx);
		pctx.ino = st->ino;
		pctx.ino2 = e->e_value_inum;
		pctx.blk = blk;
		code = judge_value_inode(st, e, &vi, &pctx);
		if (!code)
			check_value_inode_flag(st, e, &vi);
		else if (p1_fix(st, code, &pctx))
			return -1;
	}
	return 0;
}

/* An entry names value inode INUM: counted for pass 4. */
static void count_value_inode(struct p1_inode *st, ext2_ino_t inum)
{
	struct ext2_super_block *sb = st->fs->super;

	if (inum < EXT2_FIRST_INODE(sb) || inum > sb->s_inodes_count)
		return;
	ext2fs_mark_inode_bitmap2(st->ctx->ea_inode_refd, inum);
	ext2fs_icount_increment(st->ctx->ea_inode_refs, inum, NULL);
}

/* An in-inode entry's hash, when it has one, is its value's (libext2fs
 * refuses the whole area otherwise); a wrong one is set right. */
static void check_ibody_hash(struct p1_inode *st,
			     const struct ext2_ext_attr_entry *e,
			     const char *value)
{
	struct problem_ctx pctx;
	__u32 hash;

	if ((const char *)value + e->e_value_size >
	    (const char *)st->inode + st->isize)
		return;		/* the walk reported the bounds */
	hash = ext2fs_ext_attr_hash_entry((struct ext2_ext_attr_entry *)e,
					  (void *)value);
	if (e->e_hash == hash ||
	    e->e_hash == ext2fs_ext_attr_hash_entry_signed(
				 (struct ext2_ext_attr_entry *)e, (void *)value))
		return;
	pctx_clear(&pctx);
	pctx.ino = st->ino;
	if (!fix_problem(st->ctx, PR_1_IBODY_EA_HASH, &pctx))
		return;
	((struct ext2_ext_attr_entry *)e)->e_hash = hash;
	st->dirty = 1;
}

/* Value-inode references and entry hashes.  Returns -1 when
 * a repair dropped the area.  An inline inode's in-inode attributes
 * (EA_NO_DROP) are only counted: dropping them would drop its data. */
int p1_check_ea_entries(struct p1_inode *st, const char *base,
			unsigned int first, unsigned int size,
			unsigned int value_base, blk64_t blk, int flags)
{
	int in_block = flags & EA_IN_BLOCK;
	unsigned int off = first;

	if (!(flags & EA_NO_DROP) &&
	    check_value_inodes(st, base, first, size, blk))
		return -1;
	while (off + sizeof(struct ext2_ext_attr_entry) <= size) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		if (e->e_value_inum) {
			if (!in_block) {
				st->nclusters += ea_entry_charge(st->fs, e);
				st->ea_inodes += ea_entry_charged(st->fs, e);
			}
			count_value_inode(st, e->e_value_inum);
			continue;
		}
		if (!e->e_hash)
			continue;
		if (!in_block) {
			check_ibody_hash(st, e, base + value_base +
						 e->e_value_offs);
			continue;
		}
		if (e->e_hash != ext2fs_ext_attr_hash_entry(
					 e, (char *)base + value_base +
						    e->e_value_offs) &&
		    e->e_hash != ext2fs_ext_attr_hash_entry_signed(
					 e, (char *)base + value_base +
						    e->e_value_offs))
			ea_problem(st, PR_1_EA_HASH, blk, "entry");
	}
	return 0;
}

static uint32_t block_charge(ext2_filsys fs, struct ext2_ext_attr_header *h,
			     uint32_t *ninodes)
{
	const char *base = (const char *)h;
	unsigned int off = sizeof(*h);
	uint64_t n = 0;

	while (off + sizeof(struct ext2_ext_attr_entry) <= fs->blocksize) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		if (e->e_value_inum) {
			n += ea_entry_charge(fs, e);
			*ninodes += ea_entry_charged(fs, e);
		}
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
	}
	return n;
}

/* Name prefix indexes the kernel defines (1 user ... 10 hurd). */
#define EA_INDEX_MAX 10

/* An entry names a known prefix, and only the POSIX ACL prefixes (2, 3)
 * stand for a whole name with nothing after them.  A lost end marker
 * shows up here: the bytes after the last entry read as an entry with an
 * index no kernel writes. */
static int ea_name_ok(const struct ext2_ext_attr_entry *e)
{
	if (!e->e_name_index || e->e_name_index > EA_INDEX_MAX)
		return 0;
	return e->e_name_len || e->e_name_index == 2 || e->e_name_index == 3;
}

/* Check a block once; returns 0 when it is sane enough to count. */
static int check_ea_block_once(struct p1_inode *st, blk64_t blk,
			       struct ext2_ext_attr_header *h)
{
	ext2_filsys fs = st->fs;
	const char *base = (const char *)h;
	unsigned int off = sizeof(*h), end_entries;

	if (h->h_magic != EXT2_EXT_ATTR_MAGIC) {
		ea_problem(st, PR_1_EA_BLOCK_HEADER, blk, "bad magic");
		return -1;
	}
	if (h->h_blocks != 1) {
		ea_problem(st, PR_1_EA_BLOCK_HEADER, blk,
			   "more than one block");
		return -1;
	}
	if (!h->h_refcount) {
		ea_problem(st, PR_1_EA_BLOCK_HEADER, blk,
			   "zero reference count");
		return -1;
	}
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !ext2fs_ext_attr_block_csum_verify(fs, st->ino, blk, h))
		ea_problem(st, PR_1_EA_BLOCK_CSUM, blk, NULL);
	/* entries, then values, all inside the block */
	for (;;) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);

		if (off + 4 > fs->blocksize) {
			ea_problem(st, PR_1_EA_ENTRY, blk,
				   "entries run past the block");
			return -1;
		}
		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		if (off + EXT2_EXT_ATTR_LEN(e->e_name_len) > fs->blocksize) {
			ea_problem(st, PR_1_EA_ENTRY, blk, "bad name length");
			return -1;
		}
		if (!ea_name_ok(e)) {
			ea_problem(st, PR_1_EA_ENTRY, blk, "bad attribute name");
			return -1;
		}
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
	}
	end_entries = off + 4;
	for (off = sizeof(*h);;) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		if (e->e_value_inum || !e->e_value_size)
			continue;
		if (e->e_value_offs < end_entries ||
		    (uint64_t)e->e_value_offs + e->e_value_size >
			    fs->blocksize) {
			ea_problem(st, PR_1_EA_ENTRY, blk,
				   "a value lies outside the block");
			return -1;
		}
	}
	return p1_check_ea_entries(st, base, sizeof(*h), fs->blocksize, 0,
				   blk, EA_IN_BLOCK);
}

void p1_check_ea_block(struct p1_inode *st)
{
	struct fsck_ctx *ctx = st->ctx;
	ext2_filsys fs = st->fs;
	blk64_t blk = ext2fs_file_acl_block(fs, (struct ext2_inode *)st->inode);
	struct ext2_ext_attr_header *h = NULL;
	struct ea_ref *r;

	if (!blk)
		return;
	if (!ext2fs_has_feature_xattr(fs->super)) {
		if (!st->quiet)
			ea_problem(st, PR_1_EA_NO_FEATURE, blk, NULL);
		return;
	}
	if (!fsck_block_in_fs(fs, blk)) {
		if (!st->quiet)
			ea_problem(st, PR_1_EA_BLOCK_RANGE, blk, NULL);
		return;
	}
	if (st->quiet) {
		st->visit(st, blk, 1, BK_EA);
		return;
	}
	r = ea_lookup(ctx, blk, 0);
	if (r) {
		r->counted++;
		st->nclusters += 1 + r->charge;
		st->ea_inodes += r->charge_inodes;
		return;
	}
	if (ext2fs_test_block_bitmap2(ctx->ea_seen, blk)) {
		return;	/* seen and reported before */
	}
	ext2fs_mark_block_bitmap2(ctx->ea_seen, blk);
	if (ext2fs_get_mem(fs->blocksize, &h))
		return;
	if (io_channel_read_blk64(fs->io, blk, 1, h)) {
		ea_problem(st, PR_1_EA_BLOCK_READ, blk, NULL);
		goto out;
	}
	/* the block is this inode's even when its contents are damaged */
	st->visit(st, blk, 1, BK_EA);
	if (check_ea_block_once(st, blk, h))
		goto out;
	r = ea_lookup(ctx, blk, 1);
	if (!r)
		goto out;
	r->stored = h->h_refcount;
	r->counted = 1;
	r->charge = block_charge(fs, h, &r->charge_inodes);
	st->nclusters += r->charge;
	st->ea_inodes += r->charge_inodes;
	r->first_ino = st->ino;
out:
	ext2fs_free_mem(&h);
}

/* After the inode scan: stored reference counts against counted ones. */
void p1_ea_finish(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	size_t i;

	for (i = 0; i < ctx->ea_refs_cap; i++) {
		struct ea_ref *r = &ctx->ea_refs[i];

		if (!r->blk || r->stored == r->counted)
			continue;
		pctx_clear(&pctx);
		pctx.ino = r->first_ino;
		pctx.blk = r->blk;
		pctx.num = r->stored;
		pctx.num2 = r->counted;
		if (fix_problem(ctx, PR_1_EA_REFCOUNT, &pctx))
			p1_report_write(ctx, r->first_ino,
					e2x_repair_xattr_refcount(
						ctx->fs, r->blk, r->counted));
	}
}

/* Find attribute INDEX/NAME in the inode's attribute block: copies up to
 * MAX bytes of the value into OUT and returns its length, or -1. */
int p1_block_xattr(struct p1_inode *st, int index, const char *name,
		   void *out, unsigned int max)
{
	ext2_filsys fs = st->fs;
	blk64_t blk = ext2fs_file_acl_block(fs, (struct ext2_inode *)st->inode);
	size_t nlen = strlen(name);
	unsigned int off = sizeof(struct ext2_ext_attr_header);
	char *buf = NULL;
	int ret = -1;

	if (!blk || !fsck_block_in_fs(fs, blk) ||
	    ext2fs_get_mem(fs->blocksize, &buf))
		return -1;
	if (io_channel_read_blk64(fs->io, blk, 1, buf) ||
	    ((struct ext2_ext_attr_header *)buf)->h_magic !=
		    EXT2_EXT_ATTR_MAGIC)
		goto out;
	while (off + sizeof(struct ext2_ext_attr_entry) <= fs->blocksize) {
		struct ext2_ext_attr_entry *e = (void *)(buf + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e) ||
		    off + EXT2_EXT_ATTR_LEN(e->e_name_len) > fs->blocksize)
			break;
		if (e->e_name_index == index && e->e_name_len == nlen &&
		    !memcmp(EXT2_EXT_ATTR_NAME(e), name, nlen) &&
		    !e->e_value_inum &&
		    (uint64_t)e->e_value_offs + e->e_value_size <=
			    fs->blocksize) {
			memcpy(out, buf + e->e_value_offs,
			       e->e_value_size < max ? e->e_value_size : max);
			ret = e->e_value_size;
			break;
		}
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
	}
out:
	ext2fs_free_mem(&buf);
	return ret;
}
