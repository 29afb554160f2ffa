/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * convert.c --- in-place feature conversions (tune2fs -O, e2fsck -D):
 * inline_data on and off, itree on and off, directory indexing.  Each is
 * one row: which feature to set before the first inode is converted (or
 * clear after the last), which inodes to visit and the per-inode edit.
 * The edits write the new copy before they switch the inode and free the
 * old one, so the file system stays consistent between any two writes.
 */
#include "config.h"
#include <string.h>
#include "file/select-int.h"

typedef errcode_t (*convert_fn)(ext2_filsys fs, ext2_ino_t ino, int flags);

struct conversion {
	int word;		/* 0 compat, 1 incompat, 2 ro_compat */
	__u32 set, clear;	/* feature bits set first / cleared last */
	e2x_pick_fn pick;
	convert_fn convert;
	errcode_t skip;		/* "this inode stays as it is" (or 0) */
};

static __u32 *feature_word(ext2_filsys fs, int word)
{
	struct ext2_super_block *sb = fs->super;

	return word == 0 ? &sb->s_feature_compat :
	       word == 1 ? &sb->s_feature_incompat : &sb->s_feature_ro_compat;
}


static errcode_t convert_list(ext2_filsys fs, const struct conversion *c,
			      const struct e2x_ino_list *l,
			      struct e2x_convert_stats *st)
{
	struct ext2_inode_large *inode = NULL;
	errcode_t err;
	size_t i;

	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &inode);
	for (i = 0; !err && i < l->n; i++) {
		err = e2x_read_inode(fs, l->v[i], inode);
		if (err)
			break;
		err = c->convert(fs, l->v[i], E2X_KEEP_TIMES);
		if (c->skip && err == c->skip) {
			err = 0;
			continue;
		}
		if (!err && LINUX_S_ISDIR(inode->i_mode))
			st->dirs++;
		else if (!err)
			st->files++;
	}
	ext2fs_free_mem(&inode);
	return err;
}

static errcode_t run(ext2_filsys fs, const struct conversion *c,
		     struct e2x_convert_stats *st)
{
	struct e2x_ino_list l = { 0 };
	__u32 *w = feature_word(fs, c->word);
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(st, 0, sizeof(*st));
	st->free_before = ext2fs_free_blocks_count(fs->super);
	err = ext2fs_read_bitmaps(fs);
	/* the feature word reaches the disk before (or after) the inodes */
	if (!err && c->set) {
		*w |= c->set;
		err = e2x_settle(fs);
	}
	if (!err && c->pick)
		err = e2x_select_inodes(fs, c->pick, &l);
	if (!err)
		err = convert_list(fs, c, &l, st);
	if (!err)
		err = e2x_settle(fs);
	if (!err && c->clear) {
		*w &= ~c->clear;
		err = e2x_settle(fs);
	}
	e2x_ino_list_free(&l);
	st->free_after = ext2fs_free_blocks_count(fs->super);
	return err;
}

static int is_dir(const struct ext2_inode_large *inode)
{
	return LINUX_S_ISDIR(inode->i_mode);
}

/* Directories whose names the kernel stores transformed stay as they
 * are: their entries are not plain names. */
static int plain_dir(const struct ext2_inode_large *inode)
{
	return is_dir(inode) &&
	       !(inode->i_flags & (EXT4_ENCRYPT_FL | EXT4_CASEFOLD_FL));
}

static int is_inline(ext2_filsys fs, ext2_ino_t ino,
		     const struct ext2_inode_large *inode)
{
	(void)fs;
	(void)ino;
	return e2x_inode_has_inline(inode) &&
	       (LINUX_S_ISREG(inode->i_mode) || LINUX_S_ISLNK(inode->i_mode) ||
		is_dir(inode));
}

/* A one-block, unindexed directory other than the root: may fit inline. */
static int is_small_dir(ext2_filsys fs, ext2_ino_t ino,
			const struct ext2_inode_large *inode)
{
	return plain_dir(inode) && ino != EXT2_ROOT_INO &&
	       !e2x_inode_has_inline(inode) &&
	       !(inode->i_flags & EXT2_INDEX_FL) &&
	       EXT2_I_SIZE(inode) == fs->blocksize;
}

static int is_indexed_dir(ext2_filsys fs, ext2_ino_t ino,
			  const struct ext2_inode_large *inode)
{
	(void)fs;
	(void)ino;
	return is_dir(inode) && (inode->i_flags & EXT2_INDEX_FL);
}

static int has_itree(ext2_filsys fs, ext2_ino_t ino,
		     const struct ext2_inode_large *inode)
{
	(void)ino;
	return is_dir(inode) && e2x_itree_present(fs, inode);
}

/* A linear directory of more than one block: worth an index. */
static int is_big_linear_dir(ext2_filsys fs, ext2_ino_t ino,
			     const struct ext2_inode_large *inode)
{
	(void)ino;
	return plain_dir(inode) && !e2x_inode_has_inline(inode) &&
	       !(inode->i_flags & EXT2_INDEX_FL) &&
	       EXT2_I_SIZE(inode) > fs->blocksize;
}

/* An inline inode into blocks: a directory moves into its first block. */
static errcode_t promote_one(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	errcode_t err = e2x_file_promote(fs, ino, flags);

	if (err == E2X_ERR_UNSUPPORTED)	/* not a file: a directory */
		err = e2x_dir_expand(fs, ino, flags);
	return err;
}

static errcode_t index_one(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	return e2x_dir_build_htree(fs, ino, flags);
}

static const struct conversion inline_on = {
	1, EXT4_FEATURE_INCOMPAT_INLINE_DATA, 0, is_small_dir,
	e2x_dir_pack_inline, E2X_ERR_INLINE_TOO_BIG
};
static const struct conversion inline_off = {
	1, 0, EXT4_FEATURE_INCOMPAT_INLINE_DATA, is_inline, promote_one, 0
};
static const struct conversion itree_on = {
	2, E2X_FEATURE_RO_COMPAT_ITREE, 0, is_indexed_dir,
	e2x_dir_itree_build, E2X_ERR_UNSUPPORTED
};
static const struct conversion itree_off = {
	2, 0, E2X_FEATURE_RO_COMPAT_ITREE, has_itree, e2x_dir_itree_drop, 0
};
static const struct conversion index_on = {
	0, EXT2_FEATURE_COMPAT_DIR_INDEX, 0, is_big_linear_dir, index_one,
	E2X_ERR_UNSUPPORTED
};
static errcode_t dir_size(ext2_filsys fs, ext2_ino_t ino, uint64_t *size)
{
	struct ext2_inode_large *inode = NULL;
	errcode_t err;

	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &inode);
	if (!err)
		err = e2x_read_inode(fs, ino, inode);
	if (!err)
		*size = EXT2_I_SIZE(inode);
	ext2fs_free_mem(&inode);
	return err;
}

/* e2fsck -D: an indexed (or indexable) directory is rebuilt compact in
 * hash order, with its itree when the fs has the feature; a one-block
 * directory goes inline when it fits. */
static errcode_t optimize_one(ext2_filsys fs, ext2_ino_t ino, int flags)
{
	enum e2x_dir_form form;
	uint64_t size;
	errcode_t err;

	err = e2x_dir_form(fs, ino, &form);
	if (err)
		return err;
	if (form == E2X_DIR_FORM_INLINE)
		return E2X_ERR_UNSUPPORTED;
	err = dir_size(fs, ino, &size);
	if (err)
		return err;
	if (form == E2X_DIR_FORM_HTREE ||
	    (ext2fs_has_feature_dir_index(fs->super) && size > fs->blocksize))
		return e2x_dir_build_htree(fs, ino,
					   flags | E2X_DIR_BUILD_FULL);
	if (ext2fs_has_feature_inline_data(fs->super) &&
	    ino != EXT2_ROOT_INO) {
		err = e2x_dir_pack_inline(fs, ino, flags);
		return err == E2X_ERR_INLINE_TOO_BIG ? E2X_ERR_UNSUPPORTED :
						       err;
	}
	return E2X_ERR_UNSUPPORTED;
}

static int is_plain_dir(ext2_filsys fs, ext2_ino_t ino,
			const struct ext2_inode_large *inode)
{
	(void)fs;
	(void)ino;
	return plain_dir(inode);
}

static const struct conversion optimize = {
	0, 0, 0, is_plain_dir, optimize_one, E2X_ERR_UNSUPPORTED
};

static const struct conversion flag_only_inline = {
	1, EXT4_FEATURE_INCOMPAT_INLINE_DATA, 0, NULL, NULL, 0
};

errcode_t e2x_convert_inline_on(ext2_filsys fs, int flags,
				struct e2x_convert_stats *st)
{
	unsigned long files = 0;
	blk64_t before;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (EXT2_INODE_SIZE(fs->super) <= EXT2_GOOD_OLD_INODE_SIZE)
		return E2X_ERR_INODE_SIZE;
	ext2fs_set_feature_xattr(fs->super);
	if (flags & E2X_CONVERT_NO_PACK)
		return run(fs, &flag_only_inline, st);
	/* directories first (run sets the feature), then files */
	err = run(fs, &inline_on, st);
	before = st->free_before;
	if (!err)
		err = e2x_file_pack_all(fs, E2X_KEEP_TIMES, &files);
	if (!err)
		err = e2x_settle(fs);
	st->files += files;
	st->free_before = before;
	st->free_after = ext2fs_free_blocks_count(fs->super);
	return err;
}

errcode_t e2x_convert_inline_off(ext2_filsys fs, int flags,
				 struct e2x_convert_stats *st)
{
	(void)flags;
	return run(fs, &inline_off, st);
}

errcode_t e2x_convert_itree_on(ext2_filsys fs, int flags,
			       struct e2x_convert_stats *st)
{
	(void)flags;
	if (!ext2fs_has_feature_dir_index(fs->super))
		return E2X_ERR_FEATURE_CONFLICT;
	return run(fs, &itree_on, st);
}

errcode_t e2x_convert_itree_off(ext2_filsys fs, int flags,
				struct e2x_convert_stats *st)
{
	(void)flags;
	return run(fs, &itree_off, st);
}

errcode_t e2x_convert_index_dirs(ext2_filsys fs, int flags,
				 struct e2x_convert_stats *st)
{
	(void)flags;
	return run(fs, &index_on, st);
}

errcode_t e2x_optimize_dirs(ext2_filsys fs, int flags,
			    struct e2x_convert_stats *st)
{
	(void)flags;
	return run(fs, &optimize, st);
}
