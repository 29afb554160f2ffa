/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_xattr_ibody.c --- the in-inode extended-attribute area: layout,
 * placement, room, get/set/remove/list, refusal of corrupt areas, and
 * the walk that reports each entry's faults instead of refusing.
 * Oracles: the byte layout the kernel writes (dumped from inodes the
 * kernel made) and libext2fs' own xattr reader.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

/* On-disk layout of an entry and of the area (ext4 xattr format). */
_Static_assert(sizeof(struct e2x_xattr_entry) == 16, "entry head 16 bytes");
_Static_assert(offsetof(struct e2x_xattr_entry, e_name_len) == 0x0, "");
_Static_assert(offsetof(struct e2x_xattr_entry, e_name_index) == 0x1, "");
_Static_assert(offsetof(struct e2x_xattr_entry, e_value_offs) == 0x2, "");
_Static_assert(offsetof(struct e2x_xattr_entry, e_value_inum) == 0x4, "");
_Static_assert(offsetof(struct e2x_xattr_entry, e_value_size) == 0x8, "");
_Static_assert(offsetof(struct e2x_xattr_entry, e_hash) == 0xC, "");
_Static_assert(sizeof(struct e2x_xattr_entry) ==
		       sizeof(struct ext2_ext_attr_entry),
	       "same size as libext2fs' entry");
_Static_assert(E2X_XATTR_ENTRY_LEN(4) == 20, "\"data\" entry is 20 bytes");
_Static_assert(E2X_XATTR_ENTRY_LEN(1) == 20, "names pad to 4");
_Static_assert(E2X_XATTR_ENTRY_LEN(5) == 24, "names pad to 4");
_Static_assert(E2X_XATTR_ENTRY_LEN(255) == 272, "longest name");
_Static_assert(E2X_XATTR_VALUE_LEN(0) == 0 && E2X_XATTR_VALUE_LEN(1) == 4 &&
		       E2X_XATTR_VALUE_LEN(40) == 40,
	       "values pad to 4");
_Static_assert(offsetof(struct ext2_inode_large, i_extra_isize) == 0x80,
	       "the area starts at 0x80 + i_extra_isize");

#define AREA	(128 + 32)	/* with i_extra_isize 32 */

static struct fixture fx;
static union {
	struct ext2_inode_large in;
	unsigned char raw[1024];
} ib;

static void fresh(const char *opts)
{
	fixture_mkfs(&fx, opts, "8M");
	memset(&ib, 0, sizeof(ib));
	ib.in.i_extra_isize = 32;
}

static uint32_t le32_at(size_t off)
{
	uint32_t v;

	memcpy(&v, ib.raw + off, 4);
	return ext2fs_le32_to_cpu(v);
}

static uint16_t le16_at(size_t off)
{
	uint16_t v;

	memcpy(&v, ib.raw + off, 2);
	return ext2fs_le16_to_cpu(v);
}

/* Empty system.data: what the kernel stores for inline content <= 60. */
START_TEST(empty_value_layout_matches_kernel)
{
	size_t len = 99;

	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", "", 0),
			 0);
	ck_assert_uint_eq(le32_at(AREA), 0xEA020000u);
	ck_assert_uint_eq(ib.raw[AREA + 4], 4);		/* e_name_len */
	ck_assert_uint_eq(ib.raw[AREA + 5], 7);		/* system. */
	ck_assert_uint_eq(le16_at(AREA + 6), 0);	/* e_value_offs */
	ck_assert_uint_eq(le32_at(AREA + 8), 0);	/* e_value_inum */
	ck_assert_uint_eq(le32_at(AREA + 12), 0);	/* e_value_size */
	ck_assert_uint_eq(le32_at(AREA + 16), 0);	/* e_hash */
	ck_assert_mem_eq(ib.raw + AREA + 20, "data", 4);
	ck_assert_uint_eq(le32_at(AREA + 24), 0);	/* end mark */
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL,
					     0, &len), 0);
	ck_assert_uint_eq(len, 0);
	fixture_drop(&fx);
}
END_TEST

/* A 40-byte value: the kernel puts it at the very end of the inode, offset
 * counted from the first entry (0x34 in a 256-byte inode). */
START_TEST(value_placed_at_end_like_kernel)
{
	unsigned char val[40], out[40];
	size_t len;
	int i;

	for (i = 0; i < 40; i++)
		val[i] = (unsigned char)(i * 7 + 1);
	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", val,
					     40), 0);
	ck_assert_uint_eq(le16_at(AREA + 6), 0x34);
	ck_assert_uint_eq(le32_at(AREA + 12), 40);
	ck_assert_mem_eq(ib.raw + 256 - 40, val, 40);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", out,
					     sizeof(out), &len), 0);
	ck_assert_uint_eq(len, 40);
	ck_assert_mem_eq(out, val, 40);
	fixture_drop(&fx);
}
END_TEST

/* Room for system.data: area - header - entry - end mark, per inode size;
 * the kernel's max inline size is 60 more (128, 384, 896). */
static const struct {
	const char *opts;
	size_t room;
} room_cases[] = {
	{ "-I 256", 68 },
	{ "-I 512", 324 },
	{ "-I 1024", 836 },
};

START_TEST(room_per_inode_size)
{
	size_t room = 0;

	fresh(room_cases[_i].opts);
	ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data", &room),
			 0);
	ck_assert_uint_eq(room, room_cases[_i].room);
	/* The room is exact: that much fits, 4 more do not. */
	{
		unsigned char big[1024];

		memset(big, 0xab, sizeof(big));
		ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data",
						     big, room), 0);
		ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data",
						     big, room + 1),
				 E2X_ERR_NO_SPACE);
		ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data",
						      &room), 0);
		ck_assert_uint_eq(room, room_cases[_i].room);
	}
	fixture_drop(&fx);
}
END_TEST

/* i_extra_isize 0: the kernel sees no area there, so we offer none. */
START_TEST(zero_extra_isize_has_no_area)
{
	size_t room = 1;

	fresh("-I 256");
	ib.in.i_extra_isize = 0;
	ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data", &room),
			 E2X_ERR_NO_SPACE);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", "", 0),
			 E2X_ERR_NO_SPACE);
	fixture_drop(&fx);
}
END_TEST

struct seen {
	int n;
	char names[4][16];
	size_t lens[4];
};

static int note(const struct e2x_xattr *xa, void *priv)
{
	struct seen *s = priv;

	if (s->n < 4) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%d.%.*s",
			 xa->name_index, (int)xa->name_len, xa->name);
		s->lens[s->n] = xa->value_len;
	}
	s->n++;
	return 0;
}

START_TEST(set_replace_remove_list)
{
	struct seen s;
	char out[16];
	size_t len, room1, room2;

	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "abc", "hello",
					     5), 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", "x", 1),
			 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "abc", "hi", 2),
			 0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(e2x_xattr_ibody_list(fx.fs, &ib.in, note, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.names[0], "1.abc");
	ck_assert_uint_eq(s.lens[0], 2);
	ck_assert_str_eq(s.names[1], "7.data");
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 1, "abc", out,
					     sizeof(out), &len), 0);
	ck_assert_uint_eq(len, 2);
	ck_assert_mem_eq(out, "hi", 2);
	/* Another attribute takes room from system.data. */
	ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data",
					      &room1), 0);
	ck_assert_uint_eq(room1, 68 - 20 - 4);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 1, "abd", NULL, 0,
					     &len), E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(e2x_xattr_ibody_remove(fx.fs, &ib.in, 1, "abc"), 0);
	ck_assert_int_eq(e2x_xattr_ibody_remove(fx.fs, &ib.in, 1, "abc"),
			 E2X_ERR_NOT_FOUND);
	ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data",
					      &room2), 0);
	ck_assert_uint_eq(room2, 68);
	/* The last attribute gone: the area is all zeros, magic included. */
	ck_assert_int_eq(e2x_xattr_ibody_remove(fx.fs, &ib.in, 7, "data"), 0);
	{
		unsigned char zero[256 - AREA];

		memset(zero, 0, sizeof(zero));
		ck_assert_mem_eq(ib.raw + AREA, zero, sizeof(zero));
	}
	fixture_drop(&fx);
}
END_TEST

START_TEST(no_space_leaves_inode_unchanged)
{
	unsigned char before[256], big[200];

	fresh("-I 256");
	memset(big, 1, sizeof(big));
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "k", "v", 1),
			 0);
	memcpy(before, ib.raw, 256);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", big,
					     sizeof(big)), E2X_ERR_NO_SPACE);
	ck_assert_mem_eq(ib.raw, before, 256);
	fixture_drop(&fx);
}
END_TEST

/* Corrupt areas: every bad length or offset is refused, nothing read out
 * of bounds (run under ASan). */
static void put16(size_t off, uint16_t v)
{
	v = ext2fs_cpu_to_le16(v);
	memcpy(ib.raw + off, &v, 2);
}

static void put32(size_t off, uint32_t v)
{
	v = ext2fs_cpu_to_le32(v);
	memcpy(ib.raw + off, &v, 4);
}

enum { C_OFFS, C_SIZE, C_NAMELEN, C_NOEND, C_OVERLAP, C_EXTRA, C_EXTRA_ODD };

START_TEST(corrupt_areas_refused)
{
	size_t len;

	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data",
					     "0123456789", 10), 0);
	switch (_i) {
	case C_OFFS:	/* value beyond the inode */
		put16(AREA + 6, 200);
		break;
	case C_SIZE:	/* value size far past the inode */
		put32(AREA + 12, 0x7fffffff);
		break;
	case C_NAMELEN:	/* name runs past the inode */
		ib.raw[AREA + 4] = 255;
		break;
	case C_NOEND:	/* entries to the very end, no end mark */
		memset(ib.raw + AREA + 24, 0x11, 256 - AREA - 24);
		break;
	case C_OVERLAP:	/* value over the entry table */
		put16(AREA + 6, 8);
		break;
	case C_EXTRA:	/* i_extra_isize past the inode */
		ib.in.i_extra_isize = 200;
		break;
	case C_EXTRA_ODD:
		ib.in.i_extra_isize = 30;
		break;
	}
	ck_assert_int_eq(e2x_xattr_ibody_check(fx.fs, &ib.in), E2X_ERR_CORRUPT);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL, 0,
					     &len), E2X_ERR_CORRUPT);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", "", 0),
			 E2X_ERR_CORRUPT);
	fixture_drop(&fx);
}
END_TEST

/* What we write, libext2fs reads: the value and the inline size agree. */
START_TEST(libext2fs_reads_our_area)
{
	struct ext2_xattr_handle *h = NULL;
	ext2_ino_t ino;
	unsigned char val[30];
	void *got = NULL;
	size_t len = 0;

	fresh("-I 256 -O inline_data");
	memset(val, 0x5a, sizeof(val));
	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO,
				       LINUX_S_IFREG | 0644, &ib.in, &ino), 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "user1", "u", 1),
			 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", val,
					     sizeof(val)), 0);
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	ck_assert_int_eq(ext2fs_xattrs_open(fx.fs, ino, &h), 0);
	ck_assert_int_eq(ext2fs_xattrs_read(h), 0);
	ck_assert_int_eq(ext2fs_xattr_get(h, "system.data", &got, &len), 0);
	ck_assert_uint_eq(len, sizeof(val));
	ck_assert_mem_eq(got, val, sizeof(val));
	ext2fs_free_mem(&got);
	ck_assert_int_eq(ext2fs_xattr_get(h, "user.user1", &got, &len), 0);
	ck_assert_uint_eq(len, 1);
	ext2fs_free_mem(&got);
	ext2fs_xattrs_close(&h);
	ck_assert_int_eq(ext2fs_inline_data_size(fx.fs, ino, &len), 0);
	ck_assert_uint_eq(len, 60 + sizeof(val));
	fixture_drop(&fx);
}
END_TEST

/* The longest name (255 bytes) fits a 512-byte inode; its entry is 272. */
START_TEST(longest_name)
{
	char name[256], out[8];
	size_t len = 0, room = 0;

	fresh("-I 512");
	memset(name, 'n', 255);
	name[255] = 0;
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, name, "v", 1),
			 0);
	ck_assert_uint_eq(ib.raw[AREA + 4], 255);
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, &ib.in, 1, name, out,
					     sizeof(out), &len), 0);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data", &room),
			 0);
	ck_assert_uint_eq(room, 324 - 272 - 4);
	name[0] = 'm';		/* a second one no longer fits */
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, name, "v", 1),
			 E2X_ERR_NO_SPACE);
	fixture_drop(&fx);
}
END_TEST

static int count_fn(const struct e2x_xattr *xa, void *priv)
{
	(void)xa;
	(*(int *)priv)++;
	return 0;
}

/* Random damage to a full area: every call either works on a consistent
 * area or reports corruption; never an out-of-bounds access (ASan). */
START_TEST(random_damage_never_overruns)
{
	unsigned char good[1024];
	unsigned int seed = 12345;
	int round, n;

	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "a", "12345",
					     5), 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data",
					     "0123456789abcdef", 16), 0);
	memcpy(good, ib.raw, sizeof(good));
	for (round = 0; round < 3000; round++) {
		size_t room, len;
		int k;

		memcpy(ib.raw, good, sizeof(good));
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			ib.raw[AREA + (seed >> 8) % (256 - AREA)] =
				(unsigned char)(seed >> 20);
		}
		n = 0;
		e2x_xattr_ibody_check(fx.fs, &ib.in);
		e2x_xattr_ibody_list(fx.fs, &ib.in, count_fn, &n);
		e2x_xattr_ibody_get(fx.fs, &ib.in, 7, "data", NULL, 0, &len);
		e2x_xattr_ibody_room(fx.fs, &ib.in, 7, "data", &room);
		if (e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data", "xy", 2) == 0)
			ck_assert_int_eq(e2x_xattr_ibody_check(fx.fs, &ib.in),
					 0);
	}
	fixture_drop(&fx);
}
END_TEST

/* The walk reports what is wrong per entry instead of refusing. */
struct walked {
	int n;
	unsigned int faults[4];
	unsigned int name_len[4];
	unsigned int value_off[4];
	int has_value[4];
};

static int walk_note(const struct e2x_xattr_ibody_entry *e, void *priv)
{
	struct walked *w = priv;

	if (w->n < 4) {
		w->faults[w->n] = e->faults;
		w->name_len[w->n] = e->xa.name_len;
		w->value_off[w->n] = e->value_off;
		w->has_value[w->n] = e->xa.value != NULL;
	}
	w->n++;
	return 0;
}

/* A POSIX ACL the way the kernel stores it: index 2, empty name, value of
 * 4 bytes at the end of a 256-byte inode. */
static void put_acl_area(void)
{
	put32(AREA, 0xEA020000u);
	ib.raw[AREA + 4] = 0;			/* e_name_len */
	ib.raw[AREA + 5] = 2;			/* system.posix_acl_access */
	put16(AREA + 6, 256 - AREA - 4 - 4);	/* value in the last 4 bytes */
	put32(AREA + 12, 4);			/* e_value_size */
	memcpy(ib.raw + 252, "\x02\0\0\0", 4);
}

START_TEST(walk_reports_empty_acl_name)
{
	struct walked w = { 0 };
	unsigned int faults = 0;

	fresh("-I 256");
	put_acl_area();
	ck_assert_int_eq(e2x_xattr_ibody_walk(fx.fs, &ib.in, walk_note, &w,
					      &faults), 0);
	ck_assert_int_eq(w.n, 1);
	ck_assert_uint_eq(faults, E2X_XATTR_F_EMPTY_NAME);
	ck_assert_uint_eq(w.name_len[0], 0);
	ck_assert_uint_eq(w.value_off[0], 252);
	ck_assert_int_eq(w.has_value[0], 1);
	/* reading and editing still refuse it */
	ck_assert_int_eq(e2x_xattr_ibody_check(fx.fs, &ib.in), E2X_ERR_CORRUPT);
	fixture_drop(&fx);
}
END_TEST

enum { W_OUTSIDE, W_CUT, W_SHARED };

START_TEST(walk_reports_bad_values)
{
	struct walked w = { 0 };
	unsigned int faults = 0, want = 0;

	fresh("-I 256");
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 7, "data",
					     "0123456789", 10), 0);
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, &ib.in, 1, "a", "wxyz", 4),
			 0);
	switch (_i) {
	case W_OUTSIDE:	/* the first value past the inode */
		put16(AREA + 6, 200);
		want = E2X_XATTR_F_VALUE_OUTSIDE;
		break;
	case W_CUT:	/* the second entry's name runs past the inode */
		ib.raw[AREA + 4 + 20] = 255;
		want = E2X_XATTR_F_LIST_CUT;
		break;
	case W_SHARED:	/* the second value inside the first */
		put16(AREA + 4 + 20 + 2, le16_at(AREA + 6));
		want = E2X_XATTR_F_VALUE_SHARED;
		break;
	}
	ck_assert_int_eq(e2x_xattr_ibody_walk(fx.fs, &ib.in, walk_note, &w,
					      &faults), 0);
	ck_assert_uint_eq(faults, want);
	ck_assert_int_eq(w.n, _i == W_CUT ? 1 : 2);
	ck_assert_uint_eq(w.faults[0], want);
	ck_assert_int_eq(w.has_value[0], _i == W_SHARED);
	ck_assert_int_eq(e2x_xattr_ibody_check(fx.fs, &ib.in),
			 _i == W_SHARED ? 0 : E2X_ERR_CORRUPT);
	fixture_drop(&fx);
}
END_TEST

/* Only an i_extra_isize with no place for an area stops the walk. */
START_TEST(walk_refuses_impossible_extra_isize)
{
	unsigned int faults = 1;

	fresh("-I 256");
	ib.in.i_extra_isize = 200;
	ck_assert_int_eq(e2x_xattr_ibody_walk(fx.fs, &ib.in, NULL, NULL,
					      &faults), E2X_ERR_CORRUPT);
	ck_assert_uint_eq(faults, 0);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_xattr_ibody(void)
{
	Suite *s = suite_create("xattr_ibody");
	TCase *tc = tcase_create("area");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, empty_value_layout_matches_kernel);
	tcase_add_test(tc, value_placed_at_end_like_kernel);
	tcase_add_loop_test(tc, room_per_inode_size, 0,
			    sizeof(room_cases) / sizeof(room_cases[0]));
	tcase_add_test(tc, set_replace_remove_list);
	tcase_add_test(tc, no_space_leaves_inode_unchanged);
	tcase_add_loop_test(tc, corrupt_areas_refused, C_OFFS, C_EXTRA_ODD + 1);
	tcase_add_test(tc, libext2fs_reads_our_area);
	tcase_add_test(tc, longest_name);
	tcase_add_test(tc, zero_extra_isize_has_no_area);
	tcase_add_test(tc, random_damage_never_overruns);
	tcase_add_test(tc, walk_reports_empty_acl_name);
	tcase_add_loop_test(tc, walk_reports_bad_values, W_OUTSIDE,
			    W_SHARED + 1);
	tcase_add_test(tc, walk_refuses_impossible_extra_isize);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_xattr_ibody)
