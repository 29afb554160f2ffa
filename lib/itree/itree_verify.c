/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_verify.c --- every invariant of one itree: node headers and
 * checksums, levels, key order and bounds, fullness, block accounting, and
 * the entries being exactly the directory's.  Reports, never repairs.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "itree/itree-int.h"

static const char *const problem_names[E2X_ITREEP_MAX] = {
	[E2X_ITREEP_ROOT] = "root record malformed",
	[E2X_ITREEP_BLOCK] = "node block out of range or unreadable",
	[E2X_ITREEP_MAGIC] = "node magic wrong",
	[E2X_ITREEP_CSUM] = "node checksum wrong",
	[E2X_ITREEP_OWNER] = "node belongs to another tree",
	[E2X_ITREEP_LEVEL] = "node level wrong",
	[E2X_ITREEP_COUNT] = "node count, size or fullness wrong",
	[E2X_ITREEP_ENTRY] = "entry malformed",
	[E2X_ITREEP_ORDER] = "keys out of order",
	[E2X_ITREEP_UNDERFULL] = "node below the fullness bound",
	[E2X_ITREEP_SHARED] = "block used twice",
	[E2X_ITREEP_MISSING] = "directory entry missing from the itree",
	[E2X_ITREEP_EXTRA] = "itree entry not in the directory",
	[E2X_ITREEP_ACCOUNT] = "node or cluster accounting wrong",
	[E2X_ITREEP_DEPTH] = "tree too deep",
};

const char *e2x_itree_problem_name(enum e2x_itree_problem_code code)
{
	if (code <= 0 || code >= E2X_ITREEP_MAX || !problem_names[code])
		return "unknown itree problem";
	return problem_names[code];
}

struct vstate {
	struct itree_ctx *c;
	e2x_itree_problem_fn fn;
	void *priv;
	unsigned int count;
	int stop;
	struct blist nodes;
	struct collect tree;
	struct itree_key prev;
	char prevname[256];
	int have_prev;
	errcode_t err;		/* the check itself failed */
};

static void report(struct vstate *v, enum e2x_itree_problem_code code,
		   blk64_t blk, ext2_ino_t ino, unsigned int index)
{
	struct e2x_itree_problem p = { code, blk, ino, index };

	v->count++;
	if (v->fn && v->fn(&p, v->priv))
		v->stop = 1;
}

static int blist_push(struct blist *b, blk64_t blk)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		blk64_t *n = realloc(b->v, cap * sizeof(*n));

		if (!n)
			return -1;
		b->v = n;
		b->cap = cap;
	}
	b->v[b->n++] = blk;
	return 0;
}

/* Header checks; 0 when the node can be looked into. */
static int check_header(struct vstate *v, blk64_t blk, char *buf,
			unsigned int level)
{
	struct itree_ctx *c = v->c;
	struct e2x_itree_node *h = itree_hdr(buf);

	if (blk < c->fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(c->fs->super) ||
	    io_channel_read_blk64(c->fs->io, blk, 1, buf)) {
		report(v, E2X_ITREEP_BLOCK, blk, 0, 0);
		return -1;
	}
	if (blist_push(&v->nodes, blk)) {
		v->err = EXT2_ET_NO_MEMORY;
		return -1;
	}
	if (ext2fs_le32_to_cpu(h->in_magic) != E2X_ITREE_NODE_MAGIC) {
		report(v, E2X_ITREEP_MAGIC, blk, 0, 0);
		return -1;
	}
	if (ext2fs_le32_to_cpu(h->in_owner) != c->dir ||
	    ext2fs_le32_to_cpu(h->in_generation) != c->root.ir_generation) {
		report(v, E2X_ITREEP_OWNER, blk, 0, 0);
		return -1;
	}
	if (c->csum &&
	    ext2fs_le32_to_cpu(h->in_checksum) != itree_node_csum(c, buf, blk))
		report(v, E2X_ITREEP_CSUM, blk, 0, 0);
	if (h->in_level != level) {
		report(v, E2X_ITREEP_LEVEL, blk, 0, 0);
		return -1;
	}
	return 0;
}

/* Counts, fullness and the lower bound on fill of a non-root node (the
 * rightmost node of a level is exempt: appends start it with one entry). */
static int check_counts(struct vstate *v, blk64_t blk, char *buf,
			unsigned int level, int is_root, int rightmost,
			unsigned int *n)
{
	struct itree_ctx *c = v->c;
	struct e2x_itree_node *h = itree_hdr(buf);
	unsigned int used = ext2fs_le16_to_cpu(h->in_used);

	if (itree_offsets(c, buf, c->offs, n) ||
	    h->in_fullness != used * 4 / c->area || h->in_flags ||
	    h->in_next_free || (level && *n < (is_root ? 2u : 1u))) {
		report(v, E2X_ITREEP_COUNT, blk, 0, 0);
		return -1;
	}
	if (!is_root && (!*n || (!rightmost && used * 4 <
						    ITREE_UNDER_Q * c->area)))
		report(v, E2X_ITREEP_UNDERFULL, blk, 0, 0);
	return 0;
}

static int bad_name(const char *name, unsigned int len)
{
	if (!len || (len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 1;
	return memchr(name, '/', len) || memchr(name, 0, len);
}

static void check_leaf(struct vstate *v, blk64_t blk, char *buf,
		       unsigned int n, const struct itree_key *lo,
		       const struct itree_key *hi)
{
	struct itree_ctx *c = v->c;
	unsigned int i;

	for (i = 0; i < n && !v->stop; i++) {
		char *e = itree_entry(buf, c->offs[i]);
		struct e2x_itree_entry ent;
		struct itree_key k;

		itree_entry_key(e, 1, &k);
		ent.ino = k.ino;
		ent.hash = k.hash;
		ent.name_len = k.name_len;
		ent.name = k.name;
		ent.file_type = (uint8_t)e[9];
		if (!k.ino || k.ino > c->fs->super->s_inodes_count ||
		    ent.file_type >= EXT2_FT_MAX || bad_name(k.name,
							     k.name_len)) {
			report(v, E2X_ITREEP_ENTRY, blk, k.ino, i);
			continue;
		}
		if ((v->have_prev && itree_key_cmp(&v->prev, &k) >= 0) ||
		    (lo && itree_key_cmp_ih(&k, lo) < 0) ||
		    (hi && itree_key_cmp_ih(&k, hi) > 0))
			report(v, E2X_ITREEP_ORDER, blk, k.ino, i);
		v->prev = k;
		memcpy(v->prevname, k.name, k.name_len);
		v->prev.name = v->prevname;
		v->have_prev = 1;
		if (itree_collect_add(&ent, &v->tree))
			v->err = EXT2_ET_NO_MEMORY;
	}
}

/* Check the subtree at BLK; its keys must lie within [LO, HI] (NULL: no
 * bound). */
static void visit(struct vstate *v, blk64_t blk, unsigned int level,
		  int is_root, int rightmost, const struct itree_key *lo,
		  const struct itree_key *hi)
{
	struct itree_ctx *c = v->c;
	char *buf = c->path[level].buf;
	struct itree_key keys[2], prev;
	unsigned int i, n;

	if (v->stop || v->err || check_header(v, blk, buf, level) ||
	    check_counts(v, blk, buf, level, is_root, rightmost, &n))
		return;
	if (!level) {
		check_leaf(v, blk, buf, n, lo, hi);
		return;
	}
	for (i = 0; i < n && !v->stop && !v->err; i++) {
		const struct itree_key *clo = lo, *chi = hi;

		itree_entry_key(itree_entry(buf, i * E2X_ITREE_INDEX_LEN), 0,
				&keys[0]);
		/* entry 0 holds the node's lower bound, (0, 0) on the left
		 * edge */
		if (!i && (lo ? itree_key_cmp_ih(&keys[0], lo) :
				keys[0].ino || keys[0].hash))
			report(v, E2X_ITREEP_ORDER, blk, keys[0].ino, 0);
		if (i && itree_key_cmp_ih(&prev, &keys[0]) > 0)
			report(v, E2X_ITREEP_ORDER, blk, keys[0].ino, i);
		if (i && ((lo && itree_key_cmp_ih(&keys[0], lo) < 0) ||
			  (hi && itree_key_cmp_ih(&keys[0], hi) > 0)))
			report(v, E2X_ITREEP_ORDER, blk, keys[0].ino, i);
		prev = keys[0];
		if (i)
			clo = &keys[0];
		if (i + 1 < n) {
			itree_entry_key(itree_entry(buf, (i + 1) *
						    E2X_ITREE_INDEX_LEN),
					0, &keys[1]);
			chi = &keys[1];
		}
		visit(v, itree_index_child(itree_entry(buf,
				i * E2X_ITREE_INDEX_LEN)), level - 1, 0,
		      rightmost && i + 1 == n, clo, chi);
		/* the child reused the buffers below; ours is intact */
	}
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Spare blocks, no block twice, node and cluster counts, bitmap. */
static void check_accounting(struct vstate *v)
{
	struct itree_ctx *c = v->c;
	blk64_t mask = EXT2FS_CLUSTER_MASK(c->fs), next = c->root.ir_free;
	uint64_t limit = (uint64_t)c->root.ir_clusters * c->ratio + 1;
	size_t nnodes = v->nodes.n, i, clusters = 0;
	char *buf = c->spare[2];

	if (nnodes != c->root.ir_nodes)
		report(v, E2X_ITREEP_ACCOUNT, c->root.ir_root, 0, 0);
	while (next && !v->stop) {
		struct e2x_itree_node *h = itree_hdr(buf);

		if (v->nodes.n > limit || next >=
		    ext2fs_blocks_count(c->fs->super) ||
		    io_channel_read_blk64(c->fs->io, next, 1, buf) ||
		    ext2fs_le32_to_cpu(h->in_magic) != E2X_ITREE_FREE_MAGIC ||
		    ext2fs_le32_to_cpu(h->in_owner) != c->dir) {
			report(v, E2X_ITREEP_ACCOUNT, next, 0, 0);
			break;
		}
		if (blist_push(&v->nodes, next)) {
			v->err = EXT2_ET_NO_MEMORY;
			return;
		}
		next = ext2fs_le64_to_cpu(h->in_next_free);
	}
	qsort(v->nodes.v, v->nodes.n, sizeof(blk64_t), cmp_blk);
	for (i = 0; i < v->nodes.n; i++) {
		blk64_t b = v->nodes.v[i];

		if (i && b == v->nodes.v[i - 1])
			report(v, E2X_ITREEP_SHARED, b, 0, 0);
		if (!i || (b & ~mask) != (v->nodes.v[i - 1] & ~mask))
			clusters++;
		if (c->fs->block_map &&
		    !ext2fs_test_block_bitmap2(c->fs->block_map, b))
			report(v, E2X_ITREEP_ACCOUNT, b, 0, 0);
	}
	if (clusters != c->root.ir_clusters ||
	    (c->ratio > 1 && v->nodes.n != (size_t)clusters * c->ratio))
		report(v, E2X_ITREEP_ACCOUNT, c->root.ir_root, 0, 0);
}

/* The tree's entries against the directory's, both sorted by key. */
static void compare_entries(struct vstate *v, struct collect *dir)
{
	struct collect *t = &v->tree;
	size_t i = 0, j = 0;

	if (t->n)
		qsort_r(t->v, t->n, sizeof(*t->v), itree_bent_cmp, t->arena);
	while ((i < dir->n || j < t->n) && !v->stop) {
		int r;

		if (i == dir->n) {
			r = 1;
		} else if (j == t->n) {
			r = -1;
		} else {
			struct bent *a = &dir->v[i], *b = &t->v[j];
			struct itree_key ka = { a->ino, a->hash, a->name_len,
						dir->arena + a->name_off };
			struct itree_key kb = { b->ino, b->hash, b->name_len,
						t->arena + b->name_off };

			r = itree_key_cmp(&ka, &kb);
			if (!r && a->file_type != b->file_type)
				report(v, E2X_ITREEP_ENTRY, 0, a->ino, 0);
		}
		if (r < 0)
			report(v, E2X_ITREEP_MISSING, 0, dir->v[i].ino, 0);
		else if (r > 0)
			report(v, E2X_ITREEP_EXTRA, 0, t->v[j].ino, 0);
		if (r <= 0)
			i++;
		if (r >= 0)
			j++;
	}
}

/* Why a root record was refused: too many levels, or anything else. */
static enum e2x_itree_problem_code root_problem(ext2_filsys fs,
		const struct ext2_inode_large *dir_inode)
{
	unsigned char v[sizeof(struct e2x_itree_root)];
	size_t len = 0;

	if (!e2x_xattr_ibody_get(fs, dir_inode, E2X_ITREE_XATTR_INDEX,
				 E2X_ITREE_XATTR_NAME, v, sizeof(v), &len) &&
	    len == sizeof(v) && v[0x19] > E2X_ITREE_MAX_LEVELS)
		return E2X_ITREEP_DEPTH;
	return E2X_ITREEP_ROOT;
}

errcode_t e2x_itree_verify(ext2_filsys fs, ext2_ino_t dir,
			   const struct ext2_inode_large *dir_inode,
			   e2x_itree_walk_fn walk, void *walk_priv,
			   e2x_itree_problem_fn fn, void *priv,
			   unsigned int *nproblems)
{
	struct itree_ctx c;
	struct collect expect;
	struct vstate v;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(&v, 0, sizeof(v));
	memset(&expect, 0, sizeof(expect));
	v.fn = fn;
	v.priv = priv;
	v.tree.fs = fs;
	err = itree_ctx_init(&c, fs, dir, (struct ext2_inode_large *)dir_inode,
			     1);
	if (err == E2X_ERR_ITREE_CORRUPT) {
		report(&v, root_problem(fs, dir_inode), 0, 0, 0);
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	v.c = &c;
	visit(&v, c.root.ir_root, c.levels - 1, 1, 1, NULL, NULL);
	if (!v.stop && !v.err)
		check_accounting(&v);
	if (!v.stop && !v.err && walk) {
		err = itree_collect(fs, dir, walk, walk_priv, 1, &expect);
		if (!err)
			compare_entries(&v, &expect);
	}
	if (!err)
		err = v.err;
	itree_ctx_free(&c);
out:
	itree_collect_free(&expect);
	itree_collect_free(&v.tree);
	free(v.nodes.v);
	if (nproblems)
		*nproblems = v.count;
	return err;
}
