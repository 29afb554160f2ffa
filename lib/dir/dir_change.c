/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_change.c --- the top of the directory engine: adding and removing
 * an entry with every change of form it brings (an inline directory
 * promoted to a block, a linear one indexed as an htree, a block directory
 * packed back inline) and the itree kept in step (dir_itree.c).  The form
 * files below never call each other nor the itree; this file decides.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

struct promote_ctx {
	struct e2x_dirregion r;
	errcode_t err;
};

static int promote_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		       struct e2x_dirent *de, void *priv)
{
	struct promote_ctx *pc = priv;

	(void)d;
	(void)lblk;
	(void)off;
	pc->err = e2x_dirregion_insert(&pc->r, de->inode, de->name,
				       de->name_len, de->file_type);
	return pc->err ? -1 : 0;
}

/* Block 0 of a promoted directory: '.', '..' and the inline entries. */
static errcode_t promote_fill(struct e2x_dirh *d, char *block)
{
	struct promote_ctx pc;
	ext2_ino_t parent;
	errcode_t err;

	err = dirh_parent(d, &parent);
	if (err)
		return err;
	blocks_init_block0(d, block, parent);
	pc.r.buf = block + 24;
	pc.r.bs = d->bs;
	pc.r.size = d->bs - 24 - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	pc.err = 0;
	/* '..' spans the block; the entries go after it in a fresh chain */
	e2x_dirent_set_rec_len((void *)(block + 12), 12, d->bs);
	e2x_dirregion_init(&pc.r);
	err = dirh_walk(d, 0, promote_rec, &pc);
	return pc.err ? pc.err : err;
}

errcode_t dirh_promote(struct e2x_dirh *d)
{
	char *block;
	errcode_t err;

	block = malloc(d->bs);
	if (!block)
		return EXT2_ET_NO_MEMORY;
	err = promote_fill(d, block);
	if (!err)
		err = e2x_inline_clear(d->fs, d->ino, d->inode);
	if (err)
		goto out;
	d->form = E2X_DIR_FORM_LINEAR;
	/* the block is written before dirh_close's inode write points the
	 * directory at it: a crash in between loses nothing */
	if (d->csum)
		e2x_dirblk_csum_set(d->seed, block, d->bs);
	err = e2x_storage_new_block(d->fs, d->ino, d->inode, block);
	if (!err)
		dirh_set_size(d, 1);
out:
	free(block);
	return err;
}

errcode_t dirh_index_coll(struct e2x_dirh *d, ext2_ino_t parent,
			  struct dir_coll *c)
{
	errcode_t err;

	err = dir_itree_drop(d);
	if (!err)
		err = htree_build_coll(d, parent, c);
	if (!err && dir_itree_wanted(d))
		err = dir_itree_build(d);
	return err;
}

errcode_t dirh_index(struct e2x_dirh *d, ext2_ino_t parent)
{
	struct dir_coll c;
	int version = d->fs->super->s_def_hash_version;
	errcode_t err;

	memset(&c, 0, sizeof(c));
	if (version > EXT2_HASH_TEA)
		return E2X_ERR_UNSUPPORTED;
	err = dirh_collect(d, dirh_hash_version(d, version), &c);
	if (!err)
		err = dirh_index_coll(d, parent, &c);
	coll_free(&c);
	return err;
}

errcode_t dirh_pack_inline(struct e2x_dirh *d)
{
	struct e2x_blk_list old = { 0 };
	struct dir_coll c;
	ext2_ino_t parent;
	char *buf = NULL;
	size_t len = 0;
	errcode_t err;

	if (d->form == E2X_DIR_FORM_INLINE)
		return 0;
	memset(&c, 0, sizeof(c));
	err = dirh_parent(d, &parent);
	if (!err)
		err = dirh_collect(d, 0, &c);
	if (!err)
		err = inline_layout(d, &c, parent, &buf, &len);
	if (!err)
		err = dir_itree_drop(d);
	if (!err)
		err = e2x_blocks_collect(d->fs, d->ino, &old);
	if (!err) {
		e2x_storage_forget(d->fs, d->inode);
		err = inline_store(d, buf, len);
	}
	/* freed in memory only: the bitmaps reach the disk after
	 * dirh_close's inode write has switched the directory */
	if (!err)
		e2x_blocks_release(d->fs, &old);
	e2x_blocks_free(&old);
	coll_free(&c);
	free(buf);
	return err;
}

/* Linear directory full at one block: index it like the kernel does. */
static errcode_t add_to_linear(struct e2x_dirh *d, const char *name,
			       unsigned int len, ext2_ino_t ino,
			       unsigned int type, int flags)
{
	int may_index = ext2fs_has_feature_dir_index(d->fs->super) &&
			!(flags & E2X_DIR_NO_INDEX) && d->nblocks == 1;
	ext2_ino_t parent;
	errcode_t err;

	err = dirh_form_add(d, name, len, ino, type, !may_index);
	if (err != E2X_ERR_NO_SPACE || !may_index)
		return err;
	err = dirh_parent(d, &parent);
	if (!err)
		err = dirh_index(d, parent);
	if (!err)
		err = dirh_form_add(d, name, len, ino, type, 0);
	if (!err && !(flags & E2X_DIR_NO_ITREE))
		err = dir_itree_insert(d, name, len, ino, type);
	return err;
}

static errcode_t check_new_entry(struct e2x_dirh *d, const char *name,
				 unsigned int len, ext2_ino_t ino,
				 unsigned int type)
{
	if (!name || len > E2X_NAME_MAX)
		return E2X_ERR_NAME_TOO_LONG;
	if (!dirh_name_ok(name, len))
		return EXT2_ET_INVALID_ARGUMENT;
	if (!ino || ino > d->fs->super->s_inodes_count || type >= EXT2_FT_MAX)
		return EXT2_ET_INVALID_ARGUMENT;
	return 0;
}

errcode_t dirh_add(struct e2x_dirh *d, const char *name, unsigned int len,
		   ext2_ino_t ino, unsigned int type, int flags)
{
	errcode_t err;

	err = check_new_entry(d, name, len, ino, type);
	if (err)
		return err;
	if (!ext2fs_has_feature_filetype(d->fs->super))
		type = 0;
	err = dirh_lookup(d, name, len, NULL, NULL);
	if (err != E2X_ERR_NOT_FOUND)
		return err ? err : E2X_ERR_EXISTS;
	if (d->form == E2X_DIR_FORM_INLINE) {
		err = dirh_form_add(d, name, len, ino, type, 0);
		if (err != E2X_ERR_NO_SPACE)
			return err;
		err = dirh_promote(d);
		if (err)
			return err;
	}
	d->changed = 1;
	if (d->form == E2X_DIR_FORM_HTREE) {
		err = dirh_form_add(d, name, len, ino, type, 0);
		if (!err && !(flags & E2X_DIR_NO_ITREE))
			err = dir_itree_insert(d, name, len, ino, type);
		return err;
	}
	return add_to_linear(d, name, len, ino, type, flags);
}

errcode_t e2x_dir_add(ext2_filsys fs, ext2_ino_t dir, const char *name,
		      unsigned int name_len, ext2_ino_t ino,
		      unsigned int file_type, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_add(&d, name, name_len, ino, file_type, flags);
	return dirh_close(&d, err);
}

errcode_t dirh_remove(struct e2x_dirh *d, const char *name, unsigned int len,
		      int flags, ext2_ino_t *old_ino, unsigned int *old_type)
{
	ext2_ino_t ino = 0;
	unsigned int type = 0;
	errcode_t err;

	if (!dirh_name_ok(name, len))
		return EXT2_ET_INVALID_ARGUMENT;
	err = dirh_form_remove(d, name, len, &ino, &type);
	if (!err && d->form == E2X_DIR_FORM_HTREE &&
	    !(flags & E2X_DIR_NO_ITREE))
		err = dir_itree_remove(d, name, len, ino);
	if (err)
		return err;
	d->changed = 1;
	if (old_ino)
		*old_ino = ino;
	if (old_type)
		*old_type = type;
	return 0;
}

errcode_t e2x_dir_remove(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, int flags, ext2_ino_t *old_ino)
{
	struct e2x_dirh d;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_remove(&d, name, name_len, flags, old_ino, NULL);
	return dirh_close(&d, err);
}

errcode_t e2x_dir_build_htree(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	ext2_ino_t parent;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!ext2fs_has_feature_dir_index(fs->super))
		return E2X_ERR_UNSUPPORTED;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.pack_full = !!(flags & E2X_DIR_BUILD_FULL);
	d.keep_times = !!(flags & E2X_KEEP_TIMES);
	d.shadow_build = 1;
	err = E2X_ERR_UNSUPPORTED;
	if (d.form == E2X_DIR_FORM_INLINE)
		goto out;
	err = dirh_parent(&d, &parent);
	if (!err)
		err = dirh_index(&d, parent);
out:
	return dirh_close(&d, err);
}
