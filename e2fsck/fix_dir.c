/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix_dir.c --- pass 2's repairs: what it changes in the block (or inline
 * area) being checked, and writing that back through the library once the
 * block is done; at the end of a directory its i_version moves once and a
 * damaged index (htree, itree) is rebuilt from the entries.
 */
#include "config.h"
#include <string.h>
#include "pass2.h"

static struct e2x_dirregion region(struct p2_dir *pd, char *buf,
				   unsigned int end)
{
	return (struct e2x_dirregion){ .buf = buf, .size = end,
				       .bs = pd->fs->blocksize };
}

void p2_fix_clear(struct p2_dir *pd, char *buf, unsigned int end,
		  unsigned int off, int prev)
{
	struct e2x_dirregion r = region(pd, buf, end);

	e2x_dirregion_remove(&r, (int)off, prev);
	pd->dirty = 1;
}

unsigned int p2_fix_salvage(struct p2_dir *pd, char *buf, unsigned int end,
			    unsigned int off, int prev, int inline_dir)
{
	struct e2x_dirregion r = region(pd, buf, end);

	pd->dirty = 1;
	return e2x_dirregion_salvage(&r, off, prev, inline_dir ? 8 : 12,
				     pd->fs->super->s_inodes_count);
}

/* An entry found again by a later check loses its name (the record stays,
 * unused); its inode loses the name pass 2 counted, a directory the
 * parent it had through it. */
void p2_fix_unname(struct p2_dir *pd, struct ext2_dir_entry *d)
{
	struct fsck_ctx *ctx = pd->ctx;
	struct dir_info *di;

	if (d->inode <= pd->fs->super->s_inodes_count &&
	    ext2fs_test_inode_bitmap2(ctx->inode_used, d->inode))
		ext2fs_icount_decrement(ctx->ref_count, d->inode, NULL);
	di = dir_info_get(ctx, d->inode);
	if (di && di->parent == pd->ino)
		di->parent = 0;	/* pass 3 reconnects it */
	d->inode = 0;
	pd->dirty = 1;
}

/* An entry names inode INO in the part of its group's inode table marked
 * unused: the whole table of the group is declared in use and the check
 * starts again, so pass 1 reads the inode (the reference does the same). */
void p2_fix_itable_unused(struct p2_dir *pd, ext2_ino_t ino)
{
	ext2_filsys fs = pd->fs;
	dgrp_t g = ext2fs_group_of_ino(fs, ino);

	ext2fs_bg_itable_unused_set(fs, g, 0);
	ext2fs_bg_flags_clear(fs, g, EXT2_BG_INODE_UNINIT);
	ext2fs_group_desc_csum_set(fs, g);
	ext2fs_mark_super_dirty(fs);
	pd->ctx->restart = 1;
	pd->ctx->abort = 1;
}

/* A name given twice: the later one gets "~0" appended when its record
 * has room, else "~0" over its last two characters (a name of one or two
 * characters, or an encrypted one, which cannot be edited, loses its
 * name). */
void p2_fix_dup_name(struct p2_dir *pd, struct ext2_dir_entry *d)
{
	unsigned int rec_len = 0;
	int len = ext2fs_dirent_name_len(d);

	ext2fs_get_rec_len(pd->fs, d, &rec_len);
	if (!pd->encrypted && len > 2 &&
	    (len + 2 > EXT2_NAME_LEN ||
	     e2x_dirent_min_len(len + 2) > rec_len))
		len -= 2;	/* in place: the record keeps its size */
	else if (pd->encrypted || len + 2 > EXT2_NAME_LEN ||
		 e2x_dirent_min_len(len + 2) > rec_len) {
		p2_fix_unname(pd, d);
		return;
	}
	d->name[len] = '~';
	d->name[len + 1] = '0';
	ext2fs_dirent_set_name_len(d, len + 2);
	pd->dirty = 1;
	if (pd->inode->i_flags & EXT2_INDEX_FL)
		pd->reindex = 1;
}

/* Bytes '/' and NUL become '.'. */
void p2_fix_name(struct p2_dir *pd, struct ext2_dir_entry *d)
{
	int i, len = ext2fs_dirent_name_len(d);

	for (i = 0; i < len; i++)
		if (d->name[i] == '/' || d->name[i] == '\0')
			d->name[i] = '.';
	pd->dirty = 1;
}

/* A name not valid in the encoding: bytes outside ASCII become '.'; an
 * index ordered by the old name is rebuilt. */
void p2_fix_name_encoding(struct p2_dir *pd, struct ext2_dir_entry *d)
{
	int i, len = ext2fs_dirent_name_len(d);

	for (i = 0; i < len; i++)
		if ((unsigned char)d->name[i] >= 0x80)
			d->name[i] = '.';
	pd->dirty = 1;
	if (pd->htree)
		pd->reindex = 1;
}

void p2_fix_type(struct p2_dir *pd, struct ext2_dir_entry *d, int ft)
{
	ext2fs_dirent_set_file_type(d, ft);
	pd->dirty = 1;
}

/*
 * Make the record D (of length REC_LEN) the '.' (SLOT 0) or '..' (SLOT
 * 1) entry naming INO.  An entry living there moves behind it when the
 * record has room for both.
 */
void p2_fix_dot(struct p2_dir *pd, struct ext2_dir_entry *d,
		unsigned int rec_len, int slot, ext2_ino_t ino)
{
	struct e2x_dirent *de = (void *)d;
	unsigned int bs = pd->fs->blocksize, dot = 12;
	int ft = ext2fs_has_feature_filetype(pd->fs->super) ? EXT2_FT_DIR : 0;

	if (de->inode && de->name_len &&
	    rec_len >= dot + e2x_dirent_min_len(de->name_len)) {
		memmove((char *)de + dot, de,
			e2x_dirent_min_len(de->name_len));
		e2x_dirent_set_rec_len((void *)((char *)de + dot),
				       rec_len - dot, bs);
	} else if (rec_len >= dot + 12) {
		struct e2x_dirent *rest = (void *)((char *)de + dot);

		memset(rest, 0, E2X_DIRENT_HDR);
		e2x_dirent_set_rec_len(rest, rec_len - dot, bs);
	} else {
		dot = rec_len;
	}
	memset(de->name, 0, 4);	/* readers want the name NUL-padded */
	e2x_dirent_fill(de, ino, "..", slot + 1, ft);
	e2x_dirent_set_rec_len(de, dot, bs);
	pd->dirty = 1;
}

/* The block in pd->buf is done: write it back when it was changed.  The
 * root of an index is written as it is (its checksum is not a leaf's);
 * the index is rebuilt at the end of the directory. */
void p2_fix_flush(struct p2_dir *pd, blk64_t pblk, int dx_root)
{
	errcode_t err;

	if (!pd->dirty)
		return;
	pd->dirty = 0;
	if (dx_root) {
		err = e2x_repair_dirblk_write(pd->fs, pd->ino, pblk, pd->buf,
					      E2X_REPAIR_NO_CSUM);
		pd->reindex = 1;
	} else {
		err = e2x_repair_dirblk_write(pd->fs, pd->ino, pblk, pd->buf,
					      0);
	}
	if (err) {
		fprintf(stderr, "%s: cannot write block %llu of directory "
			"%u: %s\n", pd->ctx->prog, (unsigned long long)pblk,
			pd->ino, error_message(err));
		pd->ctx->exit_extra |= FSCK_ERROR;
		return;
	}
	pd->touched = 1;
}

/* Logical blocks [FROM, TO) of the directory are holes: each becomes an
 * empty leaf.  Returns 0 when all were filled. */
int p2_fix_holes(struct p2_dir *pd, uint64_t from, uint64_t to)
{
	errcode_t err = 0;

	if (fsck_alloc_prepare(pd->ctx))
		err = EXT2_ET_RO_FILSYS;
	for (; from < to && !err; from++)
		err = e2x_repair_dir_fill_hole(pd->fs, pd->ino, from, 0);
	if (err) {
		fprintf(stderr, "%s: cannot fill the hole at block %llu of "
			"directory %u: %s\n", pd->ctx->prog,
			(unsigned long long)from, pd->ino, error_message(err));
		pd->ctx->exit_extra |= FSCK_ERROR;
		return -1;
	}
	pd->touched = 1;
	return 0;
}

static void fix_failed(struct p2_dir *pd, const char *what, errcode_t err)
{
	fprintf(stderr, "%s: cannot %s directory %u: %s\n", pd->ctx->prog,
		what, pd->ino, error_message(err));
	pd->ctx->exit_extra |= FSCK_ERROR;
}

/* The directory is done: inline changes are written with the inode, an
 * index marked damaged is rebuilt, i_version moves once. */
void p2_fix_finish(struct p2_dir *pd)
{
	struct fsck_ctx *ctx = pd->ctx;
	errcode_t err = 0;

	if (pd->inode->i_flags & EXT4_INLINE_DATA_FL) {
		if (pd->dirty)
			err = e2x_repair_inline_dir_write(pd->fs, pd->ino,
							  pd->inode, 0);
		if (err)
			fix_failed(pd, "write", err);
	} else if (pd->reindex) {
		if (fsck_alloc_prepare(ctx))
			err = EXT2_ET_RO_FILSYS;
		else
			err = e2x_repair_dir_reindex(pd->fs, pd->ino, 0);
		if (err)
			fix_failed(pd, "rebuild the index of", err);
	} else if (pd->touched) {
		err = e2x_repair_dir_touch(pd->fs, pd->ino, 0);
		if (err)
			fix_failed(pd, "update", err);
	}
	pd->dirty = pd->touched = pd->reindex = 0;
}
