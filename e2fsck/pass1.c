/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1.c --- pass 1: read every inode in use and check it on its own:
 * checksum, mode and type, flags against features and each other, special
 * and reserved inodes, symlinks and device files, sizes and i_blocks.
 * Block maps, inline data and xattrs are checked by pass1_*.c.
 *
 * Hands on: inodes in use (by type), link counts as stored, every block
 * or cluster found (and those found twice, for pass 1b), the directory
 * blocks for pass 2, and the directory table for passes 2 and 3.
 */
#include "config.h"
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include "pass1.h"
#include "csum.h"
#include "readahead.h"
#include "journal.h"
#include <ext2fs/ext2_ext_attr.h>
#include <ext2fs/ext3_extents.h>

static errcode_t alloc_state(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	errcode_t err;

	/* Trees of extents: a few bytes for long runs of used inodes and
	 * blocks, where a plain bit array costs a bit for each. */
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	err = ext2fs_allocate_inode_bitmap(fs, "in use", &ctx->inode_used);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "dirs", &ctx->inode_dir);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "regular",
						   &ctx->inode_reg);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "bad", &ctx->inode_bad);
	if (!err)
		err = ext2fs_allocate_block_bitmap(fs, "metadata",
						   &ctx->block_meta);
	if (!err)
		err = ext2fs_allocate_block_bitmap(fs, "dup", &ctx->block_dup);
	if (!err)
		err = ext2fs_allocate_block_bitmap(fs, "ea", &ctx->ea_seen);
	if (!err)
		err = ext2fs_create_icount2(fs, 0, 0, NULL, &ctx->link_count);
	/* Pass 2 counts names in directory order, which scatters over the
	 * inodes: a plain bit array stays small where a tree would not. */
	fs->default_bitmap_type = EXT2FS_BMAP64_BITARRAY;
	if (!err)
		err = ext2fs_create_icount2(fs, EXT2_ICOUNT_OPT_INCREMENT, 0,
					    NULL, &ctx->ref_count);
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	if (!err)
		err = ext2fs_init_dblist(fs, &ctx->dblist);
	if (!err)
		err = fsck_quota_init(ctx);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "symlinks",
						   &ctx->inode_lnk);
	if (!err)
		err = ext2fs_allocate_inode_bitmap(fs, "value inodes named",
						   &ctx->ea_inode_refd);
	if (!err)
		err = ext2fs_create_icount2(fs, 0, 0, NULL,
					    &ctx->ea_inode_refs);
	return err;
}

/* Report a problem of the inode; a yes applies its repair (fix_inode.c). */
static int report(struct p1_inode *st, problem_t code, uint64_t num,
		  uint64_t num2, const char *str)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = st->ino;
	pctx.num = num;
	pctx.num2 = num2;
	pctx.str = str;
	return p1_fix(st, code, &pctx);
}

static int is_quota_ino(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_super_block *sb = fs->super;

	return ino && (ino == sb->s_usr_quota_inum ||
		       ino == sb->s_grp_quota_inum ||
		       ino == sb->s_prj_quota_inum);
}

/* Inodes that no directory names and that pass 4 leaves alone. */
int fsck_ino_is_special(ext2_filsys fs, ext2_ino_t ino,
			const struct ext2_inode *inode)
{
	struct ext2_super_block *sb = fs->super;

	if (ino < EXT2_FIRST_INODE(sb) && ino != EXT2_ROOT_INO)
		return 1;
	if (is_quota_ino(fs, ino) || ino == sb->s_journal_inum)
		return 1;
	if (ext2fs_has_feature_orphan_file(sb) &&
	    ino == sb->s_orphan_file_inum)
		return 1;
	if (inode && (inode->i_flags & EXT4_EA_INODE_FL) &&
	    LINUX_S_ISREG(inode->i_mode))
		return 1;
	/* AFS server inodes: nameless by design when the feature says so */
	if (inode && (inode->i_flags & EXT2_IMAGIC_FL) &&
	    ext2fs_has_feature_imagic_inodes(sb))
		return 1;
	return 0;
}

/* Only a directory folds case (reserved inodes too: none is one). */
static void check_casefold(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;

	if (!(in->i_flags & EXT4_CASEFOLD_FL))
		return;
	if (!LINUX_S_ISDIR(in->i_mode))
		report(st, PR_1_CASEFOLD_NOT_DIR, 0, 0, NULL);
	else if (!ext2fs_has_feature_casefold(st->fs->super))
		report(st, PR_1_CASEFOLD_NO_FEATURE, 0, 0, NULL);
}

/* A file or directory without the extent or inline flag whose i_block
 * starts with a sound extent root (its magic, counts within the four
 * slots of the root, a depth a tree can have) lost its extent flag: read
 * as a block map, those words would name blocks all over the disk. */
/* The inode holds a system.data attribute (in-inode, no value inode). */
static int has_system_data(struct p1_inode *st)
{
	unsigned int voff, vlen;
	uint32_t vinum = 0;
	const char *why;

	return !p1_ibody_find(st->fs, st->inode, FSCK_XATTR_INDEX_SYSTEM,
			      "data", &voff, &vlen, &vinum, &why) && !vinum;
}

static void check_lost_extent_flag(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	const struct ext3_extent_header *eh = (const void *)in->i_block;

	if (!LINUX_S_ISREG(in->i_mode) && !LINUX_S_ISDIR(in->i_mode))
		return;
	if ((in->i_flags & EXT4_EXTENTS_FL) ||
	    ((in->i_flags & EXT4_INLINE_DATA_FL) && has_system_data(st)) ||
	    ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    ext2fs_extent_header_verify((void *)in->i_block,
					sizeof(in->i_block)) ||
	    ext2fs_le16_to_cpu(eh->eh_depth) > P1_MAX_EXTENT_DEPTH)
		return;
	/* with the inline flag and no inline data to go with it, the flag
	 * is what is wrong (its repair would keep the root as file bytes) */
	report(st, in->i_flags & EXT4_INLINE_DATA_FL ? PR_1_INLINE_IS_EXTENTS :
						       PR_1_EXTENT_FLAG_MISSING,
	       0, 0, NULL);
}

static void check_flags(struct p1_inode *st)
{
	struct ext2_super_block *sb = st->fs->super;
	struct ext2_inode_large *in = st->inode;
	uint32_t f;

	check_lost_extent_flag(st);
	f = in->i_flags;
	if ((f & EXT4_EXTENTS_FL) && !ext2fs_has_feature_extents(sb)) {
		report(st, PR_1_EXTENTS_NO_FEATURE, 0, 0, NULL);
	}
	if ((f & EXT2_INDEX_FL) && !LINUX_S_ISDIR(in->i_mode)) {
		report(st, PR_1_INDEX_NOT_DIR, 0, 0, NULL);
	}
	if ((f & EXT4_HUGE_FILE_FL) && !ext2fs_has_feature_huge_file(sb))
		report(st, PR_1_HUGE_NO_FEATURE, 0, 0, NULL);
	if ((f & EXT2_IMAGIC_FL) && !ext2fs_has_feature_imagic_inodes(sb))
		report(st, PR_1_IMAGIC, 0, 0, NULL);
	if ((f & EXT4_ENCRYPT_FL) && !ext2fs_has_feature_encrypt(sb))
		report(st, PR_1_ENCRYPT_NO_FEATURE, 0, 0, NULL);
	check_casefold(st);
}

static void check_extra_isize(struct p1_inode *st)
{
	unsigned int extra = st->inode->i_extra_isize;

	if (st->isize <= EXT2_GOOD_OLD_INODE_SIZE || !extra)
		return;
	if (extra > st->isize - EXT2_GOOD_OLD_INODE_SIZE || (extra & 3) ||
	    extra < 4) {
		/* repaired in place: the inode is checked as usual */
		if (!report(st, PR_1_EXTRA_ISIZE, extra, 0, NULL))
			st->bad = 1;
	}
}

/* Old kernels wrote times before 1970 with both epoch bits set; read
 * today that is a date after 2242. */
static void check_extra_times(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	unsigned int have = EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize;
	const struct {
		const char *name;
		size_t off;
		uint32_t secs;
	} t[] = {
		{ "change", offsetof(struct ext2_inode_large, i_ctime_extra),
		  in->i_ctime },
		{ "modification",
		  offsetof(struct ext2_inode_large, i_mtime_extra), in->i_mtime },
		{ "access", offsetof(struct ext2_inode_large, i_atime_extra),
		  in->i_atime },
		{ "creation", offsetof(struct ext2_inode_large, i_crtime_extra),
		  in->i_crtime },
	};
	size_t i;

	if (st->isize <= EXT2_GOOD_OLD_INODE_SIZE ||
	    have > st->isize)
		return;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t extra;

		if (t[i].off + 4 > have)
			continue;
		memcpy(&extra, (char *)in + t[i].off, 4);
		if ((t[i].secs & (1U << 31)) &&
		    (extra & EXT4_EPOCH_MASK) == EXT4_EPOCH_MASK) {
			report(st, PR_1_EXTRA_TIME, 0, 0, t[i].name);
			return;
		}
	}
}

/* An inline directory keeps its parent in i_block[0] and its first entry
 * right after it.  Only that entry is judged: a damaged one further on
 * is pass 2's to salvage. */
static int inline_looks_like_dir(struct p1_inode *st)
{
	struct ext2_super_block *sb = st->fs->super;
	const struct ext2_inode_large *in = st->inode;
	const struct ext2_dir_entry_2 *d =
		(const void *)((const char *)in->i_block +
			       EXT4_INLINE_DATA_DOTDOT_SIZE);
	unsigned int rec = ext2fs_le16_to_cpu(d->rec_len);
	uint32_t parent = ext2fs_le32_to_cpu(in->i_block[0]);

	if (!ext2fs_has_feature_inline_data(sb) ||
	    (in->i_flags & (EXT4_EXTENTS_FL | EXT2_INDEX_FL)) ||
	    EXT2_I_SIZE(in) < EXT4_MIN_INLINE_DATA_SIZE)
		return 0;
	if (parent > sb->s_inodes_count ||
	    (parent < EXT2_FIRST_INODE(sb) && parent != EXT2_ROOT_INO))
		return 0;
	return rec >= 8U + d->name_len &&
	       rec <= EXT4_MIN_INLINE_DATA_SIZE - EXT4_INLINE_DATA_DOTDOT_SIZE &&
	       ext2fs_le32_to_cpu(d->inode) <= sb->s_inodes_count &&
	       (d->name_len || !d->inode);
}

/*
 * A device, fifo or socket whose mode alone is wrong: its i_block maps
 * (block map, no flags) whole blocks up to i_size, and the first block
 * opens with "." naming the inode and then "..", or it has inline data
 * laid out as an inline directory.  A device number never looks like
 * that.
 */
static int special_is_dir(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	struct ext2_inode_large *in = st->inode;
	uint64_t size = EXT2_I_SIZE(in);
	struct ext2_dir_entry_2 *d;
	unsigned int i, nblk, rec;
	char *buf = NULL;
	int ok = 0;

	if (in->i_flags & EXT4_INLINE_DATA_FL)
		return inline_looks_like_dir(st);
	if (in->i_flags & (EXT4_EXTENTS_FL | EXT2_INDEX_FL))
		return 0;
	if (!size || (size & (fs->blocksize - 1)) ||
	    size > (uint64_t)EXT2_NDIR_BLOCKS * fs->blocksize)
		return 0;
	nblk = size / fs->blocksize;
	for (i = 0; i < EXT2_N_BLOCKS; i++) {
		if (i < nblk && !fsck_block_in_fs(fs, in->i_block[i]))
			return 0;
		if (i >= nblk && in->i_block[i])
			return 0;
	}
	if (ext2fs_get_mem(fs->blocksize, &buf))
		return 0;
	if (io_channel_read_blk64(fs->io, in->i_block[0], 1, buf))
		goto out;
	d = (struct ext2_dir_entry_2 *)buf;
	if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)d, &rec))
		goto out;
	if (d->inode != st->ino || d->name_len != 1 || d->name[0] != '.' ||
	    rec < 12 || rec + 12 > fs->blocksize)
		goto out;
	d = (struct ext2_dir_entry_2 *)(buf + rec);
	ok = d->inode && d->inode <= fs->super->s_inodes_count &&
	     d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.' &&
	     d->rec_len >= 12;
out:
	ext2fs_free_mem(&buf);
	return ok;
}

/*
 * Character and block devices, fifos and sockets hold no data.  Words
 * past the device number in i_block are left over by some kernels and
 * harmless alone; with the immutable or append-only flag (which such a
 * file cannot take) they mark the inode as garbage.  The flag alone
 * goes, the file stays.
 */
static void check_device(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	int i, extra = 0;

	if (in->i_flags & EXT4_INLINE_DATA_FL) {
		st->bad = 1;
		report(st, PR_1_INLINE_TYPE, 0, 0, NULL);
		return;
	}
	if (in->i_flags & (EXT2_INDEX_FL | EXT4_EXTENTS_FL))
		goto bad;
	for (i = 4; i < EXT2_N_BLOCKS; i++)
		extra |= !!in->i_block[i];
	if (in->i_flags & (EXT2_IMMUTABLE_FL | EXT2_APPEND_FL)) {
		if (extra)
			goto bad;
		report(st, PR_1_SPECIAL_IMMUTABLE, 0, 0, NULL);
	}
	if (EXT2_I_SIZE(in))
		report(st, PR_1_DEVICE_SIZE, EXT2_I_SIZE(in), 0, NULL);
	return;
bad:
	st->bad = 1;
	report(st, PR_1_DEVICE_BAD, 0, 0, NULL);
}

static uint64_t stored_i_blocks(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	uint64_t n = in->i_blocks;

	if (ext2fs_has_feature_huge_file(st->fs->super)) {
		n |= (uint64_t)in->osd2.linux2.l_i_blocks_hi << 32;
		if (in->i_flags & EXT4_HUGE_FILE_FL)
			n *= st->fs->blocksize / 512;
	}
	return n;
}

static uint64_t ea_block_sectors(struct p1_inode *st)
{
	if (!ext2fs_file_acl_block(st->fs, (struct ext2_inode *)st->inode))
		return 0;
	return (uint64_t)EXT2FS_CLUSTER_RATIO(st->fs) *
	       (st->fs->blocksize / 512);
}

/* An encrypted target starts with its ciphertext length (16 bits, little
 * endian); the two length bytes count in i_size. */
static size_t encrypted_target_len(const void *buf)
{
	const unsigned char *b = buf;

	return (size_t)(b[0] | (b[1] << 8)) + 2;
}

/* A symlink with its target in i_block. */
static void check_fast_symlink(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	uint64_t size = EXT2_I_SIZE(in);
	size_t len;

	if (in->i_flags & (EXT4_EXTENTS_FL | EXT2_INDEX_FL)) {
		st->bad = 1;
		report(st, PR_1_SYMLINK_BAD, 0, 0,
		       "a short symlink with a block map flag");
		return;
	}
	if (!size) {
		st->bad = 1;
		report(st, PR_1_SYMLINK_BAD, 0, 0, "empty target");
		return;
	}
	if (in->i_flags & EXT4_ENCRYPT_FL) {
		len = encrypted_target_len(in->i_block);
		if (len >= sizeof(in->i_block) || len != size) {
			st->bad = 1;
			report(st, PR_1_SYMLINK_BAD, 0, 0,
			       "size differs from the encrypted target's");
		}
		return;
	}
	len = strnlen((const char *)in->i_block, sizeof(in->i_block));
	if (size >= sizeof(in->i_block) || len != size) {
		st->bad = 1;
		report(st, PR_1_FAST_SYMLINK_BAD, size, len, NULL);
	}
}

/* A symlink with its target in one data block. */
static void check_slow_symlink(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	uint64_t size = EXT2_I_SIZE(st->inode);
	char *buf = NULL;
	blk64_t pblk = 0;
	size_t len;

	if (st->bad)
		return;
	if (st->ndata != 1 || st->last_lblk != 0) {
		st->bad = 1;
		report(st, PR_1_SYMLINK_BAD, 0, 0,
		       "target not in exactly one block");
		return;
	}
	if (!size || size >= fs->blocksize) {
		st->bad = 1;
		report(st, PR_1_SYMLINK_BAD, 0, 0, "size out of range");
		return;
	}
	if (ext2fs_bmap2(fs, st->ino, (struct ext2_inode *)st->inode, NULL, 0,
			 0, NULL, &pblk) || !pblk)
		return;
	if (ext2fs_get_mem(fs->blocksize, &buf))
		return;
	if (!io_channel_read_blk64(fs->io, pblk, 1, buf)) {
		if (st->inode->i_flags & EXT4_ENCRYPT_FL)
			len = encrypted_target_len(buf);
		else
			len = strnlen(buf, fs->blocksize);
		if (len != size) {
			st->bad = 1;
			report(st, PR_1_SYMLINK_BAD, 0, 0,
			       "size differs from the target's length");
		}
	}
	ext2fs_free_mem(&buf);
}

static uint64_t max_mapped_size(ext2_filsys fs)
{
	uint64_t apb = fs->blocksize / 4;

	return (EXT2_NDIR_BLOCKS + apb + apb * apb + apb * apb * apb) *
	       (uint64_t)fs->blocksize;
}

static void check_sizes(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	struct ext2_inode_large *in = st->inode;
	uint64_t size = EXT2_I_SIZE(in);

	if (st->bad)
		return;
	if (in->i_flags & EXT4_INLINE_DATA_FL) {
		/* p1_check_inline checked the size */
	} else if (st->is_dir) {
		uint64_t nblk = size / fs->blocksize;
		uint64_t have = st->last_lblk + 1;

		if (st->last_lblk < 0) {
			st->bad = 1;
			report(st, PR_1_DIR_NO_BLOCKS, 0, 0, NULL);
			return;
		}
		if ((size & (fs->blocksize - 1)) || nblk > have ||
		    (nblk < have &&
		     have - nblk > fs->super->s_prealloc_dir_blocks))
			report(st, PR_1_DIR_SIZE, size,
			       have * fs->blocksize, NULL);
	} else if (LINUX_S_ISREG(in->i_mode) || LINUX_S_ISLNK(in->i_mode)) {
		if (st->last_init_lblk >= 0 &&
		    size < (uint64_t)st->last_init_lblk * fs->blocksize &&
		    !(in->i_flags & EXT4_VERITY_FL))
			report(st, PR_1_SIZE, size,
			       (uint64_t)(st->last_init_lblk + 1) *
				       fs->blocksize, NULL);
		else if (!(in->i_flags & EXT4_EXTENTS_FL) &&
			 size > max_mapped_size(fs))
			/* past any block map: the end of the last block it
			 * maps, as the reference has it */
			report(st, PR_1_SIZE, size,
			       (uint64_t)(st->last_lblk + 1) * fs->blocksize,
			       NULL);
	}
}

/* i_blocks against the clusters counted (every type of inode). */
static void check_i_blocks(struct p1_inode *st)
{
	ext2_filsys fs = st->fs;
	uint64_t want = st->nclusters * EXT2FS_CLUSTER_RATIO(fs) *
			(fs->blocksize / 512);

	if (st->bad || st->fix_map || st->clear)
		return;
	/* the Hurd counts i_blocks its own way */
	if (stored_i_blocks(st) != want &&
	    fs->super->s_creator_os != EXT2_OS_HURD)
		report(st, PR_1_I_BLOCKS, stored_i_blocks(st), want, NULL);
}

static void count_inode(struct fsck_ctx *ctx, struct p1_inode *st)
{
	uint16_t mode = st->inode->i_mode;

	ctx->n_files++;
	if (LINUX_S_ISREG(mode))
		ctx->n_regular++;
	else if (LINUX_S_ISDIR(mode))
		ctx->n_dirs++;
	else if (LINUX_S_ISLNK(mode))
		ctx->n_symlinks++;
	else if (LINUX_S_ISCHR(mode) || LINUX_S_ISBLK(mode))
		ctx->n_devices++;
	else if (LINUX_S_ISFIFO(mode))
		ctx->n_fifos++;
	else if (LINUX_S_ISSOCK(mode))
		ctx->n_sockets++;
	if (st->inode->i_flags & EXT4_INLINE_DATA_FL)
		ctx->n_inline++;
	else if (st->inode->i_flags & EXT4_EXTENTS_FL)
		ctx->n_extent++;
	else if (st->ndata)
		ctx->n_ind++;
}

/* An encrypted inode carries its context in attribute "c" (index 9):
 * 28 bytes for version 1, 40 for version 2; later versions are kept as
 * they are.  Accepted contexts are noted for pass 2 (encrypt.c). */
#define FSCK_XATTR_INDEX_ENCRYPTION 9
#define FSCK_ENC_CONTEXT_MAX 40
static void check_encryption(struct p1_inode *st)
{
	unsigned char c[FSCK_ENC_CONTEXT_MAX] = { 0 };
	unsigned int voff, vlen;
	uint32_t vinum;
	const char *why;
	int len;

	if (!p1_ibody_find(st->fs, st->inode, FSCK_XATTR_INDEX_ENCRYPTION,
			   "c", &voff, &vlen, &vinum, &why) && !vinum) {
		len = vlen;
		memcpy(c, (unsigned char *)st->inode + voff,
		       vlen < sizeof(c) ? vlen : sizeof(c));
	} else {
		len = p1_block_xattr(st, FSCK_XATTR_INDEX_ENCRYPTION, "c", c,
				     sizeof(c));
	}
	if (len < 0) {
		report(st, PR_1_ENCRYPT_NO_POLICY, 0, 0, NULL);
		return;
	}
	if (!fsck_enc_context_ok(c, len)) {
		st->bad = 1;
		report(st, PR_1_ENCRYPT_BAD_POLICY, 0, 0, NULL);
		return;
	}
	if (!st->quiet && !st->clear)
		fsck_enc_note(st->ctx, st->ino, c, len);
}

/* Bigalloc needs extents: a block map is turned into a small extent tree
 * before its blocks are claimed. */
static void check_bigalloc_map(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	size_t i;

	if (!st->fs->cluster_ratio_bits || (in->i_flags & EXT4_EXTENTS_FL))
		return;
	for (i = 0; i < EXT2_N_BLOCKS && !in->i_block[i]; i++)
		;
	if (i < EXT2_N_BLOCKS)
		report(st, PR_1_BIGALLOC_BLOCKMAP, 0, 0, NULL);
}

/* Map, size and account one inode whose type is known good. */
static void check_contents(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	uint16_t mode = in->i_mode;
	int fast = 0;

	st->last_lblk = st->last_init_lblk = -1;
	/* no more than a device can a symlink get these flags */
	if (LINUX_S_ISLNK(mode) &&
	    (in->i_flags & (EXT2_IMMUTABLE_FL | EXT2_APPEND_FL)))
		report(st, PR_1_SPECIAL_IMMUTABLE, 0, 0, NULL);
	if (LINUX_S_ISCHR(mode) || LINUX_S_ISBLK(mode) ||
	    LINUX_S_ISFIFO(mode) || LINUX_S_ISSOCK(mode)) {
		check_device(st);
	} else if (in->i_flags & EXT4_INLINE_DATA_FL) {
		p1_check_inline(st);
		p1_check_inline_symlink_ea(st);
	} else if (LINUX_S_ISLNK(mode) &&
		   stored_i_blocks(st) == ea_block_sectors(st)) {
		fast = 1;
		check_fast_symlink(st);
	} else {
		check_bigalloc_map(st);
		p1_walk_blocks(st);
		if (st->fix_map && !st->clear)
			p1_fix_map(st);
		if (LINUX_S_ISLNK(mode) && !st->fix_map)
			check_slow_symlink(st);
		if (st->is_dir)
			p1_claim_itree(st);
	}
	if (!(in->i_flags & EXT4_INLINE_DATA_FL))
		p1_check_ibody_ea(st);
	else
		p1_note_ibody_ea_inodes(st);
	p1_check_ea_block(st);
	if ((in->i_flags & EXT4_ENCRYPT_FL) &&
	    ext2fs_has_feature_encrypt(st->fs->super))
		check_encryption(st);
	/* after a map repair the next round of pass 1 checks the sizes */
	if ((LINUX_S_ISREG(mode) || LINUX_S_ISDIR(mode) ||
	     (LINUX_S_ISLNK(mode) && !fast)) && !st->fix_map && !st->clear)
		check_sizes(st);
	check_i_blocks(st);
	if (fast)
		st->ctx->n_fast_symlinks++;
}

/* An unused reserved inode (its blocks are nobody's) cannot be larger
 * than a block map could reach; it should say 0 (as the reference's
 * check of reserved inodes has it). */
static void check_reserved_size(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	uint64_t size = EXT2_I_SIZE(in);

	if (in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL))
		return;
	if (size > max_mapped_size(st->fs))
		report(st, PR_1_SIZE, size, 0, NULL);
}

/* Does any pointer of IN's block map name a block? */
static int any_block(const struct ext2_inode_large *in)
{
	int i;

	for (i = 0; i < EXT2_N_BLOCKS; i++)
		if (in->i_block[i])
			return 1;
	return 0;
}

static void check_reserved(struct p1_inode *st)
{
	struct fsck_ctx *ctx = st->ctx;
	ext2_filsys fs = st->fs;
	struct ext2_inode_large *in = st->inode;
	ext2_ino_t ino = st->ino;
	blk64_t d;

	if (ino != EXT2_ROOT_INO)
		check_casefold(st);
	/* an index flag means a directory, reserved inode or not */
	if (ino != EXT2_ROOT_INO && (in->i_flags & EXT2_INDEX_FL) &&
	    !LINUX_S_ISDIR(in->i_mode))
		report(st, PR_1_INDEX_NOT_DIR, 0, 0, NULL);
	if (ino == EXT2_BAD_INO) {
		/* never inline; an extent tree only where extents can be
		 * and with a root that says so */
		if ((in->i_flags & EXT4_INLINE_DATA_FL) ||
		    ((in->i_flags & EXT4_EXTENTS_FL) &&
		     (!ext2fs_has_feature_extents(fs->super) ||
		      ext2fs_le16_to_cpu(((struct ext3_extent_header *)
					  in->i_block)->eh_magic) !=
			      EXT3_EXT_MAGIC)))
			report(st, PR_1_BAD_INO_FLAGS, 0, 0, NULL);
		if (!(in->i_flags & EXT4_EXTENTS_FL) && any_block(in))
			p1_walk_blocks(st);
		if (st->fix_map)
			p1_fix_map(st);
		return;
	}
	if (ino == EXT2_RESIZE_INO) {
		d = in->i_block[EXT2_DIND_BLOCK];
		if (d && fsck_block_in_fs(fs, d))
			p1_claim(st, d, 1, BK_MAP);
		return;
	}
	if (ino == fs->super->s_journal_inum || is_quota_ino(fs, ino)) {
		if (in->i_links_count) {
			check_contents(st);
			ext2fs_mark_inode_bitmap2(ctx->inode_used, ino);
			ext2fs_mark_inode_bitmap2(ctx->inode_reg, ino);
		}
		return;
	}
	/* the inodes no feature uses are all zeros: one with a mode is
	 * garbage through and through (flags included), cleared whole */
	if (in->i_mode && ino != EXT2_BAD_INO &&
	    ino < EXT2_GOOD_OLD_FIRST_INO && ino != EXT2_BOOT_LOADER_INO)
		report(st, PR_1_RESERVED_JUNK, in->i_mode, 0, NULL);
	else if (in->i_mode && ino != EXT2_BOOT_LOADER_INO &&
		 ino != EXT2_ROOT_INO)
		report(st, PR_1_RESERVED_MODE, in->i_mode, 0, NULL);
	else if (ino == EXT2_BOOT_LOADER_INO && LINUX_S_ISDIR(in->i_mode))
		report(st, PR_1_RESERVED_MODE, in->i_mode, 0, NULL);
	check_reserved_size(st);
}

static void check_unused(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;

	if (st->ino < EXT2_FIRST_INODE(st->fs->super) || st->ctx->orphan_chain)
		return;
	if (in->i_mode && !in->i_dtime)
		report(st, PR_1_ZERO_DTIME, 0, 0, NULL);
}

/*
 * An inode left with a small deletion time once linked an orphan list
 * (the list keeps the next inode number there).  With no list pending,
 * and file system times too large to be confused with inode numbers, it
 * is a link of a list that was broken.
 */
static void check_orphan_dtime(struct p1_inode *st)
{
	struct ext2_super_block *sb = st->fs->super;
	uint32_t dt = st->inode->i_dtime;

	/* a clock that was never set (times below the inode count) makes
	 * small deletion times normal; a time of 0 (a backup superblock has
	 * no mount or write time) says nothing */
	if (!dt || dt >= sb->s_inodes_count || st->ctx->orphan_chain ||
	    (sb->s_wtime && sb->s_wtime < sb->s_inodes_count) ||
	    (sb->s_mtime && sb->s_mtime < sb->s_inodes_count) ||
	    (sb->s_mkfs_time && sb->s_mkfs_time < sb->s_inodes_count))
		return;
	report(st, PR_1_LOW_DTIME, dt, 0, NULL);
}

static void check_inode(struct fsck_ctx *ctx, struct p1_inode *st)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode_large *in = st->inode;
	ext2_ino_t ino = st->ino;
	int ft;

	/* a value inode given its flag after the scan read it */
	if (ctx->ea_flag_set &&
	    ext2fs_test_inode_bitmap2(ctx->ea_flag_set, ino) &&
	    !ext2fs_flush_icache(fs))
		ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)in,
				       st->isize);
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !fsck_inode_csum_ok(fs, ino, in, st->isize))
		report(st, PR_1_INODE_CSUM, 0, 0, NULL);
	if (ino < EXT2_FIRST_INODE(fs->super) && ino != EXT2_ROOT_INO) {
		check_reserved(st);
		goto account;
	}
	check_orphan_dtime(st);
	if (!in->i_links_count) {
		check_unused(st);
		return;
	}
	if (in->i_dtime && !ctx->orphan_chain)
		report(st, PR_1_DTIME_SET, 0, 0, NULL);
	check_extra_isize(st);
	if (!ext2fs_has_feature_64bit(fs->super) &&
	    in->osd2.linux2.l_i_file_acl_high) {
		if (!report(st, PR_1_FILE_ACL_HI,
			    in->osd2.linux2.l_i_file_acl_high, 0, NULL))
			st->bad = 1;
	}
	/* the kernel adds the high bits only with huge_file */
	if (!ext2fs_has_feature_huge_file(fs->super) &&
	    fs->super->s_creator_os != EXT2_OS_HURD &&
	    in->osd2.linux2.l_i_blocks_hi)
		report(st, PR_1_BLOCKS_HI, in->osd2.linux2.l_i_blocks_hi, 0,
		       NULL);
	if (in->i_faddr)
		report(st, PR_1_FADDR, in->i_faddr, 0, NULL);
	/* the Hurd's inodes keep the fragment fields Linux reuses */
	if (fs->super->s_creator_os == EXT2_OS_HURD &&
	    (in->osd2.hurd2.h_i_frag || in->osd2.hurd2.h_i_fsize))
		report(st, PR_1_HURD_FRAG, in->osd2.hurd2.h_i_frag,
		       in->osd2.hurd2.h_i_fsize, NULL);
	check_extra_times(st);
	ft = e2x_ftype_of_mode(in->i_mode);
	if (ft == EXT2_FT_UNKNOWN && !(in->i_mode & LINUX_S_IFMT) &&
	    special_is_dir(st) &&
	    report(st, PR_1_SPECIAL_IS_DIR, in->i_mode, 0, NULL))
		ft = EXT2_FT_DIR;
	if (ft == EXT2_FT_UNKNOWN) {
		report(st, PR_1_BAD_MODE, in->i_mode, 0, NULL);
		st->bad = 1;
		goto mark;
	}
	if (ino == EXT2_ROOT_INO && ft != EXT2_FT_DIR) {
		report(st, PR_1_ROOT_NOT_DIR, 0, 0, NULL);
		st->bad = 1;
	}
	if ((ft == EXT2_FT_CHRDEV || ft == EXT2_FT_BLKDEV ||
	     ft == EXT2_FT_FIFO || ft == EXT2_FT_SOCK) && special_is_dir(st) &&
	    report(st, PR_1_SPECIAL_IS_DIR, in->i_mode, 0, NULL))
		ft = EXT2_FT_DIR;
	st->is_dir = ft == EXT2_FT_DIR;
	check_flags(st);
	if (st->is_dir && (in->i_flags & EXT2_INDEX_FL) &&
	    !ext2fs_has_feature_dir_index(fs->super))
		report(st, PR_1_INDEX_NO_FEATURE, 0, 0, NULL);
	check_contents(st);
	if (st->clear)
		goto cleared;
	count_inode(ctx, st);
	fsck_quota_add(ctx, ino, in, st->isize,
		       st->nclusters * EXT2_CLUSTER_SIZE(fs->super),
		       1 + st->ea_inodes);
	if (st->is_dir)
		dir_info_add(ctx, ino);
	fsck_ftype_set(ctx, ino, ft);
mark:
	if (st->clear)
		goto cleared;
	ext2fs_mark_inode_bitmap2(ctx->inode_used, ino);
	if (st->is_dir)
		ext2fs_mark_inode_bitmap2(ctx->inode_dir, ino);
	else if (ft == EXT2_FT_REG_FILE)
		ext2fs_mark_inode_bitmap2(ctx->inode_reg, ino);
	ext2fs_icount_store(ctx->link_count, ino, in->i_links_count);
account:
	if (st->bad)
		ext2fs_mark_inode_bitmap2(ctx->inode_bad, ino);
	return;
cleared:
	p1_clear_inode(st);
}

/* Check one inode and write it back once if repairs changed it. */
static void check_one(struct fsck_ctx *ctx, struct p1_inode *st)
{
	check_inode(ctx, st);
	p1_write_fixed(st);
}

/* Inode tables read ahead: this many groups before the scan. */
#define P1_RA_GROUPS 4

/*
 * Regular files whose extent tree has index nodes wait in a small queue
 * while the kernel reads their nodes ahead, so that a cold check has many
 * reads in flight instead of one.  Only regular files: directories must
 * reach the directory table in inode order.
 */
#define P1_DEFER_MAX 64

struct p1_defer {
	unsigned int n, isize;	/* on-disk inode size */
	unsigned int stride;	/* bytes kept per inode (>= a large one) */
	ext2_ino_t ino[P1_DEFER_MAX];
	char *inodes;		/* P1_DEFER_MAX inodes, stride bytes */
};

/* Queue the inode if it has index nodes to read; 1 when queued. */
static int defer_inode(struct fsck_ctx *ctx, struct p1_defer *q,
		       ext2_ino_t ino, const struct ext2_inode_large *in)
{
	const struct ext3_extent_header *eh = (const void *)in->i_block;
	const struct ext3_extent_idx *ix = (const void *)(eh + 1);
	unsigned int i;

	if (!q->inodes || !ctx->ra || !in->i_links_count ||
	    !LINUX_S_ISREG(in->i_mode) ||
	    ino < EXT2_FIRST_INODE(ctx->fs->super) ||
	    (in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL)) !=
		    EXT4_EXTENTS_FL ||
	    eh->eh_magic != EXT3_EXT_MAGIC || !eh->eh_depth ||
	    eh->eh_entries > 4)
		return 0;
	for (i = 0; i < eh->eh_entries; i++) {
		blk64_t b = ix[i].ei_leaf | ((blk64_t)ix[i].ei_leaf_hi << 32);

		if (fsck_block_in_fs(ctx->fs, b))
			fsck_ra_blocks(ctx, b, 1);
	}
	fsck_ra_flush(ctx);
	q->ino[q->n] = ino;
	memcpy(q->inodes + (size_t)q->n * q->stride, in, q->stride);
	q->n++;
	return 1;
}

static void drain_deferred(struct fsck_ctx *ctx, struct p1_defer *q)
{
	struct p1_inode st;
	unsigned int i;

	for (i = 0; i < q->n && !ctx->abort; i++) {
		st = (struct p1_inode){
			.ctx = ctx, .fs = ctx->fs, .ino = q->ino[i],
			.inode = (void *)(q->inodes + (size_t)i * q->stride),
			.isize = q->isize, .visit = p1_claim };
		check_one(ctx, &st);
	}
	q->n = 0;
}

static void scan_inodes(struct fsck_ctx *ctx, struct ext2_inode_large *in,
			unsigned int isize)
{
	ext2_filsys fs = ctx->fs;
	ext2_inode_scan scan = NULL;
	struct problem_ctx pctx;
	struct p1_inode st;
	struct p1_defer q = { .isize = isize };
	ext2_ino_t ino = 0;
	dgrp_t last_group = ~0U;
	errcode_t err;
	int flags = EXT2_SF_SKIP_MISSING_ITABLE;

	pctx_clear(&pctx);
	if (ext2fs_has_group_desc_csum(fs))
		flags |= EXT2_SF_DO_LAZY;
	err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err)
		goto fail;
	ext2fs_inode_scan_flags(scan, flags, 0);
	fsck_ra_open(ctx);
	/* a buffer of at least a large inode: the checks read that far */
	q.stride = isize < sizeof(*in) ? sizeof(*in) : isize;
	q.inodes = calloc(P1_DEFER_MAX, q.stride);
	for (last_group = 0; last_group < P1_RA_GROUPS; last_group++)
		fsck_ra_itable(ctx, last_group);
	last_group = ~0U;
	for (;;) {
		err = ext2fs_get_next_inode_full(scan, &ino,
						 (struct ext2_inode *)in,
						 isize);
		if (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE)
			continue;
		if (err && err != EXT2_ET_INODE_CSUM_INVALID &&
		    err != EXT2_ET_INODE_IS_GARBAGE)
			goto fail;
		if (!ino)
			break;
		if (ino > fs->super->s_inodes_count)
			break;
		if (ext2fs_group_of_ino(fs, ino) != last_group) {
			last_group = ext2fs_group_of_ino(fs, ino);
			fsck_progress(ctx, 1, last_group, fs->group_desc_count);
			fsck_ra_itable(ctx, last_group + P1_RA_GROUPS);
			p1_found_compact(ctx);
		}
		/* a leaf in metadata: copied now, checked next round */
		if (p1_node_in_meta(ctx, ino, in))
			continue;
		if (defer_inode(ctx, &q, ino, in)) {
			if (q.n == P1_DEFER_MAX)
				drain_deferred(ctx, &q);
			continue;
		}
		st = (struct p1_inode){ .ctx = ctx, .fs = fs, .ino = ino,
					.inode = in, .isize = isize,
					.visit = p1_claim };
		check_one(ctx, &st);
		if (ctx->abort)
			break;
	}
	drain_deferred(ctx, &q);
	fsck_progress(ctx, 1, fs->group_desc_count, fs->group_desc_count);
	goto out;
fail:
	drain_deferred(ctx, &q);
	pctx.ino = ino;
	pctx.str = error_message(err);
	fix_problem(ctx, PR_1_INODE_SCAN, &pctx);
out:
	if (scan)
		ext2fs_close_inode_scan(scan);
	free(q.inodes);
}

/* Forget what a round of pass 1 found, before the next round. */
static void reset_round(struct fsck_ctx *ctx)
{
	fsck_state_free(ctx);
	ctx->n_files = ctx->n_dirs = ctx->n_regular = ctx->n_links = 0;
	ctx->n_symlinks = ctx->n_fast_symlinks = ctx->n_devices = 0;
	ctx->n_fifos = ctx->n_sockets = ctx->n_inline = ctx->n_extent = 0;
	ctx->n_ind = ctx->n_bigfiles = 0;
	ctx->has_dups = 0;
	ctx->found_claims = 0;
	ctx->found_next = 0;
	ctx->found_is_array = 0;
	ctx->p1_restart = 0;
}

/* Repairs of one round that took back claimed blocks are done; the next
 * round starts from the repaired inodes.  A few rounds at most. */
#define P1_MAX_ROUNDS 8

static void pass1_round(struct fsck_ctx *ctx);

void pass1(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	int round;

	for (round = 1;; round++) {
		pass1_round(ctx);
		if (!ctx->p1_restart || ctx->abort ||
		    round == P1_MAX_ROUNDS)
			break;
		pctx_clear(&pctx);
		fix_problem(ctx, PR_1_RESTART, &pctx);
		reset_round(ctx);
	}
	ctx->p1_restart = 0;
	p1_nodes_free(ctx);
	p1_promote_symlinks(ctx);
}

/* Pass 1b moved clusters: everything pass 1 counted is counted again. */
void pass1_rerun(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;

	fsck_alloc_done(ctx);
	pctx_clear(&pctx);
	fix_problem(ctx, PR_1_RESTART, &pctx);
	reset_round(ctx);
	pass1(ctx);
}

static void pass1_round(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	errcode_t err;

	err = alloc_state(ctx);
	if (!err)
		err = ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) :
							      isize, &in);
	if (err) {
		fprintf(stderr, "%s: out of memory in pass 1: %s\n",
			ctx->prog, error_message(err));
		ctx->abort = 1;
		ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	p1_mark_metadata(ctx);
	err = ext2fs_copy_bitmap(ctx->block_meta, &ctx->block_found);
	if (err) {
		ext2fs_free_mem(&in);
		ctx->abort = 1;
		ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	scan_inodes(ctx, in, isize);
	p1_ea_finish(ctx);
	if (!ctx->abort && p1_nodes_move(ctx))
		ctx->p1_restart = 1;
	ext2fs_free_mem(&in);
}
