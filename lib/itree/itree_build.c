/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_build.c --- building a whole tree from a directory's entries
 * (conversion, fsck rebuild, a directory becoming indexed) and dropping
 * one.  A built tree has full nodes, like one grown by sequential creates.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include "itree/itree-int.h"

int itree_collect_add(const struct e2x_itree_entry *ent, void *priv)
{
	struct collect *cl = priv;

	if (!ent->name || !ent->name_len || ent->name_len > 255 ||
	    !ent->ino || ent->ino > cl->fs->super->s_inodes_count)
		return E2X_ERR_CORRUPT;
	if (cl->n == cl->cap) {
		size_t cap = cl->cap ? 2 * cl->cap : 1024;
		struct bent *v = realloc(cl->v, cap * sizeof(*v));

		if (!v)
			return EXT2_ET_NO_MEMORY;
		cl->v = v;
		cl->cap = cap;
	}
	if (cl->alen + ent->name_len > cl->acap) {
		size_t cap = cl->acap ? 2 * cl->acap : 65536;
		char *a;

		while (cap < cl->alen + ent->name_len)
			cap *= 2;
		a = realloc(cl->arena, cap);
		if (!a)
			return EXT2_ET_NO_MEMORY;
		cl->arena = a;
		cl->acap = cap;
	}
	memcpy(cl->arena + cl->alen, ent->name, ent->name_len);
	cl->v[cl->n].ino = ent->ino;
	cl->v[cl->n].hash = ent->hash;
	cl->v[cl->n].name_len = ent->name_len;
	cl->v[cl->n].file_type = ent->file_type;
	cl->v[cl->n].name_off = cl->alen;
	cl->alen += ent->name_len;
	cl->n++;
	return 0;
}

int itree_bent_cmp(const void *a, const void *b, void *arena)
{
	const struct bent *x = a, *y = b;
	const char *ar = arena;
	struct itree_key kx = { x->ino, x->hash, x->name_len,
				ar + x->name_off };
	struct itree_key ky = { y->ino, y->hash, y->name_len,
				ar + y->name_off };

	return itree_key_cmp(&kx, &ky);
}

/* Call WALK and gather its entries sorted by key; E2X_ERR_EXISTS on a
 * duplicate.  Shared with the verifier. */
errcode_t itree_collect(ext2_filsys fs, ext2_ino_t dir, e2x_itree_walk_fn walk,
			void *walk_priv, int allow_dups, struct collect *cl)
{
	errcode_t err;
	size_t i;

	memset(cl, 0, sizeof(*cl));
	cl->fs = fs;
	err = walk(fs, dir, walk_priv, itree_collect_add, cl);
	if (err)
		return err;
	if (cl->n)
		qsort_r(cl->v, cl->n, sizeof(*cl->v), itree_bent_cmp,
			cl->arena);
	for (i = 1; i < cl->n && !allow_dups; i++)
		if (!itree_bent_cmp(&cl->v[i - 1], &cl->v[i], cl->arena))
			return E2X_ERR_EXISTS;
	return 0;
}

void itree_collect_free(struct collect *cl)
{
	free(cl->v);
	free(cl->arena);
	memset(cl, 0, sizeof(*cl));
}

/* A level being filled left to right; the last node is held back so it
 * can be evened with its left neighbour at the end. */

struct level_fill {
	struct blist *taken;	/* every block allocated, for cleanup */
	unsigned int level;
	char *prev, *cur;
	blk64_t prevblk, curblk;
	/* (lower bound, block) of every finished node, for the level above */
	char *up;
	size_t nup, capup;
};

static errcode_t fill_record(struct level_fill *f, char *buf, blk64_t blk)
{
	struct itree_key k;

	if (f->nup == f->capup) {
		size_t cap = f->capup ? 2 * f->capup : 256;
		char *u = realloc(f->up, cap * E2X_ITREE_INDEX_LEN);

		if (!u)
			return EXT2_ET_NO_MEMORY;
		f->up = u;
		f->capup = cap;
	}
	itree_entry_key(itree_entry(buf, 0), f->level == 0, &k);
	if (!f->nup)	/* the left edge: no lower bound, (0, 0) */
		k.ino = k.hash = 0;
	itree_index_fill(f->up + f->nup * E2X_ITREE_INDEX_LEN, k.ino, k.hash,
			 blk);
	f->nup++;
	return 0;
}

static errcode_t fill_flush_prev(struct itree_ctx *c, struct level_fill *f)
{
	errcode_t err;

	if (!f->prevblk)
		return 0;
	err = itree_write_node(c, f->prevblk, f->prev);
	if (!err)
		err = fill_record(f, f->prev, f->prevblk);
	f->prevblk = 0;
	return err;
}

static errcode_t fill_add(struct itree_ctx *c, struct level_fill *f,
			  const char *e, unsigned int len)
{
	struct e2x_itree_node *h;
	unsigned int used;
	errcode_t err;
	char *t;

	if (f->curblk) {
		h = itree_hdr(f->cur);
		used = ext2fs_le16_to_cpu(h->in_used);
		if (used + len <= c->area) {
			memcpy(itree_entry(f->cur, used), e, len);
			itree_node_set_used(c, f->cur,
					    ext2fs_le16_to_cpu(h->in_count) + 1,
					    used + len);
			return 0;
		}
		err = fill_flush_prev(c, f);
		if (err)
			return err;
		t = f->prev;
		f->prev = f->cur;
		f->cur = t;
		f->prevblk = f->curblk;
		f->curblk = 0;
	}
	err = itree_alloc_node(c, &f->curblk);
	if (!err)
		err = itree_blist_add(f->taken, f->curblk);
	if (err)
		return err;
	itree_node_init(c, f->cur, f->level);
	memcpy(itree_entry(f->cur, 0), e, len);
	itree_node_set_used(c, f->cur, 1, len);
	return 0;
}

/* Even an underfull last node against its neighbour, write both. */
static errcode_t fill_finish(struct itree_ctx *c, struct level_fill *f)
{
	unsigned int ua, ub, total, n, s;
	errcode_t err;

	if (f->prevblk && f->curblk &&
	    ext2fs_le16_to_cpu(itree_hdr(f->cur)->in_used) * 4 <
		    ITREE_UNDER_Q * c->area) {
		ua = ext2fs_le16_to_cpu(itree_hdr(f->prev)->in_used);
		ub = ext2fs_le16_to_cpu(itree_hdr(f->cur)->in_used);
		total = ua + ub;
		memcpy(c->wide, itree_entry(f->prev, 0), ua);
		memcpy(c->wide + ua, itree_entry(f->cur, 0), ub);
		n = itree_area_offsets(c->wide, total, f->level == 0, c->offs);
		s = itree_split_point(c->offs, n, total, c->area);
		if (!s)
			return E2X_ERR_ITREE_CORRUPT;
		memcpy(itree_entry(f->prev, 0), c->wide, c->offs[s]);
		itree_node_set_used(c, f->prev, s, c->offs[s]);
		memcpy(itree_entry(f->cur, 0), c->wide + c->offs[s],
		       total - c->offs[s]);
		itree_node_set_used(c, f->cur, n - s, total - c->offs[s]);
	}
	err = fill_flush_prev(c, f);
	if (err || !f->curblk)
		return err;
	err = itree_write_node(c, f->curblk, f->cur);
	if (!err)
		err = fill_record(f, f->cur, f->curblk);
	f->curblk = 0;
	return err;
}

static uint32_t new_generation(uint32_t old)
{
	uint32_t g = 0;

	if (getrandom(&g, sizeof(g), GRND_NONBLOCK) != sizeof(g))
		g = (uint32_t)time(NULL) * 2654435761u;
	return g == old ? g + 1 : g;
}

/* Write the tree for the sorted entries of CL; sets c->root / levels. */
static errcode_t bulk_load(struct itree_ctx *c, struct collect *cl)
{
	char e[E2X_ITREE_LEAF_LEN(255)];
	struct level_fill f;
	struct blist taken = { NULL, 0, 0 };
	char *below = NULL;
	size_t nbelow = 0, i;
	errcode_t err = 0;

	memset(&f, 0, sizeof(f));
	f.taken = &taken;
	f.prev = c->spare[0];
	f.cur = c->spare[1];
	for (i = 0; i < cl->n && !err; i++) {
		struct e2x_itree_entry ent = {
			cl->v[i].ino, cl->v[i].hash, cl->v[i].name_len,
			cl->v[i].file_type, cl->arena + cl->v[i].name_off };
		unsigned int len = itree_leaf_fill(e, &ent);

		err = fill_add(c, &f, e, len);
	}
	if (!err && !cl->n) {
		/* an empty directory still gets its root leaf */
		err = itree_alloc_node(c, &f.curblk);
		if (!err)
			err = itree_blist_add(&taken, f.curblk);
		if (!err)
			itree_node_init(c, f.cur, 0);
	}
	if (!err)
		err = fill_finish(c, &f);
	c->levels = 1;
	while (!err && f.nup > 1) {
		free(below);
		below = f.up;
		nbelow = f.nup;
		f.up = NULL;
		f.nup = f.capup = 0;
		f.level++;
		if (f.level >= E2X_ITREE_MAX_LEVELS) {
			err = E2X_ERR_ITREE_DEPTH;
			break;
		}
		for (i = 0; i < nbelow && !err; i++)
			err = fill_add(c, &f, below + i * E2X_ITREE_INDEX_LEN,
				       E2X_ITREE_INDEX_LEN);
		if (!err)
			err = fill_finish(c, &f);
		c->levels++;
	}
	if (!err)
		c->root.ir_root = itree_index_child(f.up);
	else if (taken.n)	/* give back what a failed build took */
		itree_release_all(c, taken.v, taken.n);
	free(taken.v);
	free(below);
	free(f.up);
	return err;
}

errcode_t e2x_itree_build(ext2_filsys fs, ext2_ino_t dir,
			  struct ext2_inode_large *dir_inode,
			  e2x_itree_walk_fn walk, void *walk_priv, int flags)
{
	struct itree_ctx c;
	struct collect cl;
	uint32_t oldgen = 0;
	struct e2x_itree_root old;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!e2x_itree_feature(fs) || !walk)
		return E2X_ERR_UNSUPPORTED;
	err = e2x_itree_room(fs, dir_inode);
	if (err)
		return err;
	err = itree_collect(fs, dir, walk, walk_priv, 0, &cl);
	if (err)
		goto out_cl;
	if (!e2x_itree_root_get(fs, dir_inode, &old))
		oldgen = old.ir_generation;
	err = e2x_itree_drop(fs, dir, dir_inode, flags & E2X_ITREE_FORCE);
	if (err)
		goto out_cl;
	err = itree_ctx_init(&c, fs, dir, dir_inode, 0);
	if (err)
		goto out_cl;
	c.root.ir_version = E2X_ITREE_VERSION;
	c.root.ir_generation = new_generation(oldgen);
	err = bulk_load(&c, &cl);
	if (!err)
		err = itree_root_store(&c);
	itree_ctx_free(&c);
out_cl:
	itree_collect_free(&cl);
	return err;
}

static errcode_t gather(struct itree_ctx *c, blk64_t blk, unsigned int level,
			struct blist *b)
{
	char *buf = c->path[level].buf;
	unsigned int i, n;
	errcode_t err;

	err = itree_read_node(c, blk, buf, level);
	if (!err)
		err = itree_blist_add(b, blk);
	if (err || !level)
		return err;
	n = ext2fs_le16_to_cpu(itree_hdr(buf)->in_count);
	if (n * E2X_ITREE_INDEX_LEN > c->area)
		return E2X_ERR_ITREE_CORRUPT;
	for (i = 0; i < n && !err; i++)
		err = gather(c, itree_index_child(itree_entry(buf,
				i * E2X_ITREE_INDEX_LEN)), level - 1, b);
	return err;
}

errcode_t itree_gather_all(struct itree_ctx *c, blk64_t **blks, size_t *n,
			   size_t *nnodes)
{
	struct blist b = { NULL, 0, 0 };
	blk64_t next = c->root.ir_free;
	uint64_t limit = (uint64_t)c->root.ir_clusters * c->ratio;
	char *buf = c->spare[2];
	errcode_t err;

	err = gather(c, c->root.ir_root, c->levels - 1, &b);
	*nnodes = b.n;
	while (!err && next) {
		struct e2x_itree_node *h = itree_hdr(buf);

		if (b.n > limit || next >= ext2fs_blocks_count(c->fs->super)) {
			err = E2X_ERR_ITREE_CORRUPT;
			break;
		}
		err = io_channel_read_blk64(c->fs->io, next, 1, buf);
		if (!err && (ext2fs_le32_to_cpu(h->in_magic) !=
				     E2X_ITREE_FREE_MAGIC ||
			     ext2fs_le32_to_cpu(h->in_owner) != c->dir))
			err = E2X_ERR_ITREE_CORRUPT;
		if (!err)
			err = itree_blist_add(&b, next);
		next = ext2fs_le64_to_cpu(h->in_next_free);
	}
	if (err) {
		free(b.v);
		return err;
	}
	*blks = b.v;
	*n = b.n;
	return 0;
}

/* A tree too damaged to walk: free what still reads as its nodes (what
 * fsck's pass 1 charged to the directory), then remove the root record. */
static errcode_t drop_damaged(ext2_filsys fs, ext2_ino_t dir,
			      struct ext2_inode_large *dir_inode)
{
	blk64_t *cl = NULL;
	size_t n = 0, i;
	blk_t freed = 0;
	errcode_t err;

	if (fs->block_map)	/* without bitmaps the nodes stay: fsck's */
		err = e2x_itree_claimed(fs, dir, dir_inode, &cl, &n);
	else
		err = 0;
	for (i = 0; !err && i < n; i++) {
		if (!ext2fs_test_block_bitmap2(fs->block_map, cl[i]))
			continue;
		ext2fs_block_alloc_stats2(fs, cl[i], -1);
		freed++;
	}
	free(cl);
	if (!err && freed)
		err = ext2fs_iblk_sub_blocks(fs, (struct ext2_inode *)dir_inode,
					     freed);
	if (err)
		return err;
	return e2x_xattr_ibody_remove(fs, dir_inode, E2X_ITREE_XATTR_INDEX,
				      E2X_ITREE_XATTR_NAME);
}

errcode_t e2x_itree_drop(ext2_filsys fs, ext2_ino_t dir,
			 struct ext2_inode_large *dir_inode, int flags)
{
	struct itree_ctx c;
	blk64_t *blks = NULL;
	size_t n = 0, nnodes;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = itree_ctx_init(&c, fs, dir, dir_inode, 1);
	if (err == E2X_ERR_NOT_FOUND)
		return 0;
	if (err == E2X_ERR_ITREE_CORRUPT && (flags & E2X_ITREE_FORCE))
		return drop_damaged(fs, dir, dir_inode);
	if (err)
		return err;
	err = itree_gather_all(&c, &blks, &n, &nnodes);
	if (!err)
		err = itree_release_all(&c, blks, n);
	itree_ctx_free(&c);
	free(blks);
	if (err && (flags & E2X_ITREE_FORCE))
		return drop_damaged(fs, dir, dir_inode);
	if (err)
		return err;
	return e2x_xattr_ibody_remove(fs, dir_inode, E2X_ITREE_XATTR_INDEX,
				      E2X_ITREE_XATTR_NAME);
}
