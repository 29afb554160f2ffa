/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * populate_dirsrc.c --- a directory tree as a populate source: entries
 * read with getdents and statx relative to open directory descriptors
 * (no path length limit), data ranges by SEEK_DATA/SEEK_HOLE, chattr
 * flags and project ids by ioctl, extended attributes by listxattr.
 */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include "e2x.h"
#include "e2x-populate.h"

struct dirsrc {
	char *path;
	dev_t root_dev;
	struct e2x_pop_source *src;	/* for src->want */
};

/* A directory handle is its descriptor; a file handle too. */
struct dfile {
	int fd;
	int dense;	/* no holes: data ranges need no lseek */
};

static errcode_t errno_code(void)
{
	return errno ? (errcode_t)errno : EIO;
}

static void fill_stat(struct dirsrc *ds, const struct statx *sx,
		      struct e2x_pop_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->mode = sx->stx_mode;
	st->uid = sx->stx_uid;
	st->gid = sx->stx_gid;
	st->nlink = sx->stx_nlink;
	st->size = sx->stx_size;
	st->rdev_major = sx->stx_rdev_major;
	st->rdev_minor = sx->stx_rdev_minor;
	st->atime = sx->stx_atime.tv_sec;
	st->atime_ns = sx->stx_atime.tv_nsec;
	st->mtime = sx->stx_mtime.tv_sec;
	st->mtime_ns = sx->stx_mtime.tv_nsec;
	st->ctime = sx->stx_ctime.tv_sec;
	st->ctime_ns = sx->stx_ctime.tv_nsec;
	if (sx->stx_mask & STATX_BTIME) {
		st->crtime = sx->stx_btime.tv_sec;
		st->crtime_ns = sx->stx_btime.tv_nsec;
		st->have |= E2X_POP_HAVE_CRTIME;
	}
	st->id = sx->stx_ino;
	st->alloc_bytes = sx->stx_blocks * 512;
	st->have |= E2X_POP_HAVE_ALLOC;
	if (makedev(sx->stx_dev_major, sx->stx_dev_minor) != ds->root_dev)
		st->id ^= ((uint64_t)sx->stx_dev_major << 52) ^
			  ((uint64_t)sx->stx_dev_minor << 40);
}

/* chattr flags and (when wanted) project id of an open file or
 * directory. */
static void fill_attrs(int fd, struct e2x_pop_stat *st, int projid)
{
	struct fsxattr fsx;
	int fl;

	if (ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0) {
		st->flags = (uint32_t)fl;
		st->have |= E2X_POP_HAVE_FLAGS;
	}
	if (projid && ioctl(fd, FS_IOC_FSGETXATTR, &fsx) == 0) {
		st->projid = fsx.fsx_projid;
		st->have |= E2X_POP_HAVE_PROJID;
	}
}

static errcode_t ds_root(void *s, void **dir, struct e2x_pop_stat *st)
{
	struct dirsrc *ds = s;
	struct dfile *d;
	struct statx sx;

	d = calloc(1, sizeof(*d));
	if (!d)
		return EXT2_ET_NO_MEMORY;
	d->fd = open(ds->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0 || statx(d->fd, "", AT_EMPTY_PATH,
			       STATX_BASIC_STATS | STATX_BTIME, &sx)) {
		errcode_t err = errno_code();

		if (d->fd >= 0)
			close(d->fd);
		free(d);
		return err;
	}
	ds->root_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	fill_stat(ds, &sx, st);
	fill_attrs(d->fd, st, ds->src->want & E2X_POP_WANT_PROJID);
	*dir = d;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct e2x_pop_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static errcode_t ds_list(void *s, void *dir, struct e2x_pop_entry **out,
			 size_t *nout)
{
	struct dirsrc *ds = s;
	struct dfile *d = dir;
	struct e2x_pop_entry *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	struct statx sx;
	errcode_t err = 0;
	DIR *dp;
	int fd;

	fd = dup(d->fd);
	if (fd < 0)
		return errno_code();
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return errno_code();
	}
	rewinddir(dp);
	errno = 0;
	while ((de = readdir(dp))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				err = EXT2_ET_NO_MEMORY;
				goto out;
			}
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].name = strdup(de->d_name);
		if (!v[n].name) {
			err = EXT2_ET_NO_MEMORY;
			goto out;
		}
		v[n].name_len = strlen(de->d_name);
		n++;
		errno = 0;
	}
	if (errno) {
		err = errno_code();
		goto out;
	}
	/* Sorted, so that the copy is the same from run to run. */
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	for (i = 0; i < n; i++) {
		if (statx(d->fd, v[i].name, AT_SYMLINK_NOFOLLOW,
			  STATX_BASIC_STATS | STATX_BTIME, &sx)) {
			err = errno_code();
			goto out;
		}
		fill_stat(ds, &sx, &v[i].st);
	}
out:
	closedir(dp);
	if (err) {
		for (i = 0; i < n; i++)
			free(v[i].name);
		free(v);
		return err;
	}
	*out = v;
	*nout = n;
	return 0;
}

static errcode_t ds_open_at(struct dirsrc *ds, struct dfile *d,
			    struct e2x_pop_entry *e, int flags, void **out)
{
	struct dfile *f = calloc(1, sizeof(*f));

	if (!f)
		return EXT2_ET_NO_MEMORY;
	f->fd = openat(d->fd, e->name, flags | O_RDONLY | O_NOFOLLOW |
		       O_CLOEXEC | O_NOATIME);
	if (f->fd < 0 && errno == EPERM)
		f->fd = openat(d->fd, e->name, flags | O_RDONLY | O_NOFOLLOW |
			       O_CLOEXEC);
	if (f->fd < 0) {
		errcode_t err = errno_code();

		free(f);
		return err;
	}
	fill_attrs(f->fd, &e->st, ds->src->want & E2X_POP_WANT_PROJID);
	f->dense = e->st.alloc_bytes >= e->st.size;
	*out = f;
	return 0;
}

static errcode_t ds_open_dir(void *s, void *dir, struct e2x_pop_entry *e,
			     void **sub)
{
	return ds_open_at(s, dir, e, O_DIRECTORY, sub);
}

static void ds_close(void *s, void *h)
{
	struct dfile *f = h;

	(void)s;
	if (!f)
		return;
	close(f->fd);
	free(f);
}

static errcode_t ds_open_file(void *s, void *dir, struct e2x_pop_entry *e,
			      void **f)
{
	return ds_open_at(s, dir, e, O_NONBLOCK, f);
}

static errcode_t ds_next_data(void *s, void *fh, uint64_t off,
			      uint64_t *start, uint64_t *end)
{
	struct dfile *f = fh;
	off_t a, b;

	(void)s;
	if (f->dense) {
		*start = off;
		*end = UINT64_MAX;
		return 0;
	}
	a = lseek(f->fd, (off_t)off, SEEK_DATA);
	if (a < 0) {
		if (errno == ENXIO) {
			*start = *end = off;
			return 0;
		}
		if (errno == EINVAL || errno == EOPNOTSUPP) {
			*start = off;	/* no hole information: all data */
			*end = UINT64_MAX;
			return 0;
		}
		return errno_code();
	}
	b = lseek(f->fd, a, SEEK_HOLE);
	if (b < 0)
		return errno_code();
	*start = (uint64_t)a;
	*end = (uint64_t)b;
	return 0;
}

static errcode_t ds_read(void *s, void *fh, uint64_t off, void *buf,
			 size_t len, size_t *got)
{
	struct dfile *f = fh;
	ssize_t r;

	(void)s;
	do {
		r = pread(f->fd, buf, len, (off_t)off);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno_code();
	*got = (size_t)r;
	return 0;
}

static errcode_t ds_readlink(void *s, void *dir, struct e2x_pop_entry *e,
			     char *buf, size_t size, size_t *len)
{
	struct dfile *d = dir;
	ssize_t r;

	(void)s;
	r = readlinkat(d->fd, e->name, buf, size);
	if (r < 0)
		return errno_code();
	if ((size_t)r >= size)
		return E2X_ERR_NAME_TOO_LONG;
	*len = (size_t)r;
	return 0;
}

/* listxattr/getxattr on an open descriptor, or through /proc for kinds
 * that cannot be opened (symlinks, devices, FIFOs, sockets). */
static ssize_t x_list(int fd, const char *path, char *buf, size_t size)
{
	return fd >= 0 ? flistxattr(fd, buf, size) : llistxattr(path, buf,
								  size);
}

static ssize_t x_get(int fd, const char *path, const char *name, void *buf,
		     size_t size)
{
	return fd >= 0 ? fgetxattr(fd, name, buf, size) :
			 lgetxattr(path, name, buf, size);
}

static errcode_t ds_xattrs(void *s, void *dir, struct e2x_pop_entry *e,
			   void *handle, e2x_pop_xattr_fn fn, void *priv)
{
	struct dfile *d = dir, *h = handle;
	char *names = NULL, *val = NULL, *p, *path = NULL;
	ssize_t nl, vl;
	errcode_t err = 0;
	int fd = h ? h->fd : (e ? -1 : d->fd);

	(void)s;
	if (fd < 0) {
		size_t plen = strlen(e->name) + 40;

		path = malloc(plen);
		if (!path)
			return EXT2_ET_NO_MEMORY;
		snprintf(path, plen, "/proc/self/fd/%d/%s", d->fd, e->name);
	}
	nl = x_list(fd, path, NULL, 0);
	if (nl <= 0) {
		if (nl < 0 && errno != ENOTSUP && errno != EPERM)
			err = errno_code();
		goto out;
	}
	names = malloc(nl);
	val = malloc(65536);
	if (!names || !val) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	nl = x_list(fd, path, names, nl);
	if (nl < 0) {
		err = errno_code();
		goto out;
	}
	for (p = names; p < names + nl && !err; p += strlen(p) + 1) {
		vl = x_get(fd, path, p, val, 65536);
		if (vl < 0) {
			err = errno_code();
			break;
		}
		err = fn(p, val, (size_t)vl, priv);
	}
out:
	free(path);
	free(names);
	free(val);
	return err;
}

/* Walk counting entries (progress); ENOENT races are not errors. */
static uint64_t count_dir(int fd, uint64_t *bytes)
{
	struct dirent *de;
	struct stat st;
	uint64_t n = 0;
	DIR *dp = fdopendir(fd);

	if (!dp) {
		close(fd);
		return 0;
	}
	while ((de = readdir(dp))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		if (bytes && de->d_type != DT_DIR &&
		    !fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			*bytes += (uint64_t)st.st_blocks * 512;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		sub = openat(dirfd(dp), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			n += count_dir(sub, bytes);
	}
	closedir(dp);
	return n;
}

static errcode_t ds_count(void *s, uint64_t *n, uint64_t *bytes)
{
	struct dirsrc *ds = s;
	int fd = open(ds->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return errno_code();
	if (bytes)
		*bytes = 0;
	*n = count_dir(fd, bytes);
	return 0;
}

static void ds_free(void *s)
{
	struct dirsrc *ds = s;

	free(ds->path);
	free(ds);
}

static const struct e2x_pop_source_ops dirsrc_ops = {
	.root = ds_root,
	.list = ds_list,
	.open_dir = ds_open_dir,
	.close_dir = ds_close,
	.open_file = ds_open_file,
	.next_data = ds_next_data,
	.read = ds_read,
	.close_file = ds_close,
	.readlink = ds_readlink,
	.xattrs = ds_xattrs,
	.count = ds_count,
	.close = ds_free,
};

/* Deep trees keep one descriptor per level open: raise the soft limit. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

errcode_t e2x_pop_dirsrc_open(const char *path, struct e2x_pop_source *src,
			      char *why, size_t whylen)
{
	struct dirsrc *ds;

	if (access(path, R_OK | X_OK)) {
		snprintf(why, whylen, "cannot read source directory %s: %s",
			 path, strerror(errno));
		return errno_code();
	}
	ds = calloc(1, sizeof(*ds));
	if (!ds)
		return EXT2_ET_NO_MEMORY;
	ds->path = strdup(path);
	if (!ds->path) {
		free(ds);
		return EXT2_ET_NO_MEMORY;
	}
	raise_fd_limit();
	ds->src = src;
	src->ops = &dirsrc_ops;
	src->priv = ds;
	src->kind = "directory";
	return 0;
}
