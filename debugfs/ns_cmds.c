/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ns_cmds.c --- namespace changes for a read-write session: mkdir, mknod,
 * symlink, link, unlink, rm, rmdir, kill_file, rename, copy_inode,
 * expand_dir, itree_build and itree_drop.  Every change goes through
 * libe2x (inline promotion, htree and itree upkeep, counters, i_version).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"

/* Split PATH into the directory holding its last name (resolved) and
 * that name; trailing slashes are dropped.  Prints the error itself. */
static int split_path(struct dbg_ctx *ctx, const char *cmd, const char *path,
		      ext2_ino_t *dir, char **name)
{
	char *copy = strdup(path), *slash;
	size_t len;
	int ret = 1;

	*name = NULL;
	if (!copy) {
		dbg_error(ctx, cmd, EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = 0;
	slash = strrchr(copy, '/');
	if (!slash) {
		*dir = ctx->cwd;
		*name = strdup(copy);
	} else {
		*slash = 0;
		if (dbg_resolve_dir(ctx, cmd, slash == copy ? "/" : copy, dir))
			goto out;
		*name = strdup(slash + 1);
	}
	if (!*name) {
		dbg_error(ctx, cmd, EXT2_ET_NO_MEMORY, NULL);
		goto out;
	}
	if (!**name || strlen(*name) > E2X_NAME_MAX ||
	    is_dot_or_dotdot(*name, (int)strlen(*name))) {
		dbg_error(ctx, cmd, 0, "%s: bad name", path);
		free(*name);
		*name = NULL;
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

/* The one error line for a library failure on PATH. */
static int fail(struct dbg_ctx *ctx, const char *cmd, errcode_t err,
		const char *path)
{
	if (err == E2X_ERR_EXISTS)
		dbg_error(ctx, cmd, 0, "%s: already exists", path);
	else if (err == E2X_ERR_NOT_FOUND)
		dbg_error(ctx, cmd, 0, "%s: no such file or directory", path);
	else
		dbg_error(ctx, cmd, err, "%s", path);
	return 1;
}

int do_mkdir(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t dir;
	char *name;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (split_path(ctx, argv[0], argv[1], &dir, &name))
		return 1;
	err = e2x_dir_mkdir(ctx->fs, dir, name, strlen(name), 0755, 0, NULL);
	free(name);
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

static int mknod_args(struct dbg_ctx *ctx, int argc, char **argv,
		      unsigned int *mode, uint64_t *major, uint64_t *minor)
{
	const char *t = argc > 2 ? argv[2] : "";

	*major = *minor = 0;
	if (argc == 3 && !strcmp(t, "p")) {
		*mode = LINUX_S_IFIFO;
		return 0;
	}
	if (argc == 5 && (!strcmp(t, "c") || !strcmp(t, "b")) &&
	    !dbg_parse_u64(argv[3], 0xfff, major) &&
	    !dbg_parse_u64(argv[4], 0xfffff, minor)) {
		*mode = *t == 'c' ? LINUX_S_IFCHR : LINUX_S_IFBLK;
		return 0;
	}
	dbg_usage(ctx, argv[0]);
	return 1;
}

int do_mknod(struct dbg_ctx *ctx, int argc, char **argv)
{
	unsigned int mode;
	uint64_t major, minor;
	ext2_ino_t dir;
	char *name;
	errcode_t err;

	if (mknod_args(ctx, argc, argv, &mode, &major, &minor))
		return 1;
	if (split_path(ctx, argv[0], argv[1], &dir, &name))
		return 1;
	if (mode == LINUX_S_IFIFO)
		err = e2x_dir_mknod(ctx->fs, dir, name, strlen(name),
				    mode | 0644, 0, NULL);
	else
		err = e2x_dir_mkdev(ctx->fs, dir, name, strlen(name),
				    mode | 0644, (unsigned int)major,
				    (unsigned int)minor, 0, NULL);
	free(name);
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_symlink(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t dir;
	char *name;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (!*argv[2] || strlen(argv[2]) >= ctx->fs->blocksize) {
		dbg_error(ctx, argv[0], 0, "target must be 1..%u bytes",
			  ctx->fs->blocksize - 1);
		return 1;
	}
	if (split_path(ctx, argv[0], argv[1], &dir, &name))
		return 1;
	err = e2x_dir_symlink(ctx->fs, dir, name, strlen(name), argv[2],
			      strlen(argv[2]), 0, NULL);
	free(name);
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_link(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t dir, ino;
	char *name;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino) ||
	    split_path(ctx, argv[0], argv[2], &dir, &name))
		return 1;
	err = e2x_dir_link(ctx->fs, dir, name, strlen(name), ino, 0);
	free(name);
	if (err == EXT2_ET_INVALID_ARGUMENT) {
		dbg_error(ctx, argv[0], 0, "%s: a directory or an unused inode "
			  "cannot get another link", argv[1]);
		return 1;
	}
	return err ? fail(ctx, argv[0], err, argv[2]) : 0;
}

/* unlink: the entry only (link count untouched, as e2fsprogs does); rm:
 * the entry and one link, freeing the inode at zero. */
static int remove_name(struct dbg_ctx *ctx, int argc, char **argv, int rm)
{
	ext2_ino_t dir;
	char *name;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (split_path(ctx, argv[0], argv[1], &dir, &name))
		return 1;
	if (rm)
		err = e2x_dir_unlink(ctx->fs, dir, name, strlen(name), 0);
	else
		err = e2x_dir_remove(ctx->fs, dir, name, strlen(name), 0,
				     NULL);
	free(name);
	if (rm && err == EXT2_ET_INVALID_ARGUMENT) {
		dbg_error(ctx, argv[0], 0, "%s: is a directory (use rmdir)",
			  argv[1]);
		return 1;
	}
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_unlink(struct dbg_ctx *ctx, int argc, char **argv)
{
	return remove_name(ctx, argc, argv, 0);
}

int do_rm(struct dbg_ctx *ctx, int argc, char **argv)
{
	return remove_name(ctx, argc, argv, 1);
}

int do_rmdir(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t dir;
	char *name;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (split_path(ctx, argv[0], argv[1], &dir, &name))
		return 1;
	err = e2x_dir_rmdir(ctx->fs, dir, name, strlen(name), 0);
	free(name);
	if (err == E2X_ERR_NOT_EMPTY) {
		dbg_error(ctx, argv[0], 0, "%s: directory not empty", argv[1]);
		return 1;
	}
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_kill_file(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	err = e2x_inode_kill(ctx->fs, ino, 0);
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_rename(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t odir, ndir;
	char *oname = NULL, *nname = NULL;
	errcode_t err;
	int ret = 1;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (split_path(ctx, argv[0], argv[1], &odir, &oname) ||
	    split_path(ctx, argv[0], argv[2], &ndir, &nname))
		goto out;
	err = e2x_dir_rename(ctx->fs, odir, oname, strlen(oname), ndir, nname,
			     strlen(nname), 0);
	if (err == E2X_ERR_NOT_EMPTY)
		dbg_error(ctx, argv[0], 0, "%s: directory not empty", argv[2]);
	else if (err == EXT2_ET_INVALID_ARGUMENT)
		dbg_error(ctx, argv[0], 0, "%s -> %s: not allowed (a "
			  "directory into itself, or kinds differ)", argv[1],
			  argv[2]);
	else if (err)
		fail(ctx, argv[0], err, argv[1]);
	else
		ret = 0;
out:
	free(oname);
	free(nname);
	return ret;
}

/* The whole inode SRC (extra space and in-inode attributes included) over
 * DEST; blocks become shared, as with e2fsprogs. */
int do_copy_inode(struct dbg_ctx *ctx, int argc, char **argv)
{
	unsigned int isz = EXT2_INODE_SIZE(ctx->fs->super);
	struct ext2_inode_large *in;
	ext2_ino_t src, dst;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &src) ||
	    dbg_resolve(ctx, argv[0], argv[2], &dst))
		return 1;
	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = e2x_read_inode(ctx->fs, src, in);
	if (!err)
		err = e2x_write_inode(ctx->fs, dst, in);
	free(in);
	return err ? fail(ctx, argv[0], err, argv[2]) : 0;
}

/* One directory argument, one library call. */
static int dir_edit(struct dbg_ctx *ctx, int argc, char **argv,
		    errcode_t (*fn)(ext2_filsys, ext2_ino_t, int),
		    const char *unsupported)
{
	ext2_ino_t dir;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[1], &dir))
		return 1;
	err = fn(ctx->fs, dir, 0);
	if (err == E2X_ERR_UNSUPPORTED) {
		dbg_error(ctx, argv[0], 0, "%s: %s", argv[1], unsupported);
		return 1;
	}
	if (err == E2X_ERR_NOT_FOUND) {
		dbg_error(ctx, argv[0], 0, "%s: has no itree", argv[1]);
		return 1;
	}
	return err ? fail(ctx, argv[0], err, argv[1]) : 0;
}

int do_expand_dir(struct dbg_ctx *ctx, int argc, char **argv)
{
	return dir_edit(ctx, argc, argv, e2x_dir_expand,
			"indexed directories grow by themselves");
}

int do_itree_build(struct dbg_ctx *ctx, int argc, char **argv)
{
	return dir_edit(ctx, argc, argv, e2x_dir_itree_build,
			"needs the itree feature, an htree directory and "
			"in-inode room");
}

int do_itree_drop(struct dbg_ctx *ctx, int argc, char **argv)
{
	return dir_edit(ctx, argc, argv, e2x_dir_itree_drop, "unsupported");
}
