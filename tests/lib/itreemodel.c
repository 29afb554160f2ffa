/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * itreemodel.c --- randomised model test of the itree: mixed inserts and
 * removes against an in-memory model, the whole tree verified (structure,
 * order, fullness, accounting, entries equal to the model) after every
 * batch, for a table of geometries.  Finally the tree is dropped and the
 * reference e2fsck must find the image clean.
 *
 * Usage: itreemodel [CONFIG]   (default: every config)
 * A growth configuration (grow > 0) starts empty and mixes adds, removes
 * and renames (remove plus add of the same inode under a new name) until
 * the tree holds GROW entries, verifying after batches that double in
 * length, then runs OPS mixed operations at that size.
 *
 * E2X_LONG=1 grows the runs to 1,000,000 entries.  The seed (printed;
 * ITREEMODEL_SEED=N replaces the table's) drives the operations and the
 * file system's hash seed (mke2fs -E hash_seed): a failure reproduces
 * exactly.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "e2x.h"
#include "dirmodel_seed.h"

struct config {
	const char *name;
	const char *mkfs;	/* options after "-t ext4" */
	const char *size;
	unsigned int seed;
	unsigned long ops;	/* mixed operations after the fill */
	unsigned long fill;	/* entries created first */
	unsigned long long_fill; /* fill with E2X_LONG=1 */
	unsigned int links;	/* % of creates reusing a recent inode */
	unsigned int collide;	/* hashes from this many values, 0: real */
	unsigned int seq;	/* % of creates with an increasing inode */
	unsigned int longnames;	/* % of names padded up to 255 bytes */
	unsigned int renames;	/* % of non-add operations that rename */
	unsigned long grow;	/* > 0: grow from empty to this many */
	unsigned int grow_adds;	/* % of adds while growing */
	const char *only_io;	/* run over this channel only (NULL: all) */
};

static const struct config configs[] = {
	{ "4k-csum", "-b 4096 -I 256 -O metadata_csum,^has_journal", "256M",
	  1, 40000, 20000, 1000000, 5, 0, 70 },
	{ "1k-nocsum", "-b 1024 -I 256 -O ^metadata_csum,^has_journal", "128M",
	  2, 20000, 8000, 300000, 5, 0, 50 },
	{ "64k-csum", "-b 65536 -I 256 -O metadata_csum,^has_journal", "512M",
	  3, 20000, 30000, 1000000, 5, 0, 50 },
	{ "4k-bigalloc", "-b 4096 -I 256 -C 65536 -O bigalloc,metadata_csum,"
	  "^has_journal,^resize_inode", "256M", 4, 20000, 6000, 1000000, 5, 0,
	  50 },
	{ "1k-links-collide", "-b 1024 -I 256 -O metadata_csum,^has_journal",
	  "64M", 5, 20000, 3000, 100000, 60, 3, 20 },
	{ "1k-bigalloc-nocsum", "-b 1024 -I 256 -C 16384 -O bigalloc,"
	  "^metadata_csum,^has_journal,^resize_inode", "128M", 6, 10000, 3000,
	  300000, 10, 0, 50 },
	{ "1k-longnames", "-b 1024 -I 256 -O metadata_csum,^has_journal",
	  "64M", 7, 10000, 2000, 100000, 10, 0, 40, 60 },
	/* one directory from 0 to 1,000,000 entries and 100,000 mixed
	 * operations there, with hard links and renames */
	{ "4k-csum-million", "-b 4096 -I 256 -O metadata_csum,^has_journal",
	  "256M", 8, 100000, 0, 0, 5, 0, 30, 0, 50, 1000000, 75, "cache" },
};

struct ent {
	uint32_t ino, hash;
	uint8_t len, type;
	char *name;		/* malloc'd, LEN bytes */
};

struct model {
	struct ent *v;
	size_t n, cap;
	uint64_t next_name;
	uint32_t next_ino;
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: fixed seeds give the same run everywhere */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

#define FAIL(...) do { fprintf(stderr, "FAIL %s: ", cfg->name); \
		fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
		goto fail; } while (0)

static int run(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static void make_entry(const struct config *cfg, ext2_filsys fs,
		       struct model *m, struct ent *e)
{
	uint32_t maxino = fs->super->s_inodes_count;
	uint64_t r = rnd() % 100;
	uint32_t minor;
	char name[256];

	e->len = snprintf(name, sizeof(name), "f%llx-%u",
			  (unsigned long long)m->next_name++,
			  (unsigned int)(rnd() % 1000));
	if (rnd() % 100 < cfg->longnames) {
		unsigned int to = e->len + rnd() % (256 - e->len);

		memset(name + e->len, 'x', to - e->len);
		e->len = to;
	}
	e->name = malloc(e->len);
	if (!e->name) {
		fprintf(stderr, "itreemodel: out of memory\n");
		exit(1);
	}
	memcpy(e->name, name, e->len);
	if (m->n && r < cfg->links) {
		e->ino = m->v[m->n - 1 - rnd() % (m->n < 8 ? m->n : 8)].ino;
	} else if (r < cfg->links + cfg->seq) {
		m->next_ino = m->next_ino % (maxino - 11) + 1;
		e->ino = m->next_ino + 11;
	} else {
		e->ino = 12 + rnd() % (maxino - 11);
	}
	if (cfg->collide)
		e->hash = (uint32_t)(rnd() % cfg->collide) << 1;
	else
		ext2fs_dirhash2(EXT2_HASH_HALF_MD4, e->name, e->len,
				fs->encoding, 0, fs->super->s_hash_seed,
				&e->hash, &minor);
	e->type = 1 + rnd() % 7;
}

static void to_itree(const struct ent *e, struct e2x_itree_entry *t)
{
	t->ino = e->ino;
	t->hash = e->hash;
	t->name_len = e->len;
	t->name = e->name;
	t->file_type = e->type;
}

static errcode_t model_walk(ext2_filsys fs, ext2_ino_t dir, void *priv,
			    e2x_itree_entry_fn emit, void *emit_priv)
{
	struct model *m = priv;
	struct e2x_itree_entry t;
	size_t i;
	int r;

	for (i = 0; i < m->n; i++) {
		to_itree(&m->v[i], &t);
		r = emit(&t, emit_priv);
		if (r)
			return r;
	}
	return 0;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	unsigned int n = x->len < y->len ? x->len : y->len;
	int r;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	r = memcmp(x->name, y->name, n);
	if (r)
		return r;
	return (int)x->len - (int)y->len;
}

struct order_check {
	struct ent *sorted;
	size_t n, at;
	int bad;
};

static int check_order(const struct e2x_itree_entry *t, void *priv)
{
	struct order_check *oc = priv;
	struct ent *e;

	if (oc->at >= oc->n) {
		oc->bad = 1;
		return E2X_ITREE_STOP;
	}
	e = &oc->sorted[oc->at++];
	if (e->ino != t->ino || e->hash != t->hash || e->len != t->name_len ||
	    e->type != t->file_type || memcmp(e->name, t->name, e->len)) {
		oc->bad = 1;
		return E2X_ITREE_STOP;
	}
	return 0;
}

static int print_problem(const struct e2x_itree_problem *p, void *priv)
{
	unsigned int *shown = priv;

	if ((*shown)++ < 10)
		fprintf(stderr, "  problem: %s (block %llu, ino %u, #%u)\n",
			e2x_itree_problem_name(p->code),
			(unsigned long long)p->blk, p->ino, p->index);
	return 0;
}

/* Verify the tree and the in-order walk against the model. */
static int check_all(const struct config *cfg, ext2_filsys fs, ext2_ino_t dir,
		     struct ext2_inode_large *inode, struct model *m,
		     uint64_t base_blocks)
{
	struct order_check oc = { NULL, m->n, 0, 0 };
	struct e2x_itree_stats st;
	struct e2x_itree_root root;
	unsigned int np = 0, shown = 0;
	uint64_t iblocks;
	errcode_t err;

	err = e2x_itree_verify(fs, dir, inode, model_walk, m, print_problem,
			       &shown, &np);
	if (err || np)
		FAIL("verify: %s, %u problems, %zu entries",
		     err ? error_message(err) : "ok", np, m->n);
	oc.sorted = malloc((m->n + 1) * sizeof(*oc.sorted));
	if (!oc.sorted)
		FAIL("no memory");
	memcpy(oc.sorted, m->v, m->n * sizeof(*oc.sorted));
	qsort(oc.sorted, m->n, sizeof(*oc.sorted), ent_cmp);
	err = e2x_itree_iterate(fs, dir, inode, 0, check_order, &oc);
	free(oc.sorted);
	if (err || oc.bad || oc.at != m->n)
		FAIL("iterate: %s, order %s, %zu of %zu",
		     err ? error_message(err) : "ok", oc.bad ? "wrong" : "ok",
		     oc.at, m->n);
	err = e2x_itree_stats(fs, dir, inode, &st);
	if (err || st.entries != m->n)
		FAIL("stats: %s, %llu entries", err ? error_message(err) : "ok",
		     (unsigned long long)st.entries);
	err = e2x_itree_root_get(fs, inode, &root);
	iblocks = ext2fs_get_stat_i_blocks(fs, (struct ext2_inode *)inode);
	if (err || iblocks != base_blocks + (uint64_t)root.ir_clusters *
			EXT2FS_CLUSTER_RATIO(fs) * (fs->blocksize / 512))
		FAIL("i_blocks %llu, base %llu, %u clusters",
		     (unsigned long long)iblocks,
		     (unsigned long long)base_blocks, root.ir_clusters);
	return 0;
fail:
	return -1;
}

enum { OP_ADD, OP_REMOVE, OP_RENAME };

/* One operation on the tree and the model; I numbers it in messages.  A
 * rename removes entry K and adds its inode under a new name. */
static int one_op(const struct config *cfg, ext2_filsys fs, ext2_ino_t dir,
		  struct ext2_inode_large *inode, struct model *m, int kind,
		  unsigned long i)
{
	struct e2x_itree_entry t;
	struct ent *e = &m->v[m->n], old;
	size_t k = 0;
	errcode_t err;

	if (kind != OP_ADD) {
		k = rnd() % m->n;
		old = m->v[k];
		to_itree(&old, &t);
		err = e2x_itree_remove(fs, dir, inode, &t, 0);
		if (err)
			FAIL("remove #%lu: %s", i, error_message(err));
		if (rnd() % 1000 == 0 &&
		    e2x_itree_remove(fs, dir, inode, &t, 0) !=
			    E2X_ERR_NOT_FOUND)
			FAIL("remove of an absent entry accepted");
		if (kind == OP_REMOVE) {
			free(old.name);
			m->v[k] = m->v[--m->n];
			return 0;
		}
		e = &m->v[k];
	}
	make_entry(cfg, fs, m, e);
	if (kind == OP_RENAME) {
		e->ino = old.ino;
		e->type = old.type;
		free(old.name);
	}
	to_itree(e, &t);
	err = e2x_itree_insert(fs, dir, inode, &t, 0);
	if (err)
		FAIL("insert #%lu: %s", i, error_message(err));
	if (kind == OP_ADD)
		m->n++;
	if (rnd() % 1000 == 0 &&
	    e2x_itree_insert(fs, dir, inode, &t, 0) != E2X_ERR_EXISTS)
		FAIL("duplicate insert accepted");
	return 0;
fail:
	return -1;
}

/* Every config runs over plain unix_io and over the write-back cache
 * channel (1 MiB, so dirty nodes are evicted), where node checksums are
 * skipped by content tag. */
static const struct iopath {
	const char *name;
	const char *opts;
} iopaths[] = {
	{ "unix", NULL },
	{ "cache", "cache_mb=1" },
};

static int run_config(const struct config *cfg, const struct iopath *io,
		      int longrun)
{
	char path[] = "/tmp/e2x-itreemodel-XXXXXX", cmd[1024], tool[512];
	const char *env = getenv("E2X_TEST_MKE2FS");
	const char *top = getenv("top_builddir");
	struct ext2_inode_large *inode = NULL;
	struct model m = { NULL, 0, 0, 0, 0 };
	unsigned long fill = longrun ? cfg->long_fill : cfg->fill;
	unsigned long ops = longrun ? cfg->ops * 5 : cfg->ops, i = 0, batch;
	unsigned long next_check, end, checks = 0, counts[3] = { 0, 0, 0 };
	ext2_filsys fs = NULL;
	const char *senv = getenv("ITREEMODEL_SEED");
	uint64_t seed = senv && *senv ? strtoull(senv, NULL, 0) : cfg->seed;
	char uuid[40];
	ext2_ino_t dir;
	blk64_t free0;
	uint64_t base;
	errcode_t err;
	int fd, rc = -1;

	rng_state = 0x9e3779b97f4a7c15ull * (seed + 1);
	seed_uuid(seed, uuid, sizeof(uuid));
	fprintf(stderr, "%s over %s: seed %llu (hash_seed %s)\n", cfg->name,
		io->name, (unsigned long long)seed, uuid);
	fd = mkstemp(path);
	if (fd < 0)
		FAIL("mkstemp");
	close(fd);
	if (env && *env)
		snprintf(tool, sizeof(tool), "%s", env);
	else
		snprintf(tool, sizeof(tool), "%s/mke2fs/mke2fs",
			 top ? top : ".");
	snprintf(cmd, sizeof(cmd),
		 "%s -q -F -t ext4 %s -E hash_seed=%s %s %s </dev/null",
		 tool, cfg->mkfs, uuid, path, cfg->size);
	if (run(cmd))
		FAIL("%s", cmd);
	err = ext2fs_open2(path, io->opts, EXT2_FLAG_RW | EXT2_FLAG_64BITS,
			   0, 0, io->opts ? e2x_cache_io_manager :
			   unix_io_manager, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (!err)
		err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, "d");
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, "d", 1, NULL, &dir);
	if (err)
		FAIL("setup: %s", error_message(err));
	if (strcmp(seed_of(fs, cmd, sizeof(cmd)), uuid))
		FAIL("mke2fs stored hash seed %s, not %s", cmd, uuid);
	fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fs);
	inode = calloc(1, EXT2_INODE_SIZE(fs->super));
	err = e2x_read_inode(fs, dir, inode);
	if (err)
		FAIL("read inode: %s", error_message(err));
	base = ext2fs_get_stat_i_blocks(fs, (struct ext2_inode *)inode);
	free0 = ext2fs_free_blocks_count(fs->super);
	m.cap = (cfg->grow ? cfg->grow : fill) + ops + 16;
	m.v = malloc(m.cap * sizeof(*m.v));
	if (!m.v)
		FAIL("no memory");
	err = e2x_itree_build(fs, dir, inode, model_walk, &m, 0);
	if (err)
		FAIL("build: %s", error_message(err));
	/* fill (or grow), then mixed operations; verify after every batch */
	batch = getenv("ITREEMODEL_EVERY") ? 1 : (fill + ops) / 20 + 1;
	next_check = getenv("ITREEMODEL_EVERY") ? 1 : 1024;
	end = cfg->grow ? ~0UL : fill + ops;
	for (i = 0; i < end; i++) {
		int kind = OP_REMOVE;

		if (i < fill || m.n == 0) {
			kind = OP_ADD;
		} else if (end == ~0UL) {	/* growing */
			unsigned int r = rnd() % 100;

			kind = r < cfg->grow_adds ? OP_ADD :
			       r < cfg->grow_adds + (100 - cfg->grow_adds) / 2 ?
			       OP_REMOVE : OP_RENAME;
		} else if (rnd() % 100 < 50) {
			kind = OP_ADD;
		} else if (cfg->renames && rnd() % 100 < cfg->renames) {
			kind = OP_RENAME;
		}
		if (one_op(cfg, fs, dir, inode, &m, kind, i))
			goto fail;
		counts[kind]++;
		if (end == ~0UL && m.n >= cfg->grow) {
			fprintf(stderr, "%s over %s: %zu entries after %lu "
				"operations\n", cfg->name, io->name, m.n,
				i + 1);
			end = i + 1 + ops;
			if (check_all(cfg, fs, dir, inode, &m, base))
				goto fail;
			checks++;
			continue;
		}
		if (cfg->grow ? i + 1 == next_check || i + 1 == end :
				(i + 1) % batch == 0) {
			if (check_all(cfg, fs, dir, inode, &m, base))
				goto fail;
			checks++;
			if (i + 1 == next_check)
				next_check *= 2;
		}
	}
	/* a rebuilt tree is equal in content */
	err = e2x_itree_build(fs, dir, inode, model_walk, &m, 0);
	if (err || check_all(cfg, fs, dir, inode, &m, base))
		FAIL("rebuild: %s", err ? error_message(err) : "verify");
	/* dropping gives every block back: the reference fsck is the judge */
	err = e2x_itree_drop(fs, dir, inode, 0);
	if (err || e2x_itree_present(fs, inode))
		FAIL("drop: %s", error_message(err));
	if (ext2fs_get_stat_i_blocks(fs, (struct ext2_inode *)inode) != base ||
	    ext2fs_free_blocks_count(fs->super) != free0)
		FAIL("drop left blocks charged");
	err = e2x_write_inode(fs, dir, inode);
	fs->super->s_feature_ro_compat &= ~E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fs);
	if (!err)
		err = ext2fs_close_free(&fs);
	if (err)
		FAIL("close: %s", error_message(err));
	snprintf(cmd, sizeof(cmd),
		 "E2FSCK_CONFIG=/dev/null /usr/sbin/e2fsck -fn %s >&2", path);
	if (run(cmd))
		FAIL("reference e2fsck -fn not clean after drop");
	printf("PASS %s over %s: %lu ops (%lu adds, %lu removes, %lu renames), "
	       "%lu verifies, %zu entries left\n", cfg->name, io->name, i,
	       counts[OP_ADD], counts[OP_REMOVE], counts[OP_RENAME], checks,
	       m.n);
	rc = 0;
fail:
	if (fs)
		ext2fs_close_free(&fs);
	free(inode);
	while (m.v && m.n)
		free(m.v[--m.n].name);
	free(m.v);
	unlink(path);
	return rc;
}

int main(int argc, char **argv)
{
	const char *l = getenv("E2X_LONG");
	int longrun = l && *l && strcmp(l, "0");
	size_t i, j;
	int bad = 0, ran = 0;

	e2x_init_errors();
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		if (argc > 1 && strcmp(argv[1], configs[i].name))
			continue;
		ran++;
		for (j = 0; j < sizeof(iopaths) / sizeof(iopaths[0]); j++)
			if ((!configs[i].only_io ||
			     !strcmp(configs[i].only_io, iopaths[j].name)) &&
			    run_config(&configs[i], &iopaths[j], longrun)) {
				fprintf(stderr, "(%s over %s)\n",
					configs[i].name, iopaths[j].name);
				bad++;
			}
	}
	if (!ran) {
		fprintf(stderr, "no config named %s\n", argv[1]);
		return 2;
	}
	return bad ? 1 : 0;
}
