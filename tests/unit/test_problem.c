/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_problem.c --- the e2fsck problem table: codes unique and ordered,
 * the enum and the table made from the same rows of problem_list.h, every message non-empty with known
 * fields, pass numbers valid, and fix_problem's decisions per mode.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "problem.h"

/* problem.c wipes the -C 0 bar (unix.c) before it prints: nothing here. */
void fsck_progress_clear(struct fsck_ctx *ctx)
{
	(void)ctx;
}

static const char *const fields[] = { "ino", "ino2", "dir", "blk", "blk2",
				      "num", "num2", "group", "str", "name", "mode",
				      NULL };

START_TEST(test_codes_ordered_unique)
{
	size_t n, i;
	const struct problem_row *t = problem_table(&n);

	ck_assert_uint_gt(n, 50);
	for (i = 1; i < n; i++)
		ck_assert_msg(t[i - 1].code < t[i].code,
			      "0x%06x not before 0x%06x", t[i - 1].code,
			      t[i].code);
}
END_TEST

START_TEST(test_passes_valid)
{
	size_t n, i;
	const struct problem_row *t = problem_table(&n);

	for (i = 0; i < n; i++) {
		unsigned int p = PR_PASS(t[i].code);

		ck_assert_msg(p <= 5 || p == 0x11, "0x%06x: pass %u",
			      t[i].code, p);
		ck_assert_msg(t[i].code & 0xffff, "0x%06x: no number",
			      t[i].code);
	}
}
END_TEST

START_TEST(test_messages)
{
	size_t n, i;
	const struct problem_row *t = problem_table(&n);

	for (i = 0; i < n; i++) {
		const char *s = t[i].msg, *b;

		ck_assert_msg(s && strlen(s) > 10, "0x%06x: empty", t[i].code);
		ck_assert_msg(s[strlen(s) - 1] != '.' &&
				      s[strlen(s) - 1] != ' ',
			      "0x%06x: ends with a period or space",
			      t[i].code);
		for (b = strchr(s, '{'); b; b = strchr(b + 1, '{')) {
			const char *e = strchr(b, '}');
			int j, ok = 0;

			ck_assert_msg(e != NULL, "0x%06x: open brace",
				      t[i].code);
			for (j = 0; fields[j]; j++)
				if ((size_t)(e - b - 1) == strlen(fields[j]) &&
				    !strncmp(b + 1, fields[j], e - b - 1))
					ok = 1;
			ck_assert_msg(ok, "0x%06x: unknown field %.*s",
				      t[i].code, (int)(e - b + 1), b);
		}
		ck_assert_int_lt(t[i].prompt, PROMPT_COUNT);
		if (t[i].flags & PR_FATAL)
			ck_assert_int_eq(t[i].prompt, PROMPT_NONE);
		if (t[i].prompt != PROMPT_NONE)
			ck_assert_str_ne(problem_prompt_word(t[i].prompt), "");
	}
}
END_TEST

/* The enum and the table come from problem_list.h: every name finds its
 * own row, and the table has exactly the list's rows. */
static const problem_t list_codes[] = {
#define PROBLEM(name, code, prompt, flags, msg) name,
#include "problem_list.h"
#undef PROBLEM
};

START_TEST(test_list_and_table)
{
	size_t n, i;
	const struct problem_row *t = problem_table(&n);

	ck_assert_uint_eq(n, sizeof(list_codes) / sizeof(list_codes[0]));
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(t[i].code, list_codes[i]);
		ck_assert_ptr_eq(problem_find(list_codes[i]), &t[i]);
	}
	ck_assert_ptr_null(problem_find(0x000000));
	ck_assert_ptr_null(problem_find(0x0000ff));
}
END_TEST

static struct fsck_ctx make_ctx(enum fsck_mode m, int rw)
{
	struct fsck_ctx c = { 0 };

	c.prog = "test";
	c.opt.device = "dev";
	c.opt.mode = m;
	c.fs_rw = rw;
	return c;
}

START_TEST(test_decisions)
{
	struct problem_ctx p = { 0 };
	struct fsck_ctx c;
	FILE *saved = stdout;

	stdout = fopen("/dev/null", "w");
	/* -n: never fixes, counts an error */
	c = make_ctx(MODE_NO, 0);
	ck_assert_int_eq(fix_problem(&c, PR_4_LINK_COUNT, &p), 0);
	ck_assert_uint_eq(c.problems_unfixed, 1);
	/* -n on a "no is fine" row: not an error */
	ck_assert_int_eq(fix_problem(&c, PR_5_FREE_BLOCKS, &p), 0);
	ck_assert_uint_eq(c.problems_unfixed, 1);
	/* -y: fixes what has a repair, leaves the rest counted */
	c = make_ctx(MODE_YES, 1);
	ck_assert_int_eq(fix_problem(&c, PR_4_LINK_COUNT, &p), 1);
	ck_assert_uint_eq(c.problems_fixed, 1);
	ck_assert_int_eq(fix_problem(&c, PR_0_FLEX_SIZE, &p), 0);
	ck_assert_uint_eq(c.problems_unfixed, 1);
	/* -y on a read-only open never claims a fix */
	c = make_ctx(MODE_YES, 0);
	ck_assert_int_eq(fix_problem(&c, PR_4_LINK_COUNT, &p), 0);
	/* -p: safe rows fixed, others stop the run */
	c = make_ctx(MODE_PREEN, 1);
	ck_assert_int_eq(fix_problem(&c, PR_5_BLOCK_USED, &p), 1);
	ck_assert_int_eq(c.preen_bailed, 0);
	ck_assert_int_eq(fix_problem(&c, PR_2_REC_LEN, &p), 0);
	ck_assert_int_eq(c.preen_bailed, 1);
	ck_assert_int_eq(c.abort, 1);
	/* notes are never errors; fatal rows abort with exit 8 */
	c = make_ctx(MODE_NO, 0);
	fix_problem(&c, PR_0_JOURNAL_NOT_REPLAYED, &p);
	ck_assert_uint_eq(c.problems_unfixed, 0);
	fix_problem(&c, PR_1_INODE_SCAN, &p);
	ck_assert_int_eq(c.abort, 1);
	ck_assert_int_ne(c.exit_extra & FSCK_ERROR, 0);
	fclose(stdout);
	stdout = saved;
}
END_TEST

START_TEST(test_format)
{
	struct problem_ctx p = { 0 };
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	p.ino = 12;
	p.num = 3;
	p.num2 = 1;
	problem_format(f, NULL, PR_4_LINK_COUNT, &p);
	fclose(f);
	ck_assert_str_eq(buf, "Inode 12 has link count 3; counted 1 names");
}
END_TEST

static Suite *problem_suite(void)
{
	Suite *s = suite_create("problem");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_codes_ordered_unique);
	tcase_add_test(tc, test_passes_valid);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_list_and_table);
	tcase_add_test(tc, test_decisions);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(problem_suite)
