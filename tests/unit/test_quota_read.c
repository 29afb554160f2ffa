/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_quota_read.c --- the quota file reader (lib/quota/quota_read.c) on
 * images whose quota files the reference tools wrote: every record in id
 * order, single lookups, and corrupt headers and references refused.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"

#define REF_MKE2FS	"/usr/sbin/mke2fs"
#define REF_DEBUGFS	"/usr/sbin/debugfs"
#define REF_E2FSCK	"/usr/sbin/e2fsck"

/*
 * A quota image from the reference: three owned files (uids 5 and 1000,
 * gid 77), usage brought up to date by its e2fsck -fy.
 */
static void quota_image(struct fixture *fx)
{
	char cmd[1024];

	setenv("E2X_TEST_MKE2FS", REF_MKE2FS, 1);
	fixture_mkfs(fx, "-b 1024 -O quota,project", "8M");
	fixture_close(fx);
	snprintf(cmd, sizeof(cmd),
		 "printf 'write /dev/null a\\nsif a uid 1000\\nsif a gid 77\\n"
		 "write /dev/null b\\nsif b uid 5\\nwrite /dev/null c\\n"
		 "sif c uid 5\\n' | %s -w -f - %s >/dev/null 2>&1 && "
		 "%s -fy %s >/dev/null 2>&1; test $? -le 1",
		 REF_DEBUGFS, fx->path, REF_E2FSCK, fx->path);
	ck_assert_int_eq(system(cmd), 0);
	fixture_reopen(fx);
}

struct seen {
	uint32_t id[16];
	uint64_t inodes[16];
	int n;
};

static int collect(const struct e2x_dquot *dq, void *priv)
{
	struct seen *s = priv;

	if (s->n < 16) {
		s->id[s->n] = dq->id;
		s->inodes[s->n] = dq->curinodes;
	}
	s->n++;
	return 0;
}

static int stop_first(const struct e2x_dquot *dq, void *priv)
{
	(void)dq;
	++*(int *)priv;
	return 1;
}

START_TEST(iterate_in_id_order)
{
	struct e2x_quota_file *qf;
	struct fixture fx;
	struct seen s = { .n = 0 };
	int calls = 0;

	quota_image(&fx);
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_USER, &qf), 0);
	ck_assert_int_eq(e2x_quota_iterate(qf, collect, &s), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_uint_eq(s.id[0], 0);
	ck_assert_uint_eq(s.id[1], 5);
	ck_assert_uint_eq(s.inodes[1], 2);
	ck_assert_uint_eq(s.id[2], 1000);
	ck_assert_uint_eq(s.inodes[2], 1);
	ck_assert_int_eq(e2x_quota_iterate(qf, stop_first, &calls), 0);
	ck_assert_int_eq(calls, 1);
	e2x_quota_close(qf);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_GROUP, &qf), 0);
	ck_assert_int_eq(e2x_quota_iterate(qf, collect, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(s.id[1], 77);
	e2x_quota_close(qf);
	fixture_drop(&fx);
}
END_TEST

START_TEST(get_follows_the_id_path)
{
	struct e2x_quota_file *qf;
	struct e2x_dquot dq;
	struct fixture fx;

	quota_image(&fx);
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_USER, &qf), 0);
	ck_assert_int_eq(e2x_quota_get(qf, 1000, &dq), 0);
	ck_assert_uint_eq(dq.id, 1000);
	ck_assert_uint_eq(dq.curinodes, 1);
	ck_assert_uint_eq(dq.curspace, 0);
	ck_assert_int_eq(e2x_quota_get(qf, 5, &dq), 0);
	ck_assert_uint_eq(dq.curinodes, 2);
	/* 1000 + 256: same leaf path but for the last byte */
	ck_assert_int_eq(e2x_quota_get(qf, 1256, &dq), E2X_ERR_NOT_FOUND);
	ck_assert_uint_eq(dq.id, 1256);
	ck_assert_uint_eq(dq.curinodes, 0);
	ck_assert_int_eq(e2x_quota_get(qf, 0xffffffffu, &dq),
			 E2X_ERR_NOT_FOUND);
	e2x_quota_close(qf);
	fixture_drop(&fx);
}
END_TEST

/* Overwrite LEN bytes at OFF of quota file TYPE. */
static void plant(struct fixture *fx, int type, uint64_t off,
		  const void *data, unsigned int len)
{
	ext2_file_t f;
	unsigned int done;

	ck_assert_int_eq(ext2fs_file_open(fx->fs, e2x_quota_inode(fx->fs, type),
					  EXT2_FILE_WRITE, &f), 0);
	ck_assert_int_eq(ext2fs_file_llseek(f, off, EXT2_SEEK_SET, NULL), 0);
	ck_assert_int_eq(ext2fs_file_write(f, data, len, &done), 0);
	ck_assert_int_eq(ext2fs_file_close(f), 0);
}

static int count(const struct e2x_dquot *dq, void *priv)
{
	(void)dq;
	++*(int *)priv;
	return 0;
}

START_TEST(corrupt_files_refused)
{
	struct e2x_quota_file *qf;
	struct e2x_dquot dq;
	struct fixture fx;
	const uint32_t wrong_magic = 0xd9c01927;	/* the group's */
	const uint32_t far = 0x00ffffff;
	int n = 0;

	quota_image(&fx);
	plant(&fx, E2X_QUOTA_USER, 0, &wrong_magic, 4);
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_USER, &qf), 0);
	ck_assert_int_eq(e2x_quota_iterate(qf, count, &n), E2X_ERR_CORRUPT);
	ck_assert_int_eq(e2x_quota_get(qf, 0, &dq), E2X_ERR_CORRUPT);
	e2x_quota_close(qf);
	/* the root's first reference leads past the end of the file */
	plant(&fx, E2X_QUOTA_GROUP, 1024, &far, 4);
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_GROUP, &qf), 0);
	ck_assert_int_eq(e2x_quota_iterate(qf, count, &n), E2X_ERR_CORRUPT);
	ck_assert_int_eq(e2x_quota_get(qf, 77, &dq), E2X_ERR_CORRUPT);
	e2x_quota_close(qf);
	fx.fs->super->s_prj_quota_inum = 0;
	ck_assert_int_eq(e2x_quota_open(fx.fs, E2X_QUOTA_PROJECT, &qf),
			 EXT2_ET_BAD_INODE_NUM);
	ck_assert_ptr_null(qf);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_quota(void)
{
	Suite *s = suite_create("quota_read");
	TCase *tc = tcase_create("read");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, iterate_in_id_order);
	tcase_add_test(tc, get_follows_the_id_path);
	tcase_add_test(tc, corrupt_files_refused);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_quota)
