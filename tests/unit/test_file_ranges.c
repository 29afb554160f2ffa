/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_file_ranges.c --- the mapped ranges of a file (file_ranges.c): a
 * file with a hole, extent-mapped and block-mapped, gives ranges that
 * cover exactly its written blocks, in logical order, each block where
 * the block map puts it; inline files give none.  Also the exact inode
 * write (iversion.c) that keeps i_version as given.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"

struct seen {
	uint64_t lblk[16];
	size_t n;
	uint64_t last_end;
	ext2_ino_t ino;
	struct ext2_inode_large *in;
};

static errcode_t note(ext2_filsys fs, const struct e2x_file_range *r,
		      void *priv)
{
	struct seen *s = priv;
	uint64_t i;
	blk64_t pblk;

	ck_assert_uint_ge(r->lblk, s->last_end);	/* in order */
	ck_assert_uint_gt(r->len, 0);
	for (i = 0; i < r->len; i++) {
		ck_assert_uint_lt(s->n, 16);
		s->lblk[s->n++] = r->lblk + i;
		ck_assert_int_eq(e2x_map_file_block(fs, s->ino, s->in,
						    r->lblk + i, &pblk, NULL),
				 0);
		ck_assert_uint_eq(pblk, r->pblk + i);
	}
	s->last_end = r->lblk + r->len;
	return 0;
}

static void check_holey_file(const char *opts)
{
	struct fixture fx;
	struct seen s;
	char *buf;
	unsigned int bs;
	ext2_ino_t ino;

	fixture_mkfs(&fx, opts, "16M");
	bs = fx.fs->blocksize;
	buf = malloc(3 * bs);
	fixture_fill((unsigned char *)buf, 3 * bs, 7);
	ck_assert_int_eq(e2x_dir_mknod(fx.fs, EXT2_ROOT_INO, "f", 1,
				       LINUX_S_IFREG | 0644, 0, &ino), 0);
	ck_assert_int_eq(e2x_file_write(fx.fs, ino, 0, buf, 3 * bs, 0), 0);
	ck_assert_int_eq(e2x_file_write(fx.fs, ino, 10ULL * bs, buf, bs, 0),
			 0);
	memset(&s, 0, sizeof(s));
	s.ino = ino;
	s.in = calloc(1, EXT2_INODE_SIZE(fx.fs->super) + 256);
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, s.in), 0);
	ck_assert_int_eq(e2x_file_ranges(fx.fs, ino, (void *)s.in, 0, note,
					 &s), 0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_uint_eq(s.lblk[0], 0);
	ck_assert_uint_eq(s.lblk[1], 1);
	ck_assert_uint_eq(s.lblk[2], 2);
	ck_assert_uint_eq(s.lblk[3], 10);
	free(s.in);
	free(buf);
	fixture_drop(&fx);
}

START_TEST(extent_file_with_hole)
{
	check_holey_file("-b 1024 -O ^inline_data");
}
END_TEST

START_TEST(block_mapped_file_with_hole)
{
	check_holey_file("-b 1024 -O ^extents,^inline_data,^64bit");
}
END_TEST

static errcode_t count(ext2_filsys fs, const struct e2x_file_range *r,
		       void *priv)
{
	(void)fs;
	(void)r;
	(*(int *)priv)++;
	return 0;
}

START_TEST(inline_file_has_no_range)
{
	struct fixture fx;
	struct ext2_inode_large *in;
	ext2_ino_t ino;
	int n = 0;

	fixture_mkfs(&fx, "-b 1024 -I 256 -O inline_data", "16M");
	ck_assert_int_eq(e2x_dir_mknod(fx.fs, EXT2_ROOT_INO, "f", 1,
				       LINUX_S_IFREG | 0644, 0, &ino), 0);
	ck_assert_int_eq(e2x_file_write(fx.fs, ino, 0, "tiny", 4, 0), 0);
	in = calloc(1, EXT2_INODE_SIZE(fx.fs->super) + 256);
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, in), 0);
	ck_assert(in->i_flags & EXT4_INLINE_DATA_FL);
	ck_assert_int_eq(e2x_file_ranges(fx.fs, ino, (void *)in, 0, count,
					 &n), 0);
	ck_assert_int_eq(n, 0);
	free(in);
	fixture_drop(&fx);
}
END_TEST

/* The exact write keeps i_version as given; the normal one bumps it. */
START_TEST(exact_write_keeps_version)
{
	struct fixture fx;
	struct ext2_inode_large *in, *back;
	unsigned int isz;

	fixture_mkfs(&fx, "-b 1024 -I 256", "16M");
	isz = EXT2_INODE_SIZE(fx.fs->super);
	in = calloc(1, isz + 256);
	back = calloc(1, isz + 256);
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	e2x_inode_set_version(in, isz, 41);
	ck_assert_int_eq(e2x_write_inode_exact(fx.fs, EXT2_ROOT_INO, in, 0),
			 0);
	ck_assert_uint_eq(fixture_version(&fx, EXT2_ROOT_INO, back), 41);
	ck_assert_int_eq(e2x_write_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_uint_eq(fixture_version(&fx, EXT2_ROOT_INO, back), 42);
	free(back);
	free(in);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_file_ranges(void)
{
	Suite *s = suite_create("file_ranges");
	TCase *tc = tcase_create("ranges");

	tcase_add_test(tc, extent_file_with_hole);
	tcase_add_test(tc, block_mapped_file_with_hole);
	tcase_add_test(tc, inline_file_has_no_range);
	tcase_add_test(tc, exact_write_keeps_version);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_file_ranges)
