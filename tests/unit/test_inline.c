/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_inline.c --- raw inline storage: capacity per inode size, the
 * i_block / system.data split, clear, and refusals.  Oracles: the kernel's
 * rule for the maximum inline size (60 + free in-inode attribute room),
 * libext2fs' inline reader, and the reference e2fsck -fn.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

static struct fixture fx;
static union {
	struct ext2_inode_large in;
	unsigned char raw[1024];
} ib;

/* Kernel max inline size per inode size, with i_extra_isize 32. */
static const struct {
	const char *opts;
	size_t cap;
} caps[] = {
	{ "-I 256 -O inline_data", 128 },
	{ "-I 512 -O inline_data", 384 },
	{ "-I 1024 -O inline_data", 896 },
	{ "-b 1024 -I 256 -O inline_data,^metadata_csum", 128 },
};
#define NCAPS (int)(sizeof(caps) / sizeof(caps[0]))

static ext2_ino_t new_file(void)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO,
				       LINUX_S_IFREG | 0644, &ib.in, &ino), 0);
	ck_assert_int_eq(ext2fs_link(fx.fs, EXT2_ROOT_INO, "f", ino,
				     EXT2_FT_REG_FILE), 0);
	return ino;
}

START_TEST(capacity_per_inode_size)
{
	size_t cap = 0;
	ext2_ino_t ino;

	fixture_mkfs(&fx, caps[_i].opts, "8M");
	ino = new_file();
	ck_assert_int_eq(e2x_inline_capacity(fx.fs, ino, &ib.in, &cap), 0);
	ck_assert_uint_eq(cap, caps[_i].cap);
	fixture_drop(&fx);
}
END_TEST

/* Store exactly capacity bytes; read them back through us and through
 * libext2fs; the image with i_size set is clean for e2fsck. */
START_TEST(set_capacity_roundtrip)
{
	unsigned char in[1024], out[1024];
	size_t cap, len = 0;
	ext2_ino_t ino;

	fixture_mkfs(&fx, caps[_i].opts, "8M");
	ino = new_file();
	ck_assert_int_eq(e2x_inline_capacity(fx.fs, ino, &ib.in, &cap), 0);
	fixture_fill(in, cap, 3);
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, cap + 1),
			 E2X_ERR_INLINE_TOO_BIG);
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, cap), 0);
	ck_assert(ib.in.i_flags & EXT4_INLINE_DATA_FL);
	ck_assert(!(ib.in.i_flags & EXT4_EXTENTS_FL));
	ck_assert_mem_eq(ib.in.i_block, in, 60);
	ck_assert_int_eq(e2x_inline_size(fx.fs, ino, &ib.in, &len), 0);
	ck_assert_uint_eq(len, cap);
	ck_assert_int_eq(e2x_inline_get(fx.fs, ino, &ib.in, out, sizeof(out),
					&len), 0);
	ck_assert_uint_eq(len, cap);
	ck_assert_mem_eq(out, in, cap);
	ib.in.i_size = (uint32_t)cap;
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(ext2fs_inline_data_get(fx.fs, ino, NULL, out, &len),
			 0);
	ck_assert_uint_eq(len, cap);
	ck_assert_mem_eq(out, in, cap);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Up to 60 bytes: i_block only, zero padded, system.data empty. */
START_TEST(small_content_keeps_empty_value)
{
	unsigned char in[60];
	size_t vlen = 99;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-I 256 -O inline_data", "8M");
	ino = new_file();
	fixture_fill(in, sizeof(in), 9);
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, 100 - 40), 0);
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, 10), 0);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL, 0,
					     &vlen), 0);
	ck_assert_uint_eq(vlen, 0);
	ck_assert_mem_eq(ib.in.i_block, in, 10);
	{
		static const unsigned char zero[50];

		ck_assert_mem_eq((char *)ib.in.i_block + 10, zero, 50);
	}
	ib.in.i_size = 10;
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Clear drops the attribute and the flag and leaves a mappable inode. */
START_TEST(clear_then_block_map)
{
	unsigned char in[100];
	blk64_t pblk = 0;
	size_t len;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-I 256 -O inline_data", "8M");
	ino = new_file();
	fixture_fill(in, sizeof(in), 1);
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, sizeof(in)),
			 0);
	ck_assert_int_eq(e2x_inline_clear(fx.fs, ino, &ib.in), 0);
	ck_assert(!(ib.in.i_flags & EXT4_INLINE_DATA_FL));
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL, 0,
					     &len), E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(e2x_inline_size(fx.fs, ino, &ib.in, &len),
			 EXT2_ET_NO_INLINE_DATA);
	ck_assert_int_eq(e2x_alloc_file_block(fx.fs, ino, &ib.in, 0, 0, &pblk),
			 0);
	ck_assert_uint_ne(pblk, 0);
	ck_assert(ib.in.i_flags & EXT4_EXTENTS_FL);
	/* Now block-mapped: storing inline again is refused. */
	ck_assert_int_eq(e2x_inline_set(fx.fs, ino, &ib.in, in, 10),
			 E2X_ERR_HAS_BLOCKS);
	ib.in.i_size = fx.fs->blocksize;
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Without the feature there is no capacity. */
START_TEST(no_feature_no_capacity)
{
	size_t cap = 1;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-I 256", "8M");
	ino = new_file();
	ck_assert(!(ib.in.i_flags & EXT4_INLINE_DATA_FL));
	ck_assert_int_eq(e2x_inline_capacity(fx.fs, ino, &ib.in, &cap),
			 E2X_ERR_UNSUPPORTED);
	ck_assert_uint_eq(cap, 0);
	fixture_drop(&fx);
}
END_TEST

/* Flag set but system.data missing: corrupt, reported, not guessed. */
START_TEST(flag_without_attribute_is_corrupt)
{
	unsigned char out[64];
	size_t len;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-I 256 -O inline_data", "8M");
	ino = new_file();
	ck_assert_int_eq(e2x_xattr_ibody_remove(fx.fs, &ib.in, 7, "data"), 0);
	ck_assert_int_eq(e2x_inline_get(fx.fs, ino, &ib.in, out, sizeof(out),
					&len), E2X_ERR_CORRUPT);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_inline(void)
{
	Suite *s = suite_create("inline");
	TCase *tc = tcase_create("storage");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, capacity_per_inode_size, 0, NCAPS);
	tcase_add_loop_test(tc, set_capacity_roundtrip, 0, NCAPS);
	tcase_add_test(tc, small_content_keeps_empty_value);
	tcase_add_test(tc, clear_then_block_map);
	tcase_add_test(tc, no_feature_no_capacity);
	tcase_add_test(tc, flag_without_attribute_is_corrupt);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_inline)
