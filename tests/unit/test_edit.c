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
	fixture_mkfs(&fx, opts, size);
	ck_assert_int_eq(ext2fs_read_bitmaps(fx.fs), 0);
}

static void close_clean(void)
{
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
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
	char name[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "a-rather-long-entry-name-%u", i);
		ck_assert_int_eq(e2x_dir_mknod(fx.fs, dir, name, strlen(name),
					       LINUX_S_IFIFO | 0644, 0, NULL),
				 0);
	}
}

static size_t dir_problems(ext2_ino_t dir)
{
	struct e2x_dir_problems p = { 0 };
	size_t n;

	ck_assert_int_eq(e2x_dir_verify(fx.fs, dir, 0, &p), 0);
	n = p.count;
	e2x_dir_problems_free(&p);
	return n;
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
	tcase_add_test(tc, xattr_set_and_remove);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_edit)
