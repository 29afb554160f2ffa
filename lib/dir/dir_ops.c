/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_ops.c --- namespace operations over the directory engine: mkdir,
 * rmdir, mknod, link, unlink, rename and packing back inline; they keep
 * link counts (dir_nlink), '..', bitmaps and i_version (once per inode).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dir/dir-int.h"

#define LOST_FOUND "lost+found"

/* A parent gains a subdirectory: with dir_nlink, past the limit the count
 * sticks at 1 ("many"). */
static errcode_t dir_nlink_inc(ext2_filsys fs, struct ext2_inode_large *in)
{
	if (in->i_links_count == 1)
		return 0;
	if (in->i_links_count + 1 > EXT2_LINK_MAX) {
		if (!ext2fs_has_feature_dir_nlink(fs->super))
			return E2X_ERR_NO_SPACE;
		in->i_links_count = 1;
		return 0;
	}
	in->i_links_count++;
	return 0;
}

static void dir_nlink_dec(struct ext2_inode_large *in)
{
	if (in->i_links_count > 2)
		in->i_links_count--;
}

/* Free an inode whose last link went: blocks, itree, bitmap, counters.
 * IN is written here (the one write of this inode). */
static errcode_t inode_release(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *in)
{
	int isdir = LINUX_S_ISDIR(in->i_mode);
	errcode_t err;

	err = e2x_inode_release_storage(fs, ino, in, 0);
	if (err)
		return err;
	in->i_links_count = 0;
	in->i_dtime = in->i_ctime = (uint32_t)e2x_now(fs);
	ext2fs_inode_size_set(fs, (struct ext2_inode *)in, 0);
	err = e2x_write_inode(fs, ino, in);
	if (!err)
		ext2fs_inode_alloc_stats2(fs, ino, -1, isdir);
	return err;
}

/* Read an inode into a buffer of the full inode size. */
static errcode_t inode_get(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large **in)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	errcode_t err;

	if (isz < sizeof(**in))
		isz = sizeof(**in);
	*in = calloc(1, isz);
	if (!*in)
		return EXT2_ET_NO_MEMORY;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		err = EXT2_ET_BAD_INODE_NUM;
	else
		err = e2x_read_inode(fs, ino, *in);
	if (err) {
		free(*in);
		*in = NULL;
	}
	return err;
}

static int want_inline(ext2_filsys fs, ext2_ino_t parent, const char *name,
		       unsigned int len, int flags)
{
	if (!ext2fs_has_feature_inline_data(fs->super) ||
	    (flags & E2X_DIR_MKDIR_BLOCK))
		return 0;
	return !(parent == EXT2_ROOT_INO && len == sizeof(LOST_FOUND) - 1 &&
		 memcmp(name, LOST_FOUND, len) == 0);
}

/* Storage of a new directory C (already numbered): inline, else block 0
 * with '.' and '..'. */
static errcode_t mkdir_storage(struct e2x_dirh *c, ext2_ino_t parent,
			       int try_inline)
{
	blk64_t lblk;
	errcode_t err;

	if (try_inline) {
		err = inline_init(c, parent);
		if (!err)
			return 0;
		if (err != E2X_ERR_INLINE_TOO_BIG &&
		    err != E2X_ERR_UNSUPPORTED)
			return err;
	}
	c->form = E2X_DIR_FORM_LINEAR;
	c->nblocks = 0;
	err = dirh_append_block(c, &lblk);
	if (err)
		return err;
	blocks_init_block0(c, c->blk, parent);
	return dirh_write_leaf(c, lblk, c->blk);
}

errcode_t e2x_dir_mkdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			unsigned int name_len, unsigned int mode, int flags,
			ext2_ino_t *ino)
{
	struct e2x_dirh p, c;
	int have_c = 0;
	errcode_t err;

	err = dirh_open(fs, parent, &p);
	if (err)
		return err;
	err = dirh_lookup(&p, name, name_len, NULL, NULL);
	if (err != E2X_ERR_NOT_FOUND) {
		err = err ? err : E2X_ERR_EXISTS;
		goto out;
	}
	err = dir_nlink_inc(fs, p.inode);
	if (err)
		goto out;
	err = dirh_alloc(fs, &c);
	if (err)
		goto out;
	have_c = 1;
	err = e2x_inode_new(fs, parent, (uint16_t)(LINUX_S_IFDIR |
						   (mode & 07777)),
			    c.inode, &c.ino);
	if (err)
		goto out;
	dirh_set_ino(&c, c.ino);
	c.inode->i_links_count = 2;
	err = mkdir_storage(&c, parent,
			    want_inline(fs, parent, name, name_len, flags));
	if (err)
		goto undo;
	c.changed = 1;
	err = dirh_add(&p, name, name_len, c.ino, EXT2_FT_DIR, flags);
	if (err)
		goto undo;
	if (ino)
		*ino = c.ino;
	goto out;
undo:
	e2x_free_file_blocks(fs, c.ino, c.inode, 0);
	ext2fs_inode_alloc_stats2(fs, c.ino, -1, 1);
	c.changed = 0;
out:
	if (have_c)
		err = dirh_close(&c, err);
	return dirh_close(&p, err);
}

static int count_one(const struct e2x_dir_entry *ent, void *priv)
{
	(void)ent;
	*(int *)priv = 1;
	return E2X_DIR_ITER_STOP;
}

errcode_t e2x_dir_rmdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			unsigned int name_len, int flags)
{
	struct e2x_dirh p;
	struct ext2_inode_large *in = NULL;
	ext2_ino_t ino;
	int nonempty = 0;
	errcode_t err;

	err = dirh_open(fs, parent, &p);
	if (err)
		return err;
	err = dirh_lookup(&p, name, name_len, &ino, NULL);
	if (!err)
		err = inode_get(fs, ino, &in);
	if (err)
		goto out;
	err = E2X_ERR_NOT_DIR;
	if (!LINUX_S_ISDIR(in->i_mode))
		goto out;
	err = e2x_dir_iterate(fs, ino, E2X_DIR_ORDER_DISK, 0, count_one,
			      &nonempty);
	if (!err && nonempty)
		err = E2X_ERR_NOT_EMPTY;
	if (!err)
		err = dirh_remove(&p, name, name_len, flags, NULL, NULL);
	if (err)
		goto out;
	dir_nlink_dec(p.inode);
	err = inode_release(fs, ino, in);
out:
	free(in);
	return dirh_close(&p, err);
}

errcode_t e2x_dir_mknod(ext2_filsys fs, ext2_ino_t dir, const char *name,
			unsigned int name_len, unsigned int mode, int flags,
			ext2_ino_t *ino)
{
	struct e2x_dirh d;
	struct ext2_inode_large *in = NULL;
	ext2_ino_t nino = 0;
	unsigned int isz;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	isz = EXT2_INODE_SIZE(fs->super);
	if (LINUX_S_ISDIR(mode) || !e2x_ftype_of_mode(mode))
		return EXT2_ET_INVALID_ARGUMENT;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_lookup(&d, name, name_len, NULL, NULL);
	if (err != E2X_ERR_NOT_FOUND) {
		err = err ? err : E2X_ERR_EXISTS;
		goto out;
	}
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	err = EXT2_ET_NO_MEMORY;
	if (!in)
		goto out;
	err = e2x_inode_new(fs, dir, (uint16_t)mode, in, &nino);
	if (err)
		goto out;
	err = dirh_add(&d, name, name_len, nino, e2x_ftype_of_mode(mode), flags);
	if (!err)
		err = e2x_write_inode(fs, nino, in);
	if (err) {
		ext2fs_inode_alloc_stats2(fs, nino, -1, 0);
		goto out;
	}
	if (ino)
		*ino = nino;
out:
	free(in);
	return dirh_close(&d, err);
}

errcode_t e2x_dir_link(ext2_filsys fs, ext2_ino_t dir, const char *name,
		       unsigned int name_len, ext2_ino_t ino, int flags)
{
	struct e2x_dirh d;
	struct ext2_inode_large *in = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = inode_get(fs, ino, &in);
	if (err)
		return err;
	err = EXT2_ET_INVALID_ARGUMENT;
	if (LINUX_S_ISDIR(in->i_mode) || !in->i_links_count)
		goto out_free;
	err = E2X_ERR_NO_SPACE;
	if (in->i_links_count >= EXT2_LINK_MAX)
		goto out_free;
	err = dirh_open(fs, dir, &d);
	if (err)
		goto out_free;
	err = dirh_add(&d, name, name_len, ino, e2x_ftype_of_mode(in->i_mode), flags);
	if (!err) {
		in->i_links_count++;
		in->i_ctime = (uint32_t)e2x_now(fs);
		err = e2x_write_inode(fs, ino, in);
	}
	err = dirh_close(&d, err);
out_free:
	free(in);
	return err;
}

/* Drop one link of non-directory IN (INO); free it at zero. */
static errcode_t drop_link(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large *in)
{
	if (in->i_links_count > 1) {
		in->i_links_count--;
		in->i_ctime = (uint32_t)e2x_now(fs);
		return e2x_write_inode(fs, ino, in);
	}
	return inode_release(fs, ino, in);
}

errcode_t e2x_dir_unlink(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, int flags)
{
	struct e2x_dirh d;
	struct ext2_inode_large *in = NULL;
	ext2_ino_t ino;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_lookup(&d, name, name_len, &ino, NULL);
	if (!err)
		err = inode_get(fs, ino, &in);
	if (err)
		goto out;
	err = EXT2_ET_INVALID_ARGUMENT;
	if (LINUX_S_ISDIR(in->i_mode))
		goto out;
	err = dirh_remove(&d, name, name_len, flags, NULL, NULL);
	if (!err)
		err = drop_link(fs, ino, in);
out:
	free(in);
	return dirh_close(&d, err);
}

/* True when directory ANC is DIR or one of its ancestors ('..' chain). */
static errcode_t is_ancestor(ext2_filsys fs, ext2_ino_t anc, ext2_ino_t dir,
			     int *yes)
{
	struct e2x_dirh d;
	ext2_ino_t cur = dir, parent;
	unsigned int steps = 0;
	errcode_t err;

	*yes = 0;
	while (1) {
		if (cur == anc) {
			*yes = 1;
			return 0;
		}
		if (cur == EXT2_ROOT_INO)
			return 0;
		if (++steps > fs->super->s_inodes_count)
			return E2X_ERR_CORRUPT;	/* a '..' loop */
		err = dirh_open(fs, cur, &d);
		if (err)
			return err;
		err = dirh_parent(&d, &parent);
		dirh_close(&d, 0);
		if (err)
			return err;
		if (parent == cur)
			return E2X_ERR_CORRUPT;
		cur = parent;
	}
}

errcode_t dir_set_parent(ext2_filsys fs, ext2_ino_t ino, ext2_ino_t parent)
{
	struct e2x_dirh c;
	errcode_t err;

	err = dirh_open_dots(fs, ino, &c, 1);
	if (err)
		return err;
	err = dirh_set_parent(&c, parent);
	c.changed = 1;
	return dirh_close(&c, err);
}

static errcode_t touch_inode(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode_large *in;
	errcode_t err;

	err = inode_get(fs, ino, &in);
	if (err)
		return err;
	in->i_ctime = (uint32_t)e2x_now(fs);
	err = e2x_write_inode(fs, ino, in);
	free(in);
	return err;
}

/* Checks before a rename replaces TINO (type TTYPE) with a source of type
 * STYPE: directories only over empty directories, files over files. */
static errcode_t check_replace(ext2_filsys fs, unsigned int stype,
			       ext2_ino_t tino,
			       struct ext2_inode_large *tin)
{
	int nonempty = 0;
	errcode_t err;

	if (LINUX_S_ISDIR(tin->i_mode) != (stype == EXT2_FT_DIR))
		return LINUX_S_ISDIR(tin->i_mode) ? EXT2_ET_INVALID_ARGUMENT :
						     E2X_ERR_NOT_DIR;
	if (!LINUX_S_ISDIR(tin->i_mode))
		return 0;
	err = e2x_dir_iterate(fs, tino, E2X_DIR_ORDER_DISK, 0, count_one,
			      &nonempty);
	if (!err && nonempty)
		err = E2X_ERR_NOT_EMPTY;
	return err;
}

errcode_t e2x_dir_rename(ext2_filsys fs, ext2_ino_t odir, const char *oname,
			 unsigned int olen, ext2_ino_t ndir, const char *nname,
			 unsigned int nlen, int flags)
{
	struct e2x_dirh od, nd, *n = &od;
	struct ext2_inode_large *tin = NULL;
	ext2_ino_t sino, tino = 0;
	unsigned int stype;
	int cross = odir != ndir, have_nd = 0, yes, isdir;
	errcode_t err;

	if (!dirh_name_ok(nname, nlen))
		return nlen > E2X_NAME_MAX ? E2X_ERR_NAME_TOO_LONG :
					     EXT2_ET_INVALID_ARGUMENT;
	err = dirh_open(fs, odir, &od);
	if (err)
		return err;
	if (cross) {
		err = dirh_open(fs, ndir, &nd);
		if (err)
			goto out;
		have_nd = 1;
		n = &nd;
	}
	err = dirh_lookup(&od, oname, olen, &sino, &stype);
	if (err)
		goto out;
	isdir = stype == EXT2_FT_DIR;
	if (!ext2fs_has_feature_filetype(fs->super)) {
		err = inode_get(fs, sino, &tin);
		if (err)
			goto out;
		isdir = LINUX_S_ISDIR(tin->i_mode);
		stype = isdir ? EXT2_FT_DIR : 0;
		free(tin);
		tin = NULL;
	}
	if (isdir && cross) {
		err = is_ancestor(fs, sino, ndir, &yes);
		if (!err && yes)
			err = EXT2_ET_INVALID_ARGUMENT;
		if (err)
			goto out;
	}
	err = dirh_lookup(n, nname, nlen, &tino, NULL);
	if (err == E2X_ERR_NOT_FOUND) {
		tino = 0;
		err = 0;
	} else if (!err) {
		if (tino == sino)
			goto out;	/* two names of one inode: nothing */
		err = (flags & E2X_DIR_NOREPLACE) ? E2X_ERR_EXISTS :
			inode_get(fs, tino, &tin);
		if (!err)
			err = check_replace(fs, stype, tino, tin);
	}
	if (err)
		goto out;
	if (tino) {
		err = dirh_remove(n, nname, nlen, flags, NULL, NULL);
		if (err)
			goto out;
		if (LINUX_S_ISDIR(tin->i_mode)) {
			dir_nlink_dec(n->inode);
			err = inode_release(fs, tino, tin);
		} else {
			err = drop_link(fs, tino, tin);
		}
		if (err)
			goto out;
	}
	err = dirh_add(n, nname, nlen, sino, stype, flags);
	if (!err)
		err = dirh_remove(&od, oname, olen, flags, NULL, NULL);
	if (err)
		goto out;
	if (isdir && cross) {
		dir_nlink_dec(od.inode);
		err = dir_nlink_inc(fs, nd.inode);
		if (!err)
			err = dir_set_parent(fs, sino, ndir);
	} else {
		err = touch_inode(fs, sino);
	}
out:
	free(tin);
	if (have_nd)
		err = dirh_close(&nd, err);
	return dirh_close(&od, err);
}

errcode_t e2x_dir_pack_inline(ext2_filsys fs, ext2_ino_t dir, int flags)
{
	struct e2x_dirh d;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!ext2fs_has_feature_inline_data(fs->super) ||
	    dir == EXT2_ROOT_INO)
		return E2X_ERR_UNSUPPORTED;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	d.keep_times = !!(flags & E2X_KEEP_TIMES);
	err = dirh_pack_inline(&d);
	return dirh_close(&d, err);
}
