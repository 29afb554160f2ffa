/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_populate.c --- the populate engine (lib/populate/populate.c) over a source
 * held in memory: names longer than 255 bytes and read errors stop the
 * copy with the failing path; a grown directory is indexed with full
 * leaves; the reference e2fsck finds the copies clean.  And
 * e2x_dir_add_many (lib/dir/dir_fill.c), which fills each level: every form
 * it ends in verified, duplicates refused before any change.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"
#include "unit.h"
#include "fixture.h"

/* A node of the in-memory tree; children follow their parent, NKIDS. */
struct mnode {
	const char *name;
	uint32_t mode;
	const char *data;	/* content or symlink target */
	int nkids;
	int fail;		/* reads fail with EIO */
};

struct msrc {
	struct mnode *v;
	int n;
	char longname[301];
};

/* Index of the first child of node I and the subtree size of node I. */
static int subtree(struct msrc *m, int i)
{
	int k, j = i + 1;

	for (k = 0; k < m->v[i].nkids; k++)
		j += subtree(m, j);
	return j - i;
}

static void stat_of(struct mnode *nd, struct e2x_pop_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->mode = nd->mode;
	st->nlink = 1;
	st->size = nd->data ? strlen(nd->data) : 0;
	st->mtime = 1600000000;
	st->mtime_ns = 123456789;
}

static errcode_t m_root(void *s, void **dir, struct e2x_pop_stat *st)
{
	struct msrc *m = s;

	*dir = &m->v[0];
	stat_of(&m->v[0], st);
	return 0;
}

static errcode_t m_list(void *s, void *dir, struct e2x_pop_entry **out,
			size_t *n)
{
	struct msrc *m = s;
	int i = (int)((struct mnode *)dir - m->v), j = i + 1, k;
	struct e2x_pop_entry *v = calloc(m->v[i].nkids + 1, sizeof(*v));

	for (k = 0; k < m->v[i].nkids; k++) {
		v[k].name = strdup(m->v[j].name);
		v[k].name_len = strlen(m->v[j].name);
		v[k].cookie = j;
		stat_of(&m->v[j], &v[k].st);
		j += subtree(m, j);
	}
	*out = v;
	*n = m->v[i].nkids;
	return 0;
}

static errcode_t m_open(void *s, void *dir, struct e2x_pop_entry *e,
			void **h)
{
	struct msrc *m = s;

	(void)dir;
	*h = &m->v[e->cookie];
	return 0;
}

static void m_close(void *s, void *h)
{
	(void)s;
	(void)h;
}

static errcode_t m_next(void *s, void *f, uint64_t off, uint64_t *a,
			uint64_t *b)
{
	(void)s;
	(void)f;
	*a = off;
	*b = UINT64_MAX;
	return 0;
}

static errcode_t m_read(void *s, void *f, uint64_t off, void *buf,
			size_t len, size_t *got)
{
	struct mnode *nd = f;
	size_t size = strlen(nd->data);

	(void)s;
	if (nd->fail)
		return EIO;
	*got = off >= size ? 0 : (size - off < len ? size - off : len);
	memcpy(buf, nd->data + off, *got);
	return 0;
}

static errcode_t m_readlink(void *s, void *dir, struct e2x_pop_entry *e,
			    char *buf, size_t size, size_t *len)
{
	struct msrc *m = s;

	(void)dir;
	*len = strlen(m->v[e->cookie].data);
	memcpy(buf, m->v[e->cookie].data, *len < size ? *len : size);
	return 0;
}

static errcode_t m_count(void *s, uint64_t *n, uint64_t *bytes)
{
	struct msrc *m = s;

	*n = m->n - 1;
	if (bytes)
		*bytes = 0;
	return 0;
}

static const struct e2x_pop_source_ops mops = {
	.root = m_root, .list = m_list, .open_dir = m_open,
	.close_dir = m_close, .open_file = m_open, .next_data = m_next,
	.read = m_read, .close_file = m_close, .readlink = m_readlink,
	.count = m_count,
};

#define D(name, kids) { name, LINUX_S_IFDIR | 0755, NULL, kids, 0 }
#define F(name, data) { name, LINUX_S_IFREG | 0644, data, 0, 0 }

static errcode_t run(struct msrc *m, const char *opts, const char *size,
		     struct fixture *fx, struct e2x_pop_summary *sum)
{
	struct e2x_pop_source src = { &mops, m, "memory", 0 };

	fixture_mkfs(fx, opts, size);
	return e2x_populate(fx->fs, EXT2_ROOT_INO, &src, NULL, sum);
}

START_TEST(name_too_long_names_the_entry)
{
	struct mnode v[] = { D("", 2), F("ok", "fine"), F(NULL, "x") };
	struct msrc m = { v, 3, "" };
	struct e2x_pop_summary sum;
	struct fixture fx;
	errcode_t err;

	memset(m.longname, 'L', 300);
	v[2].name = m.longname;
	err = run(&m, "", "16M", &fx, &sum);
	ck_assert_int_eq(err, E2X_ERR_NAME_TOO_LONG);
	ck_assert_ptr_nonnull(sum.fail_path);
	ck_assert_int_eq(strlen(sum.fail_path), 301);
	e2x_pop_summary_free(&sum);
	fixture_drop(&fx);
}
END_TEST

START_TEST(read_error_names_the_entry)
{
	struct mnode v[] = { D("", 1), D("dir", 2), F("a", "aaa"),
			     F("bad", "contents") };
	struct msrc m = { v, 4, "" };
	struct e2x_pop_summary sum;
	struct fixture fx;

	v[3].fail = 1;
	ck_assert_int_eq(run(&m, "", "16M", &fx, &sum), EIO);
	ck_assert_str_eq(sum.fail_path, "/dir/bad");
	e2x_pop_summary_free(&sum);
	fixture_drop(&fx);
}
END_TEST

/* 500 entries of 16-byte records in 1 KiB blocks with checksums: 63 per
 * leaf, so 8 full leaves and the root (a 3/4 fill would take 11). */
START_TEST(grown_directory_has_full_leaves)
{
	enum { N = 500 };
	struct mnode *v = calloc(N + 2, sizeof(*v));
	char (*names)[8] = calloc(N, 8);
	struct msrc m = { v, N + 2, "" };
	struct e2x_pop_summary sum;
	struct ext2_inode_large in;
	enum e2x_dir_form form;
	struct fixture fx;
	ext2_ino_t dir;
	int i;

	v[0] = (struct mnode)D("", 1);
	v[1] = (struct mnode)D("big", N);
	for (i = 0; i < N; i++) {
		snprintf(names[i], 8, "n%04d", i);
		v[2 + i] = (struct mnode)F(names[i], "");
	}
	ck_assert_int_eq(run(&m, "-b 1024", "16M", &fx, &sum), 0);
	ck_assert_int_eq(sum.files, N);
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, EXT2_ROOT_INO, "big", 3, &dir,
					NULL), 0);
	ck_assert_int_eq(e2x_dir_form(fx.fs, dir, &form), 0);
	ck_assert_int_eq(form, E2X_DIR_FORM_HTREE);
	ck_assert_int_eq(ext2fs_read_inode(fx.fs, dir, (void *)&in), 0);
	ck_assert_int_eq(in.i_size, 9 * 1024);
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, dir, "n0499", 5, NULL, NULL),
			 0);
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
	free(names);
	free(v);
}
END_TEST

START_TEST(inline_tree_is_clean)
{
	struct mnode v[] = { D("", 3), F("small", "tiny"),
			     { "link", LINUX_S_IFLNK | 0777, "small", 0, 0 },
			     D("sub", 1), F("big",
			     "0123456789012345678901234567890123456789"
			     "0123456789012345678901234567890123456789"
			     "0123456789012345678901234567890123456789"
			     "0123456789012345678901234567890123456789") };
	struct msrc m = { v, 5, "" };
	struct e2x_pop_summary sum;
	struct fixture fx;

	ck_assert_int_eq(run(&m, "-O inline_data", "16M", &fx, &sum), 0);
	ck_assert_int_eq(sum.files, 2);
	ck_assert_int_eq(sum.dirs, 1);
	ck_assert_int_eq(sum.symlinks, 1);
	/* small and the sub directory are inline; big (160 bytes) is not */
	ck_assert_int_eq(sum.inlined, 2);
	fixture_close(&fx);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* N files named PREFIX%05d in DIR, added at once. */
static errcode_t add_files(ext2_filsys fs, ext2_ino_t dir, const char *prefix,
			   int n, char (*names)[16], struct e2x_dir_new *v)
{
	union {
		struct ext2_inode_large in;
		char bytes[1024];	/* the fs inode size */
	} u;
	int i;

	for (i = 0; i < n; i++) {
		memset(&u, 0, sizeof(u));
		snprintf(names[i], 16, "%s%05d", prefix, i);
		ck_assert_int_eq(e2x_inode_new(fs, dir, LINUX_S_IFREG | 0644,
					       &u.in, &v[i].ino), 0);
		ck_assert_int_eq(ext2fs_write_inode_full(fs, v[i].ino,
				 (void *)&u, EXT2_INODE_SIZE(fs->super)), 0);
		v[i].name = names[i];
		v[i].name_len = strlen(names[i]);
		v[i].file_type = EXT2_FT_REG_FILE;
	}
	return e2x_dir_add_many(fs, dir, v, n, E2X_DIR_BUILD_FULL);
}

static void assert_dir_ok(ext2_filsys fs, ext2_ino_t dir, uint64_t want,
			  enum e2x_dir_form want_form)
{
	struct e2x_dir_problems pr;
	enum e2x_dir_form form;
	uint64_t n;

	memset(&pr, 0, sizeof(pr));
	ck_assert_int_eq(e2x_dir_verify(fs, dir, 0, &pr), 0);
	ck_assert_uint_eq(pr.count, 0);
	e2x_dir_problems_free(&pr);
	ck_assert_int_eq(e2x_dir_count(fs, dir, &n), 0);
	ck_assert_uint_eq(n, want);
	ck_assert_int_eq(e2x_dir_form(fs, dir, &form), 0);
	ck_assert_int_eq(form, want_form);
}

/* Each form a batch can end in: inline (small), one linear block, an
 * htree with full leaves built from inline and from a block, and a
 * batch added to an indexed directory. */
START_TEST(add_many_each_form)
{
	static const struct {
		const char *opts;
		int first, second;	/* batch sizes */
		enum e2x_dir_form after1, after2;
		uint64_t size2;		/* i_size after both (0: any) */
	} rows[] = {
		{ "-O inline_data", 2, 1, E2X_DIR_FORM_INLINE,
		  E2X_DIR_FORM_INLINE, 0 },
		{ "-O inline_data", 2, 40, E2X_DIR_FORM_INLINE,
		  E2X_DIR_FORM_LINEAR, 1024 },
		/* 16-byte records, 63 per 1 KiB leaf: 8 full leaves + root */
		{ "-O inline_data", 3, 447, E2X_DIR_FORM_INLINE,
		  E2X_DIR_FORM_HTREE, 9 * 1024 },
		{ "", 30, 420, E2X_DIR_FORM_LINEAR, E2X_DIR_FORM_HTREE,
		  9 * 1024 },
		{ "", 70, 380, E2X_DIR_FORM_HTREE, E2X_DIR_FORM_HTREE,
		  9 * 1024 },
	};
	static char names[450][16];
	static struct e2x_dir_new v[450];
	struct ext2_inode_large in;
	char opts[64];
	struct fixture fx;
	ext2_ino_t dir;
	size_t r;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		snprintf(opts, sizeof(opts), "-b 1024 %s", rows[r].opts);
		fixture_mkfs(&fx, opts, "16M");
		ck_assert_int_eq(e2x_dir_mkdir(fx.fs, EXT2_ROOT_INO, "d", 1,
					       0755, 0, &dir), 0);
		ck_assert_int_eq(add_files(fx.fs, dir, "a", rows[r].first,
					   names, v), 0);
		assert_dir_ok(fx.fs, dir, rows[r].first, rows[r].after1);
		ck_assert_int_eq(add_files(fx.fs, dir, "b", rows[r].second,
					   names, v), 0);
		assert_dir_ok(fx.fs, dir, rows[r].first + rows[r].second,
			      rows[r].after2);
		ck_assert_int_eq(e2x_dir_lookup(fx.fs, dir, names[0], 6,
						NULL, NULL), 0);
		ck_assert_int_eq(ext2fs_read_inode_full(fx.fs, dir,
				 (void *)&in, sizeof(in)), 0);
		if (rows[r].size2)
			ck_assert_uint_eq(EXT2_I_SIZE(&in), rows[r].size2);
		fixture_close(&fx);
		ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
		fixture_drop(&fx);
	}
}
END_TEST

/* A name given twice, or one already there, is refused before any
 * block changes; bad entries before anything is read. */
START_TEST(add_many_refuses_duplicates)
{
	struct e2x_dir_new v[3] = {
		{ "x", 1, 0, EXT2_FT_REG_FILE },
		{ "y", 1, 0, EXT2_FT_REG_FILE },
		{ "x", 1, 0, EXT2_FT_REG_FILE },
	};
	struct fixture fx;
	uint64_t n;

	fixture_mkfs(&fx, "", "16M");
	v[0].ino = v[1].ino = v[2].ino = EXT2_ROOT_INO;
	ck_assert_int_eq(e2x_dir_add_many(fx.fs, EXT2_ROOT_INO, v, 3, 0),
			 E2X_ERR_EXISTS);
	v[2].name = "lost+found";
	v[2].name_len = 10;
	ck_assert_int_eq(e2x_dir_add_many(fx.fs, EXT2_ROOT_INO, v, 3, 0),
			 E2X_ERR_EXISTS);
	v[2].name = "a/b";
	v[2].name_len = 3;
	ck_assert_int_eq(e2x_dir_add_many(fx.fs, EXT2_ROOT_INO, v, 3, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	v[2].name = "z";
	v[2].name_len = 1;
	v[2].ino = 0;
	ck_assert_int_eq(e2x_dir_add_many(fx.fs, EXT2_ROOT_INO, v, 3, 0),
			 EXT2_ET_INVALID_ARGUMENT);
	ck_assert_int_eq(e2x_dir_count(fx.fs, EXT2_ROOT_INO, &n), 0);
	ck_assert_uint_eq(n, 1);	/* lost+found only */
	fixture_drop(&fx);
}
END_TEST

static Suite *populate_suite(void)
{
	Suite *s = suite_create("populate");
	TCase *tc = tcase_create("engine");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, name_too_long_names_the_entry);
	tcase_add_test(tc, read_error_names_the_entry);
	tcase_add_test(tc, grown_directory_has_full_leaves);
	tcase_add_test(tc, inline_tree_is_clean);
	tcase_add_test(tc, add_many_each_form);
	tcase_add_test(tc, add_many_refuses_duplicates);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(populate_suite)
