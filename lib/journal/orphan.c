/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * orphan.c --- finish what the kernel left in the orphan list (inodes
 * chained from s_last_orphan through i_dtime) and in the orphan file:
 * release unlinked inodes, truncate linked ones to their size.
 */
#include "config.h"
#include <string.h>
#include <time.h>
#include "e2x.h"
#include "journal/u64map.h"

struct orphan_ctx {
	ext2_filsys fs;
	e2x_orphan_report_fn fn;
	void *data;
	struct e2x_orphan_result *res;
	struct u64map seen;	/* inodes already processed */
	struct ext2_inode_large *inode;	/* s_inode_size bytes */
	int stop;		/* the callback asked to stop */
};

static void report(struct orphan_ctx *c, ext2_ino_t ino,
		   const struct ext2_inode_large *before,
		   enum e2x_orphan_action a)
{
	if (a == E2X_ORPHAN_RELEASED)
		c->res->released++;
	else if (a == E2X_ORPHAN_TRUNCATED)
		c->res->truncated++;
	else
		c->res->bad++;
	if (c->fn && c->fn(c->fs, ino, before, a, c->data))
		c->stop = 1;
}

/* Drop the inode's reference on its external xattr block. */
static errcode_t release_ea_block(ext2_filsys fs, ext2_ino_t ino,
				  struct ext2_inode_large *inode)
{
	blk64_t blk = ext2fs_file_acl_block(fs, EXT2_INODE(inode));
	__u32 count = 0;
	errcode_t err;

	if (!blk)
		return 0;
	if (blk >= ext2fs_blocks_count(fs->super))
		goto clear;
	err = ext2fs_adjust_ea_refcount3(fs, blk, NULL, -1, &count, ino);
	if (err)
		return err;
	if (count == 0) {
		ext2fs_block_alloc_stats2(fs, blk, -1);
		ext2fs_iblk_sub_blocks(fs, EXT2_INODE(inode), 1);
	}
clear:
	ext2fs_file_acl_block_set(fs, EXT2_INODE(inode), 0);
	return 0;
}

/* Free all blocks and the inode itself, as the kernel's eviction does. */
static errcode_t release_inode(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *inode)
{
	errcode_t err = 0;

	if (ext2fs_inode_has_valid_blocks2(fs, EXT2_INODE(inode)) ||
	    (inode->i_flags & EXT4_INLINE_DATA_FL))
		err = ext2fs_punch(fs, ino, EXT2_INODE(inode), NULL, 0, ~0ULL);
	if (!err)
		err = release_ea_block(fs, ino, inode);
	if (err)
		return err;
	ext2fs_inode_size_set(fs, EXT2_INODE(inode), 0);
	inode->i_dtime = e2x_now(fs);
	err = e2x_write_inode(fs, ino, inode);
	if (err)
		return err;
	ext2fs_inode_alloc_stats2(fs, ino, -1, LINUX_S_ISDIR(inode->i_mode));
	return 0;
}

/*
 * Zero the last block past i_size, as the kernel's truncate does: stale
 * bytes there would reappear if the file grew again.
 */
static errcode_t zero_tail(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large *inode, uint64_t size)
{
	unsigned int off = size % fs->blocksize;
	blk64_t phys = 0;
	int flags = 0;
	char *buf;
	errcode_t err;

	if (!off)
		return 0;
	err = ext2fs_bmap2(fs, ino, EXT2_INODE(inode), NULL, 0,
			   size / fs->blocksize, &flags, &phys);
	if (err || !phys || (flags & BMAP_RET_UNINIT))
		return err;
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	err = io_channel_read_blk64(fs->io, phys, 1, buf);
	if (!err) {
		memset(buf + off, 0, fs->blocksize - off);
		err = io_channel_write_blk64(fs->io, phys, 1, buf);
	}
	ext2fs_free_mem(&buf);
	return err;
}

/* Drop the blocks past i_size of a still-linked inode. */
static errcode_t truncate_inode(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode)
{
	uint64_t size = EXT2_I_SIZE(EXT2_INODE(inode));
	blk64_t first = (size + fs->blocksize - 1) / fs->blocksize;
	errcode_t err = 0;

	if (ext2fs_inode_has_valid_blocks2(fs, EXT2_INODE(inode))) {
		err = ext2fs_punch(fs, ino, EXT2_INODE(inode), NULL, first,
				   ~0ULL);
		if (!err)
			err = zero_tail(fs, ino, inode, size);
	}
	if (err)
		return err;
	inode->i_dtime = 0;
	return e2x_write_inode(fs, ino, inode);
}

static int ino_valid(ext2_filsys fs, ext2_ino_t ino)
{
	return ino >= EXT2_FIRST_INODE(fs->super) &&
	       ino <= fs->super->s_inodes_count;
}

/* Process one orphan; *NEXT gets its i_dtime (the list link). */
static errcode_t process_one(struct orphan_ctx *c, ext2_ino_t ino,
			     ext2_ino_t *next)
{
	struct ext2_inode_large *inode = c->inode, before;
	ext2_filsys fs = c->fs;
	errcode_t err;

	if (!ino_valid(fs, ino) || u64map_find(&c->seen, ino) ||
	    !ext2fs_test_inode_bitmap2(fs->inode_map, ino)) {
		report(c, ino, NULL, E2X_ORPHAN_BAD_INODE);
		return E2X_ERR_CORRUPT;
	}
	err = u64map_put(&c->seen, ino, 1);
	if (!err)
		err = e2x_read_inode(fs, ino, inode);
	if (err)
		return err;
	if (next)
		*next = inode->i_dtime;
	if (!inode->i_mode) {
		report(c, ino, NULL, E2X_ORPHAN_BAD_INODE);
		return E2X_ERR_CORRUPT;
	}
	memset(&before, 0, sizeof(before));
	memcpy(&before, inode, fs->super->s_inode_size < sizeof(before) ?
	       fs->super->s_inode_size : sizeof(before));
	if (inode->i_links_count == 0) {
		err = release_inode(fs, ino, inode);
		if (!err)
			report(c, ino, &before, E2X_ORPHAN_RELEASED);
	} else {
		err = truncate_inode(fs, ino, inode);
		if (!err)
			report(c, ino, &before, E2X_ORPHAN_TRUNCATED);
	}
	return err;
}

/* The classic list; a bad link ends it (the rest is left to e2fsck). */
static errcode_t process_list(struct orphan_ctx *c)
{
	ext2_ino_t ino = c->fs->super->s_last_orphan, next = 0;
	errcode_t err = 0;

	while (ino && !c->stop) {
		err = process_one(c, ino, &next);
		if (err)
			break;
		ino = next;
	}
	c->fs->super->s_last_orphan = 0;
	ext2fs_mark_super_dirty(c->fs);
	return err == E2X_ERR_CORRUPT ? 0 : err;
}

struct ofile_walk {
	struct orphan_ctx *c;
	ext2_ino_t ino;
	__u32 gen;
	unsigned char *buf;
	errcode_t err;
};

static int block_ok(ext2_filsys fs, struct ofile_walk *w, blk64_t blk)
{
	struct ext4_orphan_block_tail *t =
		ext2fs_orphan_block_tail(fs, (char *)w->buf);

	if (ext2fs_le32_to_cpu(t->ob_magic) != EXT4_ORPHAN_BLOCK_MAGIC)
		return 0;
	if (!ext2fs_has_feature_metadata_csum(fs->super))
		return 1;
	return ext2fs_le32_to_cpu(t->ob_checksum) ==
	       ext2fs_do_orphan_file_block_csum(fs, w->ino, w->gen, blk,
						(char *)w->buf);
}

/* One orphan file block: process its entries, then write it empty. */
static int ofile_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		       blk64_t ref_blk, int ref_offset, void *priv)
{
	struct ofile_walk *w = priv;
	int i, n = ext2fs_inodes_per_orphan_block(fs);
	struct ext4_orphan_block_tail *t;
	__u32 *ent = (__u32 *)w->buf;
	ext2_ino_t ino;

	if (blockcnt < 0 || w->c->stop)
		return 0;
	w->err = io_channel_read_blk64(fs->io, *blocknr, 1, w->buf);
	if (w->err)
		return BLOCK_ABORT;
	if (!block_ok(fs, w, *blocknr)) {
		report(w->c, 0, NULL, E2X_ORPHAN_BAD_BLOCK);
		return 0;
	}
	for (i = 0; i < n && !w->c->stop; i++) {
		ino = ext2fs_le32_to_cpu(ent[i]);
		if (!ino)
			continue;
		w->err = process_one(w->c, ino, NULL);
		if (w->err && w->err != E2X_ERR_CORRUPT)
			return BLOCK_ABORT;
		w->err = 0;
	}
	memset(w->buf, 0, (size_t)n * sizeof(__u32));
	t = ext2fs_orphan_block_tail(fs, (char *)w->buf);
	if (ext2fs_has_feature_metadata_csum(fs->super))
		t->ob_checksum = ext2fs_cpu_to_le32(
			ext2fs_do_orphan_file_block_csum(fs, w->ino, w->gen,
							 *blocknr,
							 (char *)w->buf));
	w->err = io_channel_write_blk64(fs->io, *blocknr, 1, w->buf);
	return w->err ? BLOCK_ABORT : 0;
}

static errcode_t process_file(struct orphan_ctx *c)
{
	ext2_filsys fs = c->fs;
	struct ofile_walk w;
	struct ext2_inode inode;
	errcode_t err;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.ino = fs->super->s_orphan_file_inum;
	if (!ext2fs_has_feature_orphan_file(fs->super) || !w.ino)
		return 0;
	if (w.ino > fs->super->s_inodes_count)
		return E2X_ERR_CORRUPT;
	err = ext2fs_read_inode(fs, w.ino, &inode);
	if (err)
		return err;
	w.gen = inode.i_generation;
	err = ext2fs_get_mem(fs->blocksize, &w.buf);
	if (err)
		return err;
	err = ext2fs_block_iterate3(fs, w.ino, BLOCK_FLAG_DATA_ONLY, NULL,
				    ofile_block, &w);
	if (!err)
		err = w.err;
	ext2fs_free_mem(&w.buf);
	if (!err && ext2fs_has_feature_orphan_present(fs->super)) {
		ext2fs_clear_feature_orphan_present(fs->super);
		ext2fs_mark_super_dirty(fs);
	}
	return err;
}

errcode_t e2x_orphans_process(ext2_filsys fs, unsigned int flags,
			      e2x_orphan_report_fn fn, void *data,
			      struct e2x_orphan_result *res)
{
	struct e2x_orphan_result dummy;
	struct orphan_ctx c;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	if (!fs->super->s_last_orphan &&
	    !(ext2fs_has_feature_orphan_file(fs->super) &&
	      ext2fs_has_feature_orphan_present(fs->super)))
		return 0;
	if ((fs->super->s_state & EXT2_ERROR_FS) &&
	    !(flags & E2X_ORPHANS_DESPITE_ERRORS)) {
		fs->super->s_last_orphan = 0;
		ext2fs_mark_super_dirty(fs);
		res->skipped = 1;
		return 0;
	}
	memset(&c, 0, sizeof(c));
	c.fs = fs;
	c.fn = fn;
	c.data = data;
	c.res = res;
	u64map_init(&c.seen);
	err = ext2fs_get_memzero(EXT2_INODE_SIZE(fs->super) > sizeof(*c.inode) ?
				 EXT2_INODE_SIZE(fs->super) : sizeof(*c.inode),
				 &c.inode);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (!err)
		err = process_list(&c);
	if (!err && !c.stop)
		err = process_file(&c);
	u64map_free(&c.seen);
	ext2fs_free_mem(&c.inode);
	return err;
}
