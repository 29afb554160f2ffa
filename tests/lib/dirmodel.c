/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dirmodel.c --- randomised model test of the directory engine: mixed
 * add / hard link / unlink / mkdir / rmdir / rename on a few directories
 * against an in-memory model (name -> inode, link counts), for each
 * configuration of the table below.  After every batch: e2x_dir_verify on
 * every directory and full listings (disk, hash and inode order) compared
 * with the model; at the end the reference e2fsck -fn must be clean (itree
 * configurations drop their trees and the feature first, which also
 * proves the trees' blocks were accounted for).
 *
 * E2X_LONG=1 adds the configuration growing one directory to 1,000,000
 * entries.  E2X_DIRMODEL=name runs only that configuration.  The seed
 * (printed; E2X_DIRMODEL_SEED=N replaces the table's) drives both the
 * operations and the file system's hash seed (mke2fs -E hash_seed), so a
 * failing run reproduces exactly.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "fixture.h"
#include "dirmodel_seed.h"

struct config {
	const char *name;
	const char *mkfs;	/* options after -t ext4 */
	const char *size;
	unsigned long ops;	/* operations */
	unsigned long target;	/* entries (all directories) to grow to */
	unsigned int batch;	/* operations between checks */
	uint64_t seed;
	int itree;		/* set the itree feature bit */
	int link_pct;		/* share of adds that are hard links */
	int long_only;
	int big_pct;		/* share of operations on the big dir */
	int unsigned_hash;	/* hash names unsigned; names get bytes
				 * >= 0x80, where the two hashes differ */
};

static const struct config configs[] = {
	{ "4k-csum", "-b 4096", "256M", 30000, 12000, 3000, 1, 0, 30, 0, 70 },
	{ "1k-nocsum", "-b 1024 -O ^metadata_csum -N 40000", "128M", 20000,
	  8000, 2500, 2, 0, 30, 0, 70 },
	{ "1k-inline", "-b 1024 -I 512 -O inline_data -N 40000", "128M",
	  15000, 5000, 2500, 3, 0, 30, 0, 70 },
	{ "64k", "-b 65536 -N 30000", "512M", 12000, 6000, 3000, 4, 0, 30,
	  0, 70 },
	{ "bigalloc", "-b 4096 -O bigalloc -C 65536 -N 30000", "512M", 15000,
	  6000, 3000, 5, 0, 30, 0, 70 },
	{ "bigalloc-nocsum-inline", "-b 1024 -O bigalloc,inline_data,"
	  "^metadata_csum -C 16384 -I 1024 -N 12000", "512M", 10000, 4000,
	  2500, 6, 0, 30, 0, 70 },
	{ "itree-4k", "-b 4096 -N 40000", "256M", 15000, 8000, 3000, 7, 1,
	  30, 0, 70 },
	/* seed 54 once met a full htree leaf that split with no room for a
	 * 255-byte name (E2X_ERR_NO_SPACE); 18, 28 and 60 an itree leaf whose
	 * parent had one child (E2X_ERR_ITREE_CORRUPT); 50 an itree root
	 * whose entry 0 exceeded a separator ("keys out of order") */
	{ "itree-1k-inline", "-b 1024 -I 512 -O inline_data -N 40000", "128M",
	  10000, 5000, 2500, 54, 1, 30, 0, 70 },
	{ "1k-unsigned-hash", "-b 1024 -N 20000", "64M", 8000, 4000, 2000, 10,
	  0, 30, 0, 70, 1 },
	{ "million", "-b 4096 -O large_dir -N 250000", "4G", 2400000, 1100000,
	  500000, 9, 0, 95, 1, 97 },
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))
#define NDIRS 4

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static unsigned long rnd_below(unsigned long n)
{
	return n ? (unsigned long)(rnd() % n) : 0;
}

/* The model: entries (dir index, name, inode, type) in an array, found by
 * an open-addressing hash of (dir, name). */
struct entry {
	int dir;
	unsigned char len;
	unsigned char type;
	ext2_ino_t ino;
	char name[256];
};

struct model {
	struct entry *e;
	size_t n, cap;
	int64_t *slot;		/* index into e, -1 empty, -2 deleted */
	size_t nslots;
	ext2_ino_t dirs[NDIRS];
	size_t per_dir[NDIRS];
	uint32_t *links;	/* model link count per inode */
	uint32_t inodes;
};

static uint64_t key_hash(int dir, const char *name, unsigned int len)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)dir;
	unsigned int i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
	return h;
}

static int64_t *find_slot(struct model *m, int dir, const char *name,
			  unsigned int len, int for_insert)
{
	size_t i = key_hash(dir, name, len) & (m->nslots - 1);
	int64_t *tomb = NULL;

	for (;; i = (i + 1) & (m->nslots - 1)) {
		int64_t s = m->slot[i];

		if (s == -1)
			return for_insert && tomb ? tomb : &m->slot[i];
		if (s == -2) {
			if (!tomb)
				tomb = &m->slot[i];
			continue;
		}
		if (m->e[s].dir == dir && m->e[s].len == len &&
		    !memcmp(m->e[s].name, name, len))
			return &m->slot[i];
	}
}

static void rehash(struct model *m)
{
	size_t i;

	free(m->slot);
	m->slot = malloc(m->nslots * sizeof(*m->slot));
	ck_assert_ptr_nonnull(m->slot);
	for (i = 0; i < m->nslots; i++)
		m->slot[i] = -1;
	for (i = 0; i < m->n; i++)
		*find_slot(m, m->e[i].dir, m->e[i].name, m->e[i].len, 1) =
			(int64_t)i;
}

static struct entry *model_get(struct model *m, int dir, const char *name,
			       unsigned int len)
{
	int64_t *s = find_slot(m, dir, name, len, 0);

	return *s >= 0 ? &m->e[*s] : NULL;
}

static void model_add(struct model *m, int dir, const char *name,
		      unsigned int len, ext2_ino_t ino, unsigned int type)
{
	struct entry *e;

	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->e = realloc(m->e, m->cap * sizeof(*m->e));
		ck_assert_ptr_nonnull(m->e);
	}
	if ((m->n + 1) * 2 > m->nslots) {
		m->nslots *= 2;
		rehash(m);
	}
	e = &m->e[m->n];
	e->dir = dir;
	e->len = (unsigned char)len;
	e->type = (unsigned char)type;
	e->ino = ino;
	memcpy(e->name, name, len);
	*find_slot(m, dir, name, len, 1) = (int64_t)m->n++;
	m->per_dir[dir]++;
}

static void model_del(struct model *m, struct entry *e)
{
	size_t idx = (size_t)(e - m->e), last = m->n - 1;

	m->per_dir[e->dir]--;
	*find_slot(m, e->dir, e->name, e->len, 0) = -2;
	if (idx != last) {
		*find_slot(m, m->e[last].dir, m->e[last].name, m->e[last].len,
			   0) = (int64_t)idx;
		m->e[idx] = m->e[last];
	}
	m->n--;
}

/* Names: mostly short from a small alphabet (so collisions happen), some
 * long, a few of 255 bytes. */
/* Names of the unsigned-hash configuration also take bytes >= 0x80. */
static int high_bytes;

static unsigned int random_name(char *buf)
{
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyz0123456789_-."
				    "\xc3\xa9\xe2\x82\xac\x80\xff";
	size_t nalpha = sizeof(alpha) - 1 - (high_bytes ? 0 : 7);
	unsigned int len, i, r = (unsigned int)rnd_below(100);

	len = r < 60 ? 1 + (unsigned int)rnd_below(8) :
	      r < 97 ? 8 + (unsigned int)rnd_below(40) : 255;
	for (i = 0; i < len; i++)
		buf[i] = alpha[rnd_below(nalpha)];
	if ((len == 1 && buf[0] == '.') ||
	    (len == 2 && buf[0] == '.' && buf[1] == '.'))
		buf[0] = 'x';
	return len;
}

/* The big directory gets most operations. */
static int big_pct = 70;

static int pick_dir(void)
{
	unsigned long r = rnd_below(100);

	return (int)r < big_pct ? 0 : 1 + (int)rnd_below(NDIRS - 1);
}

static void links_set(struct model *m, ext2_ino_t ino, int delta)
{
	if (ino > m->inodes) {
		uint32_t n = ino * 2;

		m->links = realloc(m->links, n * sizeof(*m->links));
		ck_assert_ptr_nonnull(m->links);
		memset(m->links + m->inodes + 1, 0,
		       (n - m->inodes - 1) * sizeof(*m->links));
		m->inodes = n - 1;
	}
	m->links[ino] = (uint32_t)((int)m->links[ino] + delta);
}

static struct entry *random_entry(struct model *m)
{
	return m->n ? &m->e[rnd_below(m->n)] : NULL;
}

static void op_add(ext2_filsys fs, struct model *m, int link_pct)
{
	char name[256];
	unsigned int len = random_name(name);
	int dir = pick_dir();
	struct entry *src = random_entry(m), *old;
	ext2_ino_t ino;
	errcode_t err;

	old = model_get(m, dir, name, len);
	if (src && src->type == EXT2_FT_REG_FILE &&
	    (int)rnd_below(100) < link_pct && m->links[src->ino] < 60000) {
		ino = src->ino;
		err = e2x_dir_link(fs, m->dirs[dir], name, len, ino, 0);
		ck_assert_int_eq(err, old ? E2X_ERR_EXISTS : 0);
		if (!old) {
			links_set(m, ino, 1);
			model_add(m, dir, name, len, ino, EXT2_FT_REG_FILE);
		}
		return;
	}
	if (rnd_below(100) < 5) {
		err = e2x_dir_mkdir(fs, m->dirs[dir], name, len, 0755, 0,
				    &ino);
		ck_assert_int_eq(err, old ? E2X_ERR_EXISTS : 0);
		if (!old)
			model_add(m, dir, name, len, ino, EXT2_FT_DIR);
		return;
	}
	err = e2x_dir_mknod(fs, m->dirs[dir], name, len, LINUX_S_IFREG | 0644,
			    0, &ino);
	ck_assert_int_eq(err, old ? E2X_ERR_EXISTS : 0);
	if (!old) {
		links_set(m, ino, 1);
		model_add(m, dir, name, len, ino, EXT2_FT_REG_FILE);
	}
}

static void op_remove(ext2_filsys fs, struct model *m)
{
	struct entry *e = random_entry(m);
	char name[256];
	unsigned int len;
	errcode_t err;

	if (!e || rnd_below(20) == 0) {
		/* a name that is probably absent */
		int dir = pick_dir();

		len = random_name(name);
		if (model_get(m, dir, name, len))
			return;
		err = e2x_dir_unlink(fs, m->dirs[dir], name, len, 0);
		ck_assert_int_eq(err, E2X_ERR_NOT_FOUND);
		return;
	}
	if (e->type == EXT2_FT_DIR) {
		err = e2x_dir_rmdir(fs, m->dirs[e->dir], e->name, e->len, 0);
	} else {
		err = e2x_dir_unlink(fs, m->dirs[e->dir], e->name, e->len, 0);
		links_set(m, e->ino, -1);
	}
	ck_assert_int_eq(err, 0);
	model_del(m, e);
}

static void op_rename(ext2_filsys fs, struct model *m)
{
	struct entry *e = random_entry(m), *t;
	char name[256];
	unsigned int len;
	int ndir = pick_dir();
	ext2_ino_t ino;
	unsigned int type;
	errcode_t err;

	if (!e)
		return;
	/* sometimes onto an existing entry of the same kind */
	t = random_entry(m);
	if (t && t != e && t->type == e->type && t->ino != e->ino &&
	    rnd_below(4) == 0) {
		ndir = t->dir;
		len = t->len;
		memcpy(name, t->name, len);
	} else {
		len = random_name(name);
		t = model_get(m, ndir, name, len);
		if (t && (t->type != e->type || t->ino == e->ino || t == e))
			return;
	}
	err = e2x_dir_rename(fs, m->dirs[e->dir], e->name, e->len,
			     m->dirs[ndir], name, len, 0);
	ck_assert_msg(err == 0, "rename: %s", error_message(err));
	if (t) {
		int sdir = e->dir;
		unsigned int slen = e->len;
		char sname[256];

		memcpy(sname, e->name, slen);
		if (t->type == EXT2_FT_REG_FILE)
			links_set(m, t->ino, -1);
		model_del(m, t);	/* may move E in the array */
		e = model_get(m, sdir, sname, slen);
	}
	ck_assert_ptr_nonnull(e);
	ino = e->ino;
	type = e->type;
	model_del(m, e);
	model_add(m, ndir, name, len, ino, type);
}

/* Listing check: every entry the library reports is in the model with
 * the same inode and type; counts equal; orders sorted. */
struct listing {
	struct model *m;
	int dir;
	size_t n;
	int order;
	uint64_t last;
};

static int check_ent(const struct e2x_dir_entry *ent, void *priv)
{
	struct listing *l = priv;
	struct entry *e = model_get(l->m, l->dir, ent->name, ent->name_len);
	uint64_t key;

	ck_assert_msg(e != NULL, "unexpected name %.*s", (int)ent->name_len,
		      ent->name);
	ck_assert_uint_eq(e->ino, ent->ino);
	ck_assert_uint_eq(e->type, ent->file_type);
	key = l->order == E2X_DIR_ORDER_HASH ? ent->hash :
	      l->order == E2X_DIR_ORDER_INODE ? ent->ino : 0;
	ck_assert_msg(!l->n || key >= l->last, "order %d broken", l->order);
	l->last = key;
	l->n++;
	return 0;
}

static void check_dirs(ext2_filsys fs, struct model *m)
{
	struct e2x_dir_problems p;
	struct listing l;
	size_t i;
	int d, o;

	for (d = 0; d < NDIRS; d++) {
		memset(&p, 0, sizeof(p));
		ck_assert_int_eq(e2x_dir_verify(fs, m->dirs[d],
						E2X_DIR_VERIFY_FAST, &p), 0);
		for (i = 0; i < p.count && i < 10; i++)
			fprintf(stderr, "dir %u: %s at %llu+%u: %s\n",
				m->dirs[d],
				e2x_dir_problem_name(p.list[i].code),
				(unsigned long long)p.list[i].lblk,
				p.list[i].offset, p.list[i].desc);
		ck_assert_uint_eq(p.count, 0);
		e2x_dir_problems_free(&p);
		for (o = E2X_DIR_ORDER_DISK; o <= E2X_DIR_ORDER_INODE; o++) {
			memset(&l, 0, sizeof(l));
			l.m = m;
			l.dir = d;
			l.order = o;
			ck_assert_int_eq(e2x_dir_iterate(fs, m->dirs[d], o, 0,
							 check_ent, &l), 0);
			ck_assert_uint_eq(l.n, m->per_dir[d]);
		}
	}
}

/* Hard link counts in the model equal the inodes'. */
static void check_links(ext2_filsys fs, struct model *m)
{
	struct ext2_inode in;
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->e[i].type != EXT2_FT_REG_FILE || rnd_below(8))
			continue;
		ck_assert_int_eq(ext2fs_read_inode(fs, m->e[i].ino, &in), 0);
		ck_assert_uint_eq(in.i_links_count, m->links[m->e[i].ino]);
	}
}

static void drop_itrees(ext2_filsys fs, struct model *m)
{
	struct ext2_inode_large *in;
	size_t i;
	int d;

	in = calloc(1, EXT2_INODE_SIZE(fs->super) + sizeof(*in));
	for (d = 0; d < NDIRS; d++) {
		ck_assert_int_eq(e2x_read_inode(fs, m->dirs[d], in), 0);
		ck_assert_int_eq(e2x_itree_drop(fs, m->dirs[d], in, 0), 0);
		ck_assert_int_eq(e2x_write_inode(fs, m->dirs[d], in), 0);
	}
	for (i = 0; i < m->n; i++) {
		if (m->e[i].type != EXT2_FT_DIR)
			continue;
		ck_assert_int_eq(e2x_read_inode(fs, m->e[i].ino, in), 0);
		ck_assert(!e2x_itree_present(fs, in));
	}
	free(in);
	fs->super->s_feature_ro_compat &= ~E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fs);
}

static int itree_count(ext2_filsys fs, struct model *m)
{
	struct ext2_inode_large *in;
	int d, n = 0;

	in = calloc(1, EXT2_INODE_SIZE(fs->super) + sizeof(*in));
	for (d = 0; d < NDIRS; d++) {
		ck_assert_int_eq(e2x_read_inode(fs, m->dirs[d], in), 0);
		n += e2x_itree_present(fs, in);
	}
	free(in);
	return n;
}

static int skip_config(const struct config *c)
{
	const char *only = getenv("E2X_DIRMODEL");
	const char *lng = getenv("E2X_LONG");

	if (only && *only)
		return strcmp(only, c->name) != 0;
	return c->long_only && !(lng && *lng == '1');
}

START_TEST(model_run)
{
	const struct config *c = &configs[_i];
	struct fixture fx;
	struct model m;
	ext2_filsys fs;
	unsigned long op, grow, batch = c->batch;
	const char *benv = getenv("E2X_DIRMODEL_BATCH");
	const char *senv = getenv("E2X_DIRMODEL_SEED");
	uint64_t seed = c->seed;
	char name[40], uuid[40], mkfs[256];
	int d, r, itrees = 0;
	size_t peak = 0;

	if (skip_config(c))
		return;
	if (benv && atol(benv) > 0)
		batch = (unsigned long)atol(benv);
	if (senv && *senv)
		seed = strtoull(senv, NULL, 0);
	seed_uuid(seed, uuid, sizeof(uuid));
	fprintf(stderr, "dirmodel: %s: %lu ops, target %lu, seed %llu "
		"(hash_seed %s)\n", c->name, c->ops, c->target,
		(unsigned long long)seed, uuid);
	memset(&m, 0, sizeof(m));
	m.nslots = 4096;
	rehash(&m);
	rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	big_pct = c->big_pct;
	snprintf(mkfs, sizeof(mkfs), "%s -E hash_seed=%s", c->mkfs, uuid);
	fixture_mkfs(&fx, mkfs, c->size);
	fs = fx.fs;
	ck_assert_str_eq(seed_of(fs, name, sizeof(name)), uuid);
	if (c->itree) {
		fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
	}
	high_bytes = c->unsigned_hash;
	if (c->unsigned_hash) {
		fs->super->s_flags &= ~EXT2_FLAGS_SIGNED_HASH;
		fs->super->s_flags |= EXT2_FLAGS_UNSIGNED_HASH;
		ext2fs_mark_super_dirty(fs);
	}
	for (d = 0; d < NDIRS; d++) {
		snprintf(name, sizeof(name), "model%d", d);
		ck_assert_int_eq(e2x_dir_mkdir(fs, EXT2_ROOT_INO, name,
					       strlen(name), 0755, 0,
					       &m.dirs[d]), 0);
	}
	/* grow to the target, then mixed, then shrink towards empty */
	grow = c->ops / 10 * 7;
	for (op = 0; op < c->ops; op++) {
		r = (int)rnd_below(100);
		if (op < grow && m.n < c->target)
			r = r < 90 ? 0 : r;	/* mostly adds */
		else if (op > c->ops - c->ops / 4)
			r = r < 25 ? 0 : 50;	/* mostly removes */
		if (r < 45)
			op_add(fs, &m, c->link_pct);
		else if (r < 80)
			op_remove(fs, &m);
		else
			op_rename(fs, &m);
		if (m.per_dir[0] > peak)
			peak = m.per_dir[0];
		if ((op + 1) % batch == 0) {
			check_dirs(fs, &m);
			check_links(fs, &m);
			if (c->itree)
				itrees |= itree_count(fs, &m) > 0;
		}
	}
	check_dirs(fs, &m);
	check_links(fs, &m);
	fprintf(stderr, "dirmodel: %s: big directory peaked at %zu entries, "
		"ends with %zu\n", c->name, peak, m.per_dir[0]);
	if (c->itree) {
		ck_assert_msg(itrees, "no directory ever got an itree");
		drop_itrees(fs, &m);
	}
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
	free(m.e);
	free(m.slot);
	free(m.links);
}
END_TEST

static Suite *suite_dirmodel(void)
{
	Suite *s = suite_create("dirmodel");
	TCase *tc = tcase_create("model");

	/* a hang fails the run instead of stalling make check; the long
	 * configuration gets an hour */
	tcase_set_timeout(tc, getenv("E2X_LONG") ? 3600 : 600);
	tcase_add_loop_test(tc, model_run, 0, NCONFIGS);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_dirmodel)
