/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_guard_io.c --- the write guard (lib/io/guard_io.c): a write the policy
 * refuses is not made and fails with E2X_ERR_WRITE_REFUSED, allowed ones
 * land, the policy sees every write; and the group metadata move
 * (lib/meta/group_meta.c) it protects: new zeroed blocks in the group, marked,
 * descriptor checksum right.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "fixture.h"

#define DEV_SIZE (16 * 1024)

/* What the policy was asked: writes it allowed and refused. */
struct verdicts {
	int written, refused;
};

/* Refuse anything touching bytes [4096, 8192). */
static const char *no_second_page(void *arg, uint64_t off, uint64_t len)
{
	struct verdicts *v = arg;
	const char *why = off < 8192 && off + len > 4096 ? "second page" : NULL;

	if (why)
		v->refused++;
	else
		v->written++;
	return why;
}

START_TEST(refused_writes_are_not_made)
{
	char path[64];
	unsigned char buf[1024], back[1024];
	struct verdicts v = { 0, 0 };
	io_channel ch;
	FILE *f;

	e2x_init_errors();
	snprintf(path, sizeof(path), "/tmp/e2x-guard-%d.img", (int)getpid());
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	memset(buf, 0x11, sizeof(buf));
	for (int i = 0; i < DEV_SIZE / 1024; i++)
		fwrite(buf, 1, sizeof(buf), f);
	fclose(f);
	e2x_guard_policy(no_second_page, &v);
	ck_assert_int_eq(e2x_guard_io_manager->open(path, IO_FLAG_RW, &ch), 0);
	ck_assert_int_eq(io_channel_set_blksize(ch, 1024), 0);
	memset(buf, 0x22, sizeof(buf));
	ck_assert_int_eq(io_channel_write_blk64(ch, 2, 1, buf), 0);
	ck_assert_int_eq(io_channel_write_blk64(ch, 4, 1, buf),
			 E2X_ERR_WRITE_REFUSED);
	ck_assert_int_eq(io_channel_write_blk64(ch, 3, 2, buf),
			 E2X_ERR_WRITE_REFUSED);
	ck_assert_int_eq(io_channel_write_byte(ch, 5000, 4, buf),
			 E2X_ERR_WRITE_REFUSED);
	ck_assert_uint_eq(e2x_guard_refused(), 3);
	ck_assert_int_eq(io_channel_read_blk64(ch, 2, 1, back), 0);
	ck_assert_uint_eq(back[0], 0x22);
	ck_assert_int_eq(io_channel_read_blk64(ch, 4, 1, back), 0);
	ck_assert_uint_eq(back[0], 0x11);
	ck_assert_int_eq(io_channel_read_blk64(ch, 3, 1, back), 0);
	ck_assert_uint_eq(back[0], 0x11);
	io_channel_close(ch);
	e2x_guard_policy(NULL, NULL);
	ck_assert_int_eq(v.refused, 3);
	ck_assert_int_eq(v.written, 1);
	unlink(path);
}
END_TEST

START_TEST(moved_bitmap_is_new_and_zeroed)
{
	struct fixture fx;
	ext2_filsys fs;
	blk64_t old, nb = 0;
	unsigned char *buf;

	fixture_mkfs(&fx, "-b 1024 -O ^flex_bg", "32M");
	fs = fx.fs;
	ck_assert_int_eq(ext2fs_read_bitmaps(fs), 0);
	old = e2x_group_meta_loc(fs, 1, E2X_GM_INODE_BITMAP);
	ck_assert_int_eq(e2x_group_meta_move(fs, 1, E2X_GM_INODE_BITMAP,
					     fs->block_map, &nb),
			 0);
	ck_assert_uint_ne(nb, old);
	ck_assert_uint_eq(e2x_group_meta_loc(fs, 1, E2X_GM_INODE_BITMAP), nb);
	ck_assert_uint_eq(ext2fs_group_of_blk2(fs, nb), 1);
	ck_assert(ext2fs_test_block_bitmap2(fs->block_map, nb));
	ck_assert(ext2fs_group_desc_csum_verify(fs, 1));
	buf = malloc(fs->blocksize);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, nb, 1, buf), 0);
	for (unsigned int i = 0; i < fs->blocksize; i++)
		ck_assert_uint_eq(buf[i], 0);
	free(buf);
	fixture_drop(&fx);
}
END_TEST

static Suite *guard_suite(void)
{
	Suite *s = suite_create("guard_io");
	TCase *tc = tcase_create("guard");

	tcase_add_test(tc, refused_writes_are_not_made);
	tcase_add_test(tc, moved_bitmap_is_new_and_zeroed);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(guard_suite)
