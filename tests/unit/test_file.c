/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_file.c --- file and symlink content across inline, promotion and
 * packing, on a table of geometries (block size, inode size, bigalloc,
 * metadata_csum).  Each case is one (geometry, scenario) pair on a fresh
 * image; afterwards the image is reopened and every byte compared, the
 * reference e2fsck -fn must be clean, and i_version must have moved by
 * exactly one per operation.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

static const struct {
	const char *opts;
	const char *size;
} geos[] = {
	{ "-b 4096 -I 256 -O inline_data", "16M" },
	{ "-b 1024 -I 256 -O inline_data", "16M" },
	{ "-b 4096 -I 512 -O inline_data", "16M" },
	{ "-b 4096 -I 1024 -O inline_data", "16M" },
	{ "-b 1024 -I 1024 -O inline_data,^metadata_csum", "16M" },
	{ "-b 4096 -I 256 -O inline_data,^metadata_csum", "16M" },
	{ "-b 4096 -I 256 -O inline_data,bigalloc -C 65536", "64M" },
	{ "-b 1024 -I 512 -O inline_data,bigalloc -C 16384", "32M" },
};
#define NGEOS (int)(sizeof(geos) / sizeof(geos[0]))

/* One case's state. */
static struct fixture fx;
static size_t cap;		/* inline capacity of a new file */
static unsigned int bs;		/* block size */
static unsigned int csize;	/* cluster size */
static union {
	struct ext2_inode_large in;
	unsigned char raw[1024];
} ib;

static void load(ext2_ino_t ino)
{
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, &ib.in), 0);
}

static uint64_t version(ext2_ino_t ino)
{
	return fixture_version(&fx, ino, &ib.in);
}

#define OP(ino, call) FIXTURE_OP(&fx, ino, &ib.in, call)

static ext2_ino_t make_inode(const char *name, uint16_t mode, int ft)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO, mode, &ib.in,
				       &ino), 0);
	ck_assert_int_eq(ext2fs_link(fx.fs, EXT2_ROOT_INO, name, ino, ft), 0);
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	return ino;
}

static ext2_ino_t make_file(const char *name)
{
	return make_inode(name, LINUX_S_IFREG | 0644, EXT2_FT_REG_FILE);
}

/*
 * The inline capacity of a new file, from the kernel's rules rather than
 * from the function under test: the 60 bytes of i_block plus the largest
 * system.data value the in-inode area takes.  That area is the inode size
 * less 128, less i_extra_isize (32), less the 4-byte ibody magic; from it
 * go the 4-byte end marker and the entry with its name (16 + 4), and the
 * value is whole 4-byte units.
 */
static size_t expected_capacity(unsigned int inode_size)
{
	switch (inode_size) {
	case 256:
		return 128;	/* 60 + (256 - 128 - 32 - 4 - 4 - 20) */
	case 512:
		return 384;	/* 60 + 324 */
	case 1024:
		return 896;	/* 60 + 836 */
	}
	ck_abort_msg("no expected capacity for %u-byte inodes", inode_size);
	return 0;
}

static void setup(int geo)
{
	ext2_ino_t ino;
	size_t got;

	fixture_mkfs(&fx, geos[geo].opts, geos[geo].size);
	bs = fx.fs->blocksize;
	csize = EXT2_CLUSTER_SIZE(fx.fs->super);
	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO,
				       LINUX_S_IFREG | 0644, &ib.in, &ino), 0);
	cap = expected_capacity(EXT2_INODE_SIZE(fx.fs->super));
	ck_assert_int_eq(e2x_inline_capacity(fx.fs, ino, &ib.in, &got), 0);
	ck_assert_uint_eq(got, cap);
	ext2fs_inode_alloc_stats2(fx.fs, ino, -1, 0);
}

static void expect_inline(ext2_ino_t ino, uint64_t size)
{
	load(ino);
	ck_assert(ib.in.i_flags & EXT4_INLINE_DATA_FL);
	ck_assert(!(ib.in.i_flags & EXT4_EXTENTS_FL));
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), size);
	ck_assert_uint_eq(ib.in.i_blocks, 0);
}

/* Block mapped with NCLUSTERS clusters counted in i_blocks. */
static void expect_blocks(ext2_ino_t ino, uint64_t size, unsigned nclusters)
{
	load(ino);
	ck_assert(!(ib.in.i_flags & EXT4_INLINE_DATA_FL));
	ck_assert(ib.in.i_flags & EXT4_EXTENTS_FL);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), size);
	ck_assert_uint_eq(ib.in.i_blocks, nclusters * (csize / 512));
}

static void expect_content(ext2_ino_t ino, const unsigned char *want,
			   size_t len)
{
	unsigned char *got = calloc(1, len + 16);
	size_t n = 0;

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(e2x_file_read(fx.fs, ino, 0, got, len + 16, &n), 0);
	ck_assert_uint_eq(n, len);
	ck_assert(memcmp(got, want, len) == 0);
	if (len > 3) {		/* a read from the middle */
		ck_assert_int_eq(e2x_file_read(fx.fs, ino, len / 3, got, len,
					       &n), 0);
		ck_assert_uint_eq(n, len - len / 3);
		ck_assert(memcmp(got, want + len / 3, n) == 0);
	}
	free(got);
}

/* Reopen (everything flushed), compare, then the reference fsck. */
static void finish(ext2_ino_t ino, const unsigned char *want, size_t len)
{
	fixture_close(&fx);
	fixture_reopen(&fx);
	if (ino)
		expect_content(ino, want, len);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}

static unsigned int clusters_for(uint64_t bytes)
{
	return (unsigned int)((bytes + csize - 1) / csize);
}

/* ---- scenarios ----------------------------------------------------- */

/* Exactly the capacity stays inline. */
static void sc_exact_capacity(void)
{
	unsigned char buf[1024];
	ext2_ino_t ino = make_file("f");

	fixture_fill(buf, cap, 1);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, cap, 0));
	expect_inline(ino, cap);
	finish(ino, buf, cap);
}

/* One byte over promotes: flag cleared, extents, one block/cluster. */
static void sc_capacity_plus_one(void)
{
	unsigned char buf[1025];
	ext2_ino_t ino = make_file("f");

	fixture_fill(buf, cap + 1, 2);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, cap + 1, 0));
	expect_blocks(ino, cap + 1, 1);
	finish(ino, buf, cap + 1);
}

/* Inline at capacity, then an append of one byte promotes. */
static void sc_append_promotes(void)
{
	unsigned char buf[1025];
	ext2_ino_t ino = make_file("f");
	blk64_t pblk;

	fixture_fill(buf, cap + 1, 3);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, cap, 0));
	expect_inline(ino, cap);
	OP(ino, e2x_file_write(fx.fs, ino, cap, buf + cap, 1, 0));
	expect_blocks(ino, cap + 1, 1);
	ck_assert_int_eq(e2x_map_file_block(fx.fs, ino, &ib.in, 0, &pblk, NULL),
			 0);
	ck_assert_uint_ne(pblk, 0);
	ck_assert_int_eq(e2x_map_file_block(fx.fs, ino, &ib.in, 1, &pblk, NULL),
			 0);
	ck_assert_uint_eq(pblk, 0);
	finish(ino, buf, cap + 1);
}

/* A multi-block file truncated to the inline size, then packed. */
static void sc_truncate_then_pack(void)
{
	size_t len = 3 * bs + 100;
	unsigned char *buf = malloc(len);
	ext2_ino_t ino = make_file("f");

	fixture_fill(buf, len, 4);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, len, 0));
	expect_blocks(ino, len, clusters_for(len));
	ck_assert_int_eq(e2x_file_pack(fx.fs, ino, 0), E2X_ERR_INLINE_TOO_BIG);
	OP(ino, e2x_file_truncate(fx.fs, ino, cap, 0));
	expect_blocks(ino, cap, 1);
	OP(ino, e2x_file_pack(fx.fs, ino, 0));
	expect_inline(ino, cap);
	finish(ino, buf, cap);
	free(buf);
}

/* A write at an offset leaves a hole that reads as zeros. */
static void sc_write_leaves_hole(void)
{
	size_t off = 2 * bs + 7, len = off + 10;
	unsigned char *want = calloc(1, len);
	ext2_ino_t ino = make_file("f");
	blk64_t pblk;

	fixture_fill(want + off, 10, 5);
	OP(ino, e2x_file_write(fx.fs, ino, off, want + off, 10, 0));
	expect_blocks(ino, len, 1);
	ck_assert_int_eq(e2x_map_file_block(fx.fs, ino, &ib.in, 0, &pblk, NULL),
			 0);
	ck_assert_uint_eq(pblk, 0);
	expect_content(ino, want, len);
	/* Fill block 0: a cluster of its own unless bigalloc shares one. */
	fixture_fill(want, 5, 6);
	OP(ino, e2x_file_write(fx.fs, ino, 0, want, 5, 0));
	expect_blocks(ino, len, csize > 2 * bs + 7 ? 1 : 2);
	finish(ino, want, len);
	free(want);
}

/* Inline truncate down keeps it inline (value emptied), up within the
 * capacity pads zeros, past it promotes to a sparse file. */
static void sc_inline_truncate(void)
{
	size_t big = cap + 5000;
	unsigned char *want = calloc(1, big);
	size_t vlen = 1;
	ext2_ino_t ino = make_file("f");

	fixture_fill(want, cap, 7);
	OP(ino, e2x_file_write(fx.fs, ino, 0, want, cap, 0));
	OP(ino, e2x_file_truncate(fx.fs, ino, 10, 0));
	expect_inline(ino, 10);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL, 0,
					     &vlen), 0);
	ck_assert_uint_eq(vlen, 0);
	memset(want + 10, 0, big - 10);
	expect_content(ino, want, 10);
	OP(ino, e2x_file_truncate(fx.fs, ino, cap - 1, 0));
	expect_inline(ino, cap - 1);
	expect_content(ino, want, cap - 1);
	OP(ino, e2x_file_truncate(fx.fs, ino, big, 0));
	expect_blocks(ino, big, 1);
	finish(ino, want, big);
	free(want);
}

/* Growing an empty inline file by a large write. */
static void sc_large_write_from_empty(void)
{
	size_t len = 2 * bs + 1;
	unsigned char *buf = malloc(len);
	ext2_ino_t ino = make_file("f");

	fixture_fill(buf, len, 8);
	expect_inline(ino, 0);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, len, 0));
	expect_blocks(ino, len, clusters_for(len));
	finish(ino, buf, len);
	free(buf);
}

/* Symlinks: fast below 60, inline up to the capacity, a block above. */
static void sc_symlinks(void)
{
	size_t lens[] = { 1, 59, 60, cap, cap + 1, 4095 };
	char name[16], target[4096], got[4096];
	size_t i, n;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len = lens[i];
		ext2_ino_t ino;
		errcode_t err;

		snprintf(name, sizeof(name), "l%zu", len);
		ino = make_inode(name, LINUX_S_IFLNK | 0777, EXT2_FT_SYMLINK);
		memset(target, 'a' + (int)i, len);
		target[0] = '/';
		err = e2x_symlink_write(fx.fs, ino, target, len, 0);
		if (len >= bs) {
			ck_assert_int_eq(err, E2X_ERR_NAME_TOO_LONG);
			/* leave a valid link behind for fsck */
			err = e2x_symlink_write(fx.fs, ino, target, 1, 0);
			len = 1;
		}
		ck_assert_int_eq(err, 0);
		load(ino);
		ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), len);
		if (len < 60) {
			ck_assert_uint_eq(ib.in.i_flags & (EXT4_INLINE_DATA_FL |
							   EXT4_EXTENTS_FL),
					  0);
			ck_assert_uint_eq(ib.in.i_blocks, 0);
		} else if (len <= cap) {
			expect_inline(ino, len);
		} else {
			expect_blocks(ino, len, 1);
		}
		ck_assert_int_eq(e2x_symlink_read(fx.fs, ino, got, sizeof(got),
						  &n), 0);
		ck_assert_uint_eq(n, len);
		ck_assert(memcmp(got, target, len) == 0);
	}
	finish(0, NULL, 0);
}

/* Packing a file that does not fit changes nothing, not even i_version;
 * promoting an inline file on request gives it one block. */
static void sc_pack_refused_promote_forced(void)
{
	unsigned char buf[1025];
	ext2_ino_t a = make_file("a"), b = make_file("b");
	uint64_t v;

	fixture_fill(buf, cap + 1, 9);
	OP(a, e2x_file_write(fx.fs, a, 0, buf, cap + 1, 0));
	v = version(a);
	ck_assert_int_eq(e2x_file_pack(fx.fs, a, 0), E2X_ERR_INLINE_TOO_BIG);
	ck_assert_uint_eq(version(a), v);
	expect_blocks(a, cap + 1, 1);
	OP(b, e2x_file_write(fx.fs, b, 0, buf, 61, 0));
	OP(b, e2x_file_promote(fx.fs, b, 0));
	expect_blocks(b, 61, 1);
	expect_content(b, buf, 61);
	OP(b, e2x_file_pack(fx.fs, b, 0));
	expect_inline(b, 61);
	finish(b, buf, 61);
}

/* Shrinking frees whole clusters (and counts them back in i_blocks). */
static void sc_truncate_frees_clusters(void)
{
	size_t len = 2 * csize + bs;
	unsigned char *buf = malloc(len);
	ext2_ino_t ino = make_file("f");

	fixture_fill(buf, len, 10);
	OP(ino, e2x_file_write(fx.fs, ino, 0, buf, len, 0));
	expect_blocks(ino, len, 3);
	OP(ino, e2x_file_truncate(fx.fs, ino, bs / 2, 0));
	expect_blocks(ino, bs / 2, 1);
	finish(ino, buf, bs / 2);
	free(buf);
}

/* A sparse file with more extents than i_block holds (an extent block),
 * cut to nothing and packed back inline. */
static void sc_many_extents(void)
{
	unsigned char byte = 0x42, none = 0;
	ext2_ino_t ino = make_file("f");
	uint64_t off = 0;
	int k;

	for (k = 0; k < 8; k++) {
		off = (uint64_t)k * 2 * csize;
		OP(ino, e2x_file_write(fx.fs, ino, off, &byte, 1, 0));
	}
	load(ino);
	ck_assert_uint_gt(
		((struct ext3_extent_header *)ib.in.i_block)->eh_depth, 0);
	/* 8 data clusters and the extent block (a whole cluster too) */
	ck_assert_uint_eq(ib.in.i_blocks, 9 * (csize / 512));
	OP(ino, e2x_file_truncate(fx.fs, ino, 0, 0));
	expect_blocks(ino, 0, 0);
	OP(ino, e2x_file_pack(fx.fs, ino, 0));
	expect_inline(ino, 0);
	finish(ino, &none, 0);
}

/* An inline symlink forced into a block and packed back. */
static void sc_symlink_promote_pack(void)
{
	char target[1024], got[1024];
	ext2_ino_t ino = make_inode("l", LINUX_S_IFLNK | 0777,
				    EXT2_FT_SYMLINK);
	size_t n;

	memset(target, 'q', cap);
	OP(ino, e2x_symlink_write(fx.fs, ino, target, cap, 0));
	expect_inline(ino, cap);
	OP(ino, e2x_file_promote(fx.fs, ino, 0));
	expect_blocks(ino, cap, 1);
	ck_assert_int_eq(e2x_symlink_read(fx.fs, ino, got, sizeof(got), &n),
			 0);
	ck_assert_uint_eq(n, cap);
	ck_assert(memcmp(got, target, cap) == 0);
	OP(ino, e2x_file_pack(fx.fs, ino, 0));
	expect_inline(ino, cap);
	/* Rewritten shorter: a fast symlink again. */
	OP(ino, e2x_symlink_write(fx.fs, ino, "/x", 2, 0));
	load(ino);
	ck_assert_uint_eq(ib.in.i_flags & EXT4_INLINE_DATA_FL, 0);
	ck_assert_mem_eq(ib.in.i_block, "/x", 2);
	finish(0, NULL, 0);
}

static void (*const scenarios[])(void) = {
	sc_truncate_frees_clusters, sc_many_extents, sc_symlink_promote_pack,
	sc_exact_capacity,	sc_capacity_plus_one,
	sc_append_promotes,	sc_truncate_then_pack,
	sc_write_leaves_hole,	sc_inline_truncate,
	sc_large_write_from_empty, sc_symlinks,
	sc_pack_refused_promote_forced,
};
#define NSCEN (int)(sizeof(scenarios) / sizeof(scenarios[0]))

START_TEST(geometry_x_scenario)
{
	setup(_i / NSCEN);
	scenarios[_i % NSCEN]();
}
END_TEST

/* Out of space in the middle of a write: an error, but what was stored is
 * recorded (i_size, i_blocks, i_version once) and the image stays clean. */
static const char *const full_opts[] = {
	"-b 1024 -I 256 -O inline_data",
	"-b 1024 -I 256 -O inline_data,bigalloc -C 4096",
};

START_TEST(write_until_full)
{
	unsigned char *buf;
	size_t len;
	uint64_t v0, size;
	ext2_ino_t ino;
	errcode_t err;

	fixture_mkfs(&fx, full_opts[_i], "4M");
	bs = fx.fs->blocksize;
	csize = EXT2_CLUSTER_SIZE(fx.fs->super);
	len = (size_t)ext2fs_free_blocks_count(fx.fs->super) * bs + 64 * csize;
	buf = malloc(len);
	ck_assert_ptr_nonnull(buf);
	fixture_fill(buf, len, 11);
	ino = make_file("f");
	v0 = version(ino);
	err = e2x_file_write(fx.fs, ino, 0, buf, len, 0);
	ck_assert_int_ne(err, 0);
	ck_assert_uint_eq(version(ino), v0 + 1);
	size = EXT2_I_SIZE(&ib.in);
	ck_assert_uint_gt(size, 0);
	ck_assert_uint_lt(size, len);
	finish(ino, buf, size);
	free(buf);
}
END_TEST

/* Conversion: every file and symlink that fits is packed, the rest is
 * left alone (content, storage and i_version untouched). */
START_TEST(pack_all_converts_what_fits)
{
	unsigned char buf[1025];
	ext2_ino_t small, big, link, fast;
	unsigned long packed = 0;
	uint64_t vbig, vfast;

	setup(_i);
	fixture_fill(buf, cap + 1, 12);
	small = make_file("small");
	OP(small, e2x_file_write(fx.fs, small, 0, buf, 100, 0));
	OP(small, e2x_file_promote(fx.fs, small, 0));
	big = make_file("big");
	OP(big, e2x_file_write(fx.fs, big, 0, buf, cap + 1, 0));
	link = make_inode("link", LINUX_S_IFLNK | 0777, EXT2_FT_SYMLINK);
	OP(link, e2x_symlink_write(fx.fs, link, (char *)buf, cap, 0));
	OP(link, e2x_file_promote(fx.fs, link, 0));
	fast = make_inode("fast", LINUX_S_IFLNK | 0777, EXT2_FT_SYMLINK);
	OP(fast, e2x_symlink_write(fx.fs, fast, "/t", 2, 0));
	vbig = version(big);
	vfast = version(fast);
	ck_assert_int_eq(e2x_file_pack_all(fx.fs, 0, &packed), 0);
	ck_assert_uint_eq(packed, 2);
	expect_inline(small, 100);
	expect_inline(link, cap);
	expect_blocks(big, cap + 1, 1);
	ck_assert_uint_eq(version(big), vbig);
	ck_assert_uint_eq(version(fast), vfast);
	expect_content(big, buf, cap + 1);
	finish(small, buf, 100);
}
END_TEST

static Suite *suite_file(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("content");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, geometry_x_scenario, 0, NGEOS * NSCEN);
	tcase_add_loop_test(tc, pack_all_converts_what_fits, 0, NGEOS);
	tcase_add_loop_test(tc, write_until_full, 0,
			    sizeof(full_opts) / sizeof(full_opts[0]));
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_file)
