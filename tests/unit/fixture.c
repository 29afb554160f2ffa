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

const char *fixture_kernel_probe(const char *fstype)
{
	char cmd[1024];
	int st;

	if (geteuid() != 0)
		return "not root: no loop mounts";
	if (access("/usr/sbin/mke2fs", X_OK) != 0)
		return "no reference mke2fs to make the probe image";
	snprintf(cmd, sizeof(cmd),
		 "d=$(mktemp -d /tmp/e2x-probe-XXXXXX) || exit 1; "
		 "trap 'umount $d/m 2>/dev/null; "
		 "[ -n \"$l\" ] && losetup -d $l; rm -rf $d' EXIT; l=; "
		 "mkdir $d/m && truncate -s 16M $d/img && "
		 "/usr/sbin/mke2fs -q -F -t %s $d/img >/dev/null 2>&1 || exit 1; "
		 "l=$(losetup -f --show $d/img 2>/dev/null) || exit 2; "
		 "mount -t %s $l $d/m 2>/dev/null || exit 3; "
		 "umount $d/m", fstype, fstype);
	st = run_shell(cmd);
	switch (st) {
	case 0:
		return NULL;
	case 1:
		return "cannot format the probe image";
	case 2:
		return "no loop devices";
	default:
		return "the kernel does not mount a reference-made image";
	}
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

void fixture_mkfs_bitmaps(struct fixture *fx, const char *opts,
			  const char *size)
{
	fixture_mkfs(fx, opts, size);
	ck_assert_int_eq(ext2fs_read_bitmaps(fx->fs), 0);
}

void fixture_drop_clean(struct fixture *fx)
{
	fixture_close(fx);
	ck_assert_int_eq(fixture_ref_fsck(fx), 0);
	fixture_drop(fx);
}

void fixture_fill_dir(struct fixture *fx, ext2_ino_t dir, unsigned int n)
{
	char name[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "a-rather-long-entry-name-%u", i);
		ck_assert_int_eq(e2x_dir_mknod(fx->fs, dir, name, strlen(name),
					       LINUX_S_IFIFO | 0644, 0, NULL),
				 0);
	}
}

size_t fixture_dir_problems(struct fixture *fx, ext2_ino_t dir)
{
	struct e2x_dir_problems p = { 0 };
	size_t n;

	ck_assert_int_eq(e2x_dir_verify(fx->fs, dir, 0, &p), 0);
	n = p.count;
	e2x_dir_problems_free(&p);
	return n;
}
