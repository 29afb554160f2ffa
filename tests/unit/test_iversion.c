/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_iversion.c --- i_version helper: layout and increment rules.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

/* The on-disk offsets the helper relies on (ext4 inode layout). */
_Static_assert(offsetof(struct ext2_inode_large, osd1) == 0x24,
	       "osd1 (l_i_version) at 0x24");
_Static_assert(offsetof(struct ext2_inode_large, i_extra_isize) == 0x80,
	       "i_extra_isize at 0x80");
_Static_assert(offsetof(struct ext2_inode_large, i_version_hi) == 0x98,
	       "i_version_hi at 0x98");

START_TEST(bump_64bit_carries_into_hi)
{
	struct ext2_inode_large in;

	memset(&in, 0, sizeof(in));
	in.i_extra_isize = 32;
	in.osd1.linux1.l_i_version = 0xffffffffu;
	e2x_inode_bump_version(&in, 256);
	ck_assert_uint_eq(in.osd1.linux1.l_i_version, 0);
	ck_assert_uint_eq(in.i_version_hi, 1);
	ck_assert_uint_eq(e2x_inode_get_version(&in, 256), 0x100000000ull);
}
END_TEST

START_TEST(bump_128_byte_inode_uses_low_half_only)
{
	struct ext2_inode_large in;

	memset(&in, 0, sizeof(in));
	in.osd1.linux1.l_i_version = 41;
	in.i_version_hi = 0x55;	/* beyond a 128-byte inode: must be ignored */
	e2x_inode_bump_version(&in, 128);
	ck_assert_uint_eq(e2x_inode_get_version(&in, 128), 42);
	ck_assert_uint_eq(in.i_version_hi, 0x55);
}
END_TEST

START_TEST(bump_short_extra_isize_ignores_hi)
{
	struct ext2_inode_large in;

	memset(&in, 0, sizeof(in));
	in.i_extra_isize = 24;	/* ends before i_version_hi (0x98..0x9b) */
	in.osd1.linux1.l_i_version = 7;
	e2x_inode_bump_version(&in, 256);
	ck_assert_uint_eq(e2x_inode_get_version(&in, 256), 8);
	ck_assert_uint_eq(in.i_version_hi, 0);
}
END_TEST

START_TEST(bump_skips_ea_inode)
{
	struct ext2_inode_large in;

	memset(&in, 0, sizeof(in));
	in.i_extra_isize = 32;
	in.i_flags = EXT4_EA_INODE_FL;
	in.osd1.linux1.l_i_version = 3;	/* reference count of the EA value */
	e2x_inode_bump_version(&in, 256);
	ck_assert_uint_eq(in.osd1.linux1.l_i_version, 3);
}
END_TEST

/* The Hurd keeps its translator block where Linux counts changes: an
 * inode write there leaves osd1 as it was. */
START_TEST(write_on_hurd_keeps_translator)
{
	struct ext2_inode_large in[2];
	struct fixture fx;

	fixture_mkfs(&fx, "-b 1024", "4M");
	fx.fs->super->s_creator_os = EXT2_OS_HURD;
	ck_assert_int_eq(e2x_fs_has_iversion(fx.fs), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	in->osd1.hurd1.h_i_translator = 77;
	ck_assert_int_eq(e2x_write_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_uint_eq(in->osd1.hurd1.h_i_translator, 77);
	fx.fs->super->s_creator_os = EXT2_OS_LINUX;
	ck_assert_int_eq(e2x_fs_has_iversion(fx.fs), 1);
	ck_assert_int_eq(e2x_write_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_uint_eq(in->osd1.linux1.l_i_version, 78);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_iversion(void)
{
	Suite *s = suite_create("iversion");
	TCase *tc = tcase_create("bump");

	tcase_add_test(tc, bump_64bit_carries_into_hi);
	tcase_add_test(tc, bump_128_byte_inode_uses_low_half_only);
	tcase_add_test(tc, bump_short_extra_isize_ignores_hi);
	tcase_add_test(tc, bump_skips_ea_inode);
	tcase_add_test(tc, write_on_hurd_keeps_translator);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_iversion)
