/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * itreebench.c --- one run of the itree benchmark on a fresh image: N
 * entries added to one directory in increasing inode order and to another
 * in random order through the directory engine (e2x_dir_add), then 90% of
 * each removed at random; the same with and without the itree feature.
 * Prints one "key value" per line (bench/itree takes medians).  Rates are
 * per second of process CPU time (the build machine is shared), KEY_wall
 * ones per wall-clock second.  Both directories are verified after the
 * timed phases (a failure ends the run with status 1).
 *
 * usage: itreebench IMAGE N htree|itree [SEED [unix|cache]]
 *        itreebench -raw IMAGE N [SEED [unix|cache]]   (the itree API
 *                                          alone, no directory blocks)
 * The image is opened through unix_io (libext2fs' own 8-block cache) or,
 * with "cache", through e2x_cache_io_manager (256 MiB write-back LRU).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "e2x.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Rates of one timed phase: per CPU second and per wall second. */
struct phase {
	double cpu, wall;
};

static void phase_start(struct phase *p)
{
	p->cpu = now();
	p->wall = wall();
}

static void phase_print(const struct phase *p, const char *key, size_t n)
{
	printf("%s_per_s %.0f\n", key, n / (now() - p->cpu));
	printf("%s_wall_per_s %.0f\n", key, n / (wall() - p->wall));
}

static void shuffle(uint32_t *v, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = rnd() % i;
		uint32_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static int die(const char *what, errcode_t err)
{
	fprintf(stderr, "itreebench: %s: %s\n", what, error_message(err));
	exit(1);
}

static int name_of(uint32_t i, char *buf)
{
	return sprintf(buf, "file-%07u", i);
}

/* Inode-table block changes along a walk. */
struct walk_count {
	ext2_filsys fs;
	uint64_t last, changes, n;
};

static void count_ino(struct walk_count *w, ext2_ino_t ino)
{
	unsigned int ipb = w->fs->blocksize / EXT2_INODE_SIZE(w->fs->super);
	uint64_t ipg = w->fs->super->s_inodes_per_group;
	uint64_t blk = (ino - 1) / ipg * (ipg / ipb) + (ino - 1) % ipg / ipb;

	if (w->n++ && blk != w->last)
		w->changes++;
	w->last = blk;
}

static int count_dir(const struct e2x_dir_entry *e, void *priv)
{
	count_ino(priv, e->ino);
	return 0;
}

static int count_itree(const struct e2x_itree_entry *e, void *priv)
{
	count_ino(priv, e->ino);
	return 0;
}

/* e2x_itree_walk_fn over the directory engine, for a fresh build. */
struct rewalk {
	e2x_itree_entry_fn emit;
	void *emit_priv;
	int ret;
};

static int rewalk_one(const struct e2x_dir_entry *e, void *priv)
{
	struct rewalk *r = priv;
	struct e2x_itree_entry t = { e->ino, e->hash, e->name_len,
				     e->file_type, e->name };

	r->ret = r->emit(&t, r->emit_priv);
	return r->ret ? E2X_DIR_ITER_STOP : 0;
}

static errcode_t walk_dir(ext2_filsys fs, ext2_ino_t dir, void *priv,
			  e2x_itree_entry_fn emit, void *emit_priv)
{
	struct rewalk r = { emit, emit_priv, 0 };
	errcode_t err;

	err = e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_HASH, 0, rewalk_one, &r);
	return err ? err : r.ret;
}

static void tree_stats(ext2_filsys fs, ext2_ino_t dir, const char *tag,
		       struct e2x_itree_stats *st)
{
	struct ext2_inode_large *in = calloc(1, EXT2_INODE_SIZE(fs->super));
	errcode_t err;

	err = e2x_read_inode(fs, dir, in);
	if (!err)
		err = e2x_itree_stats(fs, dir, in, st);
	if (err)
		die(tag, err);
	free(in);
}

/* Rebuild DIR's tree from its entries; return the fresh node count. */
static uint64_t fresh_nodes(ext2_filsys fs, ext2_ino_t dir)
{
	struct ext2_inode_large *in = calloc(1, EXT2_INODE_SIZE(fs->super));
	struct e2x_itree_stats st;
	errcode_t err;

	err = e2x_read_inode(fs, dir, in);
	if (!err)
		err = e2x_itree_build(fs, dir, in, walk_dir, NULL, 0);
	if (!err)
		err = e2x_write_inode(fs, dir, in);
	if (!err)
		err = e2x_itree_stats(fs, dir, in, &st);
	if (err)
		die("rebuild", err);
	free(in);
	return st.nodes;
}

/* The directory engine's verifier (itree included) finds nothing wrong
 * with DIR: the timed phases must leave correct trees behind. */
static void verify_dir(ext2_filsys fs, ext2_ino_t dir, const char *tag)
{
	struct e2x_dir_problems p;
	errcode_t err;

	memset(&p, 0, sizeof(p));
	err = e2x_dir_verify(fs, dir, E2X_DIR_VERIFY_FAST, &p);
	if (err)
		die(tag, err);
	if (p.count) {
		fprintf(stderr, "itreebench: %s: %zu problems, first: %s %s\n",
			tag, p.count, e2x_dir_problem_name(p.list[0].code),
			p.list[0].desc);
		exit(1);
	}
	e2x_dir_problems_free(&p);
}

/* Add N entries with inode numbers INOS[i] (names by index i); print
 * the rates under KEY. */
static void add_all(ext2_filsys fs, ext2_ino_t dir, const uint32_t *inos,
		    size_t n, const char *key)
{
	struct phase t;
	char name[32];
	size_t i;

	phase_start(&t);
	for (i = 0; i < n; i++) {
		errcode_t err = e2x_dir_add(fs, dir, name, name_of(i, name),
					    inos[i], EXT2_FT_REG_FILE, 0);
		if (err)
			die("add", err);
	}
	phase_print(&t, key, n);
}

/* Remove the entries whose indexes are the first K of ORDER. */
static void remove_some(ext2_filsys fs, ext2_ino_t dir,
			const uint32_t *order, size_t k, const char *key)
{
	struct phase t;
	char name[32];
	size_t i;

	phase_start(&t);
	for (i = 0; i < k; i++) {
		errcode_t err = e2x_dir_remove(fs, dir, name,
					       name_of(order[i], name), 0,
					       NULL);
		if (err)
			die("remove", err);
	}
	phase_print(&t, key, k);
}

static void dir_run(ext2_filsys fs, size_t n, int itree)
{
	uint32_t *seq = malloc(n * sizeof(*seq)), *rin = malloc(n * 4);
	uint32_t *del = malloc(n * sizeof(*del));
	struct e2x_itree_counters c0, c1;
	struct e2x_itree_stats st;
	struct walk_count w;
	ext2_ino_t a, b;
	size_t i, k = n * 9 / 10;
	errcode_t err;

	if (!seq || !rin || !del)
		die("memory", EXT2_ET_NO_MEMORY);
	if (itree) {
		fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
	}
	for (i = 0; i < n; i++)
		seq[i] = rin[i] = del[i] = i;
	for (i = 0; i < n; i++)
		seq[i] = rin[i] = 12 + i;
	shuffle(rin, n);
	shuffle(del, n);
	err = e2x_dir_mkdir(fs, EXT2_ROOT_INO, "seq", 3, 0755, 0, &a);
	if (!err)
		err = e2x_dir_mkdir(fs, EXT2_ROOT_INO, "rnd", 3, 0755, 0, &b);
	if (err)
		die("mkdir", err);

	add_all(fs, a, seq, n, "create_seq");
	if (itree) {
		tree_stats(fs, a, "stats", &st);
		printf("leaf_fill_seq_pct %.1f\n",
		       100.0 * st.leaf_bytes_used / st.leaf_bytes_cap);
	}
	add_all(fs, b, rin, n, "create_rnd");
	if (itree) {
		tree_stats(fs, b, "stats", &st);
		printf("leaf_fill_rnd_pct %.1f\n",
		       100.0 * st.leaf_bytes_used / st.leaf_bytes_cap);
	}

	/* walking the random-order directory: hash order vs inode order */
	memset(&w, 0, sizeof(w));
	w.fs = fs;
	err = e2x_dir_iterate(fs, b, E2X_DIR_ORDER_HASH, 0, count_dir, &w);
	if (err)
		die("iterate hash", err);
	printf("itable_changes_hash %llu\n", (unsigned long long)w.changes);
	if (itree) {
		struct ext2_inode_large *in =
			calloc(1, EXT2_INODE_SIZE(fs->super));

		memset(&w, 0, sizeof(w));
		w.fs = fs;
		err = e2x_read_inode(fs, b, in);
		if (!err)
			err = e2x_itree_iterate(fs, b, in, 0, count_itree, &w);
		if (err)
			die("iterate itree", err);
		free(in);
		printf("itable_changes_itree %llu\n",
		       (unsigned long long)w.changes);
	}

	e2x_itree_counters_get(&c0);
	remove_some(fs, a, del, k, "delete_seq");
	remove_some(fs, b, del, k, "delete_rnd");
	e2x_itree_counters_get(&c1);
	verify_dir(fs, a, "verify seq");
	verify_dir(fs, b, "verify rnd");
	if (itree) {
		printf("merges_per_1000_deletes %.2f\n",
		       1000.0 * (c1.merges - c0.merges) / (2 * k));
		printf("evens_per_1000_deletes %.2f\n",
		       1000.0 * (c1.shifts - c0.shifts) / (2 * k));
		tree_stats(fs, a, "stats", &st);
		printf("blocks_vs_fresh_seq %.2f\n",
		       (double)st.nodes / fresh_nodes(fs, a));
		tree_stats(fs, b, "stats", &st);
		printf("blocks_vs_fresh_rnd %.2f\n",
		       (double)st.nodes / fresh_nodes(fs, b));
	}
	free(seq);
	free(rin);
	free(del);
}

/* The itree API alone over synthetic keys (no directory blocks). */
static void raw_run(ext2_filsys fs, size_t n)
{
	struct ext2_inode_large *in = calloc(1, EXT2_INODE_SIZE(fs->super));
	uint32_t *rin = malloc(n * 4), *del = malloc(n * 4);
	struct e2x_itree_counters c0, c1;
	struct e2x_itree_stats st;
	ext2_ino_t dirs[2];
	size_t i, k = n * 9 / 10;
	errcode_t err;
	int d;

	fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fs);
	for (i = 0; i < n; i++)
		rin[i] = del[i] = i;
	shuffle(rin, n);
	shuffle(del, n);
	for (d = 0; d < 2; d++) {
		const char *tag = d ? "rnd" : "seq";
		char name[32];
		double t0;

		err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, tag);
		if (!err)
			err = ext2fs_lookup(fs, EXT2_ROOT_INO, tag, 3, NULL,
					    &dirs[d]);
		if (!err)
			err = e2x_read_inode(fs, dirs[d], in);
		if (!err)
			err = e2x_itree_build(fs, dirs[d], in, walk_dir, NULL,
					      0);
		if (err)
			die("setup", err);
		t0 = now();
		for (i = 0; i < n; i++) {
			uint32_t x = d ? rin[i] : i;
			struct e2x_itree_entry e = { 12 + x, x * 2654435761u,
						     name_of(x, name),
						     EXT2_FT_REG_FILE, name };

			err = e2x_itree_insert(fs, dirs[d], in, &e, 0);
			if (err)
				die("insert", err);
		}
		printf("raw_insert_%s_per_s %.0f\n", tag, n / (now() - t0));
		err = e2x_itree_stats(fs, dirs[d], in, &st);
		if (err)
			die("stats", err);
		printf("raw_leaf_fill_%s_pct %.1f\n", tag,
		       100.0 * st.leaf_bytes_used / st.leaf_bytes_cap);
		e2x_itree_counters_get(&c0);
		t0 = now();
		for (i = 0; i < k; i++) {
			uint32_t x = del[i];
			struct e2x_itree_entry e = { 12 + x, x * 2654435761u,
						     name_of(x, name),
						     EXT2_FT_REG_FILE, name };

			err = e2x_itree_remove(fs, dirs[d], in, &e, 0);
			if (err)
				die("remove", err);
		}
		printf("raw_remove_%s_per_s %.0f\n", tag, k / (now() - t0));
		e2x_itree_counters_get(&c1);
		printf("raw_merges_per_1000_%s %.2f\n", tag,
		       1000.0 * (c1.merges - c0.merges) / k);
		err = e2x_itree_stats(fs, dirs[d], in, &st);
		if (err)
			die("stats", err);
		printf("raw_nodes_after_delete_%s %llu\n", tag,
		       (unsigned long long)st.nodes);
		err = e2x_write_inode(fs, dirs[d], in);
		if (err)
			die("write", err);
	}
	free(in);
	free(rin);
	free(del);
}

int main(int argc, char **argv)
{
	int raw = argc > 1 && !strcmp(argv[1], "-raw");
	io_manager io = unix_io_manager;
	const char *opts = NULL;
	ext2_filsys fs;
	errcode_t err;
	size_t n;

	e2x_init_errors();
	if (argc < 3 + raw || (!raw && argc < 4)) {
		fprintf(stderr, "usage: itreebench IMAGE N htree|itree "
				"[SEED [unix|cache]]\n"
				"       itreebench -raw IMAGE N "
				"[SEED [unix|cache]]\n");
		return 2;
	}
	n = strtoul(argv[2 + raw], NULL, 0);
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 0) * 0x9e3779b97f4a7c15ull;
	if (argc > 5 && !strcmp(argv[5], "cache")) {
		io = e2x_cache_io_manager;
		opts = "cache_mb=256";
	}
	err = ext2fs_open2(argv[1 + raw], opts, EXT2_FLAG_RW |
			   EXT2_FLAG_64BITS | EXT2_FLAG_FORCE, 0, 0, io, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (err)
		die(argv[1 + raw], err);
	if (raw)
		raw_run(fs, n);
	else
		dir_run(fs, n, !strcmp(argv[3], "itree"));
	err = ext2fs_close_free(&fs);
	if (err)
		die("close", err);
	return 0;
}
