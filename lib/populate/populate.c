/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * populate.c --- the populate engine: walks a source directory by
 * directory and writes every entry through libe2x (inline when it fits,
 * extent-mapped and contiguous otherwise, htree/itree by the dir engine).
 *
 * Order: all entries of one directory are created before any of its
 * subdirectories is entered, so each directory's children get adjacent
 * inode numbers (the order an itree walk follows).  A directory's own
 * attributes are set once its content is complete.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "e2x.h"
#include "e2x-populate.h"
#include "journal/u64map.h"

/* Inode flags a user sets with chattr and a copy carries over. */
#define POP_USER_FLAGS (EXT2_SECRM_FL | EXT2_UNRM_FL | EXT2_SYNC_FL | \
			EXT2_IMMUTABLE_FL | EXT2_APPEND_FL | EXT2_NODUMP_FL | \
			EXT2_NOATIME_FL | EXT2_DIRSYNC_FL | EXT2_TOPDIR_FL | \
			EXT4_PROJINHERIT_FL)

#define POP_CHUNK	(1U << 20)	/* bytes read from the source at once */

struct pop_ctx {
	ext2_filsys fs;
	struct e2x_pop_source *src;
	const struct e2x_pop_opts *opts;
	struct e2x_pop_summary *sum;
	struct u64map links;	/* source id -> target inode */
	struct ext2_inode_large *inode;	/* scratch, inode-size bytes */
	char *buf;		/* POP_CHUNK bytes */
	char *path;		/* source path of the current entry */
	size_t path_len, path_cap;
	uint64_t next_report;
};

/* ---- source path for messages ----------------------------------------- */

static errcode_t path_push(struct pop_ctx *c, const char *name, size_t len,
			   size_t *saved)
{
	size_t need = c->path_len + len + 2;

	if (need > c->path_cap) {
		size_t cap = c->path_cap ? c->path_cap : 256;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(c->path, cap);
		if (!p)
			return EXT2_ET_NO_MEMORY;
		c->path = p;
		c->path_cap = cap;
	}
	*saved = c->path_len;
	c->path[c->path_len++] = '/';
	memcpy(c->path + c->path_len, name, len);
	c->path_len += len;
	c->path[c->path_len] = 0;
	return 0;
}

static void path_pop(struct pop_ctx *c, size_t saved)
{
	c->path_len = saved;
	c->path[saved] = 0;
}

/* Remember where we failed (first failure only). */
static errcode_t failed_at(struct pop_ctx *c, errcode_t err)
{
	if (err && !c->sum->fail_path)
		c->sum->fail_path = strdup(c->path_len ? c->path : "/");
	return err;
}

/* ---- attributes -------------------------------------------------------- */

static int has_extra(ext2_filsys fs, const struct ext2_inode_large *in,
		     size_t field_end)
{
	return EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	       EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize >= field_end;
}

#define EXTRA_END(field) (offsetof(struct ext2_inode_large, field) + 4)

/* The on-disk extra word: nanoseconds << 2 | epoch bits 32..33. */
static uint32_t time_extra(int64_t sec, uint32_t ns)
{
	return (ns << 2) | (uint32_t)(((uint64_t)(sec - (int32_t)sec) >> 32) &
				      3);
}

static void set_times(ext2_filsys fs, struct ext2_inode_large *in,
		      const struct e2x_pop_stat *st)
{
	in->i_atime = (uint32_t)st->atime;
	in->i_mtime = (uint32_t)st->mtime;
	in->i_ctime = (uint32_t)st->ctime;
	if (has_extra(fs, in, EXTRA_END(i_atime_extra))) {
		in->i_atime_extra = time_extra(st->atime, st->atime_ns);
		in->i_mtime_extra = time_extra(st->mtime, st->mtime_ns);
		in->i_ctime_extra = time_extra(st->ctime, st->ctime_ns);
	}
	if ((st->have & E2X_POP_HAVE_CRTIME) &&
	    has_extra(fs, in, EXTRA_END(i_crtime_extra))) {
		in->i_crtime = (uint32_t)st->crtime;
		in->i_crtime_extra = time_extra(st->crtime, st->crtime_ns);
	}
}

/* Owner, permissions, times, chattr flags and project of ST into IN. */
static void apply_stat(ext2_filsys fs, struct ext2_inode_large *in,
		       const struct e2x_pop_stat *st, int keep_owner)
{
	in->i_mode = (uint16_t)((in->i_mode & LINUX_S_IFMT) |
				(st->mode & 07777));
	if (!keep_owner) {
		in->i_uid = (uint16_t)st->uid;
		in->osd2.linux2.l_i_uid_high = (uint16_t)(st->uid >> 16);
		in->i_gid = (uint16_t)st->gid;
		in->osd2.linux2.l_i_gid_high = (uint16_t)(st->gid >> 16);
	}
	set_times(fs, in, st);
	if (st->have & E2X_POP_HAVE_FLAGS)
		in->i_flags |= st->flags & POP_USER_FLAGS;
	if ((st->have & E2X_POP_HAVE_PROJID) && st->projid &&
	    ext2fs_has_feature_project(fs->super) &&
	    has_extra(fs, in, EXTRA_END(i_projid)))
		in->i_projid = st->projid;
}

/* The source's attributes, gathered before the target is touched. */
struct xa_list {
	char **names;
	void **values;
	size_t *lens;
	size_t n, cap;
};

static errcode_t gather_xattr(const char *name, const void *value,
			      size_t len, void *priv)
{
	struct xa_list *l = priv;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		char **nn = realloc(l->names, cap * sizeof(*nn));
		void **nv;
		size_t *nl;

		if (!nn)
			return EXT2_ET_NO_MEMORY;
		l->names = nn;
		nv = realloc(l->values, cap * sizeof(*nv));
		if (!nv)
			return EXT2_ET_NO_MEMORY;
		l->values = nv;
		nl = realloc(l->lens, cap * sizeof(*nl));
		if (!nl)
			return EXT2_ET_NO_MEMORY;
		l->lens = nl;
		l->cap = cap;
	}
	l->names[l->n] = strdup(name);
	l->values[l->n] = malloc(len ? len : 1);
	if (!l->names[l->n] || !l->values[l->n]) {
		free(l->names[l->n]);
		free(l->values[l->n]);
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(l->values[l->n], value, len);
	l->lens[l->n] = len;
	l->n++;
	return 0;
}

static void xa_list_free(struct xa_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->names[i]);
		free(l->values[i]);
	}
	free(l->names);
	free(l->values);
	free(l->lens);
}

/* Extended attributes through libext2fs, which places them in the inode
 * or a block, keeps system.data (inline content) in the inode and stores
 * POSIX ACLs in the ext4 layout.  The inode is on disk already; nothing
 * is opened when the source has no attributes. */
static errcode_t copy_xattrs(struct pop_ctx *c, void *dir,
			     struct e2x_pop_entry *e, void *handle,
			     ext2_ino_t ino)
{
	struct ext2_xattr_handle *h = NULL;
	struct xa_list l;
	errcode_t err;
	size_t i;

	if (!c->src->ops->xattrs || !ext2fs_has_feature_xattr(c->fs->super))
		return 0;
	memset(&l, 0, sizeof(l));
	err = c->src->ops->xattrs(c->src->priv, dir, e, handle, gather_xattr,
				  &l);
	if (err || !l.n)
		goto out;
	err = ext2fs_xattrs_open(c->fs, ino, &h);
	if (err)
		goto out;
	err = ext2fs_xattrs_read(h);
	for (i = 0; i < l.n && !err; i++)
		err = ext2fs_xattr_set(h, l.names[i], l.values[i], l.lens[i]);
	if (!err)
		c->sum->xattrs += l.n;
	ext2fs_xattrs_close(&h);
out:
	xa_list_free(&l);
	return err;
}

/* ---- regular files ------------------------------------------------------ */

static void note_inlined(struct pop_ctx *c, uint64_t size)
{
	uint64_t unit = (uint64_t)c->fs->blocksize *
			EXT2FS_CLUSTER_RATIO(c->fs);

	c->sum->inlined++;
	c->sum->inline_saved += (size + unit - 1) / unit * unit;
}

/* LEN bytes at OFF of a file of SIZE bytes: zeros past SIZE or past the
 * source's end (no read asks for what the size says is not there). */
static errcode_t read_full(struct pop_ctx *c, void *f, uint64_t off,
			   char *buf, size_t len, uint64_t size)
{
	size_t done = 0, got, want = off >= size ? 0 :
				      size - off < len ? size - off : len;
	errcode_t err;

	while (done < want) {
		err = c->src->ops->read(c->src->priv, f, off + done,
					buf + done, want - done, &got);
		if (err)
			return err;
		if (!got)
			break;
		done += got;
	}
	memset(buf + done, 0, len - done);
	return 0;
}

/* Copy the data ranges of an extent-mapped file; holes stay holes. */
static errcode_t copy_extents(struct pop_ctx *c, void *f, ext2_ino_t ino,
			      uint64_t size)
{
	uint64_t bs = c->fs->blocksize, off = 0, start, end;
	errcode_t err;

	while (off < size) {
		err = c->src->ops->next_data(c->src->priv, f, off, &start,
					     &end);
		if (err)
			return err;
		if (start >= end || start >= size)
			break;
		if (end > size)
			end = size;
		start -= start % bs;
		end = (end + bs - 1) / bs * bs;
		while (start < end) {
			size_t len = end - start > POP_CHUNK ? POP_CHUNK :
							       end - start;

			err = read_full(c, f, start, c->buf, len, size);
			if (!err)
				err = e2x_file_write_new_blocks(c->fs, ino,
						c->inode, start / bs, c->buf,
						len / bs);
			if (err)
				return err;
			start += len;
		}
		off = end;
	}
	return 0;
}

/* Without the extents feature: libext2fs's file API maps the blocks. */
static errcode_t copy_mapped(struct pop_ctx *c, void *f, ext2_ino_t ino,
			     uint64_t size)
{
	uint64_t off = 0, start, end;
	ext2_file_t ef = NULL;
	unsigned int wrote;
	errcode_t err, err2;

	err = ext2fs_write_inode_full(c->fs, ino, (void *)c->inode,
				      EXT2_INODE_SIZE(c->fs->super));
	if (!err)
		err = ext2fs_file_open2(c->fs, ino, (void *)c->inode,
					EXT2_FILE_WRITE, &ef);
	while (!err && off < size) {
		err = c->src->ops->next_data(c->src->priv, f, off, &start,
					     &end);
		if (err || start >= end || start >= size)
			break;
		if (end > size)
			end = size;
		while (!err && start < end) {
			size_t len = end - start > POP_CHUNK ? POP_CHUNK :
							       end - start;

			err = read_full(c, f, start, c->buf, len, size);
			if (!err)
				err = ext2fs_file_llseek(ef, start,
							 EXT2_SEEK_SET, NULL);
			if (!err)
				err = ext2fs_file_write(ef, c->buf, len,
							&wrote);
			start += len;
		}
		off = end;
	}
	if (!err)
		err = ext2fs_file_set_size2(ef, size);
	if (ef) {
		err2 = ext2fs_file_close(ef);
		if (!err)
			err = err2;
	}
	if (!err)
		err = ext2fs_read_inode_full(c->fs, ino, (void *)c->inode,
					     EXT2_INODE_SIZE(c->fs->super));
	return err;
}

/* Content of a new regular file into c->inode (in memory, blocks on
 * disk): inline when it fits, else blocks. */
static errcode_t copy_content(struct pop_ctx *c, void *f, ext2_ino_t ino,
			      uint64_t size)
{
	ext2_filsys fs = c->fs;
	size_t cap;
	errcode_t err;

	if (e2x_inode_has_inline(c->inode) &&
	    !e2x_inline_capacity(fs, ino, c->inode, &cap) && size <= cap) {
		err = read_full(c, f, 0, c->buf, size, size);
		if (!err)
			err = e2x_inline_set(fs, ino, c->inode, c->buf, size);
		if (!err && size)
			note_inlined(c, size);
		return err;
	}
	err = e2x_inline_clear(fs, ino, c->inode);
	if (err || !size)
		return err;
	if (!ext2fs_has_feature_extents(fs->super))
		return copy_mapped(c, f, ino, size);
	if (!(c->inode->i_flags & EXT4_EXTENTS_FL)) {
		err = e2x_extent_root_init(fs, c->inode);
		if (err)
			return err;
	}
	return copy_extents(c, f, ino, size);
}

/* Phase 1: the inode of a regular file, empty, so that it can be linked
 * before any data block is taken (the directory's blocks stay together). */
static errcode_t create_file(struct pop_ctx *c, struct e2x_pop_entry *e,
			     ext2_ino_t parent, ext2_ino_t *ino)
{
	errcode_t err;

	err = e2x_inode_new(c->fs, parent, (uint16_t)e->st.mode, c->inode,
			    ino);
	if (!err)
		err = ext2fs_write_inode_full(c->fs, *ino, (void *)c->inode,
					      EXT2_INODE_SIZE(c->fs->super));
	return err;
}

/* Phase 2: content, attributes, one i_version bump. */
static errcode_t fill_file(struct pop_ctx *c, void *dir,
			   struct e2x_pop_entry *e, ext2_ino_t ino)
{
	ext2_filsys fs = c->fs;
	void *f = NULL;
	errcode_t err;

	err = c->src->ops->open_file(c->src->priv, dir, e, &f);
	if (err)
		return err;
	err = ext2fs_read_inode_full(fs, ino, (void *)c->inode,
				     EXT2_INODE_SIZE(fs->super));
	if (!err)
		err = copy_content(c, f, ino, e->st.size);
	if (!err)
		err = ext2fs_inode_size_set(fs, (struct ext2_inode *)c->inode,
					    e->st.size);
	if (err)
		goto out;
	apply_stat(fs, c->inode, &e->st, 0);
	err = e2x_write_inode(fs, ino, c->inode);
	if (!err)
		err = copy_xattrs(c, dir, e, f, ino);
	c->sum->files++;
	c->sum->bytes += e->st.size;
out:
	c->src->ops->close_file(c->src->priv, f);
	return err;
}

/* ---- other kinds --------------------------------------------------------- */

static errcode_t make_symlink(struct pop_ctx *c, void *dir,
			      struct e2x_pop_entry *e, ext2_ino_t parent,
			      ext2_ino_t *ino)
{
	ext2_filsys fs = c->fs;
	size_t len;
	errcode_t err;

	err = c->src->ops->readlink(c->src->priv, dir, e, c->buf, POP_CHUNK,
				    &len);
	if (err)
		return err;
	if (len >= fs->blocksize || len == 0)
		return EXT2_ET_INVALID_ARGUMENT;
	err = e2x_inode_new(fs, parent, (uint16_t)e->st.mode, c->inode, ino);
	if (err)
		return err;
	err = ext2fs_write_inode_full(fs, *ino, (void *)c->inode,
				      EXT2_INODE_SIZE(fs->super));
	if (!err)
		err = e2x_symlink_write(fs, *ino, c->buf, len, 0);
	if (!err)
		err = ext2fs_read_inode_full(fs, *ino, (void *)c->inode,
					     EXT2_INODE_SIZE(fs->super));
	if (err)
		return err;
	if (e2x_inode_has_inline(c->inode))
		note_inlined(c, len);
	apply_stat(fs, c->inode, &e->st, 0);
	err = ext2fs_write_inode_full(fs, *ino, (void *)c->inode,
				      EXT2_INODE_SIZE(fs->super));
	if (!err)
		err = copy_xattrs(c, dir, e, NULL, *ino);
	c->sum->symlinks++;
	return err;
}

/* Device numbers in i_block as the kernel stores them: the old 8:8 form
 * when both fit, else the new form in i_block[1]. */
static void set_rdev(struct ext2_inode_large *in, uint32_t major,
		     uint32_t minor)
{
	memset(in->i_block, 0, sizeof(in->i_block));
	if (major < 256 && minor < 256)
		in->i_block[0] = ext2fs_cpu_to_le32(major << 8 | minor);
	else
		in->i_block[1] = ext2fs_cpu_to_le32((minor & 0xff) |
						    (major << 8) |
						    ((minor & ~0xffU) << 12));
}

static errcode_t make_special(struct pop_ctx *c, void *dir,
			      struct e2x_pop_entry *e, ext2_ino_t parent,
			      ext2_ino_t *ino)
{
	ext2_filsys fs = c->fs;
	errcode_t err;

	err = e2x_inode_new(fs, parent, (uint16_t)e->st.mode, c->inode, ino);
	if (err)
		return err;
	c->inode->i_flags &= ~(EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL);
	if (LINUX_S_ISCHR(e->st.mode) || LINUX_S_ISBLK(e->st.mode))
		set_rdev(c->inode, e->st.rdev_major, e->st.rdev_minor);
	apply_stat(fs, c->inode, &e->st, 0);
	err = e2x_write_inode(fs, *ino, c->inode);
	if (!err)
		err = copy_xattrs(c, dir, e, NULL, *ino);
	c->sum->specials++;
	return err;
}

/* ---- directories ---------------------------------------------------------- */

/* Attributes of a finished directory (its link and size are the dir
 * engine's); the engine bumped i_version already when it added entries. */
static errcode_t finish_dir(struct pop_ctx *c, void *dir,
			    struct e2x_pop_entry *e,
			    const struct e2x_pop_stat *st, ext2_ino_t ino,
			    int keep_owner)
{
	ext2_filsys fs = c->fs;
	enum e2x_dir_form form;
	errcode_t err;

	err = ext2fs_read_inode_full(fs, ino, (void *)c->inode,
				     EXT2_INODE_SIZE(fs->super));
	if (err)
		return err;
	apply_stat(fs, c->inode, st, keep_owner);
	err = ext2fs_write_inode_full(fs, ino, (void *)c->inode,
				      EXT2_INODE_SIZE(fs->super));
	if (!err && !e2x_dir_form(fs, ino, &form) &&
	    form == E2X_DIR_FORM_INLINE)
		note_inlined(c, fs->blocksize);
	if (!err)
		err = copy_xattrs(c, NULL, e, dir, ino);
	return err;
}

static void progress(struct pop_ctx *c, int force)
{
	if (!c->opts || !c->opts->progress)
		return;
	if (!force && c->sum->entries < c->next_report)
		return;
	c->next_report = c->sum->entries + 512;
	/* the end is 100% even when the total was an estimate */
	c->opts->progress(c->sum->entries, force ? c->sum->entries :
			  c->opts->total, c->opts->progress_priv);
}

static errcode_t copy_dir(struct pop_ctx *c, void *dir, ext2_ino_t tdir,
			  int is_root);

/* One more name for an inode made earlier: its link count grows, its
 * ctime stays the source's (the entry itself comes with the batch). */
static errcode_t link_again(struct pop_ctx *c, ext2_ino_t ino)
{
	ext2_filsys fs = c->fs;
	errcode_t err;

	err = ext2fs_read_inode_full(fs, ino, (void *)c->inode,
				     EXT2_INODE_SIZE(fs->super));
	if (err)
		return err;
	if (c->inode->i_links_count >= EXT2_LINK_MAX)
		return E2X_ERR_NO_SPACE;
	c->inode->i_links_count++;
	return e2x_write_inode(fs, ino, c->inode);
}

/* One entry that is not a directory (or a hard link to one seen): its
 * inode now, its name into NEW (added with the whole level at once).
 * *FILL_INO is set for a regular file whose content is still to come. */
static errcode_t copy_leaf(struct pop_ctx *c, void *dir,
			   struct e2x_pop_entry *e, ext2_ino_t tdir,
			   struct e2x_dir_new *new, ext2_ino_t *fill_ino)
{
	uint64_t *seen = NULL;
	ext2_ino_t ino = 0;
	errcode_t err;

	new->name = e->name;
	new->name_len = e->name_len;
	new->file_type = e2x_ftype_of_mode(e->st.mode);
	if (e->st.nlink > 1)
		seen = u64map_find(&c->links, e->st.id);
	if (seen) {
		c->sum->hardlinks++;
		new->ino = (ext2_ino_t)*seen;
		return link_again(c, new->ino);
	}
	switch (e->st.mode & LINUX_S_IFMT) {
	case LINUX_S_IFREG:
		err = create_file(c, e, tdir, &ino);
		if (!err)
			*fill_ino = ino;
		break;
	case LINUX_S_IFLNK:
		err = make_symlink(c, dir, e, tdir, &ino);
		break;
	case LINUX_S_IFCHR:
	case LINUX_S_IFBLK:
	case LINUX_S_IFIFO:
	case LINUX_S_IFSOCK:
		err = make_special(c, dir, e, tdir, &ino);
		break;
	default:
		return EXT2_ET_INVALID_ARGUMENT;
	}
	new->ino = ino;
	if (!err && e->st.nlink > 1)
		err = u64map_put(&c->links, e->st.id, ino);
	return err;
}

/* A subdirectory: made now, filled once the whole level is created.  An
 * existing directory of the name (lost+found in the root) is reused. */
static errcode_t make_subdir(struct pop_ctx *c, struct e2x_pop_entry *e,
			     ext2_ino_t tdir, int is_root, ext2_ino_t *ino)
{
	unsigned int ft;
	errcode_t err;

	if (is_root) {
		err = e2x_dir_lookup(c->fs, tdir, e->name, e->name_len, ino,
				     &ft);
		if (!err && ft == EXT2_FT_DIR)
			return 0;
		if (err != E2X_ERR_NOT_FOUND)
			return err ? err : E2X_ERR_EXISTS;
	}
	c->sum->dirs++;
	return e2x_dir_mkdir(c->fs, tdir, e->name, e->name_len,
			     e->st.mode & 07777, 0, ino);
}

static errcode_t enter_subdir(struct pop_ctx *c, void *dir,
			      struct e2x_pop_entry *e, ext2_ino_t ino)
{
	void *sub = NULL;
	errcode_t err;

	err = c->src->ops->open_dir(c->src->priv, dir, e, &sub);
	if (err)
		return err;
	err = copy_dir(c, sub, ino, 0);
	if (!err)
		err = finish_dir(c, sub, e, &e->st, ino, 0);
	c->src->ops->close_dir(c->src->priv, sub);
	return err;
}

static void free_list(struct e2x_pop_entry *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* A directory that grew past one block is rebuilt with full leaves: it
 * will mostly be read, and full leaves are what a linear directory of
 * the same entries would take. */
static errcode_t pack_dir(struct pop_ctx *c, ext2_ino_t tdir)
{
	enum e2x_dir_form form;
	errcode_t err;

	err = e2x_dir_form(c->fs, tdir, &form);
	if (err || form != E2X_DIR_FORM_HTREE)
		return err;
	return e2x_dir_build_htree(c->fs, tdir, E2X_DIR_BUILD_FULL);
}

/* Phase 1: every entry of the level (inodes adjacent, the names added
 * at once, directory blocks together); phase 2: file content; phase 3:
 * each subdirectory. */
static errcode_t copy_dir(struct pop_ctx *c, void *dir, ext2_ino_t tdir,
			  int is_root)
{
	struct e2x_pop_entry *v = NULL;
	struct e2x_dir_new *nv = NULL;
	ext2_ino_t *dino = NULL, *fino = NULL;
	size_t n = 0, nn = 0, i, saved;
	errcode_t err;

	err = failed_at(c, c->src->ops->list(c->src->priv, dir, &v, &n));
	if (err)
		return err;
	dino = calloc(n ? n : 1, sizeof(*dino));
	fino = calloc(n ? n : 1, sizeof(*fino));
	nv = calloc(n ? n : 1, sizeof(*nv));
	if (!dino || !fino || !nv) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		err = path_push(c, v[i].name, v[i].name_len, &saved);
		if (err)
			break;
		if (v[i].name_len > E2X_NAME_MAX)
			err = E2X_ERR_NAME_TOO_LONG;
		else if (LINUX_S_ISDIR(v[i].st.mode))
			err = make_subdir(c, &v[i], tdir, is_root, &dino[i]);
		else
			err = copy_leaf(c, dir, &v[i], tdir, &nv[nn++],
					&fino[i]);
		failed_at(c, err);
		path_pop(c, saved);
	}
	if (!err && nn)
		err = failed_at(c, e2x_dir_add_many(c->fs, tdir, nv, nn,
						    E2X_DIR_BUILD_FULL));
	else if (!err)
		err = failed_at(c, pack_dir(c, tdir));
	for (i = 0; i < n && !err; i++) {
		c->sum->entries++;
		progress(c, 0);
		if (!fino[i])
			continue;
		err = path_push(c, v[i].name, v[i].name_len, &saved);
		if (err)
			break;
		err = failed_at(c, fill_file(c, dir, &v[i], fino[i]));
		path_pop(c, saved);
	}
	for (i = 0; i < n && !err; i++) {
		if (!dino[i])
			continue;
		err = path_push(c, v[i].name, v[i].name_len, &saved);
		if (err)
			break;
		err = failed_at(c, enter_subdir(c, dir, &v[i], dino[i]));
		path_pop(c, saved);
	}
out:
	free(nv);
	free(dino);
	free(fino);
	free_list(v, n);
	return err;
}

errcode_t e2x_populate(ext2_filsys fs, ext2_ino_t root,
		       struct e2x_pop_source *src,
		       const struct e2x_pop_opts *opts,
		       struct e2x_pop_summary *sum)
{
	struct pop_ctx c;
	struct e2x_pop_stat rst;
	void *rdir = NULL;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(sum, 0, sizeof(*sum));
	memset(&c, 0, sizeof(c));
	memset(&rst, 0, sizeof(rst));
	c.fs = fs;
	c.src = src;
	c.opts = opts;
	c.sum = sum;
	u64map_init(&c.links);
	c.inode = calloc(1, EXT2_INODE_SIZE(fs->super) <
			 sizeof(struct ext2_inode_large) ?
			 sizeof(struct ext2_inode_large) :
			 EXT2_INODE_SIZE(fs->super));
	c.buf = malloc(POP_CHUNK);
	if (!c.inode || !c.buf) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	if (!fs->inode_map || !fs->block_map) {
		err = ext2fs_read_bitmaps(fs);
		if (err)
			goto out;
	}
	if (ext2fs_has_feature_project(fs->super))
		src->want |= E2X_POP_WANT_PROJID;
	err = failed_at(&c, src->ops->root(src->priv, &rdir, &rst));
	if (err)
		goto out;
	err = copy_dir(&c, rdir, root, 1);
	if (!err)
		err = failed_at(&c, finish_dir(&c, rdir, NULL, &rst, root,
				opts && (opts->flags &
					 E2X_POP_KEEP_ROOT_OWNER)));
	if (!err)
		progress(&c, 1);
out:
	if (rdir)
		src->ops->close_dir(src->priv, rdir);
	u64map_free(&c.links);
	free(c.inode);
	free(c.buf);
	free(c.path);
	return err;
}

void e2x_pop_summary_free(struct e2x_pop_summary *sum)
{
	free(sum->fail_path);
	sum->fail_path = NULL;
}

errcode_t e2x_pop_source_open(const char *path, int flags,
			      struct e2x_pop_source **out, char *why,
			      size_t whylen)
{
	struct e2x_pop_source *src;
	struct stat st;
	errcode_t err;

	(void)flags;
	*out = NULL;
	if (stat(path, &st)) {
		snprintf(why, whylen, "cannot read source %s: %s", path,
			 strerror(errno));
		return errno;
	}
	src = calloc(1, sizeof(*src));
	if (!src)
		return EXT2_ET_NO_MEMORY;
	if (S_ISDIR(st.st_mode))
		err = e2x_pop_dirsrc_open(path, src, why, whylen);
	else if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		err = e2x_pop_imgsrc_open(path, src, why, whylen);
	else {
		snprintf(why, whylen, "source %s is neither a directory nor "
			 "an ext2/3/4 image or block device", path);
		err = EXT2_ET_INVALID_ARGUMENT;
	}
	if (err) {
		free(src);
		return err;
	}
	*out = src;
	return 0;
}

void e2x_pop_source_close(struct e2x_pop_source *src)
{
	if (!src)
		return;
	if (src->ops && src->ops->close)
		src->ops->close(src->priv);
	free(src);
}
