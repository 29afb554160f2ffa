/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_itree_format.c --- the itree on-disk format as e2x-itree.5 states
 * it: struct sizes and offsets, the feature bit, the root record in
 * system.itree, node headers and their checksum (recomputed here from the
 * spec's formula), the append rule, and refusal of damaged nodes.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"

_Static_assert(sizeof(struct e2x_itree_root) == 0x20, "root record 32 bytes");
_Static_assert(offsetof(struct e2x_itree_root, ir_root) == 0x00, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_free) == 0x08, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_generation) == 0x10, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_clusters) == 0x14, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_version) == 0x18, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_levels) == 0x19, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_flags) == 0x1A, "");
_Static_assert(offsetof(struct e2x_itree_root, ir_nodes) == 0x1C, "");

_Static_assert(sizeof(struct e2x_itree_node) == E2X_ITREE_HDR_SIZE, "");
_Static_assert(E2X_ITREE_HDR_SIZE == 0x20, "node header 32 bytes");
_Static_assert(offsetof(struct e2x_itree_node, in_magic) == 0x00, "");
_Static_assert(offsetof(struct e2x_itree_node, in_count) == 0x04, "");
_Static_assert(offsetof(struct e2x_itree_node, in_used) == 0x06, "");
_Static_assert(offsetof(struct e2x_itree_node, in_level) == 0x08, "");
_Static_assert(offsetof(struct e2x_itree_node, in_fullness) == 0x09, "");
_Static_assert(offsetof(struct e2x_itree_node, in_flags) == 0x0A, "");
_Static_assert(offsetof(struct e2x_itree_node, in_generation) == 0x0C, "");
_Static_assert(offsetof(struct e2x_itree_node, in_owner) == 0x10, "");
_Static_assert(offsetof(struct e2x_itree_node, in_checksum) == 0x14, "");
_Static_assert(offsetof(struct e2x_itree_node, in_next_free) == 0x18, "");

_Static_assert(offsetof(struct e2x_itree_leaf_entry, le_ino) == 0x0, "");
_Static_assert(offsetof(struct e2x_itree_leaf_entry, le_hash) == 0x4, "");
_Static_assert(offsetof(struct e2x_itree_leaf_entry, le_name_len) == 0x8, "");
_Static_assert(offsetof(struct e2x_itree_leaf_entry, le_file_type) == 0x9,
	       "");
_Static_assert(offsetof(struct e2x_itree_leaf_entry, le_name) == 0xA, "");
_Static_assert(E2X_ITREE_LEAF_LEN(1) == 12 && E2X_ITREE_LEAF_LEN(2) == 12 &&
		       E2X_ITREE_LEAF_LEN(3) == 16 &&
		       E2X_ITREE_LEAF_LEN(255) == 268,
	       "leaf entries pad to 4 bytes");
_Static_assert(sizeof(struct e2x_itree_index_entry) == E2X_ITREE_INDEX_LEN &&
		       E2X_ITREE_INDEX_LEN == 16, "");
_Static_assert(offsetof(struct e2x_itree_index_entry, ie_child) == 0x8, "");

static struct fixture fx;
static struct ext2_inode_large *dino;
static ext2_ino_t dir;

static errcode_t no_entries(ext2_filsys fs, ext2_ino_t d, void *priv,
			    e2x_itree_entry_fn emit, void *emit_priv)
{
	return 0;
}

/* A fresh fs with the feature and an empty tree on directory /d. */
static void setup_tree(const char *opts)
{
	errcode_t err;

	fixture_mkfs(&fx, opts, "32M");
	ck_assert_int_eq(ext2fs_mkdir(fx.fs, EXT2_ROOT_INO, 0, "d"), 0);
	ck_assert_int_eq(ext2fs_lookup(fx.fs, EXT2_ROOT_INO, "d", 1, NULL,
				       &dir), 0);
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fx.fs);
	dino = calloc(1, EXT2_INODE_SIZE(fx.fs->super));
	ck_assert_ptr_nonnull(dino);
	ck_assert_int_eq(e2x_read_inode(fx.fs, dir, dino), 0);
	err = e2x_itree_build(fx.fs, dir, dino, no_entries, NULL, 0);
	ck_assert_msg(err == 0, "build: %s", error_message(err));
}

static void teardown_tree(void)
{
	free(dino);
	dino = NULL;
	fixture_drop(&fx);
}

static void insert_n(unsigned int n, int seq)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		char name[32];
		struct e2x_itree_entry e;

		e.name_len = snprintf(name, sizeof(name), "entry-%06u", i);
		e.name = name;
		e.ino = seq ? 12 + i : 12 + (i * 7919u) % 5000;
		e.hash = i * 2654435761u;
		e.file_type = EXT2_FT_REG_FILE;
		ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &e, 0), 0);
	}
}

static void read_root_node(struct e2x_itree_root *r, char *buf)
{
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, r), 0);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, r->ir_root, 1, buf),
			 0);
}

START_TEST(feature_bit_is_unused_and_unknown_to_libext2fs)
{
	ck_assert_uint_eq(E2X_FEATURE_RO_COMPAT_ITREE, 0x80000000u);
	ck_assert_uint_eq(E2X_FEATURE_RO_COMPAT_ITREE &
				  EXT2_LIB_FEATURE_RO_COMPAT_SUPP, 0);
	ck_assert_uint_eq(E2X_FEATURE_RO_COMPAT_ITREE &
			  (EXT4_FEATURE_RO_COMPAT_ORPHAN_PRESENT * 2 - 1), 0);
	ck_assert_str_eq(E2X_ITREE_FEATURE_NAME, "itree");
}
END_TEST

/* e2x-itree.5, ROOT RECORD: system.itree, 32 bytes, version 1. */
START_TEST(root_record_lives_in_system_itree)
{
	unsigned char v[64];
	size_t len = 0;
	struct e2x_itree_root r;
	uint32_t gen;

	setup_tree("-b 4096 -I 256 -O metadata_csum");
	ck_assert(e2x_itree_present(fx.fs, dino));
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, dino, 7, "itree", v,
					     sizeof(v), &len), 0);
	ck_assert_uint_eq(len, 32);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	ck_assert_uint_eq(v[0x18], 1);	/* version */
	ck_assert_uint_eq(v[0x19], 1);	/* levels: root is a leaf */
	memcpy(&gen, v + 0x10, 4);
	ck_assert_uint_eq(ext2fs_le32_to_cpu(gen), r.ir_generation);
	ck_assert_uint_eq(r.ir_nodes, 1);
	ck_assert_uint_eq(r.ir_clusters, 1);
	ck_assert_uint_eq(r.ir_free, 0);
	teardown_tree();
}
END_TEST

/* e2x-itree.5, NODES and CHECKSUM, recomputed from the formula, for each
 * block size. */
static const unsigned int csum_bs[] = { 1024, 4096, 65536 };

START_TEST(node_header_and_checksum)
{
	unsigned int bs = csum_bs[_i];
	char *buf = malloc(bs), opts[64];
	struct e2x_itree_root r;
	struct e2x_itree_node *h = (struct e2x_itree_node *)buf;
	uint32_t le, crc, seed;
	uint64_t blk;

	snprintf(opts, sizeof(opts), "-b %u -I 256 -O metadata_csum", bs);
	setup_tree(opts);
	insert_n(3, 1);
	read_root_node(&r, buf);
	ck_assert_uint_eq(ext2fs_le32_to_cpu(h->in_magic), 0x45525449u);
	ck_assert_int_eq(memcmp(buf, "ITRE", 4), 0);
	ck_assert_uint_eq(ext2fs_le16_to_cpu(h->in_count), 3);
	ck_assert_uint_eq(ext2fs_le16_to_cpu(h->in_used),
			  3 * E2X_ITREE_LEAF_LEN(12));
	ck_assert_uint_eq(h->in_level, 0);
	ck_assert_uint_eq(h->in_fullness, 0);
	ck_assert_uint_eq(ext2fs_le32_to_cpu(h->in_owner), dir);
	ck_assert_uint_eq(ext2fs_le32_to_cpu(h->in_generation),
			  r.ir_generation);
	/* first entry: ino 12, name "entry-000000" */
	ck_assert_uint_eq(buf[0x20] | buf[0x21] << 8, 12);
	ck_assert_uint_eq((unsigned char)buf[0x28], 12);
	ck_assert_uint_eq((unsigned char)buf[0x29], EXT2_FT_REG_FILE);
	ck_assert_int_eq(memcmp(buf + 0x2a, "entry-000000", 12), 0);
	/* crc32c(fs seed, le32 ino, le32 i_generation, le64 block,
	 * bytes 0..0x13, bytes 0x18..end) */
	le = ext2fs_cpu_to_le32(dir);
	seed = ext2fs_crc32c_le(fx.fs->csum_seed, (unsigned char *)&le, 4);
	le = ext2fs_cpu_to_le32(dino->i_generation);
	seed = ext2fs_crc32c_le(seed, (unsigned char *)&le, 4);
	blk = ext2fs_cpu_to_le64(r.ir_root);
	crc = ext2fs_crc32c_le(seed, (unsigned char *)&blk, 8);
	crc = ext2fs_crc32c_le(crc, (unsigned char *)buf, 0x14);
	crc = ext2fs_crc32c_le(crc, (unsigned char *)buf + 0x18, bs - 0x18);
	ck_assert_uint_eq(ext2fs_le32_to_cpu(h->in_checksum), crc);
	free(buf);
	teardown_tree();
}
END_TEST

START_TEST(checksum_zero_without_metadata_csum)
{
	char *buf = malloc(4096);
	struct e2x_itree_root r;

	setup_tree("-b 4096 -I 256 -O ^metadata_csum");
	insert_n(3, 1);
	read_root_node(&r, buf);
	ck_assert_uint_eq(((struct e2x_itree_node *)buf)->in_checksum, 0);
	free(buf);
	teardown_tree();
}
END_TEST

/* The append rule: increasing inode numbers leave full leaves. */
START_TEST(sequential_inserts_fill_leaves)
{
	struct e2x_itree_stats st;

	setup_tree("-b 4096 -I 256");
	insert_n(20000, 1);
	ck_assert_int_eq(e2x_itree_stats(fx.fs, dir, dino, &st), 0);
	ck_assert_uint_eq(st.entries, 20000);
	ck_assert_uint_ge(st.levels, 2);
	ck_assert_msg(st.leaf_bytes_used * 100 >= 95 * st.leaf_bytes_cap,
		      "leaves %llu%% full",
		      (unsigned long long)(st.leaf_bytes_used * 100 /
					   st.leaf_bytes_cap));
	teardown_tree();
}
END_TEST

static int count_problems(const struct e2x_itree_problem *p, void *priv)
{
	int *seen = priv;

	seen[p->code] = 1;
	return 0;
}

/* A flipped byte is caught by the checksum; operations refuse the node. */
START_TEST(damaged_node_is_refused)
{
	char *buf = malloc(4096);
	struct e2x_itree_root r;
	struct e2x_itree_entry e = { 99, 1, 1, 1, "z" };
	int seen[E2X_ITREEP_MAX] = { 0 };
	unsigned int np = 0;

	setup_tree("-b 4096 -I 256 -O metadata_csum");
	insert_n(10, 1);
	read_root_node(&r, buf);
	buf[0x30] ^= 1;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, r.ir_root, 1, buf),
			 0);
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &e, 0),
			 E2X_ERR_ITREE_CORRUPT);
	ck_assert_int_eq(e2x_itree_verify(fx.fs, dir, dino, NULL, NULL,
					  count_problems, seen, &np), 0);
	ck_assert_uint_ge(np, 1);
	ck_assert(seen[E2X_ITREEP_CSUM]);
	/* a node of another directory is stale */
	buf[0x30] ^= 1;
	buf[0x10] ^= 1;		/* in_owner */
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, r.ir_root, 1, buf),
			 0);
	memset(seen, 0, sizeof(seen));
	ck_assert_int_eq(e2x_itree_verify(fx.fs, dir, dino, NULL, NULL,
					  count_problems, seen, &np), 0);
	ck_assert(seen[E2X_ITREEP_OWNER]);
	ck_assert_int_eq(e2x_itree_drop(fx.fs, dir, dino, 0),
			 E2X_ERR_ITREE_CORRUPT);
	ck_assert_int_eq(e2x_itree_drop(fx.fs, dir, dino, E2X_ITREE_FORCE), 0);
	ck_assert(!e2x_itree_present(fx.fs, dino));
	free(buf);
	teardown_tree();
}
END_TEST

/* Without the feature or without a tree the hooks do nothing. */
START_TEST(hooks_are_noops_without_a_tree)
{
	struct e2x_itree_entry e = { 12, 1, 1, 1, "a" };
	struct ext2_inode_large *in;

	fixture_mkfs(&fx, "-b 4096 -I 256", "16M");
	in = calloc(1, EXT2_INODE_SIZE(fx.fs->super));
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_int_eq(e2x_itree_insert(fx.fs, EXT2_ROOT_INO, in, &e, 0), 0);
	ck_assert_int_eq(e2x_itree_build(fx.fs, EXT2_ROOT_INO, in, no_entries,
					 NULL, 0), E2X_ERR_UNSUPPORTED);
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	ck_assert(!e2x_itree_present(fx.fs, in));
	ck_assert_int_eq(e2x_itree_remove(fx.fs, EXT2_ROOT_INO, in, &e, 0), 0);
	ck_assert_int_eq(e2x_itree_drop(fx.fs, EXT2_ROOT_INO, in, 0), 0);
	ck_assert_int_eq(e2x_itree_iterate(fx.fs, EXT2_ROOT_INO, in, 0,
					   NULL, NULL),
			 EXT2_ET_INVALID_ARGUMENT);
	free(in);
	fixture_drop(&fx);
}
END_TEST

/* 128-byte inodes have no in-inode attribute area: no itree. */
START_TEST(small_inodes_cannot_hold_a_root)
{
	struct ext2_inode_large *in;

	fixture_mkfs(&fx, "-b 4096 -I 128", "16M");
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	in = calloc(1, EXT2_INODE_SIZE(fx.fs->super) < 256 ?
			       256 : EXT2_INODE_SIZE(fx.fs->super));
	ck_assert_int_eq(e2x_read_inode(fx.fs, EXT2_ROOT_INO, in), 0);
	ck_assert_int_eq(e2x_itree_room(fx.fs, in), E2X_ERR_UNSUPPORTED);
	ck_assert_int_eq(e2x_itree_build(fx.fs, EXT2_ROOT_INO, in, no_entries,
					 NULL, 0), E2X_ERR_UNSUPPORTED);
	free(in);
	fixture_drop(&fx);
}
END_TEST

/* Duplicates and absent entries are refused, not silently accepted. */
START_TEST(exists_and_not_found)
{
	struct e2x_itree_entry e = { 40, 7, 3, 1, "abc" };
	struct e2x_itree_entry link = { 40, 7, 3, 1, "abd" };

	setup_tree("-b 1024 -I 256");
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &e, 0), 0);
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &e, 0),
			 E2X_ERR_EXISTS);
	/* same inode and hash, other name: a hard link, distinct */
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &link, 0), 0);
	ck_assert_int_eq(e2x_itree_remove(fx.fs, dir, dino, &e, 0), 0);
	ck_assert_int_eq(e2x_itree_remove(fx.fs, dir, dino, &e, 0),
			 E2X_ERR_NOT_FOUND);
	teardown_tree();
}
END_TEST

/* e2x-itree.5, ALLOCATION: with bigalloc a tree holds whole clusters; the
 * blocks it does not use are spare blocks chained from ir_free, lowest
 * first, and i_blocks is charged one cluster. */
START_TEST(bigalloc_spare_blocks)
{
	struct e2x_itree_root r;
	char *buf;
	blk64_t next, expect;
	uint64_t iblocks;
	unsigned int n = 0, ratio;

	setup_tree("-b 1024 -I 256 -C 16384 -O bigalloc,^resize_inode");
	ratio = EXT2FS_CLUSTER_RATIO(fx.fs);
	ck_assert_uint_eq(ratio, 16);
	buf = malloc(fx.fs->blocksize);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	ck_assert_uint_eq(r.ir_clusters, 1);
	ck_assert_uint_eq(r.ir_nodes, 1);
	/* the root is the first block of its cluster */
	ck_assert_uint_eq(r.ir_root % ratio, 0);
	iblocks = ext2fs_get_stat_i_blocks(fx.fs, (struct ext2_inode *)dino);
	for (next = r.ir_free, expect = r.ir_root + 1; next; n++, expect++) {
		struct e2x_itree_node *h = (struct e2x_itree_node *)buf;

		ck_assert_uint_eq(next, expect);
		ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, next, 1, buf),
				 0);
		ck_assert_int_eq(memcmp(buf, "FREE", 4), 0);
		ck_assert_uint_eq(ext2fs_le32_to_cpu(h->in_owner), dir);
		next = ext2fs_le64_to_cpu(h->in_next_free);
	}
	ck_assert_uint_eq(n, ratio - 1);
	/* 40 more leaves' worth of entries take two more clusters, no more */
	insert_n(2000, 1);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	ck_assert_uint_eq(r.ir_clusters,
			  (r.ir_nodes + ratio - 1) / ratio);
	ck_assert_uint_eq(ext2fs_get_stat_i_blocks(fx.fs,
			  (struct ext2_inode *)dino),
			  iblocks + (uint64_t)(r.ir_clusters - 1) * ratio * 2);
	free(buf);
	teardown_tree();
}
END_TEST

/* e2x-itree.5, Index entries: separators bound their children. */
START_TEST(index_entries_point_at_children)
{
	struct e2x_itree_root r;
	char *root, *child;
	unsigned int i, n;

	setup_tree("-b 1024 -I 256");
	insert_n(500, 0);
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
	ck_assert_uint_ge(r.ir_levels, 2);
	root = malloc(1024);
	child = malloc(1024);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, r.ir_root, 1, root),
			 0);
	n = root[4] | root[5] << 8;
	ck_assert_uint_ge(n, 2);
	ck_assert_uint_eq((unsigned char)root[8], r.ir_levels - 1);
	for (i = 1; i < n; i++) {
		const char *e = root + 0x20 + 16 * i;
		uint32_t ino, hash, cino, chash;
		uint64_t blk;

		memcpy(&ino, e, 4);
		memcpy(&hash, e + 4, 4);
		memcpy(&blk, e + 8, 8);
		ck_assert_int_eq(io_channel_read_blk64(fx.fs->io,
				 ext2fs_le64_to_cpu(blk), 1, child), 0);
		ck_assert_int_eq(memcmp(child, "ITRE", 4), 0);
		memcpy(&cino, child + 0x20, 4);
		memcpy(&chash, child + 0x24, 4);
		/* the child's first key is not below its separator */
		ck_assert(cino > ino || (cino == ino && chash >= hash));
	}
	free(root);
	free(child);
	teardown_tree();
}
END_TEST

/* A root record claiming more than E2X_ITREE_MAX_LEVELS is refused. */
START_TEST(too_deep_root_is_refused)
{
	unsigned char v[32];
	size_t len = 0;
	int seen[E2X_ITREEP_MAX] = { 0 };
	unsigned int np = 0;
	struct e2x_itree_entry e = { 99, 1, 1, 1, "z" };

	setup_tree("-b 4096 -I 256");
	ck_assert_int_eq(e2x_xattr_ibody_get(fx.fs, dino, 7, "itree", v,
					     sizeof(v), &len), 0);
	v[0x19] = E2X_ITREE_MAX_LEVELS + 1;
	ck_assert_int_eq(e2x_xattr_ibody_set(fx.fs, dino, 7, "itree", v,
					     sizeof(v)), 0);
	ck_assert_int_eq(e2x_itree_insert(fx.fs, dir, dino, &e, 0),
			 E2X_ERR_ITREE_CORRUPT);
	ck_assert_int_eq(e2x_itree_verify(fx.fs, dir, dino, NULL, NULL,
					  count_problems, seen, &np), 0);
	ck_assert_uint_eq(np, 1);
	ck_assert(seen[E2X_ITREEP_DEPTH]);
	teardown_tree();
}
END_TEST

/* Damaged nodes without checksums: every operation must fail cleanly or
 * succeed, never crash or read outside a node (run under ASan in CI). */
static errcode_t walk_none(ext2_filsys fs, ext2_ino_t d, void *priv,
			   e2x_itree_entry_fn emit, void *emit_priv)
{
	return 0;
}

static int ignore_entry(const struct e2x_itree_entry *e, void *priv)
{
	return 0;
}

START_TEST(fuzzed_nodes_do_not_crash)
{
	unsigned int round, seed = 12345;
	char *buf = malloc(1024);
	struct e2x_itree_root r;
	struct e2x_itree_stats st;
	unsigned int np;

	setup_tree("-b 1024 -I 256 -O ^metadata_csum");
	for (round = 0; round < 300; round++) {
		struct e2x_itree_entry e = { 20 + round % 50, round * 7, 5, 1,
					     "fuzzy" };
		blk64_t blk;
		int k;

		ck_assert_int_eq(e2x_itree_build(fx.fs, dir, dino, walk_none,
						 NULL, 0), 0);
		insert_n(100 + round % 200, round & 1);
		ck_assert_int_eq(e2x_itree_root_get(fx.fs, dino, &r), 0);
		blk = r.ir_root;
		ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, blk, 1, buf),
				 0);
		if (buf[8] && round % 3) {	/* a child instead */
			seed = seed * 1103515245 + 12345;
			memcpy(&blk, buf + 0x20 + 16 * ((seed >> 8) %
				(unsigned)(buf[4] | buf[5] << 8)) + 8, 8);
			ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, blk,
							       1, buf), 0);
		}
		for (k = 0; k < 1 + (int)(round % 4); k++) {
			seed = seed * 1103515245 + 12345;
			buf[(seed >> 8) % 64] ^= 1 << (seed >> 4) % 8;
		}
		ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, blk, 1, buf),
				 0);
		e2x_itree_verify(fx.fs, dir, dino, walk_none, NULL, NULL, NULL,
				 &np);
		e2x_itree_iterate(fx.fs, dir, dino, 0, ignore_entry, NULL);
		e2x_itree_stats(fx.fs, dir, dino, &st);
		e2x_itree_insert(fx.fs, dir, dino, &e, 0);
		e2x_itree_remove(fx.fs, dir, dino, &e, 0);
		e2x_itree_drop(fx.fs, dir, dino, E2X_ITREE_FORCE);
	}
	free(buf);
	teardown_tree();
}
END_TEST

/* A build that runs out of space gives back every block it took. */
static errcode_t walk_many(ext2_filsys fs, ext2_ino_t d, void *priv,
			   e2x_itree_entry_fn emit, void *emit_priv)
{
	char name[256];
	unsigned int i;
	int r;

	memset(name, 'n', sizeof(name));
	for (i = 0; i < 200000; i++) {
		struct e2x_itree_entry e = { 12 + i % 1000, i * 2, 200,
					     EXT2_FT_REG_FILE, name };

		snprintf(name, 16, "%08u", i);
		name[8] = 'n';
		r = emit(&e, emit_priv);
		if (r)
			return r;
	}
	return 0;
}

START_TEST(failed_build_gives_blocks_back)
{
	blk64_t free0;
	uint64_t iblocks0;

	setup_tree("-b 1024 -I 256 -O ^metadata_csum,^has_journal");
	ck_assert_int_eq(e2x_itree_drop(fx.fs, dir, dino, 0), 0);
	free0 = ext2fs_free_blocks_count(fx.fs->super);
	iblocks0 = ext2fs_get_stat_i_blocks(fx.fs, (struct ext2_inode *)dino);
	ck_assert_int_eq(e2x_itree_build(fx.fs, dir, dino, walk_many, NULL, 0),
			 E2X_ERR_NO_SPACE);
	ck_assert(!e2x_itree_present(fx.fs, dino));
	ck_assert_uint_eq(ext2fs_free_blocks_count(fx.fs->super), free0);
	ck_assert_uint_eq(ext2fs_get_stat_i_blocks(fx.fs,
			  (struct ext2_inode *)dino), iblocks0);
	teardown_tree();
}
END_TEST

static Suite *suite_itree_format(void)
{
	Suite *s = suite_create("itree_format");
	TCase *tc = tcase_create("format");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, feature_bit_is_unused_and_unknown_to_libext2fs);
	tcase_add_test(tc, root_record_lives_in_system_itree);
	tcase_add_loop_test(tc, node_header_and_checksum, 0, 3);
	tcase_add_test(tc, checksum_zero_without_metadata_csum);
	tcase_add_test(tc, sequential_inserts_fill_leaves);
	tcase_add_test(tc, damaged_node_is_refused);
	tcase_add_test(tc, hooks_are_noops_without_a_tree);
	tcase_add_test(tc, small_inodes_cannot_hold_a_root);
	tcase_add_test(tc, exists_and_not_found);
	tcase_add_test(tc, bigalloc_spare_blocks);
	tcase_add_test(tc, index_entries_point_at_children);
	tcase_add_test(tc, too_deep_root_is_refused);
	tcase_add_test(tc, fuzzed_nodes_do_not_crash);
	tcase_add_test(tc, failed_build_gives_blocks_back);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_itree_format)
