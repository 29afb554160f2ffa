/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_repair_inode.c --- the inode repair primitives of lib/repair_*.c,
 * one case per kind of damage: a file is written, one map entry broken (its block given
 * back so that only the pointer is wrong), the primitive run, the inode
 * written once; then the map must hold exactly the sound blocks and the
 * reference e2fsck -fn must be clean.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"
#include <ext2fs/ext3_extents.h>

static struct fixture fx;
static union {
	struct ext2_inode_large in;
	char raw[1024];
} ib;

/* A regular file in / with one block of data at each of LBLKS. */
static ext2_ino_t make_file(const char *name, const uint32_t *lblks, int n)
{
	unsigned char buf[4096];
	ext2_ino_t ino;
	int i;

	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO,
				       LINUX_S_IFREG | 0644, &ib.in, &ino), 0);
	ck_assert_int_eq(ext2fs_link(fx.fs, EXT2_ROOT_INO, name, ino,
				     EXT2_FT_REG_FILE), 0);
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	for (i = 0; i < n; i++) {
		fixture_fill(buf, fx.fs->blocksize, lblks[i] + 1);
		ck_assert_int_eq(e2x_file_write(fx.fs, ino,
					(uint64_t)lblks[i] * fx.fs->blocksize,
					buf, fx.fs->blocksize, 0), 0);
	}
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, &ib.in), 0);
	return ino;
}

static blk64_t pblk_of(ext2_ino_t ino, blk64_t lblk)
{
	blk64_t p = 0;

	ck_assert_int_eq(ext2fs_bmap2(fx.fs, ino, (struct ext2_inode *)&ib.in,
				      NULL, 0, lblk, NULL, &p), 0);
	return p;
}

/* Give back the block at LBLK as if it had never been allocated. */
static void forget_block(ext2_ino_t ino, blk64_t lblk)
{
	blk64_t p = pblk_of(ino, lblk);

	ck_assert_uint_ne(p, 0);
	ext2fs_block_alloc_stats2(fx.fs, p, -1);
	ext2fs_iblk_sub_blocks(fx.fs, (struct ext2_inode *)&ib.in, 1);
}

/* Write the repaired inode once and require a clean reference check. */
static void finish(ext2_ino_t ino)
{
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}

START_TEST(clear_inode_marks_deleted)
{
	memset(&ib, 0, sizeof(ib));
	ib.in.i_links_count = 2;
	ib.in.i_mode = LINUX_S_IFREG | 0600;
	ib.in.i_flags = EXT4_INLINE_DATA_FL | EXT2_INDEX_FL | EXT4_EXTENTS_FL;
	e2x_repair_clear_inode(&ib.in, 1234);
	ck_assert_uint_eq(ib.in.i_links_count, 0);
	ck_assert_uint_eq(ib.in.i_dtime, 1234);
	ck_assert_uint_eq(ib.in.i_flags, EXT4_EXTENTS_FL);
	e2x_repair_clear_inode(&ib.in, 0);
	ck_assert_uint_ne(ib.in.i_dtime, 0);	/* deleted means dtime set */
}
END_TEST

/* ext3: a direct pointer and a pointer inside the indirect block point
 * past the end of the file system. */
START_TEST(ind_map_drops_pointers_outside)
{
	static const uint32_t lblks[] = { 0, 1, 2, 3, 12, 13 };
	uint32_t map[1024];
	blk64_t ind, far;
	uint64_t dropped;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-t ext3 -b 4096", "16M");
	ino = make_file("f", lblks, 6);
	far = ext2fs_blocks_count(fx.fs->super) + 7;
	ind = ib.in.i_block[EXT2_IND_BLOCK];
	ck_assert_uint_ne(ind, 0);
	forget_block(ino, 2);
	ib.in.i_block[2] = far;
	forget_block(ino, 12);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, ind, 1, map), 0);
	map[0] = far;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, ind, 1, map), 0);

	ck_assert_int_eq(e2x_repair_ind_map(fx.fs, &ib.in, 0, &dropped), 0);
	ck_assert_uint_eq(dropped, 2);
	ck_assert_uint_eq(ib.in.i_block[2], 0);
	ck_assert_uint_ne(ib.in.i_block[3], 0);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, ind, 1, map), 0);
	ck_assert_uint_eq(map[0], 0);
	ck_assert_uint_ne(map[1], 0);
	finish(ino);
}
END_TEST

/* ext4, depth 0: the middle of three extents points outside. */
START_TEST(extent_leaf_drops_extent_outside)
{
	static const uint32_t lblks[] = { 0, 10, 20 };
	struct ext3_extent_header *eh = (void *)ib.in.i_block;
	struct ext3_extent *ex = (void *)(eh + 1);
	uint64_t dropped;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-t ext4 -O ^inline_data -b 4096", "16M");
	ino = make_file("f", lblks, 3);
	ck_assert_uint_eq(eh->eh_depth, 0);
	ck_assert_uint_eq(eh->eh_entries, 3);
	forget_block(ino, 10);
	ex[1].ee_start = ext2fs_blocks_count(fx.fs->super) + 3;

	ck_assert_int_eq(e2x_repair_extent_tree(fx.fs, ino, &ib.in, 0,
						&dropped), 0);
	ck_assert_uint_eq(dropped, 1);
	ck_assert_uint_eq(eh->eh_entries, 2);
	ck_assert_uint_eq(ex[0].ee_block, 0);
	ck_assert_uint_eq(ex[1].ee_block, 20);
	finish(ino);
}
END_TEST

/* ext4, depth 0: the middle of three extents got a far start (a damaged
 * ee_block); it is the one dropped, not the extent after it. */
START_TEST(extent_leaf_drops_odd_start)
{
	static const uint32_t lblks[] = { 0, 10, 20 };
	struct ext3_extent_header *eh = (void *)ib.in.i_block;
	struct ext3_extent *ex = (void *)(eh + 1);
	uint64_t dropped;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-t ext4 -O ^inline_data -b 4096", "16M");
	ino = make_file("f", lblks, 3);
	ck_assert_uint_eq(eh->eh_entries, 3);
	forget_block(ino, 10);
	ex[1].ee_block = 0x5b5b0000;

	ck_assert_int_eq(e2x_repair_extent_tree(fx.fs, ino, &ib.in, 0,
						&dropped), 0);
	ck_assert_uint_eq(dropped, 1);
	ck_assert_uint_eq(eh->eh_entries, 2);
	ck_assert_uint_eq(ex[0].ee_block, 0);
	ck_assert_uint_eq(ex[1].ee_block, 20);
	finish(ino);
}
END_TEST

/* ext4, depth 1: a wrong index key and a wrong leaf checksum are put
 * right without dropping anything. */
START_TEST(extent_index_key_and_csum_fixed)
{
	static const uint32_t lblks[] = { 0, 10, 20, 30, 40, 50 };
	struct ext3_extent_header *eh = (void *)ib.in.i_block;
	struct ext3_extent_idx *ix = (void *)(eh + 1);
	unsigned char leaf[4096];
	uint64_t dropped;
	blk64_t lb;
	ext2_ino_t ino;

	fixture_mkfs(&fx, "-t ext4 -O ^inline_data,metadata_csum -b 4096",
		     "16M");
	ino = make_file("f", lblks, 6);
	ck_assert_uint_eq(eh->eh_depth, 1);
	ck_assert_uint_eq(eh->eh_entries, 1);
	ix[0].ei_block = 5;
	lb = ix[0].ei_leaf | ((blk64_t)ix[0].ei_leaf_hi << 32);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, lb, 1, leaf), 0);
	leaf[fx.fs->blocksize - 1] ^= 0xff;	/* inside the checksum tail */
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, lb, 1, leaf), 0);

	ck_assert_int_eq(e2x_repair_extent_tree(fx.fs, ino, &ib.in, 0,
						&dropped), 0);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_eq(ix[0].ei_block, 0);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, lb, 1, leaf), 0);
	ck_assert(ext2fs_extent_block_csum_verify(fx.fs, ino,
						  (void *)leaf));
	finish(ino);
}
END_TEST

/* A root whose header is not an extent header cannot be repaired. */
START_TEST(extent_bad_root_refused)
{
	uint64_t dropped;

	memset(&ib, 0, sizeof(ib));
	ib.in.i_flags = EXT4_EXTENTS_FL;
	fixture_mkfs(&fx, "-t ext4", "8M");
	ck_assert_int_eq(e2x_repair_extent_tree(fx.fs, 12, &ib.in, 0,
						&dropped), E2X_ERR_CORRUPT);
	ib.in.i_flags = 0;
	ck_assert_int_eq(e2x_repair_extent_tree(fx.fs, 12, &ib.in, 0,
						&dropped),
			 EXT2_ET_INVALID_ARGUMENT);
	fixture_drop(&fx);
}
END_TEST

static Suite *repair_suite(void)
{
	Suite *s = suite_create("repair");
	TCase *tc = tcase_create("primitives");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, clear_inode_marks_deleted);
	tcase_add_test(tc, ind_map_drops_pointers_outside);
	tcase_add_test(tc, extent_leaf_drops_extent_outside);
	tcase_add_test(tc, extent_leaf_drops_odd_start);
	tcase_add_test(tc, extent_index_key_and_csum_fixed);
	tcase_add_test(tc, extent_bad_root_refused);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(repair_suite)
