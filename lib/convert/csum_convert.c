/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * csum_convert.c --- metadata_csum on and off in place (tune2fs -O).
 *
 * Turning it on: every directory is checked for room first (a leaf needs
 * 12 bytes for its tail, an index node one entry's worth for its tail);
 * only then are the new checksums written, while the superblock on disk
 * still says "no metadata_csum": inodes, extent blocks, attribute blocks
 * and directory leaves with their tails are all still valid without the
 * feature.  The htree nodes (whose smaller limit is not) follow, then the
 * descriptors, bitmaps and superblock: a crash in that short window
 * leaves index nodes that e2fsck rebuilds with every entry.
 * Turning it off: the htree nodes get back their full limit first, then
 * the superblock and descriptors (now with uninit_bg) go out, then each
 * leaf tail is merged into the entry before it (a tail left over is an
 * unused entry to a file system without the feature).  A crash before
 * the superblock write leaves index nodes that e2fsck rebuilds with
 * every entry; one after it, a valid file system.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"
#include "e2x-dir.h"
#include "e2x-itree.h"

#define TAIL_LEN ((int)sizeof(struct ext2_dir_entry_tail))

struct csum_walk {
	ext2_filsys fs;
	ext2_ino_t ino;
	int on;			/* making room for tails / removing them */
	int check;		/* only look: report a block without room */
	int rebuild;		/* check: rebuild an indexable directory
				 * without room (else it counts as fine) */
	int levels;		/* indirect levels of the htree, -1 unindexed */
	int only;		/* 1 index nodes only, 2 leaves only */
	char *buf;
	errcode_t err;
};

static unsigned int rec_len_at(ext2_filsys fs, const char *buf,
			       unsigned int off)
{
	unsigned int len = 0;

	ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)(buf + off), &len);
	return len;
}

static int is_tail(const struct ext2_dir_entry *d)
{
	return d->inode == 0 && d->rec_len == TAIL_LEN &&
	       d->name_len == EXT2_DIR_NAME_LEN_CSUM;
}

/* An htree node other than the root: one empty entry over the block. */
static int is_dx_node(struct csum_walk *w, e2_blkcnt_t cnt)
{
	struct ext2_dir_entry *d = (struct ext2_dir_entry *)w->buf;

	if (w->levels < 0)
		return 0;
	if (cnt == 0)
		return 1;
	return w->levels > 0 && d->inode == 0 &&
	       ext2fs_dirent_name_len(d) == 0 &&
	       rec_len_at(w->fs, w->buf, 0) == w->fs->blocksize;
}

/* Give an index node (or the root) the limit its tail needs, or the
 * full one; E2X_ERR_NO_SPACE when its entries leave no room. */
static errcode_t fix_dx(struct csum_walk *w)
{
	struct ext2_dx_countlimit *c;
	unsigned int want;
	int off;
	errcode_t err;

	err = ext2fs_get_dx_countlimit(w->fs, (struct ext2_dir_entry *)w->buf,
				       &c, &off);
	if (err)
		return err == EXT2_ET_DIR_NO_SPACE_FOR_CSUM ?
		       E2X_ERR_NO_SPACE : err;
	want = (w->fs->blocksize - off -
		(w->on ? sizeof(struct ext2_dx_tail) : 0)) /
	       sizeof(struct ext2_dx_entry);
	if (ext2fs_le16_to_cpu(c->count) > want)
		return E2X_ERR_NO_SPACE;
	if (!w->check) {
		c->limit = ext2fs_cpu_to_le16(want);
		if (!w->on)
			memset(w->buf + off + want * 8, 0,
			       w->fs->blocksize - off - want * 8);
	}
	return 0;
}

/* Find the last entry of a leaf; give it room for a tail, or merge the
 * tail back into it. */
static errcode_t fix_leaf(struct csum_walk *w)
{
	unsigned int bs = w->fs->blocksize, off = 0, prev = bs, len, need;
	struct ext2_dir_entry *d;

	for (;;) {
		len = rec_len_at(w->fs, w->buf, off);
		if (len < 8 || len % 4 || off + len > bs)
			return E2X_ERR_CORRUPT;
		if (off + len == bs)
			break;
		prev = off;
		off += len;
	}
	d = (struct ext2_dir_entry *)(w->buf + off);
	if (!w->on) {
		if (prev == bs || !is_tail(d))
			return 0;
		if (!w->check)
			ext2fs_set_rec_len(w->fs, rec_len_at(w->fs, w->buf, prev)
					   + TAIL_LEN, (struct ext2_dir_entry *)
					   (w->buf + prev));
		return 0;
	}
	if (is_tail(d))
		return 0;
	need = d->inode ? ext2fs_dir_rec_len(ext2fs_dirent_name_len(d), 0) :
			  12;
	if (need < 12)
		need = 12;
	if (len < need + TAIL_LEN)
		return E2X_ERR_NO_SPACE;
	if (!w->check) {
		ext2fs_set_rec_len(w->fs, len - TAIL_LEN, d);
		ext2fs_initialize_dirent_tail(w->fs,
			(struct ext2_dir_entry_tail *)(w->buf + bs - TAIL_LEN));
	}
	return 0;
}

static int dir_block(ext2_filsys fs, blk64_t *blk, e2_blkcnt_t cnt,
		     blk64_t ref_blk, int ref_off, void *priv)
{
	struct csum_walk *w = priv;

	(void)ref_blk;
	(void)ref_off;
	if (cnt < 0)
		return 0;
	w->err = ext2fs_read_dir_block4(fs, *blk, w->buf, 0, w->ino);
	if (w->err)
		return BLOCK_ABORT;
	if (cnt == 0 && w->levels >= 0) {
		struct ext2_dx_root_info *ri = (struct ext2_dx_root_info *)
			(w->buf + 24);

		w->levels = ri->indirect_levels;
	}
	if (w->only == (is_dx_node(w, cnt) ? 2 : 1))
		return 0;
	w->err = is_dx_node(w, cnt) ? fix_dx(w) : fix_leaf(w);
	if (!w->err && !w->check)
		w->err = ext2fs_write_dir_block4(fs, *blk, w->buf, 0, w->ino);
	return w->err ? BLOCK_ABORT : 0;
}

static errcode_t walk_dir(struct csum_walk *w,
			  const struct ext2_inode_large *inode)
{
	w->levels = (inode->i_flags & EXT2_INDEX_FL) &&
		    ext2fs_has_feature_dir_index(w->fs->super) ? 0 : -1;
	w->err = 0;
	return ext2fs_block_iterate3(w->fs, w->ino, BLOCK_FLAG_READ_ONLY |
				     BLOCK_FLAG_DATA_ONLY, NULL, dir_block,
				     w) ?: w->err;
}

/* Rewrite the checksum of every extent block below HDR, depth first. */
static errcode_t walk_extents(struct csum_walk *w, struct ext3_extent_header *h,
			      int depth)
{
	struct ext3_extent_idx *ix = (struct ext3_extent_idx *)(h + 1);
	char *blk = NULL;
	errcode_t err = 0;
	int i;

	if (ext2fs_le16_to_cpu(h->eh_magic) != EXT3_EXT_MAGIC)
		return E2X_ERR_CORRUPT;
	if (!ext2fs_le16_to_cpu(h->eh_depth) || depth > 8)
		return 0;
	err = ext2fs_get_mem(w->fs->blocksize, &blk);
	for (i = 0; !err && i < ext2fs_le16_to_cpu(h->eh_entries); i++) {
		blk64_t b = ext2fs_le32_to_cpu(ix[i].ei_leaf) +
			    ((blk64_t)ext2fs_le16_to_cpu(ix[i].ei_leaf_hi)
			     << 32);

		err = io_channel_read_blk64(w->fs->io, b, 1, blk);
		if (!err)
			err = walk_extents(w, (struct ext3_extent_header *)blk,
					   depth + 1);
		if (!err)
			err = ext2fs_extent_block_csum_set(w->fs, w->ino,
				(struct ext3_extent_header *)blk);
		if (!err)
			err = io_channel_write_blk64(w->fs->io, b, 1, blk);
	}
	ext2fs_free_mem(&blk);
	return err;
}

/* A directory e2x_dir_build_htree can rebuild: its new leaves keep
 * their free space at the end, room for the tails. */
static int indexable(ext2_filsys fs, const struct ext2_inode_large *inode)
{
	return ext2fs_has_feature_dir_index(fs->super) &&
	       ((inode->i_flags & EXT2_INDEX_FL) ||
		EXT2_I_SIZE(inode) > fs->blocksize);
}

static errcode_t rebuild(struct csum_walk *w, struct ext2_inode_large *inode)
{
	errcode_t err;

	err = e2x_dir_build_htree(w->fs, w->ino, E2X_KEEP_TIMES);
	if (!err)
		err = ext2fs_read_inode_full(w->fs, w->ino,
			(struct ext2_inode *)inode, EXT2_INODE_SIZE(w->fs->super));
	return err ? err : walk_dir(w, inode);
}

static int zero_inode(const struct ext2_inode_large *inode, int size)
{
	const char *p = (const char *)inode;
	int i;

	for (i = 0; i < size; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Visit every inode the table holds in use (or all of them), writing its
 * checksum (ALL) and the blocks of the live ones. */
static errcode_t walk_inodes(struct csum_walk *w, int all)
{
	ext2_filsys fs = w->fs;
	int size = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *inode = NULL;
	dgrp_t g;
	ext2_ino_t i, n;
	errcode_t err;

	err = ext2fs_get_memzero(size, &inode);
	for (g = 0; !err && g < fs->group_desc_count; g++) {
		n = fs->super->s_inodes_per_group;
		if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT))
			continue;
		if (ext2fs_has_group_desc_csum(fs))
			n -= ext2fs_bg_itable_unused(fs, g);
		for (i = 0; !err && i < n; i++) {
			w->ino = g * fs->super->s_inodes_per_group + i + 1;
			err = ext2fs_read_inode_full(fs, w->ino,
				(struct ext2_inode *)inode, size);
			if (err || zero_inode(inode, size))
				continue;
			if (all && !w->check)
				err = ext2fs_write_inode_full(fs, w->ino,
					(struct ext2_inode *)inode, size);
			if (err || !inode->i_links_count ||
			    !ext2fs_test_inode_bitmap2(fs->inode_map, w->ino))
				continue;
			if (LINUX_S_ISDIR(inode->i_mode) &&
			    !(inode->i_flags & EXT4_INLINE_DATA_FL) &&
			    ext2fs_inode_has_valid_blocks2(fs,
					(struct ext2_inode *)inode))
				err = walk_dir(w, inode);
			if (err == E2X_ERR_NO_SPACE && w->check &&
			    indexable(fs, inode))
				err = w->rebuild ? rebuild(w, inode) : 0;
			if (err || !all || w->check)
				continue;
			if (inode->i_flags & EXT4_EXTENTS_FL)
				err = walk_extents(w,
					(struct ext3_extent_header *)
					inode->i_block, 0);
			if (!err && ext2fs_file_acl_block(fs,
					(struct ext2_inode *)inode)) {
				blk64_t b = ext2fs_file_acl_block(fs,
					(struct ext2_inode *)inode);

				err = ext2fs_read_ext_attr3(fs, b, w->buf,
							    w->ino);
				if (!err)
					err = ext2fs_write_ext_attr3(fs, b,
							w->buf, w->ino);
			}
		}
	}
	ext2fs_free_mem(&inode);
	return err;
}

static errcode_t start(ext2_filsys fs, struct csum_walk *w, int on)
{
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(w, 0, sizeof(*w));
	w->fs = fs;
	w->on = on;
	if (ext2fs_has_feature_mmp(fs->super) ||
	    (fs->super->s_feature_ro_compat & E2X_FEATURE_RO_COMPAT_ITREE))
		return E2X_ERR_FEATURE_CONFLICT;
	err = ext2fs_read_bitmaps(fs);
	if (!err)
		err = ext2fs_get_mem(fs->blocksize, &w->buf);
	return err;
}

/* Descriptors with their new checksums, bitmaps and the superblock. */
static errcode_t write_tables(ext2_filsys fs)
{
	errcode_t err;
	dgrp_t g;

	ext2fs_mark_bb_dirty(fs);
	ext2fs_mark_ib_dirty(fs);
	err = ext2fs_write_bitmaps(fs);
	for (g = 0; !err && g < fs->group_desc_count; g++)
		ext2fs_group_desc_csum_set(fs, g);
	return err ? err : e2x_settle(fs);
}

errcode_t e2x_csum_check_room(ext2_filsys fs, ext2_ino_t *ino)
{
	struct csum_walk w = { 0 };
	errcode_t err;

	*ino = 0;
	err = start(fs, &w, 1);
	if (!err) {
		w.check = 1;
		err = walk_inodes(&w, 0);
		if (err == E2X_ERR_NO_SPACE)
			*ino = w.ino;
	}
	ext2fs_free_mem(&w.buf);
	return err;
}

errcode_t e2x_convert_csum_on(ext2_filsys fs, int flags,
			      struct e2x_convert_stats *st)
{
	struct csum_walk w = { 0 };
	ext2_ino_t ino;
	int saved = fs->flags;
	errcode_t err;

	(void)flags;
	memset(st, 0, sizeof(*st));
	st->free_before = st->free_after = ext2fs_free_blocks_count(fs->super);
	if (ext2fs_has_feature_metadata_csum(fs->super))
		return 0;
	/* nothing is written unless every directory has room or can be
	 * rebuilt with room; then those are rebuilt (still without the
	 * feature, each rebuild crash-safe on its own) */
	err = e2x_csum_check_room(fs, &ino);
	if (!err)
		err = start(fs, &w, 1);
	if (err)
		return err;
	w.check = w.rebuild = 1;
	err = walk_inodes(&w, 0);
	w.check = w.rebuild = 0;
	if (err) {
		ext2fs_free_mem(&w.buf);
		return err;
	}
	/* the new checksums are computed with the feature set in memory;
	 * the superblock on disk keeps it off until the end */
	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	ext2fs_set_feature_metadata_csum(fs->super);
	ext2fs_clear_feature_gdt_csum(fs->super);
	fs->super->s_checksum_type = EXT2_CRC32C_CHKSUM;
	ext2fs_init_csum_seed(fs);
	/* htree nodes, whose new limit is wrong without the feature, go
	 * last, just before the superblock: the window is short */
	w.only = 2;
	err = walk_inodes(&w, 1);
	w.only = 1;
	if (!err)
		err = walk_inodes(&w, 0);
	if (!err)
		err = write_tables(fs);
	fs->flags = (fs->flags & ~EXT2_FLAG_IGNORE_CSUM_ERRORS) |
		    (saved & EXT2_FLAG_IGNORE_CSUM_ERRORS);
	ext2fs_free_mem(&w.buf);
	return err;
}

errcode_t e2x_convert_csum_off(ext2_filsys fs, int flags,
			       struct e2x_convert_stats *st)
{
	struct csum_walk w = { 0 };
	int saved = fs->flags;
	errcode_t err;

	(void)flags;
	memset(st, 0, sizeof(*st));
	st->free_before = st->free_after = ext2fs_free_blocks_count(fs->super);
	if (!ext2fs_has_feature_metadata_csum(fs->super))
		return 0;
	err = start(fs, &w, 0);
	if (err)
		return err;
	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	ext2fs_clear_feature_metadata_csum(fs->super);
	ext2fs_clear_feature_csum_seed(fs->super);
	ext2fs_set_feature_gdt_csum(fs->super);
	fs->super->s_checksum_type = 0;
	w.only = 1;
	err = walk_inodes(&w, 0);
	if (!err)
		err = write_tables(fs);
	w.only = 2;
	if (!err)
		err = walk_inodes(&w, 0);
	if (!err)
		err = e2x_settle(fs);
	fs->flags = (fs->flags & ~EXT2_FLAG_IGNORE_CSUM_ERRORS) |
		    (saved & EXT2_FLAG_IGNORE_CSUM_ERRORS);
	ext2fs_free_mem(&w.buf);
	return err;
}
