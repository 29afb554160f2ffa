/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_itree_shape.c --- itree shapes that once broke insert, remove or
 * verify: separators below the key the left edge started with, a leaf that
 * is the only child of an appended index node, and the lower bound that
 * entry 0 of every index node holds (e2x-itree.5, Index entries).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"

static struct fixture fx;
static struct ext2_inode_large *dino;
static ext2_ino_t dir;

/* The entries the tree must hold, for verify's comparison. */
static struct e2x_itree_entry *model;
static char (*names)[32];
static size_t nmodel;

static errcode_t model_walk(ext2_filsys fs, ext2_ino_t d, void *priv,
			    e2x_itree_entry_fn emit, void *emit_priv)
{
	size_t i;
	int r;

	for (i = 0; i < nmodel; i++) {
		r = emit(&model[i], emit_priv);
		if (r)
			return r;
	}
	return 0;
}

static int note_problem(const struct e2x_itree_problem *p, void *priv)
{
	int *seen = priv;

	seen[p->code]++;
	return 0;
}

static void setup(const char *opts, size_t cap)
{
	fixture_mkfs(&fx, opts, "32M");
	ck_assert_int_eq(ext2fs_mkdir(fx.fs, EXT2_ROOT_INO, 0, "d"), 0);
	ck_assert_int_eq(ext2fs_lookup(fx.fs, EXT2_ROOT_INO, "d", 1, NULL,
				       &dir), 0);
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fx.fs);
	dino = calloc(1, EXT2_INODE_SIZE(fx.fs->super));
	model = calloc(cap, sizeof(*model));
	names = calloc(cap, sizeof(*names));
	ck_assert(dino && model && names);
	nmodel = 0;
	ck_assert_int_eq(e2x_read_inode(fx.fs, dir, dino), 0);
	ck_assert_int_eq(e2x_itree_build(fx.fs, dir, dino, model_walk, NULL,
					 0), 0);
}

static void teardown(void)
{
	free(dino);
	free(model);
	free(names);
	dino = NULL;
	model = NULL;
	names = NULL;
	fixture_drop(&fx);
}

/* Verify the whole tree; returns the problem count, per code in SEEN. */
static unsigned int verify(int *seen)
{
	unsigned int np = 0;

	ck_assert_int_eq(e2x_itree_verify(fx.fs, dir, dino, model_walk, NULL,
					  note_problem, seen, &np), 0);
	return np;
}

static void verify_clean(const char *what, size_t step)
{
	int seen[E2X_ITREEP_MAX] = { 0 };
	unsigned int np = verify(seen);
	int c;

	for (c = 0; c < E2X_ITREEP_MAX && np; c++)
		if (seen[c])
			fprintf(stderr, "%s #%zu: %s x%d\n", what, step,
				e2x_itree_problem_name(c), seen[c]);
	ck_assert_uint_eq(np, 0);
}

static void add(uint32_t ino, uint32_t hash)
{
	struct e2x_itree_entry *e = &model[nmodel];

	e->name_len = snprintf(names[nmodel], sizeof(names[0]), "n-%zu",
			       nmodel);
	e->name = names[nmodel];
	e->ino = ino;
	e->hash = hash;
	e->file_type = EXT2_FT_REG_FILE;
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, e, 0), 0);
	nmodel++;
}

static void remove_last(void)
{
	errcode_t err;

	ck_assert_uint_gt(nmodel, 0);
	nmodel--;
	err = e2x_itree_remove(fx.fs, dir, dino, &model[nmodel], 0);
	ck_assert_msg(err == 0, "remove: %s", error_message(err));
}

/* Node BLK into BUF; its count and level. */
static void read_node(blk64_t blk, char *buf, unsigned int *count,
		      unsigned int *level)
{
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, blk, 1, buf), 0);
	ck_assert_int_eq(memcmp(buf, "ITRE", 4), 0);
	*count = (unsigned char)buf[4] | (unsigned char)buf[5] << 8;
	*level = (unsigned char)buf[8];
}

static struct e2x_itree_index_entry index_entry(const char *buf,
						unsigned int i)
{
	struct e2x_itree_index_entry e;

	memcpy(&e, buf + E2X_ITREE_HDR_SIZE + i * E2X_ITREE_INDEX_LEN,
	       sizeof(e));
	e.ie_ino = ext2fs_le32_to_cpu(e.ie_ino);
	e.ie_hash = ext2fs_le32_to_cpu(e.ie_hash);
	e.ie_child = ext2fs_le64_to_cpu(e.ie_child);
	return e;
}

/* Entry counts of the rightmost node of every level, root first. */
static unsigned int right_edge(unsigned int *counts)
{
	struct e2x_itree_root r;
	unsigned int n, level, depth = 0;
	char *buf = malloc(fx.fs->blocksize);
	blk64_t blk;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	for (blk = r.ir_root;; depth++) {
		read_node(blk, buf, &n, &level);
		counts[depth] = n;
		if (!level)
			break;
		blk = index_entry(buf, n - 1).ie_child;
	}
	free(buf);
	return depth + 1;
}

/*
 * The root grows above a leaf of keys from inode 5000 on; then keys of
 * smaller inodes arrive.  They all go into the first leaf, whose splits
 * make separators below the key the tree started with: entry 0 of the
 * root must not claim that key as a bound (it holds (0, 0)).
 */
START_TEST(separators_below_the_first_key)
{
	uint32_t i;
	unsigned int counts[E2X_ITREE_MAX_LEVELS];

	setup("-b 1024 -I 256 -N 40000 -O ^metadata_csum", 1200);
	for (i = 0; right_edge(counts) < 2; i++)
		add(5000 + i, i * 2654435761u);
	for (i = 0; i < 600; i++) {
		add(12 + i, i * 40503u);
		verify_clean("small inode", i);
	}
	teardown();
}
END_TEST

/*
 * Increasing inode numbers append: once the rightmost index node above
 * the leaves is full, the next append starts one holding a single child.
 * Removing from that child then has no sibling to merge with; it stays
 * (the rightmost node may be underfull) and, emptied, goes with its
 * parent.
 */
START_TEST(only_child_of_an_appended_node)
{
	unsigned int counts[E2X_ITREE_MAX_LEVELS], depth;
	uint32_t i;

	setup("-b 1024 -I 256 -N 40000", 6000);
	for (i = 0;; i++) {
		add(12 + i, i * 2654435761u);
		depth = right_edge(counts);
		if (depth >= 3 && counts[depth - 2] == 1 &&
		    counts[depth - 1] > 1)
			break;
		ck_assert_uint_lt(i, 5990);
	}
	/* the single child fills a little, then everything goes again */
	for (i = 0; i < 30; i++)
		add(20000 + i, i);
	for (i = 0; nmodel > 2000; i++) {
		remove_last();
		if (i < 200)
			verify_clean("remove", i);
	}
	verify_clean("remove", i);
	teardown();
}
END_TEST

/* Verify reads entry 0 of an index node as the node's lower bound: a
 * wrong one, at the root or below, is a key order problem. */
START_TEST(entry_zero_is_checked)
{
	int seen[E2X_ITREEP_MAX];
	struct e2x_itree_root r;
	struct e2x_itree_index_entry e;
	unsigned int n, level;
	char *root = malloc(1024), *child = malloc(1024);
	uint32_t i;

	ck_assert(root && child);
	setup("-b 1024 -I 256 -N 40000 -O ^metadata_csum", 5000);
	for (i = 0; i < 4000; i++)
		add(12 + (i * 7919u) % 30000, i * 2654435761u);
	verify_clean("built", 0);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	ck_assert_uint_ge(r.ir_levels, 3);
	read_node(r.ir_root, root, &n, &level);
	/* the left edge: (0, 0) */
	e = index_entry(root, 0);
	ck_assert_uint_eq(e.ie_ino, 0);
	ck_assert_uint_eq(e.ie_hash, 0);
	/* below: entry 0 of child 1 equals the separator of child 1 */
	e = index_entry(root, 1);
	read_node(e.ie_child, child, &n, &level);
	ck_assert_uint_ge(level, 1);
	ck_assert_int_eq(memcmp(child + E2X_ITREE_HDR_SIZE,
				root + E2X_ITREE_HDR_SIZE + 16, 8), 0);

	/* a bound one hash step higher than the separator */
	child[E2X_ITREE_HDR_SIZE + 4]++;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, e.ie_child, 1,
						child), 0);
	memset(seen, 0, sizeof(seen));
	ck_assert_uint_ge(verify(seen), 1);
	ck_assert_int_ge(seen[E2X_ITREEP_ORDER], 1);
	child[E2X_ITREE_HDR_SIZE + 4]--;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, e.ie_child, 1,
						child), 0);
	verify_clean("restored", 0);

	/* the left edge claiming a bound */
	root[E2X_ITREE_HDR_SIZE] = 1;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, r.ir_root, 1,
						root), 0);
	memset(seen, 0, sizeof(seen));
	ck_assert_uint_ge(verify(seen), 1);
	ck_assert_int_ge(seen[E2X_ITREEP_ORDER], 1);
	free(root);
	free(child);
	teardown();
}
END_TEST

/* A rebuilt tree states the same bounds. */
START_TEST(build_states_bounds)
{
	uint32_t i;

	setup("-b 1024 -I 256 -N 40000 -O ^metadata_csum", 5000);
	for (i = 0; i < 4000; i++)
		add(12 + (i * 7919u) % 30000, i * 2654435761u);
	ck_assert_int_eq(e2x_itree_build(fx.fs, dir, dino, model_walk, NULL,
					 0), 0);
	verify_clean("rebuilt", 0);
	teardown();
}
END_TEST

static Suite *suite_itree_shape(void)
{
	Suite *s = suite_create("itree_shape");
	TCase *tc = tcase_create("shape");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, separators_below_the_first_key);
	tcase_add_test(tc, only_child_of_an_appended_node);
	tcase_add_test(tc, entry_zero_is_checked);
	tcase_add_test(tc, build_states_bounds);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_itree_shape)
