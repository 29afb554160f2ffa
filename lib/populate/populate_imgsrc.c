/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * populate_imgsrc.c --- an ext2/3/4 image or block device as a populate
 * source, opened read-only through libext2fs: entries through the libe2x
 * directory engine (inline, htree and itree directories alike), data
 * ranges from the extent tree or block map, attributes from the inode.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"
#include "e2x-populate.h"

struct imgsrc {
	ext2_filsys fs;
	struct ext2_inode_large *inode;	/* scratch */
};

/* A directory handle is its inode number (boxed). */
struct idir {
	ext2_ino_t ino;
};

/* An open file: its data ranges in block units, sorted. */
struct irange {
	uint64_t lblk, len;
};
struct ifile {
	ext2_ino_t ino;
	ext2_file_t file;
	struct irange *r;
	size_t n, cap;
	int all_data;		/* inline: the whole size is data */
};

static errcode_t read_inode(struct imgsrc *is, ext2_ino_t ino)
{
	return ext2fs_read_inode_full(is->fs, ino, (void *)is->inode,
				      EXT2_INODE_SIZE(is->fs->super));
}

static uint32_t extra_ns(uint32_t extra)
{
	return extra >> 2;
}

static int64_t extra_sec(uint32_t sec, uint32_t extra)
{
	return (int64_t)(int32_t)sec + ((int64_t)(extra & 3) << 32);
}

static int has_field(struct imgsrc *is, size_t end)
{
	return EXT2_INODE_SIZE(is->fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	       EXT2_GOOD_OLD_INODE_SIZE + is->inode->i_extra_isize >= end;
}

#define FIELD_END(f) (offsetof(struct ext2_inode_large, f) + 4)

static void fill_stat(struct imgsrc *is, ext2_ino_t ino,
		      struct e2x_pop_stat *st)
{
	struct ext2_inode_large *in = is->inode;

	memset(st, 0, sizeof(*st));
	st->mode = in->i_mode;
	st->uid = inode_uid(*in);
	st->gid = inode_gid(*in);
	st->nlink = in->i_links_count;
	st->size = EXT2_I_SIZE(in);
	st->id = ino;
	st->atime = (int32_t)in->i_atime;
	st->mtime = (int32_t)in->i_mtime;
	st->ctime = (int32_t)in->i_ctime;
	if (has_field(is, FIELD_END(i_atime_extra))) {
		st->atime = extra_sec(in->i_atime, in->i_atime_extra);
		st->atime_ns = extra_ns(in->i_atime_extra);
		st->mtime = extra_sec(in->i_mtime, in->i_mtime_extra);
		st->mtime_ns = extra_ns(in->i_mtime_extra);
		st->ctime = extra_sec(in->i_ctime, in->i_ctime_extra);
		st->ctime_ns = extra_ns(in->i_ctime_extra);
	}
	if (has_field(is, FIELD_END(i_crtime_extra))) {
		st->crtime = extra_sec(in->i_crtime, in->i_crtime_extra);
		st->crtime_ns = extra_ns(in->i_crtime_extra);
		st->have |= E2X_POP_HAVE_CRTIME;
	}
	st->flags = in->i_flags;
	st->have |= E2X_POP_HAVE_FLAGS;
	if (has_field(is, FIELD_END(i_projid))) {
		st->projid = in->i_projid;
		st->have |= E2X_POP_HAVE_PROJID;
	}
	if (LINUX_S_ISCHR(in->i_mode) || LINUX_S_ISBLK(in->i_mode)) {
		uint32_t old = ext2fs_le32_to_cpu(in->i_block[0]);
		uint32_t new = ext2fs_le32_to_cpu(in->i_block[1]);

		if (old) {
			st->rdev_major = (old >> 8) & 0xff;
			st->rdev_minor = old & 0xff;
		} else {
			st->rdev_major = (new & 0xfff00) >> 8;
			st->rdev_minor = (new & 0xff) | ((new >> 12) & 0xfff00);
		}
	}
}

static errcode_t is_root(void *s, void **dir, struct e2x_pop_stat *st)
{
	struct imgsrc *is = s;
	struct idir *d;
	errcode_t err;

	err = read_inode(is, EXT2_ROOT_INO);
	if (err)
		return err;
	d = calloc(1, sizeof(*d));
	if (!d)
		return EXT2_ET_NO_MEMORY;
	d->ino = EXT2_ROOT_INO;
	fill_stat(is, EXT2_ROOT_INO, st);
	*dir = d;
	return 0;
}

struct list_ctx {
	struct e2x_pop_entry *v;
	size_t n, cap;
	errcode_t err;
};

static int list_one(const struct e2x_dir_entry *ent, void *priv)
{
	struct list_ctx *l = priv;
	struct e2x_pop_entry *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct e2x_pop_entry *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv) {
			l->err = EXT2_ET_NO_MEMORY;
			return E2X_DIR_ITER_STOP;
		}
		l->v = nv;
		l->cap = cap;
	}
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->name = malloc(ent->name_len + 1);
	if (!e->name) {
		l->err = EXT2_ET_NO_MEMORY;
		return E2X_DIR_ITER_STOP;
	}
	memcpy(e->name, ent->name, ent->name_len);
	e->name[ent->name_len] = 0;
	e->name_len = ent->name_len;
	e->cookie = ent->ino;
	l->n++;
	return 0;
}

static errcode_t is_list(void *s, void *dir, struct e2x_pop_entry **out,
			 size_t *nout)
{
	struct imgsrc *is = s;
	struct idir *d = dir;
	struct list_ctx l;
	errcode_t err;
	size_t i;

	memset(&l, 0, sizeof(l));
	/* Inode order: the source's inode table is read front to back. */
	err = e2x_dir_iterate(is->fs, d->ino, E2X_DIR_ORDER_INODE, 0,
			      list_one, &l);
	if (!err)
		err = l.err;
	for (i = 0; i < l.n && !err; i++) {
		if (!l.v[i].cookie ||
		    l.v[i].cookie > is->fs->super->s_inodes_count) {
			err = EXT2_ET_BAD_INODE_NUM;
			break;
		}
		err = read_inode(is, (ext2_ino_t)l.v[i].cookie);
		if (!err)
			fill_stat(is, (ext2_ino_t)l.v[i].cookie, &l.v[i].st);
	}
	if (err) {
		for (i = 0; i < l.n; i++)
			free(l.v[i].name);
		free(l.v);
		return err;
	}
	*out = l.v;
	*nout = l.n;
	return 0;
}

static errcode_t is_open_dir(void *s, void *dir, struct e2x_pop_entry *e,
			     void **sub)
{
	struct idir *d = calloc(1, sizeof(*d));

	(void)s;
	(void)dir;
	if (!d)
		return EXT2_ET_NO_MEMORY;
	d->ino = (ext2_ino_t)e->cookie;
	*sub = d;
	return 0;
}

static void is_close_dir(void *s, void *dir)
{
	(void)s;
	free(dir);
}

static errcode_t add_range(struct ifile *f, uint64_t lblk, uint64_t len)
{
	if (f->n && f->r[f->n - 1].lblk + f->r[f->n - 1].len == lblk) {
		f->r[f->n - 1].len += len;
		return 0;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct irange *nr = realloc(f->r, cap * sizeof(*nr));

		if (!nr)
			return EXT2_ET_NO_MEMORY;
		f->r = nr;
		f->cap = cap;
	}
	f->r[f->n].lblk = lblk;
	f->r[f->n].len = len;
	f->n++;
	return 0;
}

/* Written ranges (unwritten ones read as zeros: holes in the copy). */
static errcode_t range_one(ext2_filsys fs, const struct e2x_file_range *r,
			   void *priv)
{
	(void)fs;
	if (r->flags & E2X_RANGE_UNWRITTEN)
		return 0;
	return add_range(priv, r->lblk, r->len);
}

static errcode_t is_open_file(void *s, void *dir, struct e2x_pop_entry *e,
			      void **out)
{
	struct imgsrc *is = s;
	struct ifile *f;
	errcode_t err;

	(void)dir;
	f = calloc(1, sizeof(*f));
	if (!f)
		return EXT2_ET_NO_MEMORY;
	f->ino = (ext2_ino_t)e->cookie;
	err = read_inode(is, f->ino);
	if (err)
		goto fail;
	if (is->inode->i_flags & EXT4_INLINE_DATA_FL)
		f->all_data = 1;
	else
		err = e2x_file_ranges(is->fs, f->ino, (void *)is->inode, 0,
				      range_one, f);
	if (!err)
		err = ext2fs_file_open2(is->fs, f->ino, (void *)is->inode, 0,
					&f->file);
	if (err)
		goto fail;
	*out = f;
	return 0;
fail:
	free(f->r);
	free(f);
	return err;
}

static errcode_t is_next_data(void *s, void *fh, uint64_t off,
			      uint64_t *start, uint64_t *end)
{
	struct imgsrc *is = s;
	struct ifile *f = fh;
	uint64_t bs = is->fs->blocksize;
	size_t i;

	if (f->all_data) {
		*start = off;
		*end = UINT64_MAX;
		return 0;
	}
	for (i = 0; i < f->n; i++) {
		uint64_t a = f->r[i].lblk * bs, b = a + f->r[i].len * bs;

		if (b <= off)
			continue;
		*start = a > off ? a : off;
		*end = b;
		return 0;
	}
	*start = *end = off;
	return 0;
}

static errcode_t is_read(void *s, void *fh, uint64_t off, void *buf,
			 size_t len, size_t *got)
{
	struct ifile *f = fh;
	unsigned int n;
	errcode_t err;

	(void)s;
	if (len > 1U << 30)
		len = 1U << 30;
	err = ext2fs_file_llseek(f->file, off, EXT2_SEEK_SET, NULL);
	if (!err)
		err = ext2fs_file_read(f->file, buf, (unsigned int)len, &n);
	if (!err)
		*got = n;
	return err;
}

static void is_close_file(void *s, void *fh)
{
	struct ifile *f = fh;

	(void)s;
	if (!f)
		return;
	if (f->file)
		ext2fs_file_close(f->file);
	free(f->r);
	free(f);
}

static errcode_t is_readlink(void *s, void *dir, struct e2x_pop_entry *e,
			     char *buf, size_t size, size_t *len)
{
	struct imgsrc *is = s;

	(void)dir;
	return e2x_symlink_read(is->fs, (ext2_ino_t)e->cookie, buf, size,
				len);
}

struct xa_ctx {
	struct ext2_xattr_handle *h;
	e2x_pop_xattr_fn fn;
	void *priv;
	errcode_t err;
};

static int xattr_one(char *name, char *value, size_t len, void *priv)
{
	struct xa_ctx *x = priv;

	if (!strcmp(name, "system.data"))
		return 0;	/* inline content, not an attribute */
	if (!strncmp(name, "system.posix_acl_", 17)) {
		/* iterate shows the ext4 layout; get gives the VFS one */
		void *v = NULL;

		x->err = ext2fs_xattr_get(x->h, name, &v, &len);
		if (!x->err)
			x->err = x->fn(name, v, len, x->priv);
		ext2fs_free_mem(&v);
		return x->err ? XATTR_ABORT : 0;
	}
	x->err = x->fn(name, value, len, x->priv);
	return x->err ? XATTR_ABORT : 0;
}

static errcode_t is_xattrs(void *s, void *dir, struct e2x_pop_entry *e,
			   void *handle, e2x_pop_xattr_fn fn, void *priv)
{
	struct imgsrc *is = s;
	struct ext2_xattr_handle *h = NULL;
	struct xa_ctx x = { NULL, fn, priv, 0 };
	ext2_ino_t ino;
	errcode_t err;

	if (e)
		ino = (ext2_ino_t)e->cookie;
	else
		ino = ((struct idir *)(handle ? handle : dir))->ino;
	if (!ext2fs_has_feature_xattr(is->fs->super))
		return 0;
	err = ext2fs_xattrs_open(is->fs, ino, &h);
	if (err)
		return err;
	x.h = h;
	err = ext2fs_xattrs_read(h);
	if (!err)
		err = ext2fs_xattrs_iterate(h, xattr_one, &x);
	ext2fs_xattrs_close(&h);
	return err ? err : x.err;
}

static errcode_t is_count(void *s, uint64_t *n, uint64_t *bytes)
{
	struct imgsrc *is = s;
	struct ext2_super_block *sb = is->fs->super;

	/* inodes in use but the reserved ones (the root among them);
	 * extra hard links make the true count a little larger */
	*n = sb->s_inodes_count - sb->s_free_inodes_count;
	*n = *n > EXT2_FIRST_INO(sb) - 1 ? *n - (EXT2_FIRST_INO(sb) - 1) : 0;
	if (bytes)
		*bytes = (ext2fs_blocks_count(sb) -
			  ext2fs_free_blocks_count(sb)) * is->fs->blocksize;
	return 0;
}

static void is_free(void *s)
{
	struct imgsrc *is = s;

	ext2fs_close_free(&is->fs);
	free(is->inode);
	free(is);
}

static const struct e2x_pop_source_ops imgsrc_ops = {
	.root = is_root,
	.list = is_list,
	.open_dir = is_open_dir,
	.close_dir = is_close_dir,
	.open_file = is_open_file,
	.next_data = is_next_data,
	.read = is_read,
	.close_file = is_close_file,
	.readlink = is_readlink,
	.xattrs = is_xattrs,
	.count = is_count,
	.close = is_free,
};

/* Refuse what cannot be read consistently: a read-write mount, or a
 * journal holding transactions not yet in place. */
static errcode_t check_source(const char *path, ext2_filsys fs, char *why,
			      size_t whylen)
{
	char mnt[256] = "";
	int mflags = 0;
	errcode_t err;

	err = ext2fs_check_mount_point(path, &mflags, mnt, sizeof(mnt));
	if (err) {
		snprintf(why, whylen, "cannot tell whether %s is mounted: %s",
			 path, error_message(err));
		return err;
	}
	if ((mflags & EXT2_MF_MOUNTED) && !(mflags & EXT2_MF_READONLY)) {
		snprintf(why, whylen, "source %s is mounted read-write%s%s; "
			 "unmount it or remount it read-only first", path,
			 mnt[0] ? " on " : "", mnt);
		return E2X_ERR_MOUNTED;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		snprintf(why, whylen, "source %s has a journal that needs "
			 "recovery; run e2fsck on it (or mount and unmount "
			 "it) first", path);
		return E2X_ERR_JOURNAL;
	}
	if (ext2fs_has_feature_journal_dev(fs->super)) {
		snprintf(why, whylen, "source %s is an external journal, "
			 "not a file system", path);
		return E2X_ERR_JOURNAL_DEV;
	}
	return 0;
}

errcode_t e2x_pop_imgsrc_open(const char *path, struct e2x_pop_source *src,
			      char *why, size_t whylen)
{
	struct imgsrc *is;
	errcode_t err;

	is = calloc(1, sizeof(*is));
	if (!is)
		return EXT2_ET_NO_MEMORY;
	err = ext2fs_open2(path, NULL, EXT2_FLAG_64BITS | EXT2_FLAG_THREADS,
			   0, 0, unix_io_manager, &is->fs);
	if (err) {
		snprintf(why, whylen, "source %s is neither a directory nor "
			 "a readable ext2/3/4 file system: %s", path,
			 error_message(err));
		free(is);
		return err;
	}
	err = check_source(path, is->fs, why, whylen);
	if (!err) {
		is->inode = calloc(1, EXT2_INODE_SIZE(is->fs->super) <
				   sizeof(struct ext2_inode_large) ?
				   sizeof(struct ext2_inode_large) :
				   EXT2_INODE_SIZE(is->fs->super));
		if (!is->inode)
			err = EXT2_ET_NO_MEMORY;
	}
	if (err) {
		ext2fs_close_free(&is->fs);
		free(is);
		return err;
	}
	src->ops = &imgsrc_ops;
	src->priv = is;
	src->kind = "image";
	return 0;
}
