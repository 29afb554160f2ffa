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

/* One entry's value-inode reference and, in a block, its hash (VALUE
 * the value's bytes there). */
void p1_check_ea_entry(struct p1_inode *st, const void *entry,
		       const char *value, blk64_t blk, int in_block)
{
	struct ext2_super_block *sb = st->fs->super;
	struct ext2_ext_attr_entry *e = (void *)entry;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = st->ino;
	if (e->e_value_inum) {
		pctx.ino2 = e->e_value_inum;
		if (!in_block) {
			st->nclusters += ea_entry_charge(st->fs, e);
			st->ea_inodes += ea_entry_charged(st->fs, e);
		}
		if (e->e_value_inum < EXT2_FIRST_INODE(sb) ||
		    e->e_value_inum > sb->s_inodes_count)
			pctx.str = "inode number out of range";
		else
			ext2fs_mark_inode_bitmap2(st->ctx->ea_inode_refd,
						  e->e_value_inum);
		if (pctx.str)
			fix_problem(st->ctx, PR_1_EA_INODE_REF, &pctx);
		return;
	}
	if (!in_block || !e->e_hash)
		return;
	if (e->e_hash != ext2fs_ext_attr_hash_entry(e, (char *)value) &&
	    e->e_hash != ext2fs_ext_attr_hash_entry_signed(e, (char *)value))
		ea_problem(st, PR_1_EA_HASH, blk, "entry");
}

/* The entries of an attribute block, from FIRST. */
static void check_ea_entries(struct p1_inode *st, const char *base,
			     unsigned int first, unsigned int size,
			     blk64_t blk)
{
	unsigned int off = first;

	while (off + sizeof(struct ext2_ext_attr_entry) <= size) {
		struct ext2_ext_attr_entry *e = (void *)(base + off);

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		p1_check_ea_entry(st, e, base + e->e_value_offs, blk, 1);
	}
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
	check_ea_entries(st, base, sizeof(*h), fs->blocksize, blk);
	return 0;
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
