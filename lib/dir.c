/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir.c --- the directory dispatch API: open a directory for one
 * operation, pick its form (inline, linear, htree) and call that form's
 * code; block I/O with checksums; entry collections for sorted walks.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dir-int.h"

errcode_t dirh_alloc(ext2_filsys fs, struct e2x_dirh *d)
{
	unsigned int isz;

	memset(d, 0, sizeof(*d));
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	d->fs = fs;
	d->bs = fs->blocksize;
	d->csum = ext2fs_has_feature_metadata_csum(fs->super);
	isz = EXT2_INODE_SIZE(fs->super);
	if (isz < sizeof(struct ext2_inode_large))
		isz = sizeof(struct ext2_inode_large);
	d->inode = calloc(1, isz);
	d->blk = malloc(d->bs);
	d->blk2 = malloc(d->bs);
	if (!d->inode || !d->blk || !d->blk2) {
		dirh_close(d, 0);
		return EXT2_ET_NO_MEMORY;
	}
	return 0;
}

void dirh_set_ino(struct e2x_dirh *d, ext2_ino_t ino)
{
	d->ino = ino;
	if (d->csum)
		d->seed = e2x_dir_csum_seed(d->fs, ino, d->inode->i_generation);
}

errcode_t dirh_open(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d)
{
	uint64_t size;
	errcode_t err;

	err = dirh_alloc(fs, d);
	if (err)
		return err;
	err = EXT2_ET_BAD_INODE_NUM;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		goto fail;
	err = e2x_read_inode(fs, ino, d->inode);
	if (err)
		goto fail;
	err = E2X_ERR_NOT_DIR;
	if (!LINUX_S_ISDIR(d->inode->i_mode) || !d->inode->i_links_count)
		goto fail;
	err = E2X_ERR_UNSUPPORTED;
	if (d->inode->i_flags & (EXT4_CASEFOLD_FL | EXT4_ENCRYPT_FL))
		goto fail;
	dirh_set_ino(d, ino);
	if (d->inode->i_flags & EXT4_INLINE_DATA_FL) {
		d->form = E2X_DIR_FORM_INLINE;
		return 0;
	}
	size = EXT2_I_SIZE(d->inode);
	err = E2X_ERR_CORRUPT;
	if (size == 0 || size % d->bs)
		goto fail;
	d->nblocks = size / d->bs;
	/* a size beyond the blocks the inode holds means holes: refuse it
	 * before walking (or allocating for) billions of blocks */
	if (d->nblocks > ext2fs_get_stat_i_blocks(fs, (void *)d->inode) /
				 (d->bs / 512))
		goto fail;
	d->form = E2X_DIR_FORM_LINEAR;
	if ((d->inode->i_flags & EXT2_INDEX_FL) &&
	    ext2fs_has_feature_dir_index(fs->super))
		d->form = E2X_DIR_FORM_HTREE;
	return 0;
fail:
	return dirh_close(d, err);
}

errcode_t dirh_close(struct e2x_dirh *d, errcode_t err)
{
	errcode_t werr;

	if (d->changed && !err && d->ino) {
		d->inode->i_mtime = d->inode->i_ctime = (uint32_t)time(NULL);
		werr = e2x_write_inode(d->fs, d->ino, d->inode);
		if (werr)
			err = werr;
	}
	free(d->inode);
	free(d->blk);
	free(d->blk2);
	memset(d, 0, sizeof(*d));
	return err;
}

static errcode_t dirh_map(struct e2x_dirh *d, blk64_t lblk, blk64_t *pblk)
{
	errcode_t err;

	if (lblk >= d->nblocks)
		return E2X_ERR_CORRUPT;
	err = e2x_map_file_block(d->fs, d->ino, d->inode, lblk, pblk, NULL);
	if (!err && !*pblk)
		err = E2X_ERR_CORRUPT;	/* a hole inside a directory */
	return err;
}

errcode_t dirh_read(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	blk64_t pblk;
	errcode_t err;

	err = dirh_map(d, lblk, &pblk);
	if (err)
		return err;
	return io_channel_read_blk64(d->fs->io, pblk, 1, buf);
}

static errcode_t dirh_write_raw(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	blk64_t pblk;
	errcode_t err;

	err = dirh_map(d, lblk, &pblk);
	if (err)
		return err;
	return io_channel_write_blk64(d->fs->io, pblk, 1, buf);
}

errcode_t dirh_check_leaf(struct e2x_dirh *d, const char *buf)
{
	const struct e2x_dirent_tail *t;

	if (!d->csum)
		return 0;
	if (!e2x_dirblk_has_tail(buf, d->bs))
		return E2X_ERR_CORRUPT;
	t = (const void *)(buf + d->bs - E2X_DIRENT_TAIL_SIZE);
	if (t->det_checksum != e2x_dirblk_csum(d->seed, buf, d->bs))
		return EXT2_ET_DIR_CSUM_INVALID;
	return 0;
}

errcode_t dirh_check_dx(struct e2x_dirh *d, const char *buf,
			unsigned int cl_off)
{
	const struct e2x_dx_countlimit *cl = (const void *)(buf + cl_off);
	const struct e2x_dx_tail *t;

	if (!d->csum)
		return 0;
	if (cl_off + (cl->limit + 1) * 8u > d->bs || cl->count > cl->limit)
		return E2X_ERR_CORRUPT;
	t = (const void *)(buf + cl_off + cl->limit * 8u);
	if (t->dt_checksum != e2x_dx_csum(d->seed, buf, cl_off))
		return EXT2_ET_DIR_CSUM_INVALID;
	return 0;
}

errcode_t dirh_write_leaf(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	if (d->csum) {
		if (!e2x_dirblk_has_tail(buf, d->bs))
			return E2X_ERR_CORRUPT;
		e2x_dirblk_csum_set(d->seed, buf, d->bs);
	}
	return dirh_write_raw(d, lblk, buf);
}

errcode_t dirh_write_dx(struct e2x_dirh *d, blk64_t lblk, char *buf,
			unsigned int cl_off)
{
	if (d->csum && e2x_dx_csum_set(d->seed, buf, d->bs, cl_off))
		return E2X_ERR_CORRUPT;
	return dirh_write_raw(d, lblk, buf);
}

void dirh_set_size(struct e2x_dirh *d, uint64_t nblocks)
{
	d->nblocks = nblocks;
	ext2fs_inode_size_set(d->fs, (struct ext2_inode *)d->inode,
			      nblocks * d->bs);
	d->changed = 1;
}

errcode_t dirh_append_block(struct e2x_dirh *d, blk64_t *lblk)
{
	blk64_t pblk;
	uint64_t limit = ext2fs_has_feature_largedir(d->fs->super) ?
				 (1ULL << 40) : (1ULL << 31);
	errcode_t err;

	if ((d->nblocks + 1) * d->bs >= limit)
		return E2X_ERR_NO_SPACE;
	err = e2x_alloc_file_block(d->fs, d->ino, d->inode, d->nblocks,
				   E2X_ALLOC_NOZERO, &pblk);
	if (err)
		return err;
	*lblk = d->nblocks;
	dirh_set_size(d, d->nblocks + 1);
	return 0;
}

void dirh_leaf_region(struct e2x_dirh *d, char *buf, struct e2x_dirregion *r)
{
	r->buf = buf;
	r->bs = d->bs;
	r->size = d->bs;
	if (d->csum || e2x_dirblk_has_tail(buf, d->bs))
		r->size -= E2X_DIRENT_TAIL_SIZE;
}

int dirh_hash_version(struct e2x_dirh *d, int root_version)
{
	if (root_version <= EXT2_HASH_TEA &&
	    (d->fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
		return root_version + 3;
	return root_version;
}

errcode_t dirh_hash(struct e2x_dirh *d, int version, const char *name,
		    unsigned int len, uint32_t *hash, uint32_t *minor)
{
	ext2_dirhash_t h = 0, m = 0;
	errcode_t err;

	err = ext2fs_dirhash2(version, name, (int)len, NULL, 0,
			      d->fs->super->s_hash_seed, &h, &m);
	*hash = h;
	if (minor)
		*minor = m;
	return err;
}

unsigned int dir_ft_of_mode(unsigned int mode)
{
	switch (mode & LINUX_S_IFMT) {
	case LINUX_S_IFREG:
		return EXT2_FT_REG_FILE;
	case LINUX_S_IFDIR:
		return EXT2_FT_DIR;
	case LINUX_S_IFCHR:
		return EXT2_FT_CHRDEV;
	case LINUX_S_IFBLK:
		return EXT2_FT_BLKDEV;
	case LINUX_S_IFIFO:
		return EXT2_FT_FIFO;
	case LINUX_S_IFSOCK:
		return EXT2_FT_SOCK;
	case LINUX_S_IFLNK:
		return EXT2_FT_SYMLINK;
	}
	return EXT2_FT_UNKNOWN;
}

int dirh_name_ok(const char *name, unsigned int len)
{
	if (!name || len == 0 || len > E2X_NAME_MAX)
		return 0;
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	return memchr(name, '/', len) == NULL && memchr(name, 0, len) == NULL;
}

errcode_t coll_add(struct dir_coll *c, ext2_ino_t ino, const char *name,
		   unsigned int len, unsigned int type)
{
	struct dir_rec *r;
	void *p;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;

		p = realloc(c->v, cap * sizeof(*c->v));
		if (!p)
			return EXT2_ET_NO_MEMORY;
		c->v = p;
		c->cap = cap;
	}
	if (c->names_len + len > c->names_cap) {
		size_t cap = c->names_cap ? c->names_cap * 2 : 4096;

		while (cap < c->names_len + len)
			cap *= 2;
		p = realloc(c->names, cap);
		if (!p)
			return EXT2_ET_NO_MEMORY;
		c->names = p;
		c->names_cap = cap;
	}
	r = &c->v[c->n++];
	memset(r, 0, sizeof(*r));
	r->ino = ino;
	r->name_off = (uint32_t)c->names_len;
	r->name_len = (uint8_t)len;
	r->file_type = (uint8_t)type;
	memcpy(c->names + c->names_len, name, len);
	c->names_len += len;
	return 0;
}

void coll_free(struct dir_coll *c)
{
	free(c->v);
	free(c->names);
	memset(c, 0, sizeof(*c));
}

const char *coll_name(const struct dir_coll *c, const struct dir_rec *r)
{
	return c->names + r->name_off;
}

/* qsort has no context argument: the arena is passed through a static
 * only for the length of one sort; sorts never nest. */
static __thread const char *sort_names;

static int cmp_name(const struct dir_rec *a, const struct dir_rec *b)
{
	unsigned int n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(sort_names + a->name_off, sort_names + b->name_off, n);

	if (c)
		return c;
	return (int)a->name_len - (int)b->name_len;
}

static int cmp_hash(const void *pa, const void *pb)
{
	const struct dir_rec *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return cmp_name(a, b);
}

static int cmp_inode(const void *pa, const void *pb)
{
	const struct dir_rec *a = pa, *b = pb;

	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return cmp_hash(pa, pb);
}

void coll_sort_hash(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_hash);
	sort_names = NULL;
}

static int cmp_name_only(const void *pa, const void *pb)
{
	return cmp_name(pa, pb);
}

void coll_sort_name(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_name_only);
	sort_names = NULL;
}

void coll_sort_inode(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_inode);
	sort_names = NULL;
}

struct collect_ctx {
	struct dir_coll *c;
	int version;
};

static int collect_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		       struct e2x_dirent *de, void *priv)
{
	struct collect_ctx *cc = priv;
	struct dir_rec *r;
	errcode_t err;

	(void)lblk;
	(void)off;
	err = coll_add(cc->c, de->inode, de->name, de->name_len,
		       de->file_type);
	if (err)
		return (int)err;
	r = &cc->c->v[cc->c->n - 1];
	return (int)dirh_hash(d, cc->version, de->name, de->name_len,
			      &r->hash, &r->minor);
}

errcode_t dirh_collect(struct e2x_dirh *d, int version, struct dir_coll *c)
{
	struct collect_ctx cc = { c, version };

	if (d->form == E2X_DIR_FORM_INLINE)
		return inline_walk(d, 0, collect_rec, &cc);
	return blocks_walk(d, 0, collect_rec, &cc);
}

/* The hash version entries of D are ordered by (unsigned variant
 * applied). */
static errcode_t dirh_order_version(struct e2x_dirh *d, int *version)
{
	int v = d->fs->super->s_def_hash_version;
	errcode_t err;

	if (d->form == E2X_DIR_FORM_HTREE) {
		err = htree_root_version(d, &v);
		if (err)
			return err;
	}
	*version = dirh_hash_version(d, v);
	return 0;
}

errcode_t e2x_dir_hash(ext2_filsys fs, ext2_ino_t dir, const char *name,
		       unsigned int name_len, uint32_t *hash, uint32_t *minor)
{
	struct e2x_dirh d;
	int v;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_order_version(&d, &v);
	if (!err)
		err = dirh_hash(&d, v, name, name_len, hash, minor);
	return dirh_close(&d, err);
}

errcode_t e2x_dir_form(ext2_filsys fs, ext2_ino_t dir, enum e2x_dir_form *f)
{
	struct e2x_dirh d;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	*f = d.form;
	return dirh_close(&d, 0);
}

errcode_t dirh_lookup(struct e2x_dirh *d, const char *name,
			     unsigned int len, ext2_ino_t *ino,
			     unsigned int *type)
{
	switch (d->form) {
	case E2X_DIR_FORM_INLINE:
		return inline_lookup(d, name, len, ino, type);
	case E2X_DIR_FORM_HTREE:
		return htree_lookup(d, name, len, ino, type);
	default:
		return linear_lookup(d, name, len, ino, type);
	}
}

errcode_t e2x_dir_lookup(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, ext2_ino_t *ino,
			 unsigned int *file_type)
{
	struct e2x_dirh d;
	ext2_ino_t i = 0;
	unsigned int t = 0;
	errcode_t err;

	if (!name || name_len == 0)
		return EXT2_ET_INVALID_ARGUMENT;
	if (name_len > E2X_NAME_MAX)
		return E2X_ERR_NAME_TOO_LONG;
	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	if (name_len <= 2 && !memcmp(name, "..", name_len)) {
		/* '.' and '..' wherever the form keeps them */
		t = EXT2_FT_DIR;
		i = d.ino;
		if (name_len == 2)
			err = d.form == E2X_DIR_FORM_INLINE ?
				      inline_parent(&d, &i) :
				      blocks_parent(&d, &i);
	} else {
		err = dirh_lookup(&d, name, name_len, &i, &t);
	}
	if (!err) {
		if (ino)
			*ino = i;
		if (file_type)
			*file_type = t;
	}
	return dirh_close(&d, err);
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

	err = linear_add(d, name, len, ino, type, !may_index);
	if (err != E2X_ERR_NO_SPACE || !may_index)
		return err;
	err = blocks_parent(d, &parent);
	if (err)
		return err;
	err = htree_build(d, parent);
	if (!err)
		err = htree_add(d, name, len, ino, type);
	if (!err && !(flags & E2X_DIR_NO_ITREE))
		err = dir_itree_insert(d, name, len, ino, type);
	return err;
}

errcode_t dirh_add(struct e2x_dirh *d, const char *name, unsigned int len,
		   ext2_ino_t ino, unsigned int type, int flags)
{
	errcode_t err;

	if (!name || len > E2X_NAME_MAX)
		return E2X_ERR_NAME_TOO_LONG;
	if (!dirh_name_ok(name, len))
		return EXT2_ET_INVALID_ARGUMENT;
	if (!ino || ino > d->fs->super->s_inodes_count || type >= EXT2_FT_MAX)
		return EXT2_ET_INVALID_ARGUMENT;
	if (!ext2fs_has_feature_filetype(d->fs->super))
		type = 0;
	err = dirh_lookup(d, name, len, NULL, NULL);
	if (err != E2X_ERR_NOT_FOUND)
		return err ? err : E2X_ERR_EXISTS;
	if (d->form == E2X_DIR_FORM_INLINE) {
		err = inline_add(d, name, len, ino, type);
		if (err != E2X_ERR_NO_SPACE)
			return err;
		err = inline_promote(d);
		if (err)
			return err;
	}
	d->changed = 1;
	if (d->form == E2X_DIR_FORM_HTREE) {
		err = htree_add(d, name, len, ino, type);
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

errcode_t dirh_remove(struct e2x_dirh *d, const char *name,
		      unsigned int len, int flags, ext2_ino_t *old_ino,
		      unsigned int *old_type)
{
	ext2_ino_t ino = 0;
	unsigned int type = 0;
	errcode_t err;

	if (!dirh_name_ok(name, len))
		return EXT2_ET_INVALID_ARGUMENT;
	switch (d->form) {
	case E2X_DIR_FORM_INLINE:
		err = inline_remove(d, name, len, &ino, &type);
		break;
	case E2X_DIR_FORM_HTREE:
		err = htree_remove(d, name, len, &ino, &type);
		if (!err && !(flags & E2X_DIR_NO_ITREE))
			err = dir_itree_remove(d, name, len, ino);
		break;
	default:
		err = linear_remove(d, name, len, &ino, &type);
		break;
	}
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
			 unsigned int name_len, int flags,
			 ext2_ino_t *old_ino)
{
	struct e2x_dirh d;
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	err = dirh_remove(&d, name, name_len, flags, old_ino, NULL);
	return dirh_close(&d, err);
}

struct iter_ctx {
	e2x_dir_iter_fn fn;
	void *priv;
	int stopped;
};

static int iter_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		    struct e2x_dirent *de, void *priv)
{
	struct iter_ctx *ic = priv;
	struct e2x_dir_entry ent;
	int ret;

	(void)d;
	(void)lblk;
	(void)off;
	memset(&ent, 0, sizeof(ent));
	ent.ino = de->inode;
	ent.name = de->name;
	ent.name_len = de->name_len;
	ent.file_type = de->file_type;
	ret = ic->fn(&ent, ic->priv);
	if (ret == E2X_DIR_ITER_STOP) {
		ic->stopped = 1;
		return -1;
	}
	return ret;
}

static errcode_t iterate_sorted(struct e2x_dirh *d, int order, int flags,
				e2x_dir_iter_fn fn, void *priv)
{
	struct dir_coll c;
	struct e2x_dir_entry ent;
	int version, ret = 0;
	size_t i;
	errcode_t err;

	memset(&c, 0, sizeof(c));
	err = dirh_order_version(d, &version);
	if (err)
		return err;
	err = dirh_collect(d, version, &c);
	if (err)
		goto out;
	if (order == E2X_DIR_ORDER_INODE)
		coll_sort_inode(&c);
	else
		coll_sort_hash(&c);
	(void)flags;
	for (i = 0; i < c.n && !ret; i++) {
		memset(&ent, 0, sizeof(ent));
		ent.ino = c.v[i].ino;
		ent.name = coll_name(&c, &c.v[i]);
		ent.name_len = c.v[i].name_len;
		ent.file_type = c.v[i].file_type;
		ent.hash = c.v[i].hash;
		ent.minor_hash = c.v[i].minor;
		ret = fn(&ent, priv);
	}
	if (ret && ret != E2X_DIR_ITER_STOP)
		err = ret;
out:
	coll_free(&c);
	return err;
}

static int itree_iter_ent(const struct e2x_itree_entry *ie, void *priv)
{
	struct iter_ctx *ic = priv;
	struct e2x_dir_entry ent;
	int ret;

	memset(&ent, 0, sizeof(ent));
	ent.ino = ie->ino;
	ent.name = ie->name;
	ent.name_len = ie->name_len;
	ent.file_type = ie->file_type;
	ent.hash = ie->hash;
	ret = ic->fn(&ent, ic->priv);
	if (ret == E2X_DIR_ITER_STOP) {
		ic->stopped = 1;
		return E2X_ITREE_STOP;
	}
	return ret;
}

/* '.' and '..' first, for the sorted orders. */
static errcode_t iterate_dots(struct e2x_dirh *d, struct iter_ctx *ic)
{
	struct e2x_dir_entry ent;
	ext2_ino_t parent;
	errcode_t err;
	int ret;

	err = d->form == E2X_DIR_FORM_INLINE ? inline_parent(d, &parent) :
					       blocks_parent(d, &parent);
	if (err)
		return err;
	memset(&ent, 0, sizeof(ent));
	ent.file_type = EXT2_FT_DIR;
	ent.ino = d->ino;
	ent.name = ".";
	ent.name_len = 1;
	ret = ic->fn(&ent, ic->priv);
	if (!ret) {
		ent.ino = parent;
		ent.name = "..";
		ent.name_len = 2;
		ret = ic->fn(&ent, ic->priv);
	}
	if (ret == E2X_DIR_ITER_STOP)
		ic->stopped = 1;
	else if (ret)
		return ret;
	return 0;
}

errcode_t e2x_dir_iterate(ext2_filsys fs, ext2_ino_t dir,
			  enum e2x_dir_order order, int flags,
			  e2x_dir_iter_fn fn, void *priv)
{
	struct e2x_dirh d;
	struct iter_ctx ic = { fn, priv, 0 };
	errcode_t err;

	err = dirh_open(fs, dir, &d);
	if (err)
		return err;
	if (order == E2X_DIR_ORDER_DISK) {
		err = d.form == E2X_DIR_FORM_INLINE ?
			      inline_walk(&d, flags & E2X_DIR_ITER_DOTS,
					  iter_rec, &ic) :
			      blocks_walk(&d, flags & E2X_DIR_ITER_DOTS,
					  iter_rec, &ic);
		if (ic.stopped)
			err = 0;
		goto out;
	}
	if (flags & E2X_DIR_ITER_DOTS) {
		err = iterate_dots(&d, &ic);
		if (err || ic.stopped)
			goto out;
	}
	if (order == E2X_DIR_ORDER_INODE && dir_itree_present(&d)) {
		err = e2x_itree_iterate(fs, dir, d.inode, 0, itree_iter_ent,
					&ic);
		if (ic.stopped)
			err = 0;
		goto out;
	}
	err = iterate_sorted(&d, order, flags, fn, priv);
out:
	return dirh_close(&d, err);
}

static int count_ent(const struct e2x_dir_entry *ent, void *priv)
{
	(void)ent;
	(*(uint64_t *)priv)++;
	return 0;
}

errcode_t e2x_dir_count(ext2_filsys fs, ext2_ino_t dir, uint64_t *count)
{
	*count = 0;
	return e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_DISK, 0, count_ent,
			       count);
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
	err = E2X_ERR_UNSUPPORTED;
	if (d.form == E2X_DIR_FORM_INLINE)
		goto out;
	err = blocks_parent(&d, &parent);
	if (!err)
		err = htree_build(&d, parent);
out:
	return dirh_close(&d, err);
}
