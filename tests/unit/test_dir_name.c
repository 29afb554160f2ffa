/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dir_name.c --- the name policy (dir_name.c): hash versions with the
 * unsigned-char variant, hashes equal to libext2fs' for every algorithm,
 * the engine's e2x_dir_hash agreeing with the policy, casefolded hashing
 * and comparison, and the file type of each mode.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

START_TEST(hash_version_unsigned_variant)
{
	struct fixture fx;
	ext2_filsys fs;
	int v;

	fixture_mkfs(&fx, "-b 1024", "8M");
	fs = fx.fs;
	fs->super->s_flags &= ~EXT2_FLAGS_UNSIGNED_HASH;
	fs->super->s_flags |= EXT2_FLAGS_SIGNED_HASH;
	ck_assert_int_eq(e2x_name_hash_version(fs, EXT2_HASH_HALF_MD4),
			 EXT2_HASH_HALF_MD4);
	fs->super->s_flags &= ~EXT2_FLAGS_SIGNED_HASH;
	fs->super->s_flags |= EXT2_FLAGS_UNSIGNED_HASH;
	for (v = EXT2_HASH_LEGACY; v <= EXT2_HASH_TEA; v++) {
		int u = e2x_name_hash_version(fs, v);

		ck_assert_int_eq(u, v + EXT2_HASH_LEGACY_UNSIGNED);
		/* applying it again changes nothing */
		ck_assert_int_eq(e2x_name_hash_version(fs, u), u);
	}
	ck_assert_int_eq(e2x_name_hash_version(fs, EXT2_HASH_SIPHASH),
			 EXT2_HASH_SIPHASH);
	fixture_drop(&fx);
}
END_TEST

static const char *const names[] = { "a", "hello", "\xc3\xa9t\xc3\xa9",
				     "a_much_longer_name_of_forty_bytes__",
				     "\xff\x80 high bytes" };

/* The policy's hash is libext2fs' for every algorithm and name. */
START_TEST(hash_matches_libext2fs)
{
	struct fixture fx;
	struct e2x_name_policy p;
	ext2_dirhash_t h, m;
	uint32_t hash, minor;
	size_t i;
	int v;

	fixture_mkfs(&fx, "-b 1024", "8M");
	for (v = EXT2_HASH_LEGACY; v <= EXT2_HASH_TEA_UNSIGNED; v++) {
		e2x_name_policy_init(fx.fs, 0, v, &p);
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			unsigned int len = strlen(names[i]);

			ck_assert_int_eq(e2x_name_hash(&p, names[i], len,
						       &hash, &minor), 0);
			ck_assert_int_eq(ext2fs_dirhash2(p.version, names[i],
					 len, NULL, 0,
					 fx.fs->super->s_hash_seed, &h, &m),
					 0);
			ck_assert_uint_eq(hash, h);
			ck_assert_uint_eq(minor, m);
		}
	}
	fixture_drop(&fx);
}
END_TEST

/* The directory engine hashes by the same policy. */
START_TEST(dir_hash_follows_policy)
{
	struct fixture fx;
	struct e2x_name_policy p;
	uint32_t a, b, am, bm;

	fixture_mkfs(&fx, "-b 1024", "8M");
	e2x_name_policy_init(fx.fs, 0, fx.fs->super->s_def_hash_version, &p);
	ck_assert_int_eq(e2x_name_hash(&p, "hello", 5, &a, &am), 0);
	ck_assert_int_eq(e2x_dir_hash(fx.fs, EXT2_ROOT_INO, "hello", 5, &b,
				      &bm), 0);
	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(am, bm);
	fixture_drop(&fx);
}
END_TEST

/* With an encoding and the casefold flag, names differing in case hash
 * and compare alike; without the flag, bytes decide. */
START_TEST(casefold_hash_and_equal)
{
	struct fixture fx;
	struct e2x_name_policy p;
	uint32_t a, b;

	fixture_mkfs(&fx, "-b 1024", "8M");
	fx.fs->encoding = ext2fs_load_nls_table(EXT4_ENC_UTF8_12_1);
	ck_assert_ptr_nonnull(fx.fs->encoding);
	e2x_name_policy_init(fx.fs, EXT4_CASEFOLD_FL, EXT2_HASH_HALF_MD4, &p);
	ck_assert_int_eq(p.casefold, 1);
	ck_assert_int_eq(e2x_name_hash(&p, "Hello", 5, &a, NULL), 0);
	ck_assert_int_eq(e2x_name_hash(&p, "hELLO", 5, &b, NULL), 0);
	ck_assert_uint_eq(a, b);
	ck_assert(e2x_name_equal(&p, "Hello", 5, "hELLO", 5));
	ck_assert(!e2x_name_equal(&p, "Hello", 5, "Hallo", 5));
	e2x_name_policy_init(fx.fs, 0, EXT2_HASH_HALF_MD4, &p);
	ck_assert_int_eq(p.casefold, 0);
	ck_assert_int_eq(e2x_name_hash(&p, "hELLO", 5, &b, NULL), 0);
	ck_assert_uint_ne(a, b);
	ck_assert(!e2x_name_equal(&p, "Hello", 5, "hELLO", 5));
	ck_assert(e2x_name_equal(NULL, "Hello", 5, "Hello", 5));
	ck_assert(!e2x_name_equal(NULL, "Hello", 5, "Hello!", 6));
	fx.fs->encoding = NULL;
	fixture_drop(&fx);
}
END_TEST

static const struct {
	unsigned int mode, ft;
} mode_cases[] = {
	{ LINUX_S_IFREG | 0644, EXT2_FT_REG_FILE },
	{ LINUX_S_IFDIR | 0755, EXT2_FT_DIR },
	{ LINUX_S_IFCHR, EXT2_FT_CHRDEV },
	{ LINUX_S_IFBLK, EXT2_FT_BLKDEV },
	{ LINUX_S_IFIFO, EXT2_FT_FIFO },
	{ LINUX_S_IFSOCK, EXT2_FT_SOCK },
	{ LINUX_S_IFLNK | 0777, EXT2_FT_SYMLINK },
	{ 0, EXT2_FT_UNKNOWN },
	{ 0170000, EXT2_FT_UNKNOWN },
};

START_TEST(ftype_of_each_mode)
{
	ck_assert_uint_eq(e2x_ftype_of_mode(mode_cases[_i].mode),
			  mode_cases[_i].ft);
}
END_TEST

static Suite *suite_dir_name(void)
{
	Suite *s = suite_create("dir_name");
	TCase *tc = tcase_create("policy");

	tcase_add_test(tc, hash_version_unsigned_variant);
	tcase_add_test(tc, hash_matches_libext2fs);
	tcase_add_test(tc, dir_hash_follows_policy);
	tcase_add_test(tc, casefold_hash_and_equal);
	tcase_add_loop_test(tc, ftype_of_each_mode, 0,
			    sizeof(mode_cases) / sizeof(mode_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_dir_name)
