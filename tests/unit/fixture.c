/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.c --- test images for the unit tests (see fixture.h).
 */
#include "config.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "fixture.h"
#include "e2x.h"

static const char *mke2fs_path(char *buf, size_t len)
{
	const char *env = getenv("E2X_TEST_MKE2FS");
	const char *top = getenv("top_builddir");

	if (env && *env)
		return env;
	snprintf(buf, len, "%s/mke2fs/mke2fs", top ? top : ".");
	return buf;
}

static int run_shell(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

void fixture_mkfs(struct fixture *fx, const char *opts, const char *size)
{
	char tool[512], cmd[2048];
	const char *tmp = getenv("TMPDIR");
	int fd;

	memset(fx, 0, sizeof(*fx));
	snprintf(fx->path, sizeof(fx->path), "%s/e2x-unit-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(fx->path);
	ck_assert_msg(fd >= 0, "mkstemp failed");
	close(fd);
	unlink(fx->path);	/* let mke2fs create it at SIZE */
	snprintf(cmd, sizeof(cmd), "%s -q -F -t ext4 %s '%s' %s </dev/null",
		 mke2fs_path(tool, sizeof(tool)), opts ? opts : "", fx->path,
		 size);
	ck_assert_msg(run_shell(cmd) == 0, "mkfs failed: %s", cmd);
	fixture_reopen(fx);
}

void fixture_reopen(struct fixture *fx)
{
	errcode_t err;

	err = ext2fs_open(fx->path, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, &fx->fs);
	ck_assert_msg(err == 0, "ext2fs_open %s: %s", fx->path,
		      error_message(err));
	err = ext2fs_read_bitmaps(fx->fs);
	ck_assert_msg(err == 0, "read_bitmaps: %s", error_message(err));
}

void fixture_close(struct fixture *fx)
{
	errcode_t err;

	if (!fx->fs)
		return;
	err = ext2fs_close_free(&fx->fs);
	ck_assert_msg(err == 0, "ext2fs_close: %s", error_message(err));
}

int fixture_ref_fsck(struct fixture *fx)
{
	char cmd[512];

	fixture_close(fx);
	snprintf(cmd, sizeof(cmd),
		 "E2FSCK_CONFIG=/dev/null /usr/sbin/e2fsck -fn '%s' >&2",
		 fx->path);
	return run_shell(cmd);
}

void fixture_drop(struct fixture *fx)
{
	if (fx->fs)
		ext2fs_close_free(&fx->fs);
	if (fx->path[0])
		unlink(fx->path);
	fx->path[0] = 0;
}

void fixture_fill(unsigned char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)((i * 131 + seed) % 251 + 1);
}

uint64_t fixture_version(struct fixture *fx, ext2_ino_t ino,
			 struct ext2_inode_large *in)
{
	ck_assert_int_eq(e2x_read_inode(fx->fs, ino, in), 0);
	return e2x_inode_get_version(in, EXT2_INODE_SIZE(fx->fs->super));
}
