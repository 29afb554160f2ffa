/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dirent.c --- the directory entry format (dirent.c): layout, rec_len
 * coding at 64 KiB, the checksum tail, index checksums against libext2fs,
 * and the record operations of a region.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

_Static_assert(sizeof(struct e2x_dirent) == 8, "dirent header is 8 bytes");
_Static_assert(offsetof(struct e2x_dirent, rec_len) == 4, "rec_len at 4");
_Static_assert(offsetof(struct e2x_dirent, name_len) == 6, "name_len at 6");
_Static_assert(offsetof(struct e2x_dirent, file_type) == 7, "type at 7");
_Static_assert(offsetof(struct e2x_dirent, name) == 8, "name at 8");
_Static_assert(sizeof(struct e2x_dirent_tail) == 12, "tail is 12 bytes");
_Static_assert(offsetof(struct e2x_dirent_tail, det_reserved_ft) == 7,
	       "tail file type at 7");
_Static_assert(offsetof(struct e2x_dirent_tail, det_checksum) == 8,
	       "tail checksum at 8");
_Static_assert(sizeof(struct e2x_dx_root_info) == 8, "root info 8 bytes");
_Static_assert(offsetof(struct e2x_dx_root_info, hash_version) == 4, "hv");
_Static_assert(offsetof(struct e2x_dx_root_info, indirect_levels) == 6,
	       "levels at 6");
_Static_assert(sizeof(struct e2x_dx_countlimit) == 4, "countlimit 4 bytes");
_Static_assert(offsetof(struct e2x_dx_countlimit, count) == 2, "count at 2");
_Static_assert(sizeof(struct e2x_dx_entry) == 8, "dx_entry 8 bytes");
_Static_assert(sizeof(struct e2x_dx_tail) == 8, "dx_tail 8 bytes");
_Static_assert(E2X_DX_ROOT_CL_OFF == 12 + 12 + 8, "root countlimit at 32");

/* Records in a block: rec_len of a 64 KiB block and of every size past
 * 65535 round-trip; 65536 is written as 65535. */
static const struct {
	unsigned int bs, len;
	uint16_t raw;
} rec_len_cases[] = {
	{ 4096, 12, 12 },
	{ 4096, 4096, 4096 },
	{ 65536, 12, 12 },
	{ 65536, 65532, 65532 },
	{ 65536, 65536, 65535 },
	{ 65536, 65524, 65524 },
	{ 262144, 65536, 1 },
	{ 262144, 131072 + 8, 10 },
	{ 262144, 262144, 0 },
};

START_TEST(rec_len_coding)
{
	unsigned int bs = rec_len_cases[_i].bs, len = rec_len_cases[_i].len;
	uint16_t raw = e2x_rec_len_encode(len, bs);

	ck_assert_uint_eq(raw, rec_len_cases[_i].raw);
	ck_assert_uint_eq(e2x_rec_len_decode(raw, bs), len);
}
END_TEST

START_TEST(rec_len_zero_means_block_at_64k)
{
	ck_assert_uint_eq(e2x_rec_len_decode(0, 65536), 65536);
	ck_assert_uint_eq(e2x_rec_len_decode(0, 4096), 0);
}
END_TEST

START_TEST(min_len_rounds_to_four)
{
	ck_assert_uint_eq(e2x_dirent_min_len(1), 12);
	ck_assert_uint_eq(e2x_dirent_min_len(4), 12);
	ck_assert_uint_eq(e2x_dirent_min_len(5), 16);
	ck_assert_uint_eq(e2x_dirent_min_len(255), 264);
}
END_TEST

START_TEST(dx_limits)
{
	ck_assert_uint_eq(e2x_dx_root_limit(4096, 0), 508);
	ck_assert_uint_eq(e2x_dx_root_limit(4096, 1), 507);
	ck_assert_uint_eq(e2x_dx_node_limit(4096, 0), 511);
	ck_assert_uint_eq(e2x_dx_node_limit(1024, 1), 126);
}
END_TEST

START_TEST(tail_layout)
{
	unsigned char blk[1024];

	memset(blk, 0xAA, sizeof(blk));
	e2x_dirblk_tail_init(blk, sizeof(blk));
	ck_assert(e2x_dirblk_has_tail(blk, sizeof(blk)));
	/* inode 0, rec_len 12, name_len 0, type 0xDE, checksum */
	ck_assert_uint_eq(blk[1012] | blk[1013] | blk[1014] | blk[1015], 0);
	ck_assert_uint_eq(blk[1016], 12);
	ck_assert_uint_eq(blk[1017], 0);
	ck_assert_uint_eq(blk[1018], 0);
	ck_assert_uint_eq(blk[1019], 0xDE);
	blk[1019] = 0;
	ck_assert(!e2x_dirblk_has_tail(blk, sizeof(blk)));
}
END_TEST

/* Our checksums must be the ones libext2fs (and so the kernel) accept. */
START_TEST(checksums_match_libext2fs)
{
	struct fixture fx;
	struct ext2_inode inode;
	char *blk;
	unsigned int bs;
	uint32_t seed, crc;
	struct e2x_dirregion r;
	struct ext2_dx_tail *t;
	struct e2x_dx_countlimit *cl;

	fixture_mkfs(&fx, "-b 1024 -O metadata_csum", "8M");
	bs = fx.fs->blocksize;
	blk = calloc(1, bs);
	ck_assert_int_eq(ext2fs_read_inode(fx.fs, 2, &inode), 0);
	seed = e2x_dir_csum_seed(fx.fs, 2, inode.i_generation);

	r.buf = blk;
	r.size = bs - E2X_DIRENT_TAIL_SIZE;
	r.bs = bs;
	e2x_dirregion_init(&r);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 12, "hello", 5, 1), 0);
	e2x_dirblk_tail_init(blk, bs);
	e2x_dirblk_csum_set(seed, blk, bs);
	ck_assert(ext2fs_dir_block_csum_verify(fx.fs, 2, (void *)blk));
	blk[20] ^= 1;
	ck_assert(!ext2fs_dir_block_csum_verify(fx.fs, 2, (void *)blk));

	/* An index node: fake entry covering the block, then countlimit. */
	memset(blk, 0, bs);
	e2x_dirent_set_rec_len((void *)blk, bs, bs);
	cl = (void *)(blk + E2X_DX_NODE_CL_OFF);
	cl->limit = e2x_dx_node_limit(bs, 1);
	cl->count = 3;
	memset(blk + 12, 0x5A, 3 * 8 - 4);
	ck_assert_int_eq(e2x_dx_csum_set(seed, blk, bs, E2X_DX_NODE_CL_OFF),
			 0);
	ck_assert_int_eq(ext2fs_dx_csum(fx.fs, 2, (void *)blk, &crc, &t), 0);
	ck_assert_uint_eq(crc, t->dt_checksum);
	ck_assert_uint_eq(crc, e2x_dx_csum(seed, blk, E2X_DX_NODE_CL_OFF));
	free(blk);
	fixture_drop(&fx);
}
END_TEST

START_TEST(region_insert_find_remove)
{
	char buf[56];
	struct e2x_dirregion r = { buf, sizeof(buf), 4096 };
	int prev, off;

	e2x_dirregion_init(&r);
	ck_assert_int_eq(e2x_dirregion_check(&r), 0);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 11, "a", 1, 2), 0);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 12, "bbbbb", 5, 1), 0);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 13, "cccc", 4, 1), 0);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 14, "dddd", 4, 1), 0);
	/* 12 + 16 + 12 + 12 = 52 used: 4 bytes left, a 1-byte name needs 12 */
	ck_assert_int_eq(e2x_dirregion_insert(&r, 15, "e", 1, 1),
			 E2X_ERR_NO_SPACE);
	ck_assert_uint_eq(e2x_dirregion_count(&r), 4);
	ck_assert_uint_eq(e2x_dirregion_used(&r), 52);
	off = e2x_dirregion_find(&r, "cccc", 4, &prev);
	ck_assert_int_eq(off, 28);
	ck_assert_int_eq(prev, 12);
	e2x_dirregion_remove(&r, off, prev);
	ck_assert_int_eq(e2x_dirregion_check(&r), 0);
	ck_assert_int_eq(e2x_dirregion_find(&r, "cccc", 4, NULL), -1);
	/* the first record is cleared, not merged */
	off = e2x_dirregion_find(&r, "a", 1, &prev);
	ck_assert_int_eq(off, 0);
	ck_assert_int_eq(prev, -1);
	e2x_dirregion_remove(&r, off, prev);
	ck_assert_int_eq(((struct e2x_dirent *)buf)->inode, 0);
	ck_assert_uint_eq(e2x_dirregion_count(&r), 2);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 16, "ffff", 4, 1), 0);
	ck_assert_int_eq(e2x_dirregion_find(&r, "ffff", 4, NULL), 0);
	ck_assert_int_eq(e2x_dirregion_check(&r), 0);
}
END_TEST

/* A '..' record a repair left without its inode keeps its place: a new
 * name goes behind it. */
START_TEST(region_insert_keeps_dotdot_placeholder)
{
	char buf[48];
	struct e2x_dirregion r = { buf, sizeof(buf), 4096 };
	struct e2x_dirent *de = (void *)buf;

	e2x_dirregion_init(&r);
	e2x_dirent_fill(de, 0, "..", 2, 2);
	ck_assert_int_eq(e2x_dirregion_insert(&r, 11, "lost", 4, 2), 0);
	ck_assert_uint_eq(de->inode, 0);
	ck_assert_int_eq(memcmp(de->name, "..", 2), 0);
	ck_assert_int_eq(e2x_dirregion_find(&r, "lost", 4, NULL), 12);
	ck_assert_int_eq(e2x_dirregion_check(&r), 0);
}
END_TEST

/* Broken chains are refused: rec_len past the end, unaligned, too short
 * for its name, zero. */
static const struct {
	uint16_t rec_len;
	uint8_t name_len;
} bad_chain_cases[] = {
	{ 60, 1 }, { 30, 1 }, { 8, 4 }, { 0, 0 }, { 4, 0 },
};

START_TEST(region_check_rejects)
{
	char buf[56];
	struct e2x_dirregion r = { buf, sizeof(buf), 4096 };
	struct e2x_dirent *de = (void *)buf;

	e2x_dirregion_init(&r);
	de->inode = 5;
	de->rec_len = bad_chain_cases[_i].rec_len;
	de->name_len = bad_chain_cases[_i].name_len;
	ck_assert_int_eq(e2x_dirregion_check(&r), E2X_ERR_CORRUPT);
}
END_TEST

static Suite *suite_dirent(void)
{
	Suite *s = suite_create("dirent");
	TCase *tc = tcase_create("format");

	tcase_add_loop_test(tc, rec_len_coding, 0,
			    sizeof(rec_len_cases) / sizeof(rec_len_cases[0]));
	tcase_add_test(tc, rec_len_zero_means_block_at_64k);
	tcase_add_test(tc, min_len_rounds_to_four);
	tcase_add_test(tc, dx_limits);
	tcase_add_test(tc, tail_layout);
	tcase_add_test(tc, checksums_match_libext2fs);
	tcase_add_test(tc, region_insert_find_remove);
	tcase_add_test(tc, region_insert_keeps_dotdot_placeholder);
	tcase_add_loop_test(tc, region_check_rejects, 0,
			    sizeof(bad_chain_cases) /
				    sizeof(bad_chain_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_dirent)
