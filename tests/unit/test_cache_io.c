/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cache_io.c --- the write-back block cache channel: reads see every
 * write at once, dirty blocks survive eviction, transfers past the cache
 * stay in step with it, flush and close put the device right, and device
 * errors reach the caller; block sizes 1 KiB to 64 KiB.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

#define DEV_SIZE (2u << 20)
#define CACHE_MB "1"

static const int sizes[] = { 1024, 2048, 4096, 8192, 65536 };

static char path[64];
static unsigned char *model;	/* what reads through the channel see */
static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static void make_device(void)
{
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "/tmp/e2x-cacheio-%d.img", (int)getpid());
	model = malloc(DEV_SIZE);
	ck_assert_ptr_nonnull(model);
	for (i = 0; i < DEV_SIZE; i++)
		model[i] = (unsigned char)(i * 13 + i / 4096);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(model, 1, DEV_SIZE, f), DEV_SIZE);
	fclose(f);
}

static void drop_device(void)
{
	unlink(path);
	free(model);
	model = NULL;
}

/* The device file itself equals the model. */
static void device_matches(void)
{
	unsigned char *buf = malloc(DEV_SIZE);
	FILE *f = fopen(path, "rb");
	size_t i;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(buf, 1, DEV_SIZE, f), DEV_SIZE);
	fclose(f);
	for (i = 0; i < DEV_SIZE && buf[i] == model[i]; i++)
		;
	ck_assert_msg(i == DEV_SIZE, "device byte %zu differs", i);
	free(buf);
}

/* Bytes [OFF, OFF+LEN) of the device file. */
static void device_read(uint64_t off, size_t len, void *buf)
{
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, buf, len, off), (ssize_t)len);
	close(fd);
}

static io_channel open_cache(int flags, int bs)
{
	io_channel ch;

	ck_assert_int_eq(e2x_cache_io_manager->open(path, flags, &ch), 0);
	ck_assert_int_eq(io_channel_set_options(ch, "cache_mb=" CACHE_MB), 0);
	ck_assert_int_eq(io_channel_set_blksize(ch, bs), 0);
	return ch;
}

static void fill(unsigned char *p, size_t len)
{
	size_t i;

	rnd(1);
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(rng >> (i % 8 * 8)) + (unsigned char)i;
}

/* Block B (single-block read) and a multi-block read around it match. */
static void reads_match(io_channel ch, int bs, unsigned int b)
{
	unsigned int nblk = DEV_SIZE / bs, n = 1 + rnd(4);
	unsigned char *buf = malloc((size_t)4 * bs);

	ck_assert_int_eq(io_channel_read_blk64(ch, b, 1, buf), 0);
	ck_assert_int_eq(memcmp(buf, model + (size_t)b * bs, bs), 0);
	if (b + n > nblk)
		b = nblk - n;
	ck_assert_int_eq(io_channel_read_blk64(ch, b, n, buf), 0);
	ck_assert_int_eq(memcmp(buf, model + (size_t)b * bs, (size_t)n * bs),
			 0);
	free(buf);
}

/* One random write: a block, a run of blocks or a byte range. */
static void random_write(io_channel ch, int bs)
{
	unsigned int nblk = DEV_SIZE / bs, b = rnd(nblk), n, kind = rnd(8);
	unsigned char *buf = malloc((size_t)4 * bs);
	uint64_t off;
	size_t len;

	if (kind < 5) {
		fill(buf, bs);
		ck_assert_int_eq(io_channel_write_blk64(ch, b, 1, buf), 0);
		memcpy(model + (size_t)b * bs, buf, bs);
	} else if (kind < 7) {
		n = 2 + rnd(3);
		if (b + n > nblk)
			b = nblk - n;
		fill(buf, (size_t)n * bs);
		ck_assert_int_eq(io_channel_write_blk64(ch, b, n, buf), 0);
		memcpy(model + (size_t)b * bs, buf, (size_t)n * bs);
	} else {
		len = 1 + rnd(2 * bs);
		off = rnd(DEV_SIZE - len);
		fill(buf, len);
		ck_assert_int_eq(io_channel_write_byte(ch, off, len, buf), 0);
		memcpy(model + off, buf, len);
	}
	free(buf);
}

/* Read-after-write under random traffic wider than the cache (dirty
 * blocks are evicted), for every block size; flush puts the device right
 * and the counters saw evictions and write-backs. */
START_TEST(read_after_write_with_eviction)
{
	int bs = sizes[_i];
	struct e2x_cache_io_stats st;
	io_channel ch;
	unsigned int i;

	make_device();
	ch = open_cache(IO_FLAG_RW, bs);
	for (i = 0; i < 2500; i++) {
		random_write(ch, bs);
		reads_match(ch, bs, rnd(DEV_SIZE / bs));
	}
	ck_assert_int_eq(e2x_cache_io_stats(ch, &st), 0);
	ck_assert_uint_gt(st.evictions, 0);
	ck_assert_uint_gt(st.writebacks, 0);
	ck_assert_uint_le(st.cached * bs, 1u << 20);
	ck_assert_int_eq(io_channel_flush(ch), 0);
	ck_assert_int_eq(e2x_cache_io_stats(ch, &st), 0);
	ck_assert_uint_eq(st.dirty, 0);
	device_matches();
	ck_assert_int_eq(io_channel_close(ch), 0);
	device_matches();
	drop_device();
}
END_TEST

/* A written block stays off the device until flush; a later multi-block
 * write over it wins on the device; a byte write into a dirty block keeps
 * both its bytes and the dirty ones; close writes what flush would. */
START_TEST(flush_order)
{
	int bs = sizes[_i];
	unsigned char *a = malloc(3 * bs), *d = malloc(3 * bs);
	io_channel ch;

	make_device();
	ch = open_cache(IO_FLAG_RW, bs);
	fill(a, bs);
	ck_assert_int_eq(io_channel_write_blk64(ch, 5, 1, a), 0);
	memcpy(model + 5 * bs, a, bs);
	device_read(5 * bs, bs, d);
	ck_assert_int_ne(memcmp(d, a, bs), 0);	/* write-back: not yet */
	ck_assert_int_eq(io_channel_flush(ch), 0);
	device_read(5 * bs, bs, d);
	ck_assert_int_eq(memcmp(d, a, bs), 0);

	/* dirty single block, then a three-block write covering it */
	fill(a, bs);
	ck_assert_int_eq(io_channel_write_blk64(ch, 9, 1, a), 0);
	fill(a, 3 * bs);
	ck_assert_int_eq(io_channel_write_blk64(ch, 8, 3, a), 0);
	memcpy(model + 8 * bs, a, 3 * bs);
	ck_assert_int_eq(io_channel_flush(ch), 0);
	device_matches();

	/* dirty block, then bytes in its middle */
	fill(a, bs);
	ck_assert_int_eq(io_channel_write_blk64(ch, 12, 1, a), 0);
	memcpy(model + 12 * bs, a, bs);
	fill(a, 100);
	ck_assert_int_eq(io_channel_write_byte(ch, 12 * bs + 10, 100, a), 0);
	memcpy(model + 12 * bs + 10, a, 100);
	reads_match(ch, bs, 12);

	/* zeroout forgets the cached copy, dirty or not */
	fill(a, bs);
	ck_assert_int_eq(io_channel_write_blk64(ch, 20, 1, a), 0);
	ck_assert_int_eq(io_channel_zeroout(ch, 20, 2), 0);
	memset(model + 20 * bs, 0, 2 * bs);
	reads_match(ch, bs, 20);

	ck_assert_int_eq(io_channel_close(ch), 0);
	device_matches();
	free(a);
	free(d);
	drop_device();
}
END_TEST

/* Tags: 0 for an uncached block or another channel, new after a write. */
START_TEST(content_tags)
{
	unsigned char *buf = malloc(4096);
	uint64_t t1, t2;
	io_channel ch, plain;

	make_device();
	ch = open_cache(IO_FLAG_RW, 4096);
	ck_assert_uint_eq(e2x_cache_io_tag(ch, 3), 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, 3, 1, buf), 0);
	t1 = e2x_cache_io_tag(ch, 3);
	ck_assert_uint_ne(t1, 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, 3, 1, buf), 0);
	ck_assert_uint_eq(e2x_cache_io_tag(ch, 3), t1);
	ck_assert_int_eq(io_channel_write_blk64(ch, 3, 1, buf), 0);
	t2 = e2x_cache_io_tag(ch, 3);
	ck_assert_uint_ne(t2, t1);
	ck_assert_int_eq(io_channel_write_byte(ch, 3 * 4096 + 1, 1, buf), 0);
	ck_assert_uint_ne(e2x_cache_io_tag(ch, 3), t2);
	ck_assert_int_eq(unix_io_manager->open(path, 0, &plain), 0);
	ck_assert_uint_eq(e2x_cache_io_tag(plain, 3), 0);
	io_channel_close(plain);
	ck_assert_int_eq(io_channel_close(ch), 0);
	free(buf);
	drop_device();
}
END_TEST

/* Borrow sees the cached bytes (the device's on a miss, the last write
 * after one) without a copy; modify changes them in place as a write
 * does: new tag, dirty, on the device after flush.  Other channels,
 * writethrough and uncached blocks are refused. */
START_TEST(borrow_and_modify)
{
	unsigned char *buf = malloc(4096);
	const void *p;
	void *w;
	uint64_t t1, t2, *aux;
	io_channel ch, plain;

	make_device();
	ch = open_cache(IO_FLAG_RW, 4096);
	ck_assert_int_eq(e2x_cache_io_modify(ch, 5, &w, &t1, NULL, NULL),
			 E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 5, &p, &t1, NULL), 0);
	ck_assert_int_eq(memcmp(p, model + 5 * 4096, 4096), 0);
	ck_assert_uint_eq(t1, e2x_cache_io_tag(ch, 5));
	fill(buf, 4096);
	ck_assert_int_eq(io_channel_write_blk64(ch, 6, 1, buf), 0);
	memcpy(model + 6 * 4096, buf, 4096);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 6, &p, &t1, NULL), 0);
	ck_assert_int_eq(memcmp(p, buf, 4096), 0);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 5, &p, &t1, &aux), 0);
	ck_assert_uint_eq(*aux, 0);
	*aux = 42;			/* kept while the bytes are */
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 6, &p, &t2, NULL), 0);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 5, &p, &t2, &aux), 0);
	ck_assert_uint_eq(t2, t1);
	ck_assert_uint_eq(*aux, 42);
	ck_assert_int_eq(io_channel_write_blk64(ch, 6, 1, buf), 0);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 6, &p, &t2, &aux), 0);
	ck_assert_uint_eq(*aux, 0);	/* a write clears it */
	*aux = 42;
	ck_assert_int_eq(io_channel_write_byte(ch, 6 * 4096 + 9, 1, buf), 0);
	memcpy(model + 6 * 4096 + 9, buf, 1);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 6, &p, &t2, &aux), 0);
	ck_assert_uint_eq(*aux, 0);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 5, &p, &t1, &aux), 0);
	ck_assert_int_eq(e2x_cache_io_modify(ch, 5, &w, &t2, &aux, NULL), 0);
	ck_assert_uint_eq(*aux, 0);	/* and so does a change in place */
	ck_assert_ptr_eq(w, p);
	ck_assert_uint_ne(t2, t1);
	ck_assert_uint_eq(e2x_cache_io_tag(ch, 5), t2);
	fill(w, 4096);
	memcpy(model + 5 * 4096, w, 4096);
	ck_assert_int_eq(io_channel_read_blk64(ch, 5, 1, buf), 0);
	ck_assert_int_eq(memcmp(buf, model + 5 * 4096, 4096), 0);
	ck_assert_int_ne(e2x_cache_io_borrow(ch, DEV_SIZE / 4096 + 5, &p,
					     &t1, NULL), 0);
	ck_assert_int_eq(io_channel_flush(ch), 0);
	device_matches();
	ck_assert_int_eq(io_channel_set_options(ch, "writethrough"), 0);
	ck_assert_int_eq(e2x_cache_io_modify(ch, 5, &w, &t2, NULL, NULL),
			 EXT2_ET_UNIMPLEMENTED);
	ck_assert_int_eq(unix_io_manager->open(path, 0, &plain), 0);
	ck_assert_int_eq(e2x_cache_io_borrow(plain, 5, &p, &t1, NULL),
			 EXT2_ET_UNIMPLEMENTED);
	io_channel_close(plain);
	ck_assert_int_eq(io_channel_close(ch), 0);
	free(buf);
	drop_device();
}
END_TEST

/* A fixup for test blocks: byte 0 becomes the sum of the others. */
static unsigned int fixups;

static void sum_fixup(void *data, unsigned int size, unsigned long long blk,
		      uint64_t *aux)
{
	unsigned char *p = data, sum = 0;
	unsigned int i;

	for (i = 1; i < size; i++)
		sum += p[i];
	p[0] = sum;
	*aux = blk;
	fixups++;
}

static unsigned char sum_of(const unsigned char *p, unsigned int size)
{
	unsigned char sum = 0;
	unsigned int i;

	for (i = 1; i < size; i++)
		sum += p[i];
	return sum;
}

/* A change in place with a fixup: borrowers see it unfinished, a read
 * (one fixup, a new tag), a flush or a change without fixup finish it
 * once however often it was changed; a whole-block write cancels it. */
START_TEST(deferred_fixup)
{
	unsigned char *buf = malloc(4096), *q;
	const void *p;
	void *w;
	uint64_t t1, t2, *aux;
	io_channel ch;
	int i;

	make_device();
	ch = open_cache(IO_FLAG_RW, 4096);
	fixups = 0;
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 9, &p, &t1, &aux), 0);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(e2x_cache_io_modify(ch, 9, &w, &t1, &aux,
						     sum_fixup), 0);
		q = w;
		q[100 + i] ^= 0x5a;
		q[0] = 0;
		*aux = 7;
	}
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 9, &p, &t2, &aux), 0);
	ck_assert_uint_eq(t2, t1);
	ck_assert_uint_eq(*aux, 7);
	ck_assert_uint_eq(((const unsigned char *)p)[0], 0);
	ck_assert_uint_eq(fixups, 0);
	ck_assert_int_eq(io_channel_read_blk64(ch, 9, 1, buf), 0);
	ck_assert_uint_eq(fixups, 1);
	ck_assert_uint_eq(buf[0], sum_of(buf, 4096));
	ck_assert_uint_ne(e2x_cache_io_tag(ch, 9), t1);
	ck_assert_int_eq(e2x_cache_io_borrow(ch, 9, &p, &t2, &aux), 0);
	ck_assert_uint_eq(*aux, 9);
	ck_assert_int_eq(io_channel_read_blk64(ch, 9, 1, buf), 0);
	ck_assert_uint_eq(fixups, 1);
	memcpy(model + 9 * 4096, buf, 4096);
	/* pending at flush: written finished */
	ck_assert_int_eq(e2x_cache_io_modify(ch, 9, &w, &t1, &aux, sum_fixup),
			 0);
	q = w;
	q[200] ^= 1;
	model[9 * 4096 + 200] ^= 1;
	model[9 * 4096] = sum_of(model + 9 * 4096, 4096);
	ck_assert_int_eq(io_channel_flush(ch), 0);
	ck_assert_uint_eq(fixups, 2);
	device_matches();
	/* a change without fixup finishes the pending one first */
	ck_assert_int_eq(e2x_cache_io_modify(ch, 9, &w, &t1, &aux, sum_fixup),
			 0);
	q = w;
	q[300] ^= 1;
	ck_assert_int_eq(e2x_cache_io_modify(ch, 9, &w, &t1, &aux, NULL), 0);
	ck_assert_uint_eq(fixups, 3);
	q = w;
	ck_assert_uint_eq(q[0], sum_of(q, 4096));
	/* a whole-block write replaces a pending change */
	ck_assert_int_eq(e2x_cache_io_modify(ch, 9, &w, &t1, &aux, sum_fixup),
			 0);
	fill(buf, 4096);
	ck_assert_int_eq(io_channel_write_blk64(ch, 9, 1, buf), 0);
	memcpy(model + 9 * 4096, buf, 4096);
	ck_assert_int_eq(io_channel_close(ch), 0);
	ck_assert_uint_eq(fixups, 3);
	device_matches();
	free(buf);
	drop_device();
}
END_TEST

/* Device errors reach the caller: a read past the end fails; on a
 * read-only device a dirty block cannot be written back, so eviction
 * makes the write that needs the room fail, and flush and close fail. */
START_TEST(errors_propagate)
{
	int bs = sizes[_i];
	unsigned int cap = (1u << 20) / bs, i;
	unsigned char *buf = malloc(bs);
	errcode_t err = 0;
	io_channel ch;

	make_device();
	ch = open_cache(0, bs);
	ck_assert_int_ne(io_channel_read_blk64(ch, DEV_SIZE / bs + 5, 1, buf),
			 0);
	ck_assert_uint_eq(e2x_cache_io_tag(ch, DEV_SIZE / bs + 5), 0);
	fill(buf, bs);
	for (i = 0; i <= cap && !err; i++)
		err = io_channel_write_blk64(ch, i, 1, buf);
	ck_assert_int_ne(err, 0);
	ck_assert_uint_eq(i, cap + 1);
	ck_assert_int_ne(io_channel_flush(ch), 0);
	ck_assert_int_ne(io_channel_close(ch), 0);
	device_matches();	/* the device never changed */
	free(buf);
	drop_device();
}
END_TEST

/* Options: a bad cache size is refused; writethrough reaches the device
 * at once. */
START_TEST(options)
{
	unsigned char *a = malloc(4096), *d = malloc(4096);
	io_channel ch;

	make_device();
	ch = open_cache(IO_FLAG_RW, 4096);
	ck_assert_int_ne(io_channel_set_options(ch, "cache_mb=0"), 0);
	ck_assert_int_ne(io_channel_set_options(ch, "cache_mb=x"), 0);
	fill(a, 4096);
	ck_assert_int_eq(io_channel_write_blk64(ch, 7, 1, a), 0);
	ck_assert_int_eq(io_channel_set_options(ch, "writethrough"), 0);
	device_read(7 * 4096, 4096, d);
	ck_assert_int_eq(memcmp(a, d, 4096), 0);	/* dirty went out */
	fill(a, 4096);
	ck_assert_int_eq(io_channel_write_blk64(ch, 8, 1, a), 0);
	device_read(8 * 4096, 4096, d);
	ck_assert_int_eq(memcmp(a, d, 4096), 0);
	ck_assert_int_eq(io_channel_close(ch), 0);
	free(a);
	free(d);
	drop_device();
}
END_TEST

static Suite *cache_io_suite(void)
{
	Suite *s = suite_create("cache_io");
	TCase *tc = tcase_create("core");
	int n = sizeof(sizes) / sizeof(sizes[0]);

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, read_after_write_with_eviction, 0, n);
	tcase_add_loop_test(tc, flush_order, 0, n);
	tcase_add_test(tc, content_tags);
	tcase_add_test(tc, borrow_and_modify);
	tcase_add_test(tc, deferred_fixup);
	tcase_add_loop_test(tc, errors_propagate, 0, n);
	tcase_add_test(tc, options);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(cache_io_suite)
