/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_edit.c --- the single edits of e2x-edit.h (dir_edit.c,
 * inode_kill.c, file_space.c, xattr.c): each named case works on a fresh
 * image, checks the outcome through the library, that i_version moved
 * exactly once per call, and (without itree) that the reference e2fsck
 * -fn finds the image clean afterwards.
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

static void load(ext2_ino_t ino)
{
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, &ib.in), 0);
}

static uint64_t version(ext2_ino_t ino)
{
	return fixture_version(&fx, ino, &ib.in);
}

#define OP(ino, call) FIXTURE_OP(&fx, ino, &ib.in, call)

static void open_fs(const char *opts, const char *size)
{
	fixture_mkfs_bitmaps(&fx, opts, size);
}

static void close_clean(void)
{
	fixture_drop_clean(&fx);
}

static ext2_ino_t mkdir_in(ext2_ino_t parent, const char *name)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_dir_mkdir(fx.fs, parent, name, strlen(name), 0755,
				       0, &ino), 0);
	return ino;
}

static ext2_ino_t file_of(const char *name, size_t len)
{
	static unsigned char buf[200000];
	ext2_ino_t ino;
	size_t i;

	for (i = 0; i < len && i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 1);
	ck_assert_int_eq(e2x_dir_mknod(fx.fs, EXT2_ROOT_INO, name,
				       strlen(name), LINUX_S_IFREG | 0644, 0,
				       &ino), 0);
	if (len)
		ck_assert_int_eq(e2x_file_write(fx.fs, ino, 0, buf, len, 0), 0);
	return ino;
}

static void fill_dir(ext2_ino_t dir, unsigned int n)
{
	fixture_fill_dir(&fx, dir, n);
}

static size_t dir_problems(ext2_ino_t dir)
{
	return fixture_dir_problems(&fx, dir);
}

START_TEST(expand_linear_adds_a_block)
{
	ext2_ino_t d;

	open_fs("-b 1024", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d");
	OP(d, e2x_dir_expand(fx.fs, d, 0));
	OP(d, e2x_dir_expand(fx.fs, d, 0));
	load(d);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 3 * 1024);
	ck_assert_uint_eq(dir_problems(d), 0);
	fill_dir(d, 5);
	ck_assert_uint_eq(dir_problems(d), 0);
	close_clean();
}
END_TEST

START_TEST(expand_inline_promotes)
{
	ext2_ino_t d;

	open_fs("-b 1024 -I 256 -O inline_data", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d");
	fill_dir(d, 1);
	load(d);
	ck_assert(ib.in.i_flags & EXT4_INLINE_DATA_FL);
	OP(d, e2x_dir_expand(fx.fs, d, 0));
	load(d);
	ck_assert(!(ib.in.i_flags & EXT4_INLINE_DATA_FL));
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 1024);
	ck_assert_uint_eq(dir_problems(d), 0);
	close_clean();
}
END_TEST

START_TEST(expand_refuses_htree)
{
	ext2_ino_t d;
	uint64_t v;

	open_fs("-b 1024", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d");
	fill_dir(d, 60);
	v = version(d);
	ck_assert_int_eq(e2x_dir_expand(fx.fs, d, 0), E2X_ERR_UNSUPPORTED);
	ck_assert_uint_eq(version(d), v);
	close_clean();
}
END_TEST

START_TEST(itree_drop_and_build)
{
	ext2_ino_t d, small;

	open_fs("-b 1024 -I 256", "16M");
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	d = mkdir_in(EXT2_ROOT_INO, "d");
	small = mkdir_in(EXT2_ROOT_INO, "s");
	fill_dir(d, 60);
	load(d);
	ck_assert(e2x_itree_present(fx.fs, &ib.in));
	OP(d, e2x_dir_itree_drop(fx.fs, d, 0));
	load(d);
	ck_assert(!e2x_itree_present(fx.fs, &ib.in));
	/* indexed without its itree */
	ck_assert_uint_gt(dir_problems(d), 0);
	ck_assert_int_eq(e2x_dir_itree_drop(fx.fs, d, 0), E2X_ERR_NOT_FOUND);
	OP(d, e2x_dir_itree_build(fx.fs, d, 0));
	load(d);
	ck_assert(e2x_itree_present(fx.fs, &ib.in));
	ck_assert_uint_eq(dir_problems(d), 0);
	OP(d, e2x_dir_itree_build(fx.fs, d, 0));	/* rebuild */
	ck_assert_uint_eq(dir_problems(d), 0);
	ck_assert_int_eq(e2x_dir_itree_build(fx.fs, small, 0),
			 E2X_ERR_UNSUPPORTED);
	fixture_drop(&fx);
}
END_TEST

/* Hand edits of an extent tree: each moves i_version once (the second
 * one too, though the handle writes its own copy of the inode), the
 * mapping follows, and a read-only file system refuses. */
START_TEST(extent_edits_move_version_once)
{
	struct e2x_extent_change map = { E2X_EXTENT_SET_BMAP, 0, 10, 0, 0 };
	struct e2x_extent_change del = { E2X_EXTENT_DELETE, 0, 0, 0, 0 };
	struct e2x_extent_edit *ee;
	blk64_t pblk, got = 0;
	ext2_ino_t f;

	open_fs("-b 1024", "8M");
	f = file_of("f", 3000);
	ck_assert_int_eq(ext2fs_new_block2(fx.fs, 1000, NULL, &pblk), 0);
	ext2fs_block_alloc_stats2(fx.fs, pblk, +1);
	map.pblk = pblk;
	ck_assert_int_eq(e2x_extent_edit_open(fx.fs, f, 0, &ee), 0);
	OP(f, e2x_extent_edit_apply(ee, &map));
	load(f);
	ck_assert_int_eq(e2x_map_file_block(fx.fs, f, &ib.in, 10, &got, NULL),
			 0);
	ck_assert_uint_eq(got, pblk);
	ck_assert_int_eq(ext2fs_extent_goto(e2x_extent_edit_handle(ee), 10),
			 0);
	OP(f, e2x_extent_edit_apply(ee, &del));
	load(f);
	got = 0;
	ck_assert_int_eq(e2x_map_file_block(fx.fs, f, &ib.in, 10, &got, NULL),
			 0);
	ck_assert_uint_eq(got, 0);
	fx.fs->flags &= ~EXT2_FLAG_RW;
	ck_assert_int_eq(e2x_extent_edit_apply(ee, &map), EXT2_ET_RO_FILSYS);
	fx.fs->flags |= EXT2_FLAG_RW;
	e2x_extent_edit_close(ee);
	ext2fs_block_alloc_stats2(fx.fs, pblk, -1);
	close_clean();
}
END_TEST

START_TEST(kill_frees_blocks_and_inode)
{
	blk64_t free0;
	ext2_ino_t f;

	open_fs("-b 4096", "32M");
	free0 = ext2fs_free_blocks_count(fx.fs->super);
	f = file_of("f", 100000);
	ck_assert_uint_lt(ext2fs_free_blocks_count(fx.fs->super), free0);
	OP(f, e2x_inode_kill(fx.fs, f, 0));
	ck_assert_uint_eq(ext2fs_free_blocks_count(fx.fs->super), free0);
	ck_assert(!ext2fs_test_inode_bitmap2(fx.fs->inode_map, f));
	load(f);
	ck_assert_uint_ne(ib.in.i_dtime, 0);
	/* the name stays until it is removed */
	ck_assert_int_eq(e2x_dir_remove(fx.fs, EXT2_ROOT_INO, "f", 1, 0,
					NULL), 0);
	ib.in.i_links_count = 0;
	ck_assert_int_eq(ext2fs_write_inode_full(fx.fs, f,
			 (struct ext2_inode *)&ib.in,
			 EXT2_INODE_SIZE(fx.fs->super)), 0);
	close_clean();
}
END_TEST

static const char *space_geos[] = {
	"-b 4096",
	"-b 1024 -O ^metadata_csum",
	"-b 4096 -O bigalloc -C 65536",
};

START_TEST(fallocate_then_punch)
{
	unsigned int cs;
	ext2_ino_t f;

	open_fs(space_geos[_i], _i == 2 ? "128M" : "32M");
	cs = EXT2_CLUSTER_SIZE(fx.fs->super) / 512;
	f = file_of("f", 10);
	OP(f, e2x_file_fallocate(fx.fs, f, 0, 40, 0));
	load(f);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 10);
	ck_assert_uint_ge(ib.in.i_blocks, 41 * (fx.fs->blocksize / 512));
	OP(f, e2x_file_punch(fx.fs, f, 1, ~0ULL, 0));
	load(f);
	ck_assert_uint_eq(ib.in.i_blocks, cs);	/* block 0's cluster */
	close_clean();
}
END_TEST

START_TEST(fallocate_promotes_inline)
{
	ext2_ino_t f;

	open_fs("-b 1024 -I 256 -O inline_data", "16M");
	f = file_of("f", 10);
	load(f);
	ck_assert(ib.in.i_flags & EXT4_INLINE_DATA_FL);
	OP(f, e2x_file_fallocate(fx.fs, f, 2, 5, 0));
	load(f);
	ck_assert(!(ib.in.i_flags & EXT4_INLINE_DATA_FL));
	ck_assert_uint_eq(ib.in.i_blocks, 5 * 2);
	ck_assert_int_eq(e2x_file_fallocate(fx.fs, EXT2_ROOT_INO, 0, 1, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	close_clean();
}
END_TEST

/* Punching block 0 of an inline file empties it and leaves a valid inline
 * file (the flag with its system.data); past block 0 there is nothing. */
START_TEST(punch_inline_empties)
{
	uint64_t v;
	ext2_ino_t f;

	open_fs("-b 1024 -I 256 -O inline_data", "16M");
	f = file_of("f", 100);
	v = version(f);
	ck_assert_int_eq(e2x_file_punch(fx.fs, f, 1, ~0ULL, 0), 0);
	ck_assert_uint_eq(version(f), v);	/* nothing changed */
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 100);
	OP(f, e2x_file_punch(fx.fs, f, 0, ~0ULL, 0));
	load(f);
	ck_assert(ib.in.i_flags & EXT4_INLINE_DATA_FL);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 0);
	close_clean();
}
END_TEST

/* A value in an EA inode is charged to its owner's i_blocks in whole
 * clusters (the kernel's quota charge, e2fsck's check), and uncharged
 * when removed. */
START_TEST(ea_inode_value_charged)
{
	static unsigned char val[8000];
	blk64_t before;
	ext2_ino_t f;

	open_fs("-b 1024 -O ea_inode", "16M");
	f = file_of("f", 100);
	load(f);
	before = ib.in.i_blocks;
	fixture_fill(val, sizeof(val), 3);
	OP(f, e2x_xattr_set(fx.fs, f, "user.big", val, sizeof(val), 0));
	load(f);
	ck_assert_uint_eq(ib.in.i_blocks, before + 8 * 2);
	OP(f, e2x_xattr_set(fx.fs, f, "user.big", val, 3000, 0));
	load(f);
	ck_assert_uint_eq(ib.in.i_blocks, before + 3 * 2);
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_reopen(&fx);
	ck_assert_int_eq(ext2fs_read_bitmaps(fx.fs), 0);
	OP(f, e2x_xattr_remove(fx.fs, f, "user.big", 0));
	load(f);
	ck_assert_uint_eq(ib.in.i_blocks, before);
	close_clean();
}
END_TEST

/* A new UUID keeps the file system clean: metadata checksums keep their
 * seed, group descriptor checksums (either kind) follow the UUID. */
static const char *const uuid_geos[] = {
	"-b 1024",				/* metadata_csum */
	"-b 1024 -O ^metadata_csum,uninit_bg",	/* gdt_csum */
};

START_TEST(set_uuid_stays_clean)
{
	unsigned char u[16];
	ext2_ino_t f;
	int i;

	open_fs(uuid_geos[_i], "8M");
	f = file_of("f", 3000);
	for (i = 0; i < 16; i++)
		u[i] = (unsigned char)(i * 17 + 1);
	ck_assert_int_eq(e2x_fs_set_uuid(fx.fs, u, 0), 0);
	ck_assert_int_eq(memcmp(fx.fs->super->s_uuid, u, 16), 0);
	ck_assert_int_eq(e2x_fs_set_uuid(fx.fs, u, 1),
			 EXT2_ET_INVALID_ARGUMENT);
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_reopen(&fx);
	ck_assert_int_eq(memcmp(fx.fs->super->s_uuid, u, 16), 0);
	ck_assert_int_eq(ext2fs_read_bitmaps(fx.fs), 0);
	(void)f;
	close_clean();
}
END_TEST

/* clri and zap_block: exactly the named bytes change. */
START_TEST(raw_clear_and_zap)
{
	unsigned char *buf;
	uint64_t v;
	blk64_t blk = 0;
	ext2_ino_t f;
	unsigned int i;

	open_fs("-b 1024", "8M");
	f = file_of("f", 3000);
	v = version(f);
	ck_assert_int_eq(ext2fs_bmap2(fx.fs, f, NULL, NULL, 0, 1, NULL, &blk),
			 0);
	ck_assert_int_eq(e2x_block_fill(fx.fs, blk, 10, 20, 0x41), 0);
	ck_assert_int_eq(e2x_block_flip_bit(fx.fs, blk, 9), 0);
	ck_assert_int_eq(e2x_block_fill(fx.fs, blk, 1000, 25, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_int_eq(e2x_block_flip_bit(fx.fs, blk, 8192),
			 EXT2_ET_INVALID_ARGUMENT);
	buf = malloc(1024);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, blk, 1, buf), 0);
	for (i = 0; i < 1024; i++) {
		unsigned char want = (unsigned char)((1024 + i) * 7 + 1);

		if (i >= 10 && i < 30)
			want = 0x41;
		if (i == 1)
			want ^= 2;	/* bit 9 */
		ck_assert_uint_eq(buf[i], want);
	}
	free(buf);
	ck_assert_int_eq(e2x_inode_clear(fx.fs, f, 0), 0);
	ck_assert_uint_eq(version(f), v + 1);
	ck_assert_uint_eq(ib.in.i_mode, 0);
	ck_assert_uint_eq(ib.in.i_links_count, 0);
	ck_assert_uint_eq(ib.in.i_block[0], 0);
	fixture_drop(&fx);
}
END_TEST

static int unmark_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
			blk64_t ref_blk, int ref_offset, void *priv)
{
	(void)cnt;
	(void)ref_blk;
	(void)ref_offset;
	(void)priv;
	ext2fs_block_alloc_stats2(fs, *blocknr, -1);
	return 0;
}

/* Deleted as the reference's kill_file (and old kernels) leave it: bits
 * and counters free, dtime set, the block map still in the inode; then
 * undelete: all back in use, one i_version move, clean. */
START_TEST(deleted_then_undelete)
{
	blk64_t free0;
	ext2_ino_t f;

	open_fs("-b 1024", "8M");
	f = file_of("f", 20000);
	free0 = ext2fs_free_blocks_count(fx.fs->super);
	ck_assert_int_eq(ext2fs_block_iterate3(fx.fs, f, BLOCK_FLAG_READ_ONLY,
					       NULL, unmark_block, NULL), 0);
	ext2fs_inode_alloc_stats2(fx.fs, f, -1, 0);
	load(f);
	ib.in.i_dtime = 1234;
	ck_assert_int_eq(ext2fs_write_inode_full(fx.fs, f, (void *)&ib.in,
						 256), 0);
	ck_assert_uint_eq(ext2fs_free_blocks_count(fx.fs->super), free0 + 20);
	OP(f, e2x_inode_undelete(fx.fs, f, 0));
	ck_assert_uint_eq(ib.in.i_dtime, 0);
	ck_assert_uint_eq(ext2fs_free_blocks_count(fx.fs->super), free0);
	ck_assert(ext2fs_test_inode_bitmap2(fx.fs->inode_map, f));
	ck_assert_int_eq(e2x_inode_undelete(fx.fs, f, 0), E2X_ERR_EXISTS);
	close_clean();
}
END_TEST

/* An MMP block stored through the library carries a valid checksum. */
START_TEST(mmp_store_sets_checksum)
{
	struct mmp_struct *m;
	void *buf = NULL;
	blk64_t blk = 0;

	open_fs("-b 1024", "8M");
	ck_assert_int_eq(ext2fs_new_block2(fx.fs, 0, NULL, &blk), 0);
	ck_assert_int_eq(e2x_mmp_read(fx.fs, blk, &buf), 0);
	m = buf;
	memset(m, 0, fx.fs->blocksize);
	m->mmp_magic = EXT4_MMP_MAGIC;
	m->mmp_seq = 0x12345;
	m->mmp_checksum = 1;
	ck_assert_int_eq(e2x_mmp_store(fx.fs, blk, m, 1),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_int_eq(e2x_mmp_store(fx.fs, blk, m, 0), 0);
	ext2fs_free_mem(&buf);
	ck_assert_int_eq(e2x_mmp_read(fx.fs, blk, &buf), 0);
	m = buf;
	ck_assert_uint_eq(m->mmp_seq, 0x12345);
	ck_assert(ext2fs_mmp_csum_verify(fx.fs, m));
	ext2fs_free_mem(&buf);
	fixture_drop(&fx);
}
END_TEST

/* Device node, symlink and file made whole in one call: one i_version
 * move each (a fresh inode starts at 1), content in place, nothing left
 * behind when the fill fails. */
START_TEST(create_in_one_call)
{
	static unsigned char data[5000];
	char got[600], target[400];
	size_t len = 0;
	ext2_ino_t c, b, l, f;

	open_fs("-b 1024 -I 256 -O inline_data", "16M");
	ck_assert_int_eq(e2x_dir_mkdev(fx.fs, EXT2_ROOT_INO, "c", 1,
				       LINUX_S_IFCHR | 0600, 4, 5, 0, &c), 0);
	ck_assert_int_eq(e2x_dir_mkdev(fx.fs, EXT2_ROOT_INO, "b", 1,
				       LINUX_S_IFBLK | 0600, 259, 70000, 0,
				       &b), 0);
	ck_assert_int_eq(e2x_dir_mkdev(fx.fs, EXT2_ROOT_INO, "x", 1,
				       LINUX_S_IFREG | 0600, 1, 1, 0, NULL),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_uint_eq(version(c), 1);
	ck_assert_uint_eq(ib.in.i_block[0], 4 << 8 | 5);
	ck_assert_uint_eq(version(b), 1);
	ck_assert_uint_eq(ib.in.i_block[1], (70000 & 0xff) | (259 << 8) |
			  ((70000 & ~0xff) << 12));
	memset(target, 'T', sizeof(target) - 1);
	target[sizeof(target) - 1] = 0;
	ck_assert_int_eq(e2x_dir_symlink(fx.fs, EXT2_ROOT_INO, "l", 1, target,
					 strlen(target), 0, &l), 0);
	ck_assert_uint_eq(version(l), 1);
	ck_assert_int_eq(e2x_symlink_read(fx.fs, l, got, sizeof(got), &len),
			 0);
	ck_assert_uint_eq(len, strlen(target));
	ck_assert_int_eq(e2x_dir_symlink(fx.fs, EXT2_ROOT_INO, "bad", 3, "",
					 0, 0, NULL), E2X_ERR_BAD_OPTION);
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, EXT2_ROOT_INO, "bad", 3, NULL,
					NULL),
			 E2X_ERR_NOT_FOUND);
	fixture_fill(data, sizeof(data), 9);
	ck_assert_int_eq(e2x_dir_create_file(fx.fs, EXT2_ROOT_INO, "f", 1,
					     LINUX_S_IFREG | 0644, data,
					     sizeof(data), 0, &f), 0);
	ck_assert_uint_eq(version(f), 1);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), sizeof(data));
	close_clean();
}
END_TEST

START_TEST(xattr_set_and_remove)
{
	struct ext2_xattr_handle *h;
	char big[3000];
	void *val;
	size_t len;
	ext2_ino_t f;

	open_fs("-b 4096", "32M");
	f = file_of("f", 10);
	memset(big, 'v', sizeof(big));
	OP(f, e2x_xattr_set(fx.fs, f, "user.small", "x", 1, 0));
	OP(f, e2x_xattr_set(fx.fs, f, "user.big", big, sizeof(big), 0));
	load(f);
	ck_assert(ext2fs_file_acl_block(fx.fs, (struct ext2_inode *)&ib.in));
	OP(f, e2x_xattr_remove(fx.fs, f, "user.small", 0));
	ck_assert_int_eq(e2x_xattr_remove(fx.fs, f, "user.small", 0),
			 E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(e2x_xattr_set(fx.fs, f, "system.data", "", 0, 0),
			 E2X_ERR_UNSUPPORTED);
	ck_assert_int_eq(e2x_xattr_set(fx.fs, f, "noprefix", "", 0, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_int_eq(ext2fs_xattrs_open(fx.fs, f, &h), 0);
	ck_assert_int_eq(ext2fs_xattrs_read(h), 0);
	ck_assert_int_eq(ext2fs_xattr_get(h, "user.big", &val, &len), 0);
	ck_assert_uint_eq(len, sizeof(big));
	ck_assert(memcmp(val, big, len) == 0);
	ext2fs_free_mem(&val);
	ck_assert_int_eq(ext2fs_xattr_get(h, "user.small", &val, &len),
			 EXT2_ET_EA_KEY_NOT_FOUND);
	ext2fs_xattrs_close(&h);
	close_clean();
}
END_TEST

static Suite *suite_edit(void)
{
	Suite *s = suite_create("edit");
	TCase *tc = tcase_create("edit");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, expand_linear_adds_a_block);
	tcase_add_test(tc, expand_inline_promotes);
	tcase_add_test(tc, expand_refuses_htree);
	tcase_add_test(tc, itree_drop_and_build);
	tcase_add_test(tc, kill_frees_blocks_and_inode);
	tcase_add_loop_test(tc, fallocate_then_punch, 0,
			    sizeof(space_geos) / sizeof(space_geos[0]));
	tcase_add_test(tc, fallocate_promotes_inline);
	tcase_add_test(tc, punch_inline_empties);
	tcase_add_test(tc, ea_inode_value_charged);
	tcase_add_test(tc, raw_clear_and_zap);
	tcase_add_test(tc, mmp_store_sets_checksum);
	tcase_add_test(tc, deleted_then_undelete);
	tcase_add_test(tc, create_in_one_call);
	tcase_add_loop_test(tc, set_uuid_stays_clean, 0,
			    sizeof(uuid_geos) / sizeof(uuid_geos[0]));
	tcase_add_test(tc, xattr_set_and_remove);
	tcase_add_test(tc, extent_edits_move_version_once);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_edit)
