/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_overlay_io.c --- the copy-on-write overlay channel: reads see the
 * device patched by every write at any alignment and block size, and the
 * device itself never changes.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

#define DEV_SIZE (64 * 1024)

static char path[64];
static unsigned char model[DEV_SIZE + 8192];	/* what reads must see */

static void make_device(void)
{
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/tmp/e2x-ovl-%d.img", (int)getpid());
	for (i = 0; i < DEV_SIZE; i++)
		model[i] = (unsigned char)(i * 7 + i / 1024);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(model, 1, DEV_SIZE, f), DEV_SIZE);
	fclose(f);
}

static void device_unchanged(void)
{
	unsigned char *buf = malloc(DEV_SIZE);
	FILE *f = fopen(path, "rb");
	int i;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(buf, 1, DEV_SIZE, f), DEV_SIZE);
	fclose(f);
	for (i = 0; i < DEV_SIZE; i++)
		ck_assert_uint_eq(buf[i], (unsigned char)(i * 7 + i / 1024));
	free(buf);
}

/* Read all of [0, len) through CH at block size BS and compare. */
static void reads_match(io_channel ch, int bs, size_t len)
{
	unsigned char *buf = malloc(len);
	size_t i;

	ck_assert_int_eq(io_channel_set_blksize(ch, bs), 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, 0, len / bs, buf), 0);
	for (i = 0; i < len; i++)
		ck_assert_msg(buf[i] == model[i], "byte %zu: %u != %u", i,
			      buf[i], model[i]);
	free(buf);
}

START_TEST(writes_land_in_memory_only)
{
	struct e2x_overlay *ov;
	io_channel ch;
	unsigned char blk[4096], b[100];

	make_device();
	ck_assert_int_eq(e2x_overlay_create(path, &ov), 0);
	ck_assert_int_eq(e2x_overlay_channel(ov, &ch), 0);
	/* a whole 4k block */
	ck_assert_int_eq(io_channel_set_blksize(ch, 4096), 0);
	memset(blk, 'X', sizeof(blk));
	ck_assert_int_eq(io_channel_write_blk64(ch, 2, 1, blk), 0);
	memset(model + 8192, 'X', 4096);
	/* unaligned bytes straddling a 1k unit */
	memset(b, 'Y', sizeof(b));
	ck_assert_int_eq(io_channel_write_byte(ch, 3070, 10, b), 0);
	memset(model + 3070, 'Y', 10);
	/* a byte count (negative count) at 1k block size */
	ck_assert_int_eq(io_channel_set_blksize(ch, 1024), 0);
	ck_assert_int_eq(io_channel_write_blk64(ch, 20, -100, b), 0);
	memset(model + 20 * 1024, 'Y', 100);
	/* zeroes */
	ck_assert_int_eq(io_channel_zeroout(ch, 30, 2), 0);
	memset(model + 30 * 1024, 0, 2048);
	reads_match(ch, 1024, DEV_SIZE);
	reads_match(ch, 4096, DEV_SIZE);
	reads_match(ch, 16384, DEV_SIZE);
	/* a byte-count read crossing patched and unpatched units */
	ck_assert_int_eq(io_channel_set_blksize(ch, 1024), 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, 2, -100, b), 0);
	ck_assert_int_eq(memcmp(b, model + 2048, 100), 0);
	ck_assert_uint_eq(e2x_overlay_bytes(ov), 4096 + 2048 + 1024 + 2048);
	io_channel_close(ch);
	device_unchanged();
	e2x_overlay_release(ov);
	unlink(path);
}
END_TEST

START_TEST(past_the_end_only_what_was_written)
{
	struct e2x_overlay *ov;
	io_channel ch;
	unsigned char blk[1024], out[1024];

	make_device();
	ck_assert_int_eq(e2x_overlay_create(path, &ov), 0);
	ck_assert_int_eq(e2x_overlay_channel(ov, &ch), 0);
	memset(blk, 'Z', sizeof(blk));
	ck_assert_int_eq(io_channel_write_blk64(ch, DEV_SIZE / 1024 + 2, 1,
						blk), 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, DEV_SIZE / 1024 + 2, 1,
					       out), 0);
	ck_assert_int_eq(memcmp(out, blk, sizeof(blk)), 0);
	/* never written, past the device: an error, not invented data */
	ck_assert_int_ne(io_channel_read_blk64(ch, DEV_SIZE / 1024 + 5, 1,
					       out), 0);
	/* the overlay outlives a released handle while a channel holds it */
	e2x_overlay_release(ov);
	ck_assert_int_eq(io_channel_read_blk64(ch, DEV_SIZE / 1024 + 2, 1,
					       out), 0);
	io_channel_close(ch);
	device_unchanged();
	unlink(path);
}
END_TEST

START_TEST(open_by_name_is_refused)
{
	io_channel ch;

	ck_assert_int_ne(e2x_overlay_io_manager->open("/dev/null", 0, &ch), 0);
	ck_assert_int_eq(e2x_overlay_channel(NULL, &ch), E2X_ERR_MAGIC);
}
END_TEST

static Suite *overlay_suite(void)
{
	Suite *s = suite_create("overlay_io");
	TCase *tc = tcase_create("overlay");

	tcase_add_test(tc, writes_land_in_memory_only);
	tcase_add_test(tc, past_the_end_only_what_was_written);
	tcase_add_test(tc, open_by_name_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(overlay_suite)
