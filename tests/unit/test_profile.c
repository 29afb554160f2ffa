/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_profile.c --- the mke2fs.conf reader: sections, relations, comments,
 * override order through the fs_types list, and syntax errors by line.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

static const char sample[] =
	"# comment line\n"
	"[defaults]\n"
	"\tbase_features = sparse_super,filetype\n"
	"\tblocksize = 4096\n"
	"\tinode_ratio = 16384\n"
	"; another comment\n"
	"\n"
	"[fs_types]\n"
	"\text4 = {\n"
	"\t\tfeatures = has_journal,extent\n"
	"\t\tinode_size = 256\n"
	"\t}\n"
	"\tsmall = {\n"
	"\t\tblocksize = 1024\n"
	"\t\tinode_ratio = 4096\n"
	"\t}\n"
	"\tnews = {\n"
	"\t\tinode_ratio = \"2048\"\n"
	"\t}\n"
	"\tempty = {\n"
	"\t}\n";

static struct e2x_profile *load(const char *text)
{
	struct e2x_profile *p = NULL;
	int line = -1;

	ck_assert_int_eq(e2x_profile_parse(text, &p, &line), 0);
	ck_assert_ptr_nonnull(p);
	return p;
}

START_TEST(section_and_relation_values)
{
	struct e2x_profile *p = load(sample);

	ck_assert_str_eq(e2x_profile_get(p, "defaults", NULL, "blocksize"),
			 "4096");
	ck_assert_str_eq(e2x_profile_get(p, "fs_types", "ext4", "features"),
			 "has_journal,extent");
	ck_assert_str_eq(e2x_profile_get(p, "fs_types", "news",
					 "inode_ratio"), "2048");
	ck_assert_ptr_null(e2x_profile_get(p, "defaults", NULL, "nosuch"));
	ck_assert_ptr_null(e2x_profile_get(p, "fs_types", "ext4",
					   "blocksize"));
	ck_assert(e2x_profile_has_type(p, "small"));
	ck_assert(e2x_profile_has_type(p, "empty"));
	ck_assert(!e2x_profile_has_type(p, "floppy"));
	e2x_profile_free(p);
}
END_TEST

/* Later types override earlier ones, and all override [defaults]. */
START_TEST(lookup_order_through_types)
{
	struct e2x_profile *p = load(sample);
	const char *const ext4_small[] = { "ext4", "small", NULL };
	const char *const ext4_small_news[] = { "ext4", "small", "news",
						NULL };
	const char *const ext4_only[] = { "ext4", NULL };

	ck_assert_str_eq(e2x_profile_lookup(p, ext4_small, "inode_ratio"),
			 "4096");
	ck_assert_str_eq(e2x_profile_lookup(p, ext4_small_news,
					    "inode_ratio"), "2048");
	ck_assert_str_eq(e2x_profile_lookup(p, ext4_small_news,
					    "blocksize"), "1024");
	ck_assert_str_eq(e2x_profile_lookup(p, ext4_only, "inode_ratio"),
			 "16384");
	ck_assert_str_eq(e2x_profile_lookup(p, ext4_only, "inode_size"),
			 "256");
	ck_assert_ptr_null(e2x_profile_lookup(p, ext4_only, "cluster_size"));
	e2x_profile_free(p);
}
END_TEST

/* The built-in default has what the reference's default has. */
START_TEST(builtin_default_profile)
{
	struct e2x_profile *p = load(e2x_profile_default_text());
	const char *const huge[] = { "ext4", "huge", NULL };

	ck_assert_str_eq(e2x_profile_get(p, "fs_types", "ext4", "features"),
			 "has_journal,extent,huge_file,flex_bg,metadata_csum,"
			 "64bit,dir_nlink,extra_isize");
	ck_assert_str_eq(e2x_profile_lookup(p, huge, "inode_ratio"), "65536");
	ck_assert_str_eq(e2x_profile_get(p, "defaults", NULL,
					 "default_mntopts"), "acl,user_xattr");
	e2x_profile_free(p);
}
END_TEST

static const struct {
	const char *text;
	int line;
} bad_texts[] = {
	{ "[defaults]\nblocksize 4096\n", 2 },		/* no '=' */
	{ "blocksize = 4096\n", 1 },			/* outside a section */
	{ "[fs_types]\next4 = {\nfeatures = x\n", 3 },	/* unclosed */
	{ "[defaults]\n}\n", 2 },			/* stray brace */
	{ "[fs_types]\na = {\nb = {\n", 3 },		/* nested relation */
	{ "[defaults\n", 1 },				/* unclosed header */
};

START_TEST(syntax_error_names_the_line)
{
	struct e2x_profile *p = NULL;
	int line = 0;

	ck_assert_int_eq(e2x_profile_parse(bad_texts[_i].text, &p, &line),
			 E2X_ERR_BAD_OPTION);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(line, bad_texts[_i].line);
}
END_TEST

/* A missing file means the built-in default, as for the reference. */
START_TEST(missing_file_uses_builtin)
{
	struct e2x_profile *p = NULL;

	ck_assert_int_eq(e2x_profile_load("/nonexistent/e2x/mke2fs.conf", &p,
					  NULL), 0);
	ck_assert_str_eq(e2x_profile_get(p, "defaults", NULL, "inode_ratio"),
			 "16384");
	e2x_profile_free(p);
}
END_TEST

START_TEST(file_is_read)
{
	char path[] = "/tmp/e2x-profile-XXXXXX";
	struct e2x_profile *p = NULL;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("[defaults]\n  inode_ratio = 8192\n", f);
	fclose(f);
	ck_assert_int_eq(e2x_profile_load(path, &p, NULL), 0);
	ck_assert_str_eq(e2x_profile_get(p, "defaults", NULL, "inode_ratio"),
			 "8192");
	ck_assert_ptr_null(e2x_profile_get(p, "fs_types", "ext4",
					   "features"));
	e2x_profile_free(p);
	unlink(path);
}
END_TEST

static Suite *suite_profile(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, section_and_relation_values);
	tcase_add_test(tc, lookup_order_through_types);
	tcase_add_test(tc, builtin_default_profile);
	tcase_add_loop_test(tc, syntax_error_names_the_line, 0,
			    sizeof(bad_texts) / sizeof(bad_texts[0]));
	tcase_add_test(tc, missing_file_uses_builtin);
	tcase_add_test(tc, file_is_read);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_profile)
