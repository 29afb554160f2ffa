/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dbg_parse.c --- debugfs pure helpers: command line words, inode
 * specs, timestamps (parse.c) and the set_super_value / set_inode_field
 * table (fields.c).
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "../../debugfs/debugfs.h"
#include "../../debugfs/fields.h"

static int split(const char *line, char ***argv)
{
	return dbg_split_line(line, argv);
}

START_TEST(split_plain_words)
{
	char **argv;
	int argc = split("  ls   -l\t/d  ", &argv);

	ck_assert_int_eq(argc, 3);
	ck_assert_str_eq(argv[0], "ls");
	ck_assert_str_eq(argv[1], "-l");
	ck_assert_str_eq(argv[2], "/d");
	ck_assert_ptr_null(argv[3]);
	free(argv);
}
END_TEST

START_TEST(split_quotes_and_escapes)
{
	char **argv;
	int argc = split("cat \"a b\" 'c \"d' e\\ f \"g\\\"h\" ''", &argv);

	ck_assert_int_eq(argc, 6);
	ck_assert_str_eq(argv[1], "a b");
	ck_assert_str_eq(argv[2], "c \"d");
	ck_assert_str_eq(argv[3], "e f");
	ck_assert_str_eq(argv[4], "g\"h");
	ck_assert_str_eq(argv[5], "");
	free(argv);
}
END_TEST

START_TEST(split_comment_and_empty)
{
	char **argv;

	ck_assert_int_eq(split("# only a comment", &argv), 0);
	free(argv);
	ck_assert_int_eq(split("", &argv), 0);
	free(argv);
	ck_assert_int_eq(split("ls # trailing", &argv), 1);
	free(argv);
}
END_TEST

START_TEST(split_unterminated_quote)
{
	char **argv;

	ck_assert_int_eq(split("ls \"abc", &argv), -1);
	ck_assert_ptr_null(argv);
	ck_assert_int_eq(split("ls 'abc", &argv), -1);
}
END_TEST

/* name | is a spec | valid | number */
static const struct {
	const char *s;
	int spec, ok;
	ext2_ino_t ino;
} specs[] = {
	{ "<12>", 1, 1, 12 },
	{ "<1>", 1, 1, 1 },
	{ "<0x10>", 1, 1, 16 },
	{ "<1000>", 1, 1, 1000 },
	{ "<1001>", 1, 0, 0 },		/* past s_inodes_count */
	{ "<0>", 1, 0, 0 },
	{ "<>", 1, 0, 0 },
	{ "<abc>", 1, 0, 0 },
	{ "<-1>", 1, 0, 0 },
	{ "<12", 0, 0, 0 },
	{ "12>", 0, 0, 0 },
	{ "/a/<12>", 0, 0, 0 },
	{ "<99999999999999999999999>", 1, 0, 0 },
};

START_TEST(ino_spec_table)
{
	ext2_ino_t ino = 0;
	int ok = 7, spec;

	spec = dbg_parse_ino_spec(specs[_i].s, 1000, &ino, &ok);
	ck_assert_msg(spec == specs[_i].spec, "%s: spec %d", specs[_i].s,
		      spec);
	ck_assert_msg(ok == specs[_i].ok, "%s: ok %d", specs[_i].s, ok);
	if (ok)
		ck_assert_uint_eq(ino, specs[_i].ino);
}
END_TEST

START_TEST(decode_time_epoch_bits)
{
	uint32_t ns;

	/* No extra field: signed 32-bit seconds. */
	ck_assert_int_eq(dbg_decode_time(0xffffffffu, 0, 0, &ns), -1);
	ck_assert_uint_eq(ns, 0);
	/* Extra: epoch bits 1 push past 2038; nanoseconds above them. */
	ck_assert_int_eq(dbg_decode_time(0x80000000u, 1 | (5u << 2), 1, &ns),
			 0x80000000LL);
	ck_assert_uint_eq(ns, 5);
	ck_assert_int_eq(dbg_decode_time(10, 2, 1, &ns), 10 + (2LL << 32));
}
END_TEST

/* jw's -b/-r lists: numbers and ranges, appended across options. */
START_TEST(block_list_items_and_ranges)
{
	blk64_t *l = NULL;
	size_t n = 0;

	ck_assert_int_eq(dbg_parse_block_list("7,10-12,0x20", &l, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(l[0], 7);
	ck_assert_uint_eq(l[1], 10);
	ck_assert_uint_eq(l[3], 12);
	ck_assert_uint_eq(l[4], 32);
	ck_assert_int_eq(dbg_parse_block_list("5", &l, &n), 0);
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(l[5], 5);
	ck_assert_int_eq(dbg_parse_block_list("3-1", &l, &n), -1);
	ck_assert_int_eq(dbg_parse_block_list("1,x", &l, &n), -1);
	ck_assert_int_eq(dbg_parse_block_list("", &l, &n), -1);
	ck_assert_int_eq(dbg_parse_block_list("0-99999999999", &l, &n), -1);
	free(l);
}
END_TEST

START_TEST(fields_find)
{
	int idx;

	ck_assert_ptr_nonnull(dbg_field_find(dbg_super_fields, "mnt_count",
					     &idx));
	ck_assert_int_eq(idx, -1);
	ck_assert_ptr_nonnull(dbg_field_find(dbg_super_fields, "s_mnt_count",
					     &idx));
	ck_assert_ptr_nonnull(dbg_field_find(dbg_super_fields,
					     "jnl_blocks[16]", &idx));
	ck_assert_int_eq(idx, 16);
	ck_assert_ptr_null(dbg_field_find(dbg_super_fields, "jnl_blocks[17]",
					  &idx));
	ck_assert_ptr_null(dbg_field_find(dbg_super_fields, "jnl_blocks",
					  &idx));
	ck_assert_ptr_null(dbg_field_find(dbg_super_fields, "mnt_count[0]",
					  &idx));
	ck_assert_ptr_null(dbg_field_find(dbg_super_fields, "nosuch", &idx));
	ck_assert_ptr_nonnull(dbg_field_find(dbg_inode_fields, "block[14]",
					     &idx));
	ck_assert_ptr_null(dbg_field_find(dbg_inode_fields, "block[15]",
					  &idx));
}
END_TEST

START_TEST(fields_names_unique)
{
	const struct dbg_field *tables[] = { dbg_super_fields,
					     dbg_inode_fields };
	const struct dbg_field *a, *b;
	size_t t;

	for (t = 0; t < 2; t++)
		for (a = tables[t]; a->name; a++)
			for (b = a + 1; b->name; b++)
				ck_assert_str_ne(a->name, b->name);
}
END_TEST

START_TEST(fields_split_hi_lo)
{
	struct ext2_super_block sb;
	struct ext2_inode_large in;
	const struct dbg_field *f;
	int idx;

	memset(&sb, 0, sizeof(sb));
	f = dbg_field_find(dbg_super_fields, "blocks_count", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "0x123456789"), 0);
	ck_assert_uint_eq(sb.s_blocks_count, 0x23456789u);
	ck_assert_uint_eq(sb.s_blocks_count_hi, 1);
	ck_assert_uint_eq(dbg_field_get(f, idx, (void *)&sb, sizeof(sb)),
			  0x123456789ull);

	memset(&in, 0, sizeof(in));
	in.i_extra_isize = 32;
	f = dbg_field_find(dbg_inode_fields, "version", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&in, sizeof(in),
				       "0x100000002"), 0);
	ck_assert_uint_eq(e2x_inode_get_version(&in, 256), 0x100000002ull);
	/* A 128-byte inode has no high half: refused, not truncated. */
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&in, 128, "1"),
			 DBG_FIELD_OUT_OF_RANGE);
	f = dbg_field_find(dbg_inode_fields, "uid", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&in, 128, "70000"), 0);
	ck_assert_uint_eq(inode_uid(in), 70000);
}
END_TEST

START_TEST(fields_values)
{
	struct ext2_super_block sb;
	const struct dbg_field *f;
	int idx;

	memset(&sb, 0, sizeof(sb));
	f = dbg_field_find(dbg_super_fields, "mnt_count", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "65536"), DBG_FIELD_BAD_VALUE);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "-1"), DBG_FIELD_BAD_VALUE);
	f = dbg_field_find(dbg_super_fields, "max_mnt_count", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "-1"), 0);
	ck_assert_int_eq((int16_t)sb.s_max_mnt_count, -1);
	f = dbg_field_find(dbg_super_fields, "volume_name", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "0123456789abcdefX"),
			 DBG_FIELD_BAD_VALUE);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "label"), 0);
	ck_assert_str_eq((char *)sb.s_volume_name, "label");
	f = dbg_field_find(dbg_super_fields, "uuid", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "not-a-uuid"), DBG_FIELD_BAD_VALUE);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "01020304-0506-0708-090a-0b0c0d0e0f10"),
			 0);
	ck_assert_uint_eq(sb.s_uuid[15], 0x10);
	f = dbg_field_find(dbg_super_fields, "errors", &idx);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "remount-ro"), 0);
	ck_assert_uint_eq(sb.s_errors, EXT2_ERRORS_RO);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "panic"), 0);
	ck_assert_uint_eq(sb.s_errors, EXT2_ERRORS_PANIC);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "continue"), 0);
	ck_assert_uint_eq(sb.s_errors, EXT2_ERRORS_CONTINUE);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "explode"), DBG_FIELD_BAD_VALUE);
	f = dbg_field_find(dbg_super_fields, "mount_opts", &idx);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(dbg_field_set(f, idx, (void *)&sb, sizeof(sb),
				       "journal_checksum"), 0);
	ck_assert_str_eq((char *)sb.s_mount_opts, "journal_checksum");
}
END_TEST

static Suite *dbg_parse_suite(void)
{
	Suite *s = suite_create("debugfs parse");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, split_plain_words);
	tcase_add_test(tc, split_quotes_and_escapes);
	tcase_add_test(tc, split_comment_and_empty);
	tcase_add_test(tc, split_unterminated_quote);
	tcase_add_loop_test(tc, ino_spec_table, 0,
			    sizeof(specs) / sizeof(specs[0]));
	tcase_add_test(tc, decode_time_epoch_bits);
	tcase_add_test(tc, block_list_items_and_ranges);
	tcase_add_test(tc, fields_find);
	tcase_add_test(tc, fields_names_unique);
	tcase_add_test(tc, fields_split_hi_lo);
	tcase_add_test(tc, fields_values);
	suite_add_tcase(s, tc);
	return s;
}

E2X_UNIT_MAIN(dbg_parse_suite)
