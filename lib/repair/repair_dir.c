/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_dir.c --- repair primitives for directories: salvage the records
 * of a damaged block, write a repaired leaf back with its checksum tail,
 * drop and rebuild a damaged index, reconnect an inode, and point '..'
 * somewhere else.  e2fsck's passes 2 and 3 build their fixes from these.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

static struct e2x_dirent *rec(const struct e2x_dirregion *r, unsigned int off)
{
	return (struct e2x_dirent *)(r->buf + off);
}

/* A record at OFF that reads as whole: its length in bounds and aligned,
 * its name inside it, its inode a possible number. */
static int looks_whole(const struct e2x_dirregion *r, unsigned int off,
		       unsigned int min_rec, uint32_t max_ino)
{
	const struct e2x_dirent *de;
	unsigned int len;

	if (off + E2X_DIRENT_HDR > r->size)
		return 0;
	de = rec(r, off);
	len = e2x_dirent_rec_len(de, r->bs);
	if (len < min_rec || (len & 3) || len > r->size - off)
		return 0;
	if (e2x_dirent_min_len(de->name_len) > len || de->inode > max_ino)
		return 0;
	return !de->inode || de->name_len;
}

/* The first offset at or after FROM (4-aligned) holding a whole record;
 * the region's end when there is none. */
static unsigned int next_whole(const struct e2x_dirregion *r,
			       unsigned int from, unsigned int min_rec,
			       uint32_t max_ino)
{
	unsigned int q = (from + 3) & ~3u;

	for (; q + min_rec <= r->size; q += 4)
		if (looks_whole(r, q, min_rec, max_ino))
			return q;
	return r->size;
}

/* The header of OFF is sound (name inside the region) but its length is
 * not: does the chain continue right after the name? */
static int header_sound(const struct e2x_dirregion *r, unsigned int off,
			uint32_t max_ino)
{
	const struct e2x_dirent *de = rec(r, off);
	unsigned int need;

	if (off + E2X_DIRENT_HDR > r->size || de->inode > max_ino)
		return 0;
	need = e2x_dirent_min_len(de->name_len);
	if (de->inode && !de->name_len)
		return 0;
	return need <= r->size - off;
}

/* The length of OFF is a sound link of the chain (the name is what is
 * wrong: too long for its record). */
static int length_sound(const struct e2x_dirregion *r, unsigned int off,
			unsigned int min_rec, uint32_t max_ino)
{
	unsigned int len;

	if (off + E2X_DIRENT_HDR > r->size)
		return 0;
	len = e2x_dirent_rec_len(rec(r, off), r->bs);
	if (len < min_rec || (len & 3) || len > r->size - off)
		return 0;
	return off + len == r->size ||
	       looks_whole(r, off + len, min_rec, max_ino);
}

/* Cover [OFF, END) with PREV, or with an unused record when there is no
 * record before it. */
static unsigned int absorb(struct e2x_dirregion *r, unsigned int off,
			   int prev, unsigned int end)
{
	struct e2x_dirent *de;

	if (prev >= 0) {
		de = rec(r, (unsigned int)prev);
		e2x_dirent_set_rec_len(de, end - (unsigned int)prev, r->bs);
		return end;
	}
	de = rec(r, off);
	memset(de, 0, E2X_DIRENT_HDR);
	e2x_dirent_set_rec_len(de, end - off, r->bs);
	return off;
}

/* The region starts with a scrap too short for a record: the whole
 * record at NEXT moves to OFF and covers the scrap as well. */
static unsigned int pull_back(struct e2x_dirregion *r, unsigned int off,
			      unsigned int next)
{
	struct e2x_dirent *de = rec(r, next);
	unsigned int len = e2x_dirent_rec_len(de, r->bs);

	memmove(rec(r, off), de, e2x_dirent_min_len(de->name_len));
	e2x_dirent_set_rec_len(rec(r, off), len + (next - off), r->bs);
	return off;
}

unsigned int e2x_dirregion_salvage(struct e2x_dirregion *r, unsigned int off,
				   int prev, unsigned int min_rec,
				   uint32_t max_ino)
{
	struct e2x_dirent *de = rec(r, off);
	unsigned int end;

	if (off + E2X_DIRENT_HDR > r->size)	/* a tail too short */
		return prev >= 0 ? absorb(r, off, prev, r->size) : r->size;
	if (length_sound(r, off, min_rec, max_ino))
		/* the name overruns a sound record: drop the record */
		return absorb(r, off, prev,
			      off + e2x_dirent_rec_len(de, r->bs));
	if (header_sound(r, off, max_ino) &&
	    e2x_dirent_min_len(de->name_len) >= min_rec) {
		end = next_whole(r, off + e2x_dirent_min_len(de->name_len),
				 min_rec, max_ino);
		e2x_dirent_set_rec_len(de, end - off, r->bs);
		return off;
	}
	end = next_whole(r, off + 4, min_rec, max_ino);
	if (prev < 0 && end < r->size && end - off < min_rec)
		return pull_back(r, off, end);
	return absorb(r, off, prev, end);
}

/* A chain of records that ends at the checksum tail; else room for the
 * tail taken from the slack of the last record (which covers the end). */
static errcode_t make_tail(void *buf, unsigned int bs)
{
	struct e2x_dirregion r = { .buf = buf, .size = bs, .bs = bs };
	unsigned int off = 0, last = 0, len, need;
	struct e2x_dirent *de;

	while (off < bs) {
		if (off == bs - E2X_DIRENT_TAIL_SIZE &&
		    e2x_dirblk_has_tail(buf, bs))
			return 0;	/* the chain ends at a tail */
		if (off + E2X_DIRENT_HDR > bs)
			return E2X_ERR_CORRUPT;
		len = e2x_dirent_rec_len(rec(&r, off), bs);
		if (len < E2X_DIRENT_HDR || len > bs - off)
			return E2X_ERR_CORRUPT;
		last = off;
		off += len;
	}
	de = rec(&r, last);
	len = e2x_dirent_rec_len(de, bs);
	need = de->inode ? e2x_dirent_min_len(de->name_len) : 0;
	/* an unused record just the tail's size at the tail's place (a
	 * tail whose fields were damaged) becomes the tail */
	if (last && !need && len == E2X_DIRENT_TAIL_SIZE) {
		e2x_dirblk_tail_init(buf, bs);
		return 0;
	}
	if (len < need + E2X_DIRENT_TAIL_SIZE)
		return E2X_ERR_NO_SPACE;
	if (!need && len == E2X_DIRENT_TAIL_SIZE)
		return E2X_ERR_NO_SPACE;	/* the block's only record */
	e2x_dirent_set_rec_len(de, len - E2X_DIRENT_TAIL_SIZE, bs);
	e2x_dirblk_tail_init(buf, bs);
	return 0;
}

errcode_t e2x_repair_dirblk_write(ext2_filsys fs, ext2_ino_t dir,
				  blk64_t pblk, void *buf, int flags)
{
	struct ext2_inode inode;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !(flags & E2X_REPAIR_NO_CSUM)) {
		err = make_tail(buf, fs->blocksize);
		if (err)
			return err;
		err = ext2fs_read_inode(fs, dir, &inode);
		if (err)
			return err;
		e2x_dirblk_csum_set(e2x_dir_csum_seed(fs, dir,
						      inode.i_generation),
				    buf, fs->blocksize);
	}
	return io_channel_write_blk64(fs->io, pblk, 1, buf);
}

errcode_t e2x_repair_inline_dir_write(ext2_filsys fs, ext2_ino_t dir,
				      struct ext2_inode_large *inode,
				      int flags)
{
	size_t len = 0;
	char *buf = NULL;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = e2x_inline_size(fs, dir, inode, &len);
	if (!err)
		err = ext2fs_get_mem(len, &buf);
	if (!err)
		err = e2x_inline_get(fs, dir, inode, buf, len, &len);
	/* stored again: the attribute entry's hash follows the value */
	if (!err)
		err = e2x_inline_set(fs, dir, inode, buf, len);
	if (!err)
		err = e2x_write_inode(fs, dir, inode);
	ext2fs_free_mem(&buf);
	return err;
}

errcode_t e2x_repair_dir_touch(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = ext2fs_get_memzero(isize > sizeof(*in) ? isize : sizeof(*in),
				 &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, dir, in);
	if (!err)
		err = e2x_write_inode(fs, dir, in);
	ext2fs_free_mem(&in);
	return err;
}

errcode_t e2x_repair_dir_fill_hole(ext2_filsys fs, ext2_ino_t dir,
				   blk64_t lblk, int flags)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	struct e2x_dirregion r;
	char *buf = NULL;
	blk64_t pblk = 0;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = ext2fs_get_memzero(isize > sizeof(*in) ? isize : sizeof(*in),
				 &in);
	if (!err)
		err = ext2fs_get_memzero(fs->blocksize, &buf);
	if (!err)
		err = e2x_read_inode(fs, dir, in);
	if (!err && e2x_map_file_block(fs, dir, in, lblk, &pblk, NULL) == 0 &&
	    pblk)
		err = E2X_ERR_EXISTS;
	if (!err)
		err = e2x_alloc_file_block(fs, dir, in, lblk, E2X_ALLOC_NOZERO,
					   &pblk);
	if (err)
		goto out;
	r.buf = buf;
	r.bs = fs->blocksize;
	r.size = fs->blocksize;
	if (ext2fs_has_feature_metadata_csum(fs->super)) {
		r.size -= E2X_DIRENT_TAIL_SIZE;
		e2x_dirblk_tail_init(buf, fs->blocksize);
	}
	e2x_dirregion_init(&r);
	err = e2x_repair_dirblk_write(fs, dir, pblk, buf, 0);
	if (!err)
		err = e2x_write_inode(fs, dir, in);
out:
	ext2fs_free_mem(&buf);
	ext2fs_free_mem(&in);
	return err;
}

/* An index block as an empty leaf; the root keeps '.' and '..', with
 * '..' stretched over the old index entries. */
static void leaf_from_index(struct e2x_dirh *d, char *buf, blk64_t lblk)
{
	unsigned int end = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	struct e2x_dirent *de;

	if (lblk == 0) {
		de = (struct e2x_dirent *)(buf + 12);
		e2x_dirent_set_rec_len(de, end - 12, d->bs);
	} else {
		de = (struct e2x_dirent *)buf;
		memset(de, 0, E2X_DIRENT_HDR);
		e2x_dirent_set_rec_len(de, end, d->bs);
	}
	if (d->csum)
		e2x_dirblk_tail_init(buf, d->bs);
}

/* Index blocks read as one unused record over the whole block (the
 * "fake" entry); block 0 is the root whenever the index flag is set. */
static int is_index_block(struct e2x_dirh *d, const char *buf, blk64_t lblk)
{
	const struct e2x_dirent *de = (const void *)buf;

	if (lblk == 0)
		return 1;
	return !de->inode && e2x_dirent_rec_len(de, d->bs) == d->bs;
}

/* Drop the itree of an open directory; a tree too damaged to walk loses
 * its root record all the same (its nodes are then fsck's to free). */
static errcode_t drop_itree(struct e2x_dirh *d)
{
	errcode_t err;

	if (!e2x_itree_present(d->fs, d->inode))
		return 0;
	err = dir_itree_drop(d);
	if (err && err != E2X_ERR_NOT_FOUND)
		err = e2x_itree_drop(d->fs, d->ino, d->inode,
				     E2X_ITREE_FORCE);
	d->changed = 1;
	return err == E2X_ERR_NOT_FOUND ? 0 : err;
}

/* The index of open directory D dropped: the handle is then linear. */
static errcode_t unindex(struct e2x_dirh *d)
{
	blk64_t lblk;
	errcode_t err;

	if (d->form != E2X_DIR_FORM_HTREE)
		return 0;
	err = drop_itree(d);
	for (lblk = 0; lblk < d->nblocks && !err; lblk++) {
		if (dirh_read(d, lblk, d->blk))
			continue;	/* a hole or an unreadable block */
		if (!is_index_block(d, d->blk, lblk))
			continue;
		leaf_from_index(d, d->blk, lblk);
		err = dirh_write_leaf(d, lblk, d->blk);
	}
	d->inode->i_flags &= ~EXT2_INDEX_FL;
	d->form = E2X_DIR_FORM_LINEAR;
	d->changed = 1;
	return err;
}

errcode_t e2x_repair_dir_unindex(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.keep_times = 1;	/* the same entries, only the index goes */
	return dirh_close(&d, unindex(&d));
}

errcode_t e2x_repair_dir_reindex(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	ext2_ino_t parent;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	/* the same entries in a new index: not a change of the directory's
	 * contents, so its times stay */
	d.keep_times = 1;
	err = unindex(&d);
	if (err || d.form != E2X_DIR_FORM_LINEAR || d.nblocks < 2 ||
	    !ext2fs_has_feature_dir_index(fs->super))
		goto out;
	err = blocks_parent(&d, &parent);
	if (!err)
		err = dirh_index(&d, parent);
out:
	return dirh_close(&d, err);
}

errcode_t e2x_repair_set_dotdot(ext2_filsys fs, ext2_ino_t ino,
				ext2_ino_t parent, int flags)
{
	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	return dir_set_parent(fs, ino, parent);
}

/* A file that gained its only name: link count 1. */
static errcode_t named_once(ext2_filsys fs, ext2_ino_t ino)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in;
	errcode_t err;

	err = ext2fs_get_memzero(isize > sizeof(*in) ? isize : sizeof(*in),
				 &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, ino, in);
	if (!err) {
		in->i_links_count = 1;
		err = e2x_write_inode(fs, ino, in);
	}
	ext2fs_free_mem(&in);
	return err;
}

/* Directory D gained a subdirectory; past the limit its count sticks at
 * 1 ("many") with dir_nlink. */
static errcode_t subdir_link(struct e2x_dirh *d)
{
	struct ext2_inode_large *in = d->inode;

	d->changed = 1;
	if (in->i_links_count == 1)
		return 0;
	if (in->i_links_count + 1 <= EXT2_LINK_MAX) {
		in->i_links_count++;
		return 0;
	}
	if (!ext2fs_has_feature_dir_nlink(d->fs->super))
		return E2X_ERR_NO_SPACE;
	in->i_links_count = 1;
	return 0;
}

errcode_t e2x_repair_reconnect(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t ino,
			       const char *name, int flags)
{
	struct ext2_inode inode;
	struct e2x_dirh d;
	errcode_t err;

	(void)flags;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_add(&d, name, strlen(name), ino,
		       e2x_ftype_of_mode(inode.i_mode), 0);
	if (!err && LINUX_S_ISDIR(inode.i_mode))
		err = subdir_link(&d);
	err = dirh_close(&d, err);
	if (err)
		return err;
	if (!LINUX_S_ISDIR(inode.i_mode))
		return named_once(fs, ino);
	return e2x_repair_set_dotdot(fs, ino, dir, 0);
}

errcode_t e2x_repair_root_create(ext2_filsys fs, int flags)
{
	struct e2x_dirh c;
	blk64_t lblk;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!fs->inode_map)
		return EXT2_ET_NO_INODE_BITMAP;
	err = dirh_alloc(fs, &c);
	if (err)
		return err;
	if (flags & E2X_REPAIR_FREE_OLD) {
		err = e2x_read_inode(fs, EXT2_ROOT_INO, c.inode);
		if (!err)
			err = e2x_inode_release_storage(fs, EXT2_ROOT_INO,
							c.inode,
							E2X_ITREE_FORCE);
		if (err)
			goto out;
	}
	err = e2x_inode_setup(fs, EXT2_ROOT_INO, LINUX_S_IFDIR | 0755,
			      c.inode);
	if (err)
		goto out;
	dirh_set_ino(&c, EXT2_ROOT_INO);
	c.inode->i_links_count = 2;
	c.form = E2X_DIR_FORM_LINEAR;
	c.nblocks = 0;
	err = dirh_append_block(&c, &lblk);
	if (err)
		goto out;
	blocks_init_block0(&c, c.blk, EXT2_ROOT_INO);
	err = dirh_write_leaf(&c, lblk, c.blk);
	if (err)
		goto out;
	/* an inode still counted in use keeps its counts (fsck's pass 5
	 * settles the directory count) */
	if (!ext2fs_test_inode_bitmap2(fs->inode_map, EXT2_ROOT_INO))
		ext2fs_inode_alloc_stats2(fs, EXT2_ROOT_INO, +1, 1);
	c.changed = 1;
out:
	return dirh_close(&c, err);
}
