/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dir.c --- the directory engine at its edges: promotion of inline
 * directories at exactly the limit and one step over (256/512/1024-byte
 * inodes), 255-byte names, emptying a promoted directory, every hash
 * version (signed, unsigned, seeded), the third htree level with large_dir,
 * rename rules.  Oracles: e2x_dir_verify and the reference e2fsck -fn.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"

static void assert_verified(ext2_filsys fs, ext2_ino_t dir)
{
	struct e2x_dir_problems p = { 0 };
	size_t i;

	ck_assert_int_eq(e2x_dir_verify(fs, dir, 0, &p), 0);
	for (i = 0; i < p.count; i++)
		fprintf(stderr, "dir %u: %s at %llu+%u: %s\n", dir,
			e2x_dir_problem_name(p.list[i].code),
			(unsigned long long)p.list[i].lblk, p.list[i].offset,
			p.list[i].desc);
	ck_assert_uint_eq(p.count, 0);
	e2x_dir_problems_free(&p);
}

static enum e2x_dir_form form_of(ext2_filsys fs, ext2_ino_t dir)
{
	enum e2x_dir_form f = 0;

	ck_assert_int_eq(e2x_dir_form(fs, dir, &f), 0);
	return f;
}

static void name_of(char *buf, unsigned int len, unsigned int seq)
{
	unsigned int i;

	memset(buf, 'a' + seq % 26, len);
	for (i = 0; i < 6 && i < len; i++, seq /= 26)
		buf[i] = 'a' + seq % 26;
}

/* A file to link to, in the root. */
static ext2_ino_t make_file(ext2_filsys fs, const char *name)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_dir_mknod(fs, EXT2_ROOT_INO, name, strlen(name),
				       LINUX_S_IFREG | 0644, 0, &ino), 0);
	return ino;
}

static const struct {
	const char *opts;
	int over;	/* 0: fill exactly to the limit; 1: 4 bytes over */
} promote_cases[] = {
	{ "-I 256 -O inline_data", 0 },
	{ "-I 256 -O inline_data", 1 },
	{ "-I 512 -O inline_data", 0 },
	{ "-I 512 -O inline_data", 1 },
	{ "-I 1024 -O inline_data", 0 },
	{ "-I 1024 -O inline_data", 1 },
	{ "-I 1024 -b 1024 -O inline_data,^metadata_csum", 1 },
};

START_TEST(promote_at_limit)
{
	struct fixture fx;
	ext2_filsys fs;
	struct ext2_inode_large *in;
	ext2_ino_t dir, file, got;
	size_t cap, size;
	char name[256];
	unsigned int n = 0, room, len, big;

	fixture_mkfs(&fx, promote_cases[_i].opts, "16M");
	fs = fx.fs;
	file = make_file(fs, "target");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_INLINE);
	in = calloc(1, EXT2_INODE_SIZE(fs->super) + 256);
	ck_assert_int_eq(e2x_read_inode(fs, dir, in), 0);
	ck_assert_int_eq(e2x_inline_capacity(fs, dir, in, &cap), 0);
	/* i_block part: one 56-byte record (48-byte name) */
	name_of(name, 48, n++);
	ck_assert_int_eq(e2x_dir_link(fs, dir, name, 48, file, 0), 0);
	size = 60;
	ck_assert_uint_eq((cap - size) % 4, 0);
	big = promote_cases[_i].over ? 256 : 264;
	while (size < cap) {
		room = (unsigned int)(cap - size);
		if (room > big + 12)
			len = 200;
		else if (room > big)
			len = 100;
		else
			len = room - 8 + (promote_cases[_i].over ? 4 : 0);
		name_of(name, len, n++);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, len, file, 0),
				 0);
		size += e2x_dirent_min_len(len);
		if (size > cap)
			break;
		ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_INLINE);
		ck_assert_int_eq(e2x_read_inode(fs, dir, in), 0);
		ck_assert_uint_eq(EXT2_I_SIZE(in), size);
		assert_verified(fs, dir);
	}
	if (promote_cases[_i].over) {
		ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_LINEAR);
	} else {
		ck_assert_uint_eq(size, cap);
		ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_INLINE);
		/* one more 1-byte name cannot fit: promoted now */
		ck_assert_int_eq(e2x_dir_link(fs, dir, "z", 1, file, 0), 0);
		n++;
		ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_LINEAR);
	}
	assert_verified(fs, dir);
	/* every name survived the promotion */
	name_of(name, 48, 0);
	ck_assert_int_eq(e2x_dir_lookup(fs, dir, name, 48, &got, NULL), 0);
	ck_assert_uint_eq(got, file);
	free(in);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Emptying a promoted directory keeps '.' and '..' in a valid block; the
 * directory can then be removed. */
START_TEST(last_entry_removed_from_promoted)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file;
	char name[256];
	unsigned int i, n = 20;

	fixture_mkfs(&fx, "-O inline_data", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < n; i++) {
		name_of(name, 30, i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, 30, file, 0), 0);
	}
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_LINEAR);
	for (i = 0; i < n; i++) {
		name_of(name, 30, i);
		ck_assert_int_eq(e2x_dir_unlink(fs, dir, name, 30, 0), 0);
	}
	assert_verified(fs, dir);
	ck_assert_int_eq(e2x_dir_rmdir(fs, EXT2_ROOT_INO, "d", 1, 0), 0);
	ck_assert_int_eq(e2x_dir_lookup(fs, EXT2_ROOT_INO, "d", 1, NULL,
					NULL), E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* 255-byte names through an htree: add, look up, remove half. */
START_TEST(long_names_htree)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file, got;
	char name[256];
	unsigned int i, n = 300;

	fixture_mkfs(&fx, "-b 1024", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < n; i++) {
		name_of(name, 255, i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, 255, file, 0), 0);
	}
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_HTREE);
	ck_assert_int_eq(e2x_dir_link(fs, dir, name, 255, file, 0),
			 E2X_ERR_EXISTS);
	for (i = 0; i < n; i += 2) {
		name_of(name, 255, i);
		ck_assert_int_eq(e2x_dir_unlink(fs, dir, name, 255, 0), 0);
	}
	for (i = 0; i < n; i++) {
		name_of(name, 255, i);
		ck_assert_int_eq(e2x_dir_lookup(fs, dir, name, 255, &got,
						NULL),
				 i % 2 ? 0 : E2X_ERR_NOT_FOUND);
	}
	assert_verified(fs, dir);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Hash versions: legacy, half_md4, tea, each signed and unsigned, with and
 * without a seed. */
static const struct {
	int version;
	int unsigned_flag;
	int zero_seed;
} hash_cases[] = {
	{ EXT2_HASH_LEGACY, 0, 0 },   { EXT2_HASH_LEGACY, 1, 0 },
	{ EXT2_HASH_HALF_MD4, 0, 0 }, { EXT2_HASH_HALF_MD4, 1, 0 },
	{ EXT2_HASH_TEA, 0, 0 },      { EXT2_HASH_TEA, 1, 0 },
	{ EXT2_HASH_HALF_MD4, 0, 1 }, { EXT2_HASH_TEA, 1, 1 },
};

struct order_check {
	uint32_t last;
	unsigned int n;
	int sorted;
};

static int check_hash_order(const struct e2x_dir_entry *ent, void *priv)
{
	struct order_check *oc = priv;

	if (oc->n && ent->hash < oc->last)
		oc->sorted = 0;
	oc->last = ent->hash;
	oc->n++;
	return 0;
}

START_TEST(hash_versions)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file, got;
	struct order_check oc = { 0, 0, 1 };
	char name[64];
	unsigned int i, n = 3000;

	fixture_mkfs(&fx, "-b 1024", "32M");
	fs = fx.fs;
	fs->super->s_def_hash_version = hash_cases[_i].version;
	fs->super->s_flags &= ~(EXT2_FLAGS_UNSIGNED_HASH |
				EXT2_FLAGS_SIGNED_HASH);
	fs->super->s_flags |= hash_cases[_i].unsigned_flag ?
				      EXT2_FLAGS_UNSIGNED_HASH :
				      EXT2_FLAGS_SIGNED_HASH;
	if (hash_cases[_i].zero_seed)
		memset(fs->super->s_hash_seed, 0, sizeof(fs->super->s_hash_seed));
	ext2fs_mark_super_dirty(fs);
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < n; i++) {
		/* high-bit bytes make signed and unsigned hashes differ */
		snprintf(name, sizeof(name), "\xe9t\xe9-%u-\xff", i * 7919);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, strlen(name),
					      file, 0), 0);
	}
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_HTREE);
	for (i = 0; i < n; i += 3) {
		snprintf(name, sizeof(name), "\xe9t\xe9-%u-\xff", i * 7919);
		ck_assert_int_eq(e2x_dir_lookup(fs, dir, name, strlen(name),
						&got, NULL), 0);
	}
	ck_assert_int_eq(e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_HASH, 0,
					 check_hash_order, &oc), 0);
	ck_assert_uint_eq(oc.n, n);
	ck_assert(oc.sorted);
	assert_verified(fs, dir);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

static int root_levels(ext2_filsys fs, ext2_ino_t dir)
{
	struct ext2_inode in;
	blk64_t pblk;
	char *buf = malloc(fs->blocksize);
	int levels;

	ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
	ck_assert_int_eq(ext2fs_bmap2(fs, dir, &in, NULL, 0, 0, NULL, &pblk),
			 0);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, pblk, 1, buf), 0);
	levels = ((struct e2x_dx_root_info *)(buf + E2X_DX_ROOT_INFO_OFF))
			 ->indirect_levels;
	free(buf);
	return levels;
}

/* With large_dir the index grows a third level (indirect_levels 2);
 * hard links keep the inode count small. */
START_TEST(third_level_large_dir)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file = 0;
	char name[256];
	unsigned int i;

	fixture_mkfs(&fx, "-b 1024 -O large_dir -N 2048", "96M");
	fs = fx.fs;
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; root_levels(fs, dir) < 2 || i % 1000; i++) {
		ck_assert_uint_lt(i, 200000);
		if (i % 60000 == 0) {
			snprintf(name, sizeof(name), "f%u", i);
			file = make_file(fs, name);
		}
		name_of(name, 250, i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, 250, file, 0), 0);
		if (i < 100 && i % 10)
			continue;
	}
	assert_verified(fs, dir);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Rename: within a directory, across (moving a directory fixes '..' and
 * both link counts), over an existing file, refused into itself. */
START_TEST(rename_rules)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t a, b, sub, f1, f2, got;
	struct ext2_inode in;

	fixture_mkfs(&fx, "-O inline_data", "16M");
	fs = fx.fs;
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "a", 1, 0755, 0, &a),
			 0);
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "b", 1, 0755, 0, &b),
			 0);
	ck_assert_int_eq(e2x_dir_mkdir(fs, a, "sub", 3, 0755, 0, &sub), 0);
	ck_assert_int_eq(e2x_dir_mknod(fs, a, "f1", 2, LINUX_S_IFREG | 0644,
				       0, &f1), 0);
	ck_assert_int_eq(e2x_dir_mknod(fs, b, "f2", 2, LINUX_S_IFREG | 0644,
				       0, &f2), 0);
	ck_assert_int_eq(e2x_dir_rename(fs, a, "f1", 2, a, "g1", 2, 0), 0);
	ck_assert_int_eq(e2x_dir_lookup(fs, a, "g1", 2, &got, NULL), 0);
	ck_assert_uint_eq(got, f1);
	ck_assert_int_eq(e2x_dir_rename(fs, a, "sub", 3, sub, "x", 1, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_int_eq(e2x_dir_rename(fs, a, "sub", 3, b, "sub", 3, 0), 0);
	ck_assert_int_eq(ext2fs_read_inode(fs, a, &in), 0);
	ck_assert_uint_eq(in.i_links_count, 2);
	ck_assert_int_eq(ext2fs_read_inode(fs, b, &in), 0);
	ck_assert_uint_eq(in.i_links_count, 3);
	ck_assert_int_eq(e2x_dir_lookup(fs, sub, "..", 2, &got, NULL), 0);
	ck_assert_uint_eq(got, b);
	/* over an existing file: the old target loses its only link */
	ck_assert_int_eq(e2x_dir_rename(fs, a, "g1", 2, b, "f2", 2,
					E2X_DIR_NOREPLACE), E2X_ERR_EXISTS);
	ck_assert_int_eq(e2x_dir_rename(fs, a, "g1", 2, b, "f2", 2, 0), 0);
	ck_assert_int_eq(e2x_dir_lookup(fs, b, "f2", 2, &got, NULL), 0);
	ck_assert_uint_eq(got, f1);
	ck_assert(!ext2fs_test_inode_bitmap2(fs->inode_map, f2));
	assert_verified(fs, a);
	assert_verified(fs, b);
	assert_verified(fs, sub);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* A directory packed back inline holds the same entries. */
START_TEST(pack_back_inline)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file, got;
	char name[64];
	unsigned int i;

	fixture_mkfs(&fx, "-I 512 -O inline_data", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < 60; i++) {
		snprintf(name, sizeof(name), "name-%u", i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, strlen(name),
					      file, 0), 0);
	}
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_LINEAR);
	ck_assert_int_eq(e2x_dir_pack_inline(fs, dir, 0),
			 E2X_ERR_INLINE_TOO_BIG);
	for (i = 10; i < 60; i++) {
		snprintf(name, sizeof(name), "name-%u", i);
		ck_assert_int_eq(e2x_dir_unlink(fs, dir, name, strlen(name),
						0), 0);
	}
	ck_assert_int_eq(e2x_dir_pack_inline(fs, dir, 0), 0);
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_INLINE);
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "name-%u", i);
		ck_assert_int_eq(e2x_dir_lookup(fs, dir, name, strlen(name),
						&got, NULL), 0);
		ck_assert_uint_eq(got, file);
	}
	assert_verified(fs, dir);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

static uint64_t version_of(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode_large *in = calloc(1, EXT2_INODE_SIZE(fs->super) +
					     sizeof(*in));
	uint64_t v;

	ck_assert_int_eq(e2x_read_inode(fs, ino, in), 0);
	v = e2x_inode_get_version(in, EXT2_INODE_SIZE(fs->super));
	free(in);
	return v;
}

/* Every changed inode moves i_version by exactly one per operation, also
 * when the operation writes it several times (promotion, index build,
 * splits). */
START_TEST(iversion_once_per_operation)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t a, b, sub, file;
	uint64_t va, vb, vs, vf;
	char name[64];
	unsigned int i;

	fixture_mkfs(&fx, "-b 1024 -O inline_data", "16M");
	fs = fx.fs;
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "a", 1, 0755, 0, &a),
			 0);
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "b", 1, 0755, 0, &b),
			 0);
	ck_assert_uint_eq(version_of(fs, a), 1);
	ck_assert_int_eq(e2x_dir_mknod(fs, a, "f", 1, LINUX_S_IFREG | 0644, 0,
				       &file), 0);
	ck_assert_uint_eq(version_of(fs, file), 1);
	for (i = 0; i < 200; i++) {	/* promotion, index build, splits */
		snprintf(name, sizeof(name), "a-rather-long-link-name-%u", i);
		va = version_of(fs, a);
		vf = version_of(fs, file);
		ck_assert_int_eq(e2x_dir_link(fs, a, name, strlen(name), file,
					      0), 0);
		ck_assert_uint_eq(version_of(fs, a), va + 1);
		ck_assert_uint_eq(version_of(fs, file), vf + 1);
	}
	ck_assert_int_eq(form_of(fs, a), E2X_DIR_FORM_HTREE);
	ck_assert_int_eq(e2x_dir_mkdir(fs, a, "sub", 3, 0755, 0, &sub), 0);
	va = version_of(fs, a);
	vb = version_of(fs, b);
	vs = version_of(fs, sub);
	ck_assert_int_eq(e2x_dir_rename(fs, a, "sub", 3, b, "sub2", 4, 0), 0);
	ck_assert_uint_eq(version_of(fs, a), va + 1);
	ck_assert_uint_eq(version_of(fs, b), vb + 1);
	ck_assert_uint_eq(version_of(fs, sub), vs + 1);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

struct names_seen {
	unsigned int n;
};

static int count_names(const struct e2x_dir_entry *ent, void *priv)
{
	(void)ent;
	((struct names_seen *)priv)->n++;
	return 0;
}

/* A multi-block linear directory (made without dir_index) is indexed on
 * request once the feature is on; the entries stay the same. */
START_TEST(build_htree_on_linear)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, file, got;
	struct names_seen seen = { 0 };
	char name[64];
	unsigned int i, n = 2000;

	fixture_mkfs(&fx, "-b 1024 -O ^dir_index", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "linear-entry-%u", i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, strlen(name),
					      file, 0), 0);
	}
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_LINEAR);
	ck_assert_int_eq(e2x_dir_build_htree(fs, dir, 0),
			 E2X_ERR_UNSUPPORTED);
	ext2fs_set_feature_dir_index(fs->super);
	ext2fs_mark_super_dirty(fs);
	ck_assert_int_eq(e2x_dir_build_htree(fs, dir, 0), 0);
	ck_assert_int_eq(form_of(fs, dir), E2X_DIR_FORM_HTREE);
	assert_verified(fs, dir);
	for (i = 0; i < n; i += 7) {
		snprintf(name, sizeof(name), "linear-entry-%u", i);
		ck_assert_int_eq(e2x_dir_lookup(fs, dir, name, strlen(name),
						&got, NULL), 0);
		ck_assert_uint_eq(got, file);
	}
	ck_assert_int_eq(e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_HASH, 0,
					 count_names, &seen), 0);
	ck_assert_uint_eq(seen.n, n);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* dir_nlink: a parent's count goes to 65000 and then sticks at 1; the
 * reference e2fsck agrees. */
START_TEST(dir_nlink_overflow)
{
	struct fixture fx;
	ext2_filsys fs;
	ext2_ino_t dir, sub;
	struct ext2_inode in;
	char name[32];
	unsigned int i;

	fixture_mkfs(&fx, "-b 4096 -O inline_data -N 66000", "128M");
	fs = fx.fs;
	ck_assert(ext2fs_has_feature_dir_nlink(fs->super));
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < 64998; i++) {
		snprintf(name, sizeof(name), "%u", i);
		ck_assert_int_eq(e2x_dir_mkdir(fs, dir, name, strlen(name),
					       0755, 0, &sub), 0);
	}
	ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
	ck_assert_uint_eq(in.i_links_count, 65000);
	ck_assert_int_eq(e2x_dir_mkdir(fs, dir, "one-more", 8, 0755, 0, &sub),
			 0);
	ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
	ck_assert_uint_eq(in.i_links_count, 1);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* Damage for verify_reports_damage: each edits one block of an htree
 * directory (block LBLK) and names the problem verify must report. */
typedef void (*damage_fn)(char *blk, unsigned int bs, ext2_filsys fs);

static struct e2x_dirent *second_entry(char *blk, unsigned int bs)
{
	struct e2x_dirent *de = (void *)blk;

	return (void *)(blk + e2x_dirent_rec_len(de, bs));
}

static void flip_name_byte(char *blk, unsigned int bs, ext2_filsys fs)
{
	(void)bs;
	(void)fs;
	blk[10] ^= 0x20;
}

static void bad_rec_len(char *blk, unsigned int bs, ext2_filsys fs)
{
	(void)bs;
	(void)fs;
	((struct e2x_dirent *)blk)->rec_len = 6;
}

static void bad_inode(char *blk, unsigned int bs, ext2_filsys fs)
{
	(void)bs;
	((struct e2x_dirent *)blk)->inode = fs->super->s_inodes_count + 5;
}

static void dup_name(char *blk, unsigned int bs, ext2_filsys fs)
{
	struct e2x_dirent *a = (void *)blk, *b = second_entry(blk, bs);

	(void)fs;
	memcpy(b->name, a->name, a->name_len);
}

static void no_tail(char *blk, unsigned int bs, ext2_filsys fs)
{
	(void)fs;
	memset(blk + bs - 12, 0, 12);
}

static void swap_index(char *blk, unsigned int bs, ext2_filsys fs)
{
	struct e2x_dx_entry *e = (void *)(blk + E2X_DX_ROOT_CL_OFF);
	uint32_t h = e[1].hash;

	(void)bs;
	(void)fs;
	e[1].hash = e[2].hash;
	e[2].hash = h;
}

static void drop_index(char *blk, unsigned int bs, ext2_filsys fs)
{
	struct e2x_dx_countlimit *cl = (void *)(blk + E2X_DX_ROOT_CL_OFF);

	(void)bs;
	(void)fs;
	cl->count--;
}

static void bad_root_info(char *blk, unsigned int bs, ext2_filsys fs)
{
	(void)bs;
	(void)fs;
	((struct e2x_dx_root_info *)(blk + E2X_DX_ROOT_INFO_OFF))
		->info_length = 9;
}

static const struct {
	const char *what;
	blk64_t lblk;
	damage_fn damage;
	int fix_csum;	/* 0: leave, 1: leaf checksum, 2: index checksum */
	enum e2x_dir_problem_code code;
} damage_cases[] = {
	{ "leaf byte flipped", 1, flip_name_byte, 0, E2X_DIRP_BAD_CSUM },
	{ "rec_len too small", 1, bad_rec_len, 1, E2X_DIRP_BAD_RECORD },
	{ "inode out of range", 1, bad_inode, 1, E2X_DIRP_BAD_INODE },
	{ "duplicate name", 1, dup_name, 1, E2X_DIRP_DUP_NAME },
	{ "tail zeroed", 1, no_tail, 0, E2X_DIRP_NO_TAIL },
	{ "index hashes swapped", 0, swap_index, 2, E2X_DIRP_DX_ORDER },
	{ "leaf dropped from index", 0, drop_index, 2, E2X_DIRP_DX_REF },
	{ "root info length", 0, bad_root_info, 2, E2X_DIRP_DX_ROOT },
	{ "index checksum", 0, swap_index, 0, E2X_DIRP_BAD_CSUM },
};

/* e2x_dir_verify finds each kind of damage (a checker that cannot fail
 * proves nothing). */
START_TEST(verify_reports_damage)
{
	struct fixture fx;
	ext2_filsys fs;
	struct ext2_inode in;
	struct e2x_dir_problems p = { 0 };
	ext2_ino_t dir, file;
	blk64_t pblk;
	char name[64], *blk;
	unsigned int i, bs;
	uint32_t seed;
	int found = 0;

	fixture_mkfs(&fx, "-b 1024 -O metadata_csum", "16M");
	fs = fx.fs;
	bs = fs->blocksize;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "entry-%05u", i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, strlen(name),
					      file, 0), 0);
	}
	assert_verified(fs, dir);
	ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
	seed = e2x_dir_csum_seed(fs, dir, in.i_generation);
	ck_assert_int_eq(ext2fs_bmap2(fs, dir, &in, NULL, 0,
				      damage_cases[_i].lblk, NULL, &pblk), 0);
	blk = malloc(bs);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, pblk, 1, blk), 0);
	damage_cases[_i].damage(blk, bs, fs);
	if (damage_cases[_i].fix_csum == 1)
		e2x_dirblk_csum_set(seed, blk, bs);
	else if (damage_cases[_i].fix_csum == 2)
		e2x_dx_csum_set(seed, blk, bs, E2X_DX_ROOT_CL_OFF);
	ck_assert_int_eq(io_channel_write_blk64(fs->io, pblk, 1, blk), 0);
	ck_assert_int_eq(e2x_dir_verify(fs, dir, 0, &p), 0);
	for (i = 0; i < p.count; i++)
		found |= p.list[i].code == damage_cases[_i].code;
	ck_assert_msg(found, "%s: %s not reported (%zu problems)",
		      damage_cases[_i].what,
		      e2x_dir_problem_name(damage_cases[_i].code), p.count);
	e2x_dir_problems_free(&p);
	free(blk);
	fixture_drop(&fx);
}
END_TEST

/* Unlinking the last name of a file frees its extended-attribute block;
 * e2fsck finds no leaked block. */
START_TEST(unlink_frees_ea_block)
{
	struct fixture fx;
	ext2_filsys fs;
	struct ext2_xattr_handle *h;
	struct ext2_inode in;
	ext2_ino_t file;
	char value[1500];
	blk64_t ea;

	fixture_mkfs(&fx, "-b 4096", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_link(fs, EXT2_ROOT_INO, "g", 1, file, 0), 0);
	memset(value, 'v', sizeof(value));
	ck_assert_int_eq(ext2fs_xattrs_open(fs, file, &h), 0);
	ck_assert_int_eq(ext2fs_xattrs_read(h), 0);
	ck_assert_int_eq(ext2fs_xattr_set(h, "user.big", value,
					  sizeof(value)), 0);
	ck_assert_int_eq(ext2fs_xattrs_close(&h), 0);
	ck_assert_int_eq(ext2fs_read_inode(fs, file, &in), 0);
	ea = ext2fs_file_acl_block(fs, &in);
	ck_assert_uint_ne(ea, 0);
	ck_assert_int_eq(e2x_dir_unlink(fs, EXT2_ROOT_INO, "f", 1, 0), 0);
	ck_assert(ext2fs_test_block_bitmap2(fs->block_map, ea));
	ck_assert_int_eq(e2x_dir_unlink(fs, EXT2_ROOT_INO, "g", 1, 0), 0);
	ck_assert(!ext2fs_test_block_bitmap2(fs->block_map, ea));
	ck_assert(!ext2fs_test_inode_bitmap2(fs->inode_map, file));
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

static int ignore_ent(const struct e2x_dir_entry *ent, void *priv)
{
	(void)ent;
	(void)priv;
	return 0;
}

/* Every operation on DIR, results ignored: only a crash (or a sanitizer
 * report) fails. */
static void poke_all(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t file,
		     unsigned int seq)
{
	struct e2x_dir_problems p = { 0 };
	char name[64];
	int o;

	e2x_dir_verify(fs, dir, 0, &p);
	e2x_dir_problems_free(&p);
	for (o = E2X_DIR_ORDER_DISK; o <= E2X_DIR_ORDER_INODE; o++)
		e2x_dir_iterate(fs, dir, o, E2X_DIR_ITER_DOTS, ignore_ent,
				NULL);
	snprintf(name, sizeof(name), "entry-%05u", seq % 300);
	e2x_dir_lookup(fs, dir, name, strlen(name), NULL, NULL);
	e2x_dir_remove(fs, dir, name, strlen(name), 0, NULL);
	snprintf(name, sizeof(name), "fuzz-%u", seq);
	e2x_dir_add(fs, dir, name, strlen(name), file, EXT2_FT_REG_FILE, 0);
}

static const char *const fuzz_opts[] = {
	"-b 1024 -O ^metadata_csum,inline_data",
	"-b 1024 -O metadata_csum,inline_data",
};

/* Random bytes in directory blocks and in an inline directory's i_block:
 * nothing crashes, the checksum catches damage when there is one. */
START_TEST(damage_never_crashes)
{
	struct fixture fx;
	ext2_filsys fs;
	struct ext2_inode in;
	ext2_ino_t dir, small, file;
	uint64_t seed = 12345 + (uint64_t)_i;
	blk64_t pblk, nblocks;
	char name[64], *blk;
	unsigned int i, k;

	fixture_mkfs(&fx, fuzz_opts[_i], "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "s", 1, 0755, 0,
				       &small), 0);
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "entry-%05u", i);
		ck_assert_int_eq(e2x_dir_add(fs, dir, name, strlen(name), file,
					     EXT2_FT_REG_FILE, 0), 0);
	}
	ck_assert_int_eq(e2x_dir_add(fs, small, "x", 1, file,
				     EXT2_FT_REG_FILE, 0), 0);
	blk = malloc(fs->blocksize);
	for (i = 0; i < 150; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
		nblocks = EXT2_I_SIZE(&in) / fs->blocksize;
		if (nblocks && !ext2fs_bmap2(fs, dir, &in, NULL, 0,
					     (seed >> 33) % nblocks, NULL,
					     &pblk) && pblk) {
			ck_assert_int_eq(io_channel_read_blk64(fs->io, pblk,
							       1, blk), 0);
			for (k = 0; k < 1 + (seed >> 60) % 4; k++)
				blk[(seed >> (8 * k + 3)) % fs->blocksize] ^=
					(char)(1 + ((seed >> (5 * k)) & 0xfe));
			ck_assert_int_eq(io_channel_write_blk64(fs->io, pblk,
								1, blk), 0);
		}
		poke_all(fs, dir, file, i);
		ck_assert_int_eq(ext2fs_read_inode(fs, small, &in), 0);
		((char *)in.i_block)[(seed >> 20) % 60] ^= (char)(seed >> 40);
		ck_assert_int_eq(ext2fs_write_inode(fs, small, &in), 0);
		poke_all(fs, small, file, i);
	}
	free(blk);
	fixture_drop(&fx);
}
END_TEST

/* With metadata_csum a leaf whose checksum is wrong is refused, not
 * silently rewritten with a fresh checksum. */
START_TEST(bad_checksum_refused)
{
	struct fixture fx;
	ext2_filsys fs;
	struct ext2_inode in;
	ext2_ino_t dir, file;
	blk64_t pblk;
	char name[64], *blk, *again;
	unsigned int i;

	fixture_mkfs(&fx, "-b 1024 -O metadata_csum", "16M");
	fs = fx.fs;
	file = make_file(fs, "f");
	ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0,
				       &dir), 0);
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "entry-%05u", i);
		ck_assert_int_eq(e2x_dir_link(fs, dir, name, strlen(name),
					      file, 0), 0);
	}
	ck_assert_int_eq(ext2fs_read_inode(fs, dir, &in), 0);
	ck_assert_int_eq(ext2fs_bmap2(fs, dir, &in, NULL, 0, 0, NULL, &pblk),
			 0);
	blk = malloc(fs->blocksize);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, pblk, 1, blk), 0);
	blk[40] ^= 1;
	ck_assert_int_eq(io_channel_write_blk64(fs->io, pblk, 1, blk), 0);
	ck_assert_int_eq(e2x_dir_add(fs, dir, "new", 3, file,
				     EXT2_FT_REG_FILE, 0),
			 EXT2_ET_DIR_CSUM_INVALID);
	ck_assert_int_eq(e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_DISK, 0,
					 ignore_ent, NULL),
			 EXT2_ET_DIR_CSUM_INVALID);
	/* the damaged block is left as it was */
	again = malloc(fs->blocksize);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, pblk, 1, again), 0);
	ck_assert_int_eq(memcmp(blk, again, fs->blocksize), 0);
	free(again);
	free(blk);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_dir(void)
{
	Suite *s = suite_create("dir");
	TCase *tc = tcase_create("edges");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, promote_at_limit, 0,
			    sizeof(promote_cases) / sizeof(promote_cases[0]));
	tcase_add_test(tc, last_entry_removed_from_promoted);
	tcase_add_test(tc, long_names_htree);
	tcase_add_loop_test(tc, hash_versions, 0,
			    sizeof(hash_cases) / sizeof(hash_cases[0]));
	tcase_add_test(tc, third_level_large_dir);
	tcase_add_test(tc, rename_rules);
	tcase_add_test(tc, pack_back_inline);
	tcase_add_test(tc, iversion_once_per_operation);
	tcase_add_test(tc, build_htree_on_linear);
	tcase_add_test(tc, dir_nlink_overflow);
	tcase_add_test(tc, unlink_frees_ea_block);
	tcase_add_loop_test(tc, damage_never_crashes, 0,
			    sizeof(fuzz_opts) / sizeof(fuzz_opts[0]));
	tcase_add_test(tc, bad_checksum_refused);
	tcase_add_loop_test(tc, verify_reports_damage, 0,
			    sizeof(damage_cases) / sizeof(damage_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_dir)
