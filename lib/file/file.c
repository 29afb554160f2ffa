/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file.c --- content of regular files and symlinks: read, write at an
 * offset, truncate; inline while it fits, promoted to extent-mapped blocks
 * the moment it does not, packed back on request.  Indirect-mapped
 * (ext2/ext3) files stay indirect (file_indirect.c).
 *
 * Each public function reads the inode once and writes it once through
 * e2x_write_inode(), so i_version moves by one per operation; only
 * e2x_file_write_new_blocks() works on an inode its caller holds.
 */
#include "config.h"
#include <string.h>
#include <time.h>
#include "e2x.h"
#include "file/file-int.h"

/* The in-memory state of one operation. */
struct fop {
	ext2_filsys fs;
	ext2_ino_t ino;
	struct ext2_inode_large *inode;	/* EXT2_INODE_SIZE bytes */
	char *blk;			/* one block of scratch */
	int fresh;			/* E2X_FILE_FRESH_INODE: no bump */
};

static errcode_t fop_open(ext2_filsys fs, ext2_ino_t ino, struct fop *op)
{
	errcode_t err;

	memset(op, 0, sizeof(*op));
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (ino == 0 || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	op->fs = fs;
	op->ino = ino;
	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &op->inode);
	if (err)
		return err;
	err = ext2fs_get_mem(fs->blocksize, &op->blk);
	if (err)
		return err;
	return e2x_read_inode(fs, ino, op->inode);
}

static void fop_close(struct fop *op)
{
	ext2fs_free_mem(&op->inode);
	ext2fs_free_mem(&op->blk);
}

/* Which inode types an entry point accepts (for fop_open_as). */
#define FOP_REG		0x1
#define FOP_LNK		0x2
#define FOP_NOT_DIR	0x4

/* fop_open, then refuse an inode whose type is not among TYPES. */
static errcode_t fop_open_as(ext2_filsys fs, ext2_ino_t ino, int types,
			     struct fop *op)
{
	errcode_t err = fop_open(fs, ino, op);
	__u16 mode;

	if (err)
		return err;
	mode = op->inode->i_mode;
	if ((types & FOP_REG) && LINUX_S_ISREG(mode))
		return 0;
	if ((types & FOP_LNK) && LINUX_S_ISLNK(mode))
		return 0;
	if ((types & FOP_NOT_DIR) && !LINUX_S_ISDIR(mode))
		return 0;
	return E2X_ERR_UNSUPPORTED;
}

static uint64_t fop_size(const struct fop *op)
{
	return EXT2_I_SIZE(op->inode);
}

static errcode_t fop_set_size(struct fop *op, uint64_t size)
{
	return ext2fs_inode_size_set(op->fs, (struct ext2_inode *)op->inode,
				     size);
}

/* mtime and ctime to now (seconds; the extra words cleared when present). */
static void fop_touch(struct fop *op)
{
	uint32_t now = (uint32_t)e2x_now(op->fs);
	size_t end = EXT2_GOOD_OLD_INODE_SIZE + op->inode->i_extra_isize;

	op->inode->i_mtime = now;
	op->inode->i_ctime = now;
	if (EXT2_INODE_SIZE(op->fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	    end >= offsetof(struct ext2_inode_large, i_mtime_extra) + 4) {
		op->inode->i_mtime_extra = 0;
		op->inode->i_ctime_extra = 0;
	}
}

static errcode_t fop_store(struct fop *op)
{
	if (op->fresh)
		return ext2fs_write_inode_full(op->fs, op->ino,
					       (struct ext2_inode *)op->inode,
					       EXT2_INODE_SIZE(op->fs->super));
	return e2x_write_inode(op->fs, op->ino, op->inode);
}

/* The kernel's test: a symlink, not inline, no data blocks counted. */
static int is_fast_symlink(ext2_filsys fs, struct ext2_inode_large *inode)
{
	return LINUX_S_ISLNK(inode->i_mode) && !e2x_inode_has_inline(inode) &&
	       EXT2_I_SIZE(inode) < E2X_INLINE_IBLOCK_SIZE &&
	       ext2fs_inode_data_blocks2(fs, (struct ext2_inode *)inode) == 0;
}

/* Inline bytes of the inode: up to LEN bytes of content into BUF, zeros
 * where the stored bytes end before i_size. */
static errcode_t inline_read(struct fop *op, uint64_t offset, char *buf,
			     size_t len)
{
	size_t cap = EXT2_INODE_SIZE(op->fs->super) + E2X_INLINE_IBLOCK_SIZE;
	size_t stored;
	char *tmp = NULL;
	errcode_t err;

	err = ext2fs_get_memzero(cap, &tmp);
	if (err)
		return err;
	err = e2x_inline_get(op->fs, op->ino, op->inode, tmp, cap, &stored);
	if (err)
		goto out;
	if (stored > cap) {
		err = E2X_ERR_CORRUPT;
		goto out;
	}
	memset(buf, 0, len);
	if (offset < stored)
		memcpy(buf, tmp + offset,
		       stored - offset < len ? stored - offset : len);
out:
	ext2fs_free_mem(&tmp);
	return err;
}

/* Block-mapped content: LEN bytes at OFFSET, holes read as zeros. */
static errcode_t blocks_read(struct fop *op, uint64_t offset, char *buf,
			     size_t len)
{
	unsigned int bs = op->fs->blocksize;
	blk64_t pblk;
	errcode_t err;
	int flags;

	while (len) {
		blk64_t lblk = offset / bs;
		size_t in = offset % bs;
		size_t n = bs - in < len ? bs - in : len;

		err = e2x_map_file_block(op->fs, op->ino, op->inode, lblk,
					 &pblk, &flags);
		if (err)
			return err;
		if (!pblk || (flags & E2X_MAP_UNINIT)) {
			memset(buf, 0, n);
		} else {
			err = io_channel_read_blk64(op->fs->io, pblk, 1,
						    op->blk);
			if (err)
				return err;
			memcpy(buf, op->blk + in, n);
		}
		buf += n;
		offset += n;
		len -= n;
	}
	return 0;
}

/* Content bytes [OFFSET, OFFSET+LEN) of any kind of inode, LEN already
 * clipped to i_size. */
static errcode_t content_read(struct fop *op, uint64_t offset, char *buf,
			      size_t len)
{
	if (e2x_inode_has_inline(op->inode))
		return inline_read(op, offset, buf, len);
	if (is_fast_symlink(op->fs, op->inode)) {
		memset(buf, 0, len);
		if (offset < E2X_INLINE_IBLOCK_SIZE)
			memcpy(buf, (char *)op->inode->i_block + offset,
			       E2X_INLINE_IBLOCK_SIZE - offset < len
				       ? E2X_INLINE_IBLOCK_SIZE - offset
				       : len);
		return 0;
	}
	return blocks_read(op, offset, buf, len);
}

/* EXT2_ET_FILE_TOO_BIG when content up to END bytes cannot be mapped. */
static errcode_t check_reach(struct fop *op, uint64_t end)
{
	if (end > (1ULL << 44))
		return EXT2_ET_FILE_TOO_BIG;
	if (e2x_file_is_indirect(op->fs, op->inode) &&
	    end > e2x_indirect_max_bytes(op->fs))
		return EXT2_ET_FILE_TOO_BIG;
	return 0;
}

/* Write LEN bytes at OFFSET into block-mapped content, allocating holes
 * and turning unwritten blocks into written ones.  *DONE (may be NULL)
 * counts the bytes stored, also on error. */
static errcode_t blocks_write(struct fop *op, uint64_t offset,
			      const char *buf, size_t len, size_t *done)
{
	unsigned int bs = op->fs->blocksize;
	blk64_t pblk;
	errcode_t err;
	int flags;

	if (done)
		*done = 0;
	while (len) {
		blk64_t lblk = offset / bs;
		size_t in = offset % bs;
		size_t n = bs - in < len ? bs - in : len;

		err = e2x_map_file_block(op->fs, op->ino, op->inode, lblk,
					 &pblk, &flags);
		if (err)
			return err;
		if (!pblk) {
			/* in whichever map the inode uses */
			err = e2x_alloc_file_block(op->fs, op->ino, op->inode,
						   lblk, E2X_ALLOC_NOZERO,
						   &pblk);
			if (err)
				return err;
			memset(op->blk, 0, bs);
		} else if (flags & E2X_MAP_UNINIT) {
			memset(op->blk, 0, bs);
		} else if (n < bs) {
			err = io_channel_read_blk64(op->fs->io, pblk, 1,
						    op->blk);
			if (err)
				return err;
		}
		memcpy(op->blk + in, buf, n);
		err = io_channel_write_blk64(op->fs->io, pblk, 1, op->blk);
		if (err)
			return err;
		if (flags & E2X_MAP_UNINIT) {
			err = ext2fs_bmap2(op->fs, op->ino,
					   (struct ext2_inode *)op->inode,
					   NULL, BMAP_SET, lblk, NULL, &pblk);
			if (err)
				return err;
		}
		buf += n;
		offset += n;
		len -= n;
		if (done)
			*done += n;
	}
	return 0;
}

errcode_t e2x_file_write_new_blocks(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *inode,
				    blk64_t lblk, const void *buf,
				    size_t nblk)
{
	const char *p = buf;
	blk64_t run_start = 0, pblk;
	size_t i, run_first = 0, run_len = 0;
	errcode_t err;

	for (i = 0; i < nblk; i++) {
		err = e2x_alloc_file_block(fs, ino, inode, lblk + i,
					   E2X_ALLOC_NOZERO, &pblk);
		if (err)
			return err;
		if (run_len && pblk == run_start + run_len) {
			run_len++;
			continue;
		}
		if (run_len) {
			err = io_channel_write_blk64(fs->io, run_start,
					(int)run_len,
					p + run_first * fs->blocksize);
			if (err)
				return err;
		}
		run_start = pblk;
		run_first = i;
		run_len = 1;
	}
	if (!run_len)
		return 0;
	return io_channel_write_blk64(fs->io, run_start, (int)run_len,
				      p + run_first * fs->blocksize);
}

/* Move inline content (i_size bytes) into block 0 of a new extent tree. */
/* The content into a new block, written before the caller's inode write
 * switches the inode from its inline copy to the block. */
static errcode_t promote_block(struct fop *op, const char *content,
			       size_t size)
{
	memset(op->blk, 0, op->fs->blocksize);
	memcpy(op->blk, content, size);
	return e2x_storage_new_block(op->fs, op->ino, op->inode, op->blk);
}

static errcode_t promote(struct fop *op)
{
	uint64_t size = fop_size(op);
	char *content = NULL;
	errcode_t err;

	if (!e2x_inode_has_inline(op->inode))
		return 0;
	if (size > EXT2_INODE_SIZE(op->fs->super))
		return E2X_ERR_CORRUPT;	/* cannot be stored inline */
	err = ext2fs_get_memzero(size + 1, &content);
	if (err)
		return err;
	err = inline_read(op, 0, content, size);
	if (err)
		goto out;
	err = e2x_inline_clear(op->fs, op->ino, op->inode);
	if (err)
		goto out;
	if (size)
		err = promote_block(op, content, size);
	else
		err = e2x_extent_root_init(op->fs, op->inode);
out:
	ext2fs_free_mem(&content);
	return err;
}

/* True when the inode may start holding content inline now: feature on,
 * nothing stored yet (empty, no mapped block). */
static int may_start_inline(struct fop *op)
{
	const struct ext3_extent_header *eh;
	size_t i;

	if (!ext2fs_has_feature_inline_data(op->fs->super) ||
	    e2x_inode_has_inline(op->inode) || fop_size(op))
		return 0;
	if (op->inode->i_flags & EXT4_EXTENTS_FL) {
		eh = (const struct ext3_extent_header *)op->inode->i_block;
		return eh->eh_entries == 0 && eh->eh_depth == 0;
	}
	for (i = 0; i < EXT2_N_BLOCKS; i++)
		if (op->inode->i_block[i])
			return 0;
	return 1;
}

/* Store NEW_SIZE bytes inline: the present content, zero-extended, with
 * LEN bytes of BUF at OFFSET on top. */
static errcode_t inline_rewrite(struct fop *op, uint64_t new_size,
				uint64_t offset, const char *buf, size_t len)
{
	uint64_t old = fop_size(op);
	char *tmp = NULL;
	errcode_t err;

	err = ext2fs_get_memzero(new_size + 1, &tmp);
	if (err)
		return err;
	if (e2x_inode_has_inline(op->inode) && old) {
		err = inline_read(op, 0, tmp, old < new_size ? old : new_size);
		if (err)
			goto out;
	}
	if (len)
		memcpy(tmp + offset, buf, len);
	err = e2x_inline_set(op->fs, op->ino, op->inode, tmp, new_size);
	if (!err)
		err = fop_set_size(op, new_size);
out:
	ext2fs_free_mem(&tmp);
	return err;
}

/* Capacity if the inode can go (or stay) inline, else 0. */
static size_t inline_room(struct fop *op)
{
	size_t cap;

	if (e2x_inline_capacity(op->fs, op->ino, op->inode, &cap))
		return 0;
	return cap;
}

errcode_t e2x_file_read(ext2_filsys fs, ext2_ino_t ino, uint64_t offset,
			void *buf, size_t len, size_t *got)
{
	struct fop op;
	uint64_t size;
	errcode_t err;

	*got = 0;
	err = fop_open_as(fs, ino, FOP_NOT_DIR, &op);
	if (err)
		goto out;
	size = fop_size(&op);
	if (offset >= size)
		goto out;
	if (len > size - offset)
		len = size - offset;
	err = content_read(&op, offset, buf, len);
	if (!err)
		*got = len;
out:
	fop_close(&op);
	return err;
}

errcode_t e2x_file_write(ext2_filsys fs, ext2_ino_t ino, uint64_t offset,
			 const void *buf, size_t len, int flags)
{
	uint64_t end, size;
	size_t done = 0;
	struct fop op;
	errcode_t err, err2;

	err = fop_open_as(fs, ino, FOP_REG, &op);
	if (err)
		goto out;
	op.fresh = !!(flags & E2X_FILE_FRESH_INODE);
	if (offset + len < offset) {
		err = EXT2_ET_FILE_TOO_BIG;
		goto out;
	}
	err = check_reach(&op, offset + len);
	if (err)
		goto out;
	if (len == 0)		/* as write(2): no change, not even size */
		goto out;
	size = fop_size(&op);
	end = offset + len > size ? offset + len : size;
	if ((e2x_inode_has_inline(op.inode) || may_start_inline(&op)) &&
	    end <= inline_room(&op)) {
		err = inline_rewrite(&op, end, offset, buf, len);
		if (err)
			goto out;
	} else {
		err = promote(&op);
		if (!err && !(op.inode->i_flags & EXT4_EXTENTS_FL) &&
		    !e2x_file_is_indirect(fs, op.inode) &&
		    !ext2fs_inode_data_blocks2(fs,
					       (struct ext2_inode *)op.inode))
			err = e2x_extent_root_init(fs, op.inode);
		if (err)
			goto out;
		err = blocks_write(&op, offset, buf, len, &done);
		/* Even a short write is recorded, so i_blocks and i_size
		 * match the block map libext2fs may already have stored. */
		if (err)
			end = offset + done > size ? offset + done : size;
		err2 = fop_set_size(&op, end);
		if (!err)
			err = err2;
	}
	fop_touch(&op);
	err2 = fop_store(&op);
	if (!err)
		err = err2;
out:
	fop_close(&op);
	return err;
}

/* Shrink block-mapped content to SIZE: free whole blocks past it and zero
 * the tail of the last block so a later extension reads zeros. */
static errcode_t blocks_shrink(struct fop *op, uint64_t size)
{
	unsigned int bs = op->fs->blocksize;
	size_t in = size % bs;
	blk64_t pblk;
	errcode_t err;
	int flags;

	err = e2x_free_file_blocks(op->fs, op->ino, op->inode,
				   (size + bs - 1) / bs);
	if (err || !in)
		return err;
	err = e2x_map_file_block(op->fs, op->ino, op->inode, size / bs, &pblk,
				 &flags);
	if (err || !pblk || (flags & E2X_MAP_UNINIT))
		return err;
	err = io_channel_read_blk64(op->fs->io, pblk, 1, op->blk);
	if (err)
		return err;
	memset(op->blk + in, 0, bs - in);
	return io_channel_write_blk64(op->fs->io, pblk, 1, op->blk);
}

errcode_t e2x_file_truncate(ext2_filsys fs, ext2_ino_t ino, uint64_t size,
			    int flags)
{
	struct fop op;
	errcode_t err;

	err = fop_open_as(fs, ino, FOP_REG, &op);
	if (err)
		goto out;
	op.fresh = !!(flags & E2X_FILE_FRESH_INODE);
	err = check_reach(&op, size);
	if (err)
		goto out;
	if (e2x_inode_has_inline(op.inode) && size <= inline_room(&op)) {
		err = inline_rewrite(&op, size, 0, NULL, 0);
	} else {
		err = promote(&op);
		if (!err && size < fop_size(&op))
			err = blocks_shrink(&op, size);
		if (!err)
			err = fop_set_size(&op, size);
	}
	if (err)
		goto out;
	fop_touch(&op);
	err = fop_store(&op);
out:
	fop_close(&op);
	return err;
}

/* Drop every block and the extent tree; the inode then maps nothing. */
static errcode_t unmap_all(struct fop *op)
{
	errcode_t err;

	err = e2x_free_file_blocks(op->fs, op->ino, op->inode, 0);
	if (err)
		return err;
	memset(op->inode->i_block, 0, sizeof(op->inode->i_block));
	op->inode->i_flags &= ~EXT4_EXTENTS_FL;
	return 0;
}

/* Store SIZE bytes of CONTENT as a fast symlink (i_block, no flags). */
static void set_fast_symlink(struct fop *op, const char *content,
			     size_t size)
{
	memset(op->inode->i_block, 0, sizeof(op->inode->i_block));
	memcpy(op->inode->i_block, content, size);
	op->inode->i_flags &= ~(EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL);
}

/* Try storing SIZE bytes inline on a copy of the inode. */
static errcode_t inline_dry_run(struct fop *op, const char *content,
				size_t size)
{
	size_t isz = EXT2_INODE_SIZE(op->fs->super);
	struct ext2_inode_large *copy = NULL;
	errcode_t err;

	err = ext2fs_get_mem(isz, &copy);
	if (err)
		return err;
	memcpy(copy, op->inode, isz);
	memset(copy->i_block, 0, sizeof(copy->i_block));
	copy->i_flags &= ~EXT4_EXTENTS_FL;
	err = e2x_inline_set(op->fs, op->ino, copy, content, size);
	ext2fs_free_mem(&copy);
	return err;
}

errcode_t e2x_file_pack(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	struct e2x_blk_list old = { 0 };
	struct fop op;
	char *content = NULL;
	uint64_t size;
	size_t cap = 0;
	int fast;
	errcode_t err;

	err = fop_open_as(fs, ino, FOP_REG | FOP_LNK, &op);
	if (err)
		goto out;
	if (e2x_inode_has_inline(op.inode) || is_fast_symlink(fs, op.inode))
		goto out;
	size = fop_size(&op);
	fast = LINUX_S_ISLNK(op.inode->i_mode) &&
	       size < E2X_INLINE_IBLOCK_SIZE;
	if (!fast) {
		err = e2x_inline_capacity(fs, ino, op.inode, &cap);
		if (err)
			goto out;
		if (size > cap) {
			err = E2X_ERR_INLINE_TOO_BIG;
			goto out;
		}
	}
	err = ext2fs_get_memzero(size + 1, &content);
	if (err)
		goto out;
	err = content_read(&op, 0, content, size);
	/* Prove the inline store works before any block is freed. */
	if (!err && !fast)
		err = inline_dry_run(&op, content, size);
	if (!err)
		err = e2x_blocks_collect(fs, ino, &old);
	if (err)
		goto out;
	e2x_storage_forget(fs, op.inode);
	if (fast)
		set_fast_symlink(&op, content, size);
	else
		err = e2x_inline_set(fs, ino, op.inode, content, size);
	if (err)
		goto out;
	if (!(flags & E2X_KEEP_TIMES))
		fop_touch(&op);
	/* the switch: one inode write; the old blocks go only after it */
	err = fop_store(&op);
	if (!err)
		e2x_blocks_release(fs, &old);
out:
	e2x_blocks_free(&old);
	ext2fs_free_mem(&content);
	fop_close(&op);
	return err;
}

errcode_t e2x_file_promote(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	struct fop op;
	errcode_t err;

	err = fop_open_as(fs, ino, FOP_REG | FOP_LNK, &op);
	if (err)
		goto out;
	if (!e2x_inode_has_inline(op.inode))
		goto out;
	err = promote(&op);
	if (err)
		goto out;
	if (!(flags & E2X_KEEP_TIMES))
		fop_touch(&op);
	err = fop_store(&op);
out:
	fop_close(&op);
	return err;
}

/* Longest symlink target the kernel accepts on this file system. */
static size_t symlink_max(ext2_filsys fs)
{
	return fs->blocksize - 1 < 4095 ? fs->blocksize - 1 : 4095;
}

errcode_t e2x_symlink_write(ext2_filsys fs, ext2_ino_t ino,
			    const char *target, size_t len, int flags)
{
	struct fop op;
	errcode_t err;

	err = fop_open_as(fs, ino, FOP_LNK, &op);
	if (err)
		goto out;
	op.fresh = !!(flags & E2X_FILE_FRESH_INODE);
	if (len == 0 || memchr(target, 0, len)) {
		err = E2X_ERR_BAD_OPTION;
		goto out;
	}
	if (len > symlink_max(fs)) {
		err = E2X_ERR_NAME_TOO_LONG;
		goto out;
	}
	/* Drop the old target, whatever its kind. */
	if (e2x_inode_has_inline(op.inode))
		err = e2x_inline_clear(fs, ino, op.inode);
	else if (!is_fast_symlink(fs, op.inode))
		err = unmap_all(&op);
	if (err)
		goto out;
	memset(op.inode->i_block, 0, sizeof(op.inode->i_block));
	op.inode->i_flags &= ~EXT4_EXTENTS_FL;
	if (len < E2X_INLINE_IBLOCK_SIZE) {
		set_fast_symlink(&op, target, len);
	} else if (len <= inline_room(&op)) {
		err = e2x_inline_set(fs, ino, op.inode, target, len);
	} else {
		/* one block, extent-mapped unless the fs has no extents */
		if (ext2fs_has_feature_extents(fs->super))
			err = e2x_extent_root_init(fs, op.inode);
		if (!err)
			err = blocks_write(&op, 0, target, len, NULL);
	}
	if (!err)
		err = fop_set_size(&op, len);
	if (err)
		goto out;
	fop_touch(&op);
	err = fop_store(&op);
out:
	fop_close(&op);
	return err;
}

errcode_t e2x_symlink_read(ext2_filsys fs, ext2_ino_t ino, char *buf,
			   size_t bufsize, size_t *len)
{
	struct fop op;
	uint64_t size;
	errcode_t err;

	*len = 0;
	err = fop_open_as(fs, ino, FOP_LNK, &op);
	if (err)
		goto out;
	size = fop_size(&op);
	if (size == 0 || size > symlink_max(fs)) {
		err = E2X_ERR_CORRUPT;
		goto out;
	}
	if (size > bufsize) {
		err = E2X_ERR_NAME_TOO_LONG;
		goto out;
	}
	err = content_read(&op, 0, buf, size);
	if (!err)
		*len = size;
out:
	fop_close(&op);
	return err;
}
