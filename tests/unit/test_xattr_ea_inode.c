/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_xattr_ea_inode.c --- e2x_xattr_get on values kept in EA inodes
 * (ea_inode feature), written by the reference debugfs "ea_set -f" and by
 * the kernel (setfattr on a loop mount): byte-exact reads, the reference
 * debugfs "ea_get" and e2fsck -fn as oracles, and a table of damages
 * (flag, size, hashes, inode number) each refused with E2X_ERR_CORRUPT.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "unit.h"
#include "fixture.h"

#define REF_MKE2FS	"/usr/sbin/mke2fs"
#define REF_DEBUGFS	"/usr/sbin/debugfs"
#define ATTR		"user.bigvalue"
#define SUFFIX		"bigvalue"

/* How an image with file "f" holding ATTR in an EA inode is made. */
enum { BY_DEBUGFS, BY_KERNEL };

static const struct source {
	const char *name;
	const char *mkfs;	/* reference mke2fs options */
	int how;
	size_t value_len;
} sources[] = {
	{ "debugfs, in-inode entry", "-t ext4 -b 4096 -I 256 -O ea_inode",
	  BY_DEBUGFS, 4096 },
	{ "debugfs, entry in block", "-t ext4 -b 4096 -I 128 -O ea_inode",
	  BY_DEBUGFS, 4096 },
	{ "debugfs, no metadata_csum",
	  "-t ext4 -b 4096 -O ea_inode,^metadata_csum", BY_DEBUGFS, 4096 },
	{ "kernel, 10 KiB", "-t ext4 -b 4096 -O ea_inode", BY_KERNEL, 10240 },
	{ "kernel, 10 KiB, 1k blocks", "-t ext4 -b 1024 -O ea_inode",
	  BY_KERNEL, 10240 },
};
#define NSOURCES (int)(sizeof(sources) / sizeof(sources[0]))

/* Damages to the EA inode or to the entry naming it. */
enum dmg { D_FLAG, D_SIZE, D_DATA, D_VHASH, D_INUM_RANGE, D_INUM_SELF,
	   D_INUM_ZERO_INODE, D_EHASH, D_VSIZE };
static const char *const dmg_names[] = {
	"EA_INODE_FL cleared", "i_size + 1", "value byte flipped",
	"stored value hash changed", "e_value_inum past the last inode",
	"e_value_inum = owner", "e_value_inum = unused inode",
	"e_hash changed", "e_value_size 70000",
};
#define NDMG (int)(sizeof(dmg_names) / sizeof(dmg_names[0]))

static struct fixture fx;
static char valpath[256];
static unsigned char value[10240];

static int run(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static void temp_name(char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(buf, len, "%s/e2x-unit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(buf);
	ck_assert_msg(fd >= 0, "mkstemp failed");
	close(fd);
}

static void write_value(size_t len, unsigned int seed)
{
	FILE *f;
	size_t i;

	for (i = 0; i < len; i++)
		value[i] = (unsigned char)((i * 167 + seed) % 253);
	temp_name(valpath, sizeof(valpath));
	f = fopen(valpath, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(value, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Why the kernel cannot be asked here (fixture_kernel_probe), or NULL:
 * then every kernel source must work. */
static const char *no_kernel;

/* The kernel writes the attribute (exit 3: loop or mount refused). */
static int kernel_set(const char *img)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd),
		 "set -e; m=$(mktemp -d /tmp/mnt-h6-XXXXXX); "
		 "l=$(losetup -f --show '%s') || exit 3; "
		 "trap 'set +e; umount $m 2>/dev/null; losetup -d $l; "
		 "rmdir $m' EXIT; "
		 "mount -t ext4 $l $m || exit 3; "
		 "echo hello > $m/f; "
		 "setfattr -n " ATTR " -v 0s$(base64 -w0 '%s') $m/f",
		 img, valpath);
	return run(cmd);
}

/* A fresh image from SRC. */
static void make_image(const struct source *src)
{
	char cmd[2048];
	int st, run_ok;

	memset(&fx, 0, sizeof(fx));
	temp_name(fx.path, sizeof(fx.path));
	write_value(src->value_len, (unsigned int)src->value_len);
	snprintf(cmd, sizeof(cmd), "%s -q -F %s '%s' 32M </dev/null >&2",
		 REF_MKE2FS, src->mkfs, fx.path);
	ck_assert_msg(run(cmd) == 0, "mkfs failed: %s", cmd);
	if (src->how == BY_KERNEL) {
		st = kernel_set(fx.path);
		ck_assert_msg(st != 3, "the kernel refused the image (%s)",
			      src->mkfs);
		ck_assert_msg(st == 0, "kernel setfattr failed");
	} else {
		snprintf(cmd, sizeof(cmd),
			 "%s -w -R 'write /etc/hostname f' '%s' >&2 2>/dev/null"
			 " && %s -w -R 'ea_set -f %s f " ATTR "' '%s' >&2 "
			 "2>/dev/null",
			 REF_DEBUGFS, fx.path, REF_DEBUGFS, valpath, fx.path);
		ck_assert_msg(run(cmd) == 0, "debugfs failed: %s", cmd);
		/* The reference debugfs does not charge the EA inode's
		 * blocks to the owner's i_blocks as the kernel and e2fsck
		 * do: let the reference e2fsck put that right first. */
		snprintf(cmd, sizeof(cmd),
			 "E2FSCK_CONFIG=/dev/null /usr/sbin/e2fsck -fy '%s' "
			 ">/dev/null 2>&1; test $? -le 1", fx.path);
		ck_assert_msg(run(cmd) == 0, "e2fsck -fy failed");
	}
	/* oracles: the reference reads the same value, fsck is clean */
	snprintf(cmd, sizeof(cmd),
		 "%s -R 'ea_get -f %s.out f " ATTR "' '%s' 2>/dev/null && "
		 "cmp -s '%s' '%s.out'; r=$?; rm -f '%s.out'; exit $r",
		 REF_DEBUGFS, valpath, fx.path, valpath, valpath, valpath);
	run_ok = run(cmd) == 0;
	unlink(valpath);	/* the value stays in memory */
	ck_assert_msg(run_ok, "reference ea_get differs");
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_reopen(&fx);
}

static ext2_ino_t lookup_f(void)
{
	ext2_ino_t ino = 0;

	ck_assert_int_eq(ext2fs_namei(fx.fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
				      "f", &ino), 0);
	return ino;
}

static void cleanup(void)
{
	fixture_drop(&fx);
	unlink(valpath);
}

/* make_image, then the owner's number; 0 for a kernel source when the
 * kernel cannot be asked (the suite reported that SKIP once). */
static ext2_ino_t image_or_skip(const struct source *src)
{
	if (src->how == BY_KERNEL && no_kernel)
		return 0;
	make_image(src);
	return lookup_f();
}

START_TEST(reads_value_exactly)
{
	const struct source *src = &sources[_i];
	unsigned char *got;
	size_t len = 0;
	ext2_ino_t ino;

	ino = image_or_skip(src);
	if (!ino)
		return;
	got = calloc(1, src->value_len + 8);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(e2x_xattr_get(fx.fs, ino, ATTR, NULL, 0, &len), 0);
	ck_assert_uint_eq(len, src->value_len);
	ck_assert_int_eq(e2x_xattr_get(fx.fs, ino, ATTR, got,
				       src->value_len + 8, &len), 0);
	ck_assert_uint_eq(len, src->value_len);
	ck_assert(memcmp(got, value, len) == 0);
	memset(got, 0, src->value_len);
	ck_assert_int_eq(e2x_xattr_get(fx.fs, ino, ATTR, got, 100, &len), 0);
	ck_assert_uint_eq(len, src->value_len);
	ck_assert(memcmp(got, value, 100) == 0);
	ck_assert_uint_eq(got[100], 0);
	ck_assert_int_eq(e2x_xattr_get(fx.fs, ino, "user.absent", got, 8,
				       &len), E2X_ERR_NOT_FOUND);
	free(got);
	cleanup();
}
END_TEST

/* Offset of the entry for SUFFIX in BUF (LEN bytes), or -1. */
static long entry_at(const unsigned char *buf, size_t len)
{
	size_t n = strlen(SUFFIX), p;

	for (p = 0; p + 16 + n <= len; p += 4)
		if (buf[p] == n && buf[p + 1] == 1 &&
		    !memcmp(buf + p + 16, SUFFIX, n))
			return (long)p;
	return -1;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Apply D to the entry at E (in the inode or block buffer). */
static void damage_entry(unsigned char *e, enum dmg d, ext2_ino_t owner)
{
	switch (d) {
	case D_INUM_RANGE:
		put32(e + 4, fx.fs->super->s_inodes_count + 1);
		break;
	case D_INUM_SELF:
		put32(e + 4, owner);
		break;
	case D_INUM_ZERO_INODE:
		put32(e + 4, fx.fs->super->s_inodes_count - 1);
		break;
	case D_EHASH:
		put32(e + 12, get32(e + 12) ^ 0x100);
		break;
	case D_VSIZE:
		put32(e + 8, 70000);
		break;
	default:
		ck_abort_msg("not an entry damage");
	}
}

/* The on-disk entry of ATTR of INO: in the inode's buffer or its
 * attribute block's. */
struct entry_ref {
	unsigned char ibuf[1024];
	unsigned char *bbuf;	/* NULL for an in-inode entry */
	blk64_t blk;
	unsigned char *e;
};

static void entry_load(ext2_ino_t ino, struct entry_ref *r)
{
	unsigned int isz = EXT2_INODE_SIZE(fx.fs->super);
	long at;

	r->bbuf = NULL;
	ck_assert_int_eq(ext2fs_read_inode_full(fx.fs, ino,
			 (struct ext2_inode *)r->ibuf, isz), 0);
	at = entry_at(r->ibuf + EXT2_GOOD_OLD_INODE_SIZE,
		      isz - EXT2_GOOD_OLD_INODE_SIZE);
	if (at >= 0) {
		r->e = r->ibuf + EXT2_GOOD_OLD_INODE_SIZE + at;
		return;
	}
	r->blk = ext2fs_file_acl_block(fx.fs, (struct ext2_inode *)r->ibuf);
	ck_assert_uint_ne(r->blk, 0);
	r->bbuf = malloc(fx.fs->blocksize);
	ck_assert_ptr_nonnull(r->bbuf);
	ck_assert_int_eq(ext2fs_read_ext_attr3(fx.fs, r->blk, r->bbuf, ino),
			 0);
	at = entry_at(r->bbuf, fx.fs->blocksize);
	ck_assert_int_ge(at, 0);
	r->e = r->bbuf + at;
}

/* Write the entry back (checksums recomputed) when STORE; free. */
static void entry_done(ext2_ino_t ino, struct entry_ref *r, int store)
{
	unsigned int isz = EXT2_INODE_SIZE(fx.fs->super);

	if (store && r->bbuf)
		ck_assert_int_eq(ext2fs_write_ext_attr3(fx.fs, r->blk, r->bbuf,
							ino), 0);
	else if (store)
		ck_assert_int_eq(ext2fs_write_inode_full(fx.fs, ino,
				 (struct ext2_inode *)r->ibuf, isz), 0);
	free(r->bbuf);
}

/* Damage the entry naming the EA inode. */
static void damage_entry_on_disk(ext2_ino_t ino, enum dmg d)
{
	struct entry_ref r;

	entry_load(ino, &r);
	damage_entry(r.e, d, ino);
	entry_done(ino, &r, 1);
}

/* The EA inode's number, from the entry. */
static ext2_ino_t ea_inum(ext2_ino_t ino)
{
	struct entry_ref r;
	ext2_ino_t ea;

	entry_load(ino, &r);
	ea = get32(r.e + 4);
	entry_done(ino, &r, 0);
	return ea;
}

/* Damage the EA inode itself. */
static void damage_ea_inode(ext2_ino_t ea, enum dmg d)
{
	unsigned int isz = EXT2_INODE_SIZE(fx.fs->super);
	union {
		struct ext2_inode_large in;
		unsigned char raw[1024];
	} u;
	unsigned char *blk;
	blk64_t pblk = 0;

	ck_assert_int_eq(ext2fs_read_inode_full(fx.fs, ea,
			 (struct ext2_inode *)&u.in, isz), 0);
	ck_assert(u.in.i_flags & EXT4_EA_INODE_FL);
	switch (d) {
	case D_FLAG:
		u.in.i_flags &= ~EXT4_EA_INODE_FL;
		break;
	case D_SIZE:
		u.in.i_size++;
		break;
	case D_VHASH:
		u.in.i_atime ^= 1;
		break;
	case D_DATA:
		ck_assert_int_eq(ext2fs_bmap2(fx.fs, ea,
				 (struct ext2_inode *)&u.in, NULL, 0, 0, NULL,
				 &pblk), 0);
		ck_assert_uint_ne(pblk, 0);
		blk = malloc(fx.fs->blocksize);
		ck_assert_ptr_nonnull(blk);
		ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, pblk, 1,
						       blk), 0);
		blk[17] ^= 0x40;
		ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, pblk, 1,
							blk), 0);
		free(blk);
		return;
	default:
		ck_abort_msg("not an inode damage");
	}
	ck_assert_int_eq(ext2fs_write_inode_full(fx.fs, ea,
			 (struct ext2_inode *)&u.in, isz), 0);
}

START_TEST(damage_is_refused)
{
	const struct source *src = &sources[_i / NDMG];
	enum dmg d = (enum dmg)(_i % NDMG);
	unsigned char got[64];
	size_t len = 1;
	ext2_ino_t ino, ea;
	errcode_t err;

	ino = image_or_skip(src);
	if (!ino)
		return;
	ea = ea_inum(ino);
	ck_assert_uint_gt(ea, ino);
	if (d <= D_VHASH)
		damage_ea_inode(ea, d);
	else
		damage_entry_on_disk(ino, d);
	fixture_close(&fx);
	fixture_reopen(&fx);
	err = e2x_xattr_get(fx.fs, ino, ATTR, got, sizeof(got), &len);
	ck_assert_msg(err == E2X_ERR_CORRUPT, "%s / %s: got %ld (%s)",
		      src->name, dmg_names[d], (long)err, error_message(err));
	ck_assert_uint_eq(len, 0);
	cleanup();
}
END_TEST

static Suite *suite_xattr_ea_inode(void)
{
	Suite *s = suite_create("xattr_ea_inode");
	TCase *tc = tcase_create("ea_inode");

	no_kernel = fixture_kernel_probe("ext4");
	if (no_kernel)
		e2x_unit_skip("the kernel-written sources", no_kernel);
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, reads_value_exactly, 0, NSOURCES);
	tcase_add_loop_test(tc, damage_is_refused, 0, NSOURCES * NDMG);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_xattr_ea_inode)
