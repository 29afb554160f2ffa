/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump_cmds.c --- copying file contents out of the image: cat, dump (-p
 * keeps owner, mode and times) and rdump (whole trees, symlinks and
 * special files included).  Contents are read through libe2x, so inline
 * files read the same as block-mapped ones.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include "debugfs.h"

#define RDUMP_MAX_DEPTH	256

/* Where copied bytes go: a stream (cat: holes written as zeros, in
 * order) or a descriptor (dump: pwrite, holes stay holes). */
struct sink {
	FILE *f;
	int fd;
	uint64_t pos;		/* stream: bytes written so far */
	uint64_t size;		/* i_size: nothing goes past it */
};

static errcode_t sink_zeros(struct sink *s, uint64_t upto)
{
	static const char zeros[4096];

	if (!s->f)
		return 0;
	while (s->pos < upto) {
		size_t n = upto - s->pos < sizeof(zeros) ? upto - s->pos :
							   sizeof(zeros);

		if (fwrite(zeros, 1, n, s->f) != n)
			return errno ? errno : EIO;
		s->pos += n;
	}
	return 0;
}

static errcode_t sink_data(struct sink *s, uint64_t off, const char *buf,
			   size_t len)
{
	errcode_t err;

	if (off >= s->size)
		return 0;
	if (len > s->size - off)
		len = s->size - off;
	if (!s->f) {
		size_t done = 0;

		while (done < len) {
			ssize_t w = pwrite(s->fd, buf + done, len - done,
					   off + done);

			if (w < 0)
				return errno;
			done += w;
		}
		return 0;
	}
	if (off < s->pos)	/* out of order (damaged map): skip */
		return 0;
	err = sink_zeros(s, off);
	if (err)
		return err;
	if (fwrite(buf, 1, len, s->f) != len)
		return errno ? errno : EIO;
	s->pos += len;
	return 0;
}

#define RUN_BLOCKS 256

struct range_copy {
	struct sink *s;
	char *buf;
	errcode_t bad;		/* the error for a range off the disk */
};

/* One mapped range (unwritten ones read as zeros: skipped), read in runs
 * of RUN_BLOCKS up to i_size. */
static errcode_t copy_range(ext2_filsys fs, const struct e2x_file_range *r,
			    void *priv)
{
	struct range_copy *rc = priv;
	blk64_t nblocks = ext2fs_blocks_count(fs->super);
	uint64_t i;
	errcode_t err;

	if ((r->flags & E2X_RANGE_UNWRITTEN) ||
	    r->lblk * fs->blocksize >= rc->s->size)
		return 0;
	if (r->pblk >= nblocks || r->len > nblocks - r->pblk)
		return rc->bad;
	for (i = 0; i < r->len; i += RUN_BLOCKS) {
		unsigned int n = r->len - i < RUN_BLOCKS ? r->len - i :
							   RUN_BLOCKS;
		uint64_t off = (r->lblk + i) * fs->blocksize;

		if (off >= rc->s->size)
			break;
		err = io_channel_read_blk64(fs->io, r->pblk + i, n, rc->buf);
		if (!err)
			err = sink_data(rc->s, off, rc->buf,
					(size_t)n * fs->blocksize);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Copy the contents of INO to the stream F or the descriptor FD, visiting
 * only mapped blocks, so the time taken follows the data present, not a
 * (possibly damaged) i_size.  Inline contents come through libe2x.
 */
static errcode_t copy_out(ext2_filsys fs, ext2_ino_t ino, FILE *f, int fd)
{
	struct sink s = { f, fd, 0, 0 };
	struct range_copy rc;
	struct ext2_inode in;
	char *buf = malloc((size_t)RUN_BLOCKS * fs->blocksize);
	errcode_t err;
	size_t got;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	err = ext2fs_read_inode(fs, ino, &in);
	if (err)
		goto out;
	s.size = EXT2_I_SIZE(&in);
	if ((in.i_flags & EXT4_INLINE_DATA_FL) ||
	    !ext2fs_inode_has_valid_blocks2(fs, &in)) {
		/* inline or fast symlink: a few hundred bytes at most */
		size_t cap = (size_t)RUN_BLOCKS * fs->blocksize;

		err = e2x_file_read(fs, ino, 0, buf, s.size < cap ? s.size :
				    cap, &got);
		if (!err)
			err = sink_data(&s, 0, buf, got);
	} else {
		rc.s = &s;
		rc.buf = buf;
		rc.bad = (in.i_flags & EXT4_EXTENTS_FL) ?
				 EXT2_ET_EXTENT_LEAF_BAD : EXT2_ET_BAD_BLOCK_NUM;
		err = e2x_file_ranges(fs, ino, &in, 0, copy_range, &rc);
	}
	if (err)
		goto out;
	if (f)
		err = sink_zeros(&s, s.size);	/* the trailing hole */
	else if (ftruncate(fd, s.size))
		err = errno;
out:
	free(buf);
	return err;
}

int do_cat(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large in;
	ext2_ino_t ino;
	errcode_t err;

	if (dbg_file_arg(ctx, argc, argv, &ino, &in))
		return 1;
	if (LINUX_S_ISDIR(in.i_mode)) {
		dbg_error(ctx, argv[0], 0, "%s: is a directory", argv[1]);
		return 1;
	}
	fflush(ctx->out);
	err = copy_out(ctx->fs, ino, ctx->out, -1);
	fflush(ctx->out);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		return 1;
	}
	return 0;
}

static void inode_times(ext2_filsys fs, const struct ext2_inode_large *in,
			struct timespec ts[2])
{
	int a = dbg_has_extra(fs, in, DBG_EXTRA_END(i_atime_extra));
	int m = dbg_has_extra(fs, in, DBG_EXTRA_END(i_mtime_extra));
	uint32_t ns;

	ts[0].tv_sec = dbg_decode_time(in->i_atime, in->i_atime_extra, a,
				       &ns);
	ts[0].tv_nsec = ns < 1000000000u ? ns : 0;
	ts[1].tv_sec = dbg_decode_time(in->i_mtime, in->i_mtime_extra, m,
				       &ns);
	ts[1].tv_nsec = ns < 1000000000u ? ns : 0;
}

/* Owner, mode and times of IN onto an open file or a path (symlinks: the
 * link itself, never its target). */
static int set_attrs(ext2_filsys fs, int fd, const char *path,
		     const struct ext2_inode_large *in)
{
	struct timespec ts[2];
	int bad = 0;

	inode_times(fs, in, ts);
	if (fd >= 0) {
		bad |= fchown(fd, inode_uid(*in), inode_gid(*in));
		bad |= fchmod(fd, in->i_mode & 07777);
		bad |= futimens(fd, ts);
		return bad;
	}
	bad |= lchown(path, inode_uid(*in), inode_gid(*in));
	if (!LINUX_S_ISLNK(in->i_mode))
		bad |= chmod(path, in->i_mode & 07777);
	bad |= utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW);
	return bad;
}

/* Write inode INO to the new file PATH; PRESERVE copies owner/mode/time. */
static int dump_file(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t ino,
		     const struct ext2_inode_large *in, const char *path,
		     int preserve)
{
	errcode_t err;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		dbg_error(ctx, cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	err = copy_out(ctx->fs, ino, NULL, fd);
	if (err) {
		dbg_error(ctx, cmd, err, "writing %s", path);
		close(fd);
		return 1;
	}
	if (preserve && set_attrs(ctx->fs, fd, NULL, in))
		dbg_error(ctx, cmd, 0, "%s: could not keep owner, mode or "
			  "times: %s", path, strerror(errno));
	if (close(fd)) {
		dbg_error(ctx, cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

int do_dump(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large in;
	ext2_ino_t ino;
	int c, preserve = 0;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "p")) != -1) {
		if (c != 'p') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		preserve = 1;
	}
	if (optind != argc - 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[optind], &ino) ||
	    dbg_read_inode(ctx, argv[0], ino, &in))
		return 1;
	if (LINUX_S_ISDIR(in.i_mode)) {
		dbg_error(ctx, argv[0], 0, "%s: is a directory (use rdump)",
			  argv[optind]);
		return 1;
	}
	return dump_file(ctx, argv[0], ino, &in, argv[optind + 1], preserve);
}

struct rdump {
	struct dbg_ctx *ctx;
	const char *cmd;
	int errors;
	int depth;
};

static void rdump_inode(struct rdump *r, ext2_ino_t ino, const char *name,
			int name_len, const char *outdir);

static int dump_symlink(struct rdump *r, ext2_ino_t ino,
			const struct ext2_inode_large *in, const char *path)
{
	char target[PATH_MAX + 1];
	size_t len = 0;
	errcode_t err;

	err = e2x_symlink_read(r->ctx->fs, ino, target, PATH_MAX, &len);
	if (!err && len > PATH_MAX)
		err = EXT2_ET_INODE_CORRUPTED;
	if (err) {
		dbg_error(r->ctx, r->cmd, err, "symlink inode %u", ino);
		return 1;
	}
	target[len] = 0;
	if (symlink(target, path)) {
		dbg_error(r->ctx, r->cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int dump_special(struct rdump *r, const struct ext2_inode_large *in,
			const char *path)
{
	uint32_t d0 = in->i_block[0], d1 = in->i_block[1];
	dev_t dev = 0;

	if (LINUX_S_ISCHR(in->i_mode) || LINUX_S_ISBLK(in->i_mode))
		dev = d0 ? makedev((d0 >> 8) & 255, d0 & 255) :
			   makedev((d1 & 0xfff00) >> 8,
				   (d1 & 0xff) | ((d1 >> 12) & 0xfff00));
	if (mknod(path, in->i_mode & (S_IFMT | 07777), dev)) {
		dbg_error(r->ctx, r->cmd, 0, "%s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

struct rdump_dir {
	struct rdump *r;
	const char *outdir;
};

static int rdump_entry(const struct e2x_dir_entry *de, void *priv)
{
	struct rdump_dir *d = priv;

	rdump_inode(d->r, de->ino, de->name, de->name_len, d->outdir);
	return 0;
}

static void rdump_inode(struct rdump *r, ext2_ino_t ino, const char *name,
			int name_len, const char *outdir)
{
	struct ext2_inode_large in;
	struct rdump_dir d;
	char *path = NULL;
	errcode_t err;

	if (!name_len || memchr(name, '/', name_len) ||
	    (name_len <= 2 && !strncmp(name, "..", name_len))) {
		dbg_error(r->ctx, r->cmd, 0, "inode %u: unsafe name skipped",
			  ino);
		r->errors++;
		return;
	}
	if (asprintf(&path, "%s/%.*s", outdir, name_len, name) < 0) {
		r->errors++;
		return;
	}
	if (dbg_read_inode(r->ctx, r->cmd, ino, &in)) {
		r->errors++;
		goto out;
	}
	if (LINUX_S_ISDIR(in.i_mode)) {
		if (r->depth >= RDUMP_MAX_DEPTH) {
			dbg_error(r->ctx, r->cmd, 0, "%s: tree too deep", path);
			r->errors++;
			goto out;
		}
		if (mkdir(path, 0700) && errno != EEXIST) {
			dbg_error(r->ctx, r->cmd, 0, "%s: %s", path,
				  strerror(errno));
			r->errors++;
			goto out;
		}
		d.r = r;
		d.outdir = path;
		r->depth++;
		err = e2x_dir_iterate(r->ctx->fs, ino, E2X_DIR_ORDER_DISK, 0,
				      rdump_entry, &d);
		r->depth--;
		if (err) {
			dbg_error(r->ctx, r->cmd, err, "reading %s", path);
			r->errors++;
		}
		set_attrs(r->ctx->fs, -1, path, &in);
	} else if (LINUX_S_ISREG(in.i_mode)) {
		r->errors += dump_file(r->ctx, r->cmd, ino, &in, path, 1);
	} else if (LINUX_S_ISLNK(in.i_mode)) {
		if (dump_symlink(r, ino, &in, path))
			r->errors++;
		else
			set_attrs(r->ctx->fs, -1, path, &in);
	} else {
		if (dump_special(r, &in, path))
			r->errors++;
		else
			set_attrs(r->ctx->fs, -1, path, &in);
	}
out:
	free(path);
}

int do_rdump(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct rdump r = { ctx, argv[0], 0, 0 };
	const char *outdir = argv[argc - 1];
	struct stat st;
	int i;

	if (argc < 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (stat(outdir, &st) || !S_ISDIR(st.st_mode)) {
		dbg_error(ctx, argv[0], 0, "%s: not a directory", outdir);
		return 1;
	}
	for (i = 1; i < argc - 1; i++) {
		const char *name = strrchr(argv[i], '/');
		ext2_ino_t ino;

		if (dbg_resolve(ctx, argv[0], argv[i], &ino)) {
			r.errors++;
			continue;
		}
		name = name ? name + 1 : argv[i];
		if (!*name || !strcmp(name, ".") || !strcmp(name, "..") ||
		    argv[i][0] == '<')
			/* no usable last component: name it by inode */
			name = NULL;
		if (name) {
			rdump_inode(&r, ino, name, strlen(name), outdir);
		} else {
			char num[32];

			snprintf(num, sizeof(num), "inode-%u", ino);
			rdump_inode(&r, ino, num, strlen(num), outdir);
		}
	}
	return r.errors ? 1 : 0;
}
