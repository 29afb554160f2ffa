/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_cmds.c --- file content for a read-write session: write (any
 * readable host file, device or pipe into the image), fallocate, punch and truncate, all through libe2x
 * (inline storage while it fits, promotion, bigalloc clusters, i_version).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "debugfs.h"

/* Parent directory and last name of PATH (cwd when there is no slash). */
static int parent_of(struct dbg_ctx *ctx, const char *cmd, const char *path,
		     ext2_ino_t *dir, const char **name)
{
	const char *slash = strrchr(path, '/');
	char *head;
	int ret;

	if (!slash) {
		*dir = ctx->cwd;
		*name = path;
	} else {
		head = strndup(path, slash == path ? 1 :
					     (size_t)(slash - path));
		if (!head) {
			dbg_error(ctx, cmd, EXT2_ET_NO_MEMORY, NULL);
			return 1;
		}
		ret = dbg_resolve_dir(ctx, cmd, head, dir);
		free(head);
		if (ret)
			return 1;
		*name = slash + 1;
	}
	if (!**name || strlen(*name) > E2X_NAME_MAX ||
	    is_dot_or_dotdot(*name, (int)strlen(*name))) {
		dbg_error(ctx, cmd, 0, "%s: bad name", path);
		return 1;
	}
	return 0;
}

/* The whole content of host file FD, mapped (*MAPPED set; munmap) when
 * it says its size, else read to its end (devices, pipes, /proc files
 * that say 0; free). */
static errcode_t read_source(int fd, const struct stat *st, void **data,
			     size_t *len, int *mapped)
{
	size_t cap = 0;
	char *buf = NULL, *nbuf;
	ssize_t got;

	*data = NULL;
	*len = 0;
	*mapped = 0;
	if (S_ISREG(st->st_mode) && st->st_size > 0) {
		*data = mmap(NULL, (size_t)st->st_size, PROT_READ,
			     MAP_PRIVATE, fd, 0);
		if (*data == MAP_FAILED) {
			*data = NULL;
			return errno;
		}
		*len = (size_t)st->st_size;
		*mapped = 1;
		return 0;
	}
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				free(buf);
				return EXT2_ET_NO_MEMORY;
			}
			buf = nbuf;
		}
		got = read(fd, buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return errno;
		}
		if (got == 0)
			break;
		*len += (size_t)got;
	}
	*data = buf;
	return 0;
}

static void release_source(void *data, size_t len, int mapped)
{
	if (mapped)
		munmap(data, len);
	else
		free(data);
}

int do_write(struct dbg_ctx *ctx, int argc, char **argv)
{
	const char *name;
	ext2_ino_t dir, ino;
	struct stat st;
	void *data = NULL;
	size_t len = 0;
	errcode_t err;
	int fd, mapped, ret = 1;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		dbg_error(ctx, argv[0], 0, "%s: %s", argv[1], strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		dbg_error(ctx, argv[0], 0, "%s: not a regular file", argv[1]);
		goto out;
	}
	if (parent_of(ctx, argv[0], argv[2], &dir, &name))
		goto out;
	err = read_source(fd, &st, &data, &len, &mapped);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		goto out;
	}
	err = e2x_dir_create_file(ctx->fs, dir, name, strlen(name),
				  LINUX_S_IFREG | (st.st_mode & 07777), data,
				  len, 0, &ino);
	release_source(data, len, mapped);
	if (err == E2X_ERR_EXISTS) {
		dbg_error(ctx, argv[0], 0, "%s: already exists", argv[2]);
		goto out;
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[2]);
		goto out;
	}
	fprintf(ctx->out, "Allocated inode: %u\n", ino);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* file start [end]: END defaults to DEF_END (or START when ~0 is not
 * wanted). */
static int block_range(struct dbg_ctx *ctx, int argc, char **argv,
		       ext2_ino_t *ino, blk64_t *start, blk64_t *end,
		       blk64_t def_end)
{
	uint64_t s, e;

	if (argc != 3 && argc != 4) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], ino))
		return 1;
	if (dbg_parse_u64(argv[2], (1ULL << 32) - 1, &s)) {
		dbg_error(ctx, argv[0], 0, "%s: bad block number", argv[2]);
		return 1;
	}
	e = def_end ? def_end : s;
	if (argc == 4 && (dbg_parse_u64(argv[3], (1ULL << 32) - 1, &e) ||
			  e < s)) {
		dbg_error(ctx, argv[0], 0, "%s: bad end block", argv[3]);
		return 1;
	}
	*start = s;
	*end = e;
	return 0;
}

int do_fallocate(struct dbg_ctx *ctx, int argc, char **argv)
{
	blk64_t start, end;
	ext2_ino_t ino;
	errcode_t err;

	if (block_range(ctx, argc, argv, &ino, &start, &end, 0))
		return 1;
	err = e2x_file_fallocate(ctx->fs, ino, start, end, 0);
	if (err == EXT2_ET_INVALID_ARGUMENT) {
		dbg_error(ctx, argv[0], 0, "%s: not a regular file", argv[1]);
		return 1;
	}
	if (err)
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
	return err != 0;
}

int do_punch(struct dbg_ctx *ctx, int argc, char **argv)
{
	blk64_t start, end;
	ext2_ino_t ino;
	errcode_t err;

	if (block_range(ctx, argc, argv, &ino, &start, &end, ~0ULL))
		return 1;
	err = e2x_file_punch(ctx->fs, ino, start, end, 0);
	if (err)
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
	return err != 0;
}

int do_truncate(struct dbg_ctx *ctx, int argc, char **argv)
{
	ext2_ino_t ino;
	uint64_t size;
	errcode_t err;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve(ctx, argv[0], argv[1], &ino))
		return 1;
	if (dbg_parse_u64(argv[2], (1ULL << 44), &size)) {
		dbg_error(ctx, argv[0], 0, "%s: bad size", argv[2]);
		return 1;
	}
	err = e2x_file_truncate(ctx->fs, ino, size, 0);
	if (err)
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
	return err != 0;
}
