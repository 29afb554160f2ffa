/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_extent.c --- repair an extent tree in place: keep every extent
 * that is sound, drop the rest, and leave a tree the kernel and e2fsck
 * accept (keys matching nodes, ordered extents, checksums right).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "e2x.h"
#include <ext2fs/ext3_extents.h>

#define MAX_DEPTH 8		/* deeper trees are not repaired */

struct ext_fixer {
	ext2_filsys fs;
	ext2_ino_t ino;
	int flags;
	uint64_t next;		/* first logical block still free */
	uint64_t dropped;
	uint64_t budget;	/* nodes still allowed to be visited */
	uint64_t max_lblk;	/* extents must end at or before */
	uint64_t eof_lblk;	/* the first block past i_size */
	uint64_t bound;		/* where the next node of the tree starts */
};

static int range_ok(ext2_filsys fs, blk64_t b, blk64_t n)
{
	return n && b >= fs->super->s_first_data_block && b + n > b &&
	       b + n <= ext2fs_blocks_count(fs->super);
}

static uint32_t node_first_key(const struct ext3_extent_header *eh)
{
	if (!eh->eh_depth)
		return ((const struct ext3_extent *)(eh + 1))->ee_block;
	return ((const struct ext3_extent_idx *)(eh + 1))->ei_block;
}

/* The lowest logical block at or past NEXT that an extent starting at
 * PBLK may take (bigalloc: the same offset within its cluster). */
static uint64_t close_gap(uint64_t next, blk64_t pblk, blk64_t cmask)
{
	uint64_t l = (next & ~(uint64_t)cmask) | (pblk & cmask);

	return l < next ? l + cmask + 1 : l;
}

/* Whether leaf extent EX can stay; may clear an unwritten mark or (with
 * E2X_REPAIR_EXT_CLOSE_GAPS) move it down. */
static int keep_extent(struct ext_fixer *fx, struct ext3_extent *ex,
		       int *changed)
{
	ext2_filsys fs = fx->fs;
	uint64_t lblk = ex->ee_block;
	unsigned int len = ex->ee_len;
	blk64_t pblk = ex->ee_start | ((blk64_t)ex->ee_start_hi << 32);
	blk64_t cmask = EXT2FS_CLUSTER_RATIO(fs) - 1;
	int uninit = len > EXT_INIT_MAX_LEN;

	if (uninit)
		len -= EXT_INIT_MAX_LEN;
	if ((fx->flags & E2X_REPAIR_EXT_CLOSE_GAPS) && len &&
	    lblk > close_gap(fx->next, pblk, cmask)) {
		lblk = close_gap(fx->next, pblk, cmask);
		ex->ee_block = lblk;
		*changed = 1;
	}
	if (!len || lblk < fx->next || lblk + len > fx->max_lblk ||
	    !range_ok(fs, pblk, len) || (lblk & cmask) != (pblk & cmask))
		return 0;
	if (lblk < fx->bound && lblk + len > fx->bound) {
		/* its tail lies where the next node's extents are (the
		 * kernel looks there): it ends where that node starts */
		len = fx->bound - lblk;
		ex->ee_len = uninit ? len + EXT_INIT_MAX_LEN : len;
		*changed = 1;
	}
	if (uninit && (fx->flags & E2X_REPAIR_EXT_DIR)) {
		ex->ee_len = len;
		*changed = 1;
	}
	fx->next = lblk + len;
	return 1;
}

static errcode_t fix_node(struct ext_fixer *fx,
			  struct ext3_extent_header *eh, int *changed);

static unsigned int ext_len(const struct ext3_extent *ex)
{
	return ex->ee_len > EXT_INIT_MAX_LEN ? ex->ee_len - EXT_INIT_MAX_LEN :
					       ex->ee_len;
}

int e2x_extent_odd_one_out(const struct ext3_extent *ex, int nleft,
			   uint64_t next_free, uint64_t hi, uint64_t eof_lblk)
{
	const struct ext3_extent *nx = ex + 1;
	uint64_t end, nend;

	if (nleft <= 0)
		return 0;	/* no next extent to read */
	end = (uint64_t)ex->ee_block + ext_len(ex);
	nend = (uint64_t)nx->ee_block + ext_len(nx);
	return ext_len(nx) && ex->ee_block >= eof_lblk &&
	       nx->ee_block < end && nx->ee_block >= next_free &&
	       nend <= hi && nend <= ex->ee_block && nend <= eof_lblk;
}

int e2x_extent_magic_only_lost(const struct ext3_extent_header *eh,
			       size_t size, int depth)
{
	struct ext3_extent_header h = *eh;
	unsigned int max = (size - sizeof(h)) / sizeof(struct ext3_extent);

	if (eh->eh_magic == EXT3_EXT_MAGIC || eh->eh_depth != depth ||
	    eh->eh_max != max || !eh->eh_entries || eh->eh_entries > max)
		return 0;
	h.eh_magic = EXT3_EXT_MAGIC;
	/* only the header is read; SIZE sets the entry limit it checks */
	return !ext2fs_extent_header_verify(&h, size);
}

/* The first logical block node BLK (of depth DEPTH) maps, or -1. */
static int64_t peek_first_key(ext2_filsys fs, blk64_t blk, int depth)
{
	struct ext3_extent_header *eh;
	char *buf = NULL;
	int64_t key = -1;

	if (!range_ok(fs, blk, 1) || ext2fs_get_mem(fs->blocksize, &buf))
		return -1;
	eh = (struct ext3_extent_header *)buf;
	if (!io_channel_read_blk64(fs->io, blk, 1, buf) &&
	    !ext2fs_extent_header_verify(buf, fs->blocksize) &&
	    eh->eh_depth == depth && eh->eh_entries)
		key = node_first_key(eh);
	ext2fs_free_mem(&buf);
	return key;
}

/* Where the subtree of index entry I of EH ends: the start of the next
 * entry's node (its key or, when larger, the node's own first key: a key
 * put wrong is set right, not obeyed), or where EH's subtree ends. */
static uint64_t child_bound(ext2_filsys fs, struct ext3_extent_header *eh,
			    unsigned int i, uint64_t bound)
{
	struct ext3_extent_idx *ix = (struct ext3_extent_idx *)(eh + 1);
	int64_t first;
	uint64_t next;

	if (i + 1 >= eh->eh_entries)
		return bound;
	first = peek_first_key(fs, ix[i + 1].ei_leaf |
				   ((blk64_t)ix[i + 1].ei_leaf_hi << 32),
			       eh->eh_depth - 1);
	if (first < 0)
		return bound;
	next = ix[i + 1].ei_block;
	if ((uint64_t)first > next)
		next = first;
	return next < bound ? next : bound;
}

/* Repair the node at BLK (child of an index at DEPTH + 1).  *KEEP says
 * whether the index entry may stay; *KEY is the node's first key. */
static errcode_t fix_child(struct ext_fixer *fx, blk64_t blk, int depth,
			   int *keep, uint32_t *key)
{
	ext2_filsys fs = fx->fs;
	struct ext3_extent_header *eh;
	char *buf = NULL;
	int changed = 0;
	errcode_t err;

	*keep = 0;
	if (!range_ok(fs, blk, 1) || !fx->budget)
		return 0;
	fx->budget--;
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	eh = (struct ext3_extent_header *)buf;
	if (io_channel_read_blk64(fs->io, blk, 1, buf))
		goto out;
	if (e2x_extent_magic_only_lost(eh, fs->blocksize, depth)) {
		eh->eh_magic = EXT3_EXT_MAGIC;
		changed = 1;
	}
	if (ext2fs_extent_header_verify(buf, fs->blocksize) ||
	    eh->eh_depth != depth)
		goto out;
	err = fix_node(fx, eh, &changed);
	if (err || !eh->eh_entries)
		goto out;
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !ext2fs_extent_block_csum_verify(fs, fx->ino, eh))
		changed = 1;
	if (changed) {
		err = ext2fs_extent_block_csum_set(fs, fx->ino, eh);
		if (!err)
			err = io_channel_write_blk64(fs->io, blk, 1, buf);
	}
	*keep = !err;
	*key = node_first_key(eh);
out:
	ext2fs_free_mem(&buf);
	return err;
}

static errcode_t fix_index(struct ext_fixer *fx,
			   struct ext3_extent_header *eh, int *changed)
{
	struct ext3_extent_idx *ix = (struct ext3_extent_idx *)(eh + 1);
	unsigned int i, n = 0;
	errcode_t err = 0;

	for (i = 0; i < eh->eh_entries && !err; i++) {
		blk64_t child = ix[i].ei_leaf |
				((blk64_t)ix[i].ei_leaf_hi << 32);
		uint32_t key = 0;
		uint64_t bound = fx->bound;
		int keep;

		fx->bound = child_bound(fx->fs, eh, i, bound);
		err = fix_child(fx, child, eh->eh_depth - 1, &keep, &key);
		fx->bound = bound;
		if (err || !keep) {
			fx->dropped++;
			*changed = 1;
			continue;
		}
		if (ix[i].ei_block != key) {
			ix[i].ei_block = key;
			*changed = 1;
		}
		if (n != i)
			ix[n] = ix[i];
		n++;
	}
	eh->eh_entries = n;
	return err;
}

static errcode_t fix_node(struct ext_fixer *fx,
			  struct ext3_extent_header *eh, int *changed)
{
	struct ext3_extent *ex = (struct ext3_extent *)(eh + 1);
	unsigned int i, n = 0;

	if (eh->eh_depth > MAX_DEPTH)
		return E2X_ERR_CORRUPT;
	if (eh->eh_depth)
		return fix_index(fx, eh, changed);
	for (i = 0; i < eh->eh_entries; i++) {
		if (e2x_extent_odd_one_out(&ex[i], eh->eh_entries - i - 1,
					   fx->next, fx->max_lblk,
					   fx->eof_lblk) ||
		    !keep_extent(fx, &ex[i], changed)) {
			fx->dropped++;
			*changed = 1;
			continue;
		}
		if (n != i)
			ex[n] = ex[i];
		n++;
	}
	eh->eh_entries = n;
	return 0;
}

errcode_t e2x_repair_extent_tree(ext2_filsys fs, ext2_ino_t ino,
				 struct ext2_inode_large *in, int flags,
				 uint64_t *dropped)
{
	struct ext3_extent_header *eh = (void *)in->i_block;
	struct ext_fixer fx = { .fs = fs, .ino = ino, .flags = flags,
				.budget = ext2fs_blocks_count(fs->super) };
	int changed = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*dropped = 0;
	fx.max_lblk = 1ULL << 32;
	fx.eof_lblk = (EXT2_I_SIZE(in) + fs->blocksize - 1) / fs->blocksize;
	if (flags & E2X_REPAIR_EXT_DIR_LIMIT)
		fx.max_lblk = (1ULL << 32) / fs->blocksize;
	fx.bound = fx.max_lblk;
	if (!(in->i_flags & EXT4_EXTENTS_FL))
		return EXT2_ET_INVALID_ARGUMENT;
	if (ext2fs_extent_header_verify(eh, sizeof(in->i_block)))
		return E2X_ERR_CORRUPT;
	err = fix_node(&fx, eh, &changed);
	if (!err && !eh->eh_entries)
		eh->eh_depth = 0;	/* nothing left below the root */
	*dropped = fx.dropped;
	return err;
}

/* ---- rebuilding a tree too deep ------------------------------------- */

/* What a walk of the old tree keeps: its sound extents in order, and the
 * blocks of its sound nodes (the new tree is written into them). */
struct ext_gather {
	struct ext_fixer fx;
	struct ext3_extent *ex;
	size_t n, cap;
	blk64_t *node;
	size_t nnode, node_cap;
};

static errcode_t gather_push(void *arr, size_t *n, size_t *cap, size_t sz,
			     const void *item)
{
	void **p = arr;
	errcode_t err;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;

		err = ext2fs_resize_mem(*cap * sz, ncap * sz, p);
		if (err)
			return err;
		*cap = ncap;
	}
	memcpy((char *)*p + *n * sz, item, sz);
	(*n)++;
	return 0;
}

static errcode_t gather_node(struct ext_gather *g,
			     struct ext3_extent_header *eh)
{
	ext2_filsys fs = g->fx.fs;
	struct ext3_extent *ex = (struct ext3_extent *)(eh + 1);
	struct ext3_extent_idx *ix = (struct ext3_extent_idx *)(eh + 1);
	char *buf = NULL;
	unsigned int i;
	errcode_t err = 0;
	int changed = 0;

	if (!eh->eh_depth) {
		for (i = 0; i < eh->eh_entries && !err; i++)
			if (keep_extent(&g->fx, &ex[i], &changed))
				err = gather_push(&g->ex, &g->n, &g->cap,
						  sizeof(*ex), &ex[i]);
			else
				g->fx.dropped++;
		return err;
	}
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	for (i = 0; i < eh->eh_entries && !err; i++) {
		blk64_t child = ix[i].ei_leaf |
				((blk64_t)ix[i].ei_leaf_hi << 32);
		struct ext3_extent_header *ch = (void *)buf;

		if (!range_ok(fs, child, 1) || !g->fx.budget ||
		    io_channel_read_blk64(fs->io, child, 1, buf) ||
		    ext2fs_extent_header_verify(buf, fs->blocksize) ||
		    ch->eh_depth != eh->eh_depth - 1) {
			g->fx.dropped++;
			continue;
		}
		g->fx.budget--;
		err = gather_push(&g->node, &g->nnode, &g->node_cap,
				  sizeof(child), &child);
		if (!err) {
			uint64_t bound = g->fx.bound;

			g->fx.bound = child_bound(fs, eh, i, bound);
			err = gather_node(g, ch);
			g->fx.bound = bound;
		}
		/* the recursion reused nothing of buf past this point */
	}
	ext2fs_free_mem(&buf);
	return err;
}

static int blk_cmp(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Write node BLK of depth DEPTH holding N entries from ENT. */
static errcode_t write_node(ext2_filsys fs, ext2_ino_t ino, blk64_t blk,
			    int depth, const void *ent, unsigned int n,
			    char *buf)
{
	struct ext3_extent_header *eh = (void *)buf;

	memset(buf, 0, fs->blocksize);
	eh->eh_magic = EXT3_EXT_MAGIC;
	eh->eh_entries = n;
	eh->eh_max = (fs->blocksize - sizeof(*eh)) /
		     sizeof(struct ext3_extent);
	eh->eh_depth = depth;
	if (n)
		memcpy(eh + 1, ent, n * sizeof(struct ext3_extent));
	if (ext2fs_has_feature_metadata_csum(fs->super)) {
		errcode_t err = ext2fs_extent_block_csum_set(fs, ino, eh);

		if (err)
			return err;
	}
	return io_channel_write_blk64(fs->io, blk, 1, buf);
}

#define ROOT_SLOTS 4	/* entries the root in i_block holds */
#define SHALLOW_DEPTH 4	/* the rebuilt tree's deepest index level */
#define GATHER_DEPTH 32	/* deeper old trees are not walked */

errcode_t e2x_repair_extent_rebuild(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *in, int flags,
				    uint64_t *dropped)
{
	struct ext3_extent_header *eh = (void *)in->i_block;
	struct ext_gather g = { .fx = { .fs = fs, .ino = ino, .flags = flags } };
	unsigned int per = (fs->blocksize - sizeof(*eh)) /
			   sizeof(struct ext3_extent);
	struct ext3_extent_idx *lvl = NULL;
	size_t n, i, used = 0, uniq = 0;
	char *buf = NULL, *ent = NULL;
	int depth = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*dropped = 0;
	if (!(in->i_flags & EXT4_EXTENTS_FL))
		return EXT2_ET_INVALID_ARGUMENT;
	if (ext2fs_extent_header_verify(eh, sizeof(in->i_block)) ||
	    eh->eh_depth > GATHER_DEPTH)
		return E2X_ERR_CORRUPT;
	g.fx.budget = ext2fs_blocks_count(fs->super);
	g.fx.max_lblk = 1ULL << 32;
	if (flags & E2X_REPAIR_EXT_DIR_LIMIT)
		g.fx.max_lblk = (1ULL << 32) / fs->blocksize;
	g.fx.bound = g.fx.max_lblk;
	err = gather_node(&g, eh);
	if (err)
		goto out;
	/* a block met twice (a looping tree) is written once */
	if (g.nnode)
		qsort(g.node, g.nnode, sizeof(*g.node), blk_cmp);
	for (i = 0; i < g.nnode; i++)
		if (!uniq || g.node[uniq - 1] != g.node[i])
			g.node[uniq++] = g.node[i];
	/* the new tree's shape first: nothing is written unless it fits */
	for (n = g.n, i = 0; n > ROOT_SLOTS; depth++) {
		n = (n + per - 1) / per;
		i += n;
	}
	if (depth > SHALLOW_DEPTH || i > uniq) {
		err = E2X_ERR_NO_SPACE;
		goto out;
	}
	depth = 0;
	/* levels bottom up, each node filled, until the root holds the top */
	n = g.n;
	ent = (char *)g.ex;
	err = ext2fs_get_mem(fs->blocksize, &buf);
	while (!err && n > ROOT_SLOTS) {
		size_t nodes = (n + per - 1) / per;
		struct ext3_extent_idx *up = NULL;

		if (depth >= SHALLOW_DEPTH || uniq - used < nodes) {
			err = E2X_ERR_NO_SPACE;
			break;
		}
		err = ext2fs_get_memzero(nodes * sizeof(*up), &up);
		if (err)
			break;
		for (i = 0; !err && i < nodes; i++) {
			unsigned int cnt = i + 1 < nodes ? per : n - i * per;
			const char *first = ent + i * per *
						  sizeof(struct ext3_extent);
			blk64_t b = g.node[used++];

			/* both entry kinds start with their logical block */
			memcpy(&up[i].ei_block, first, sizeof(up[i].ei_block));
			up[i].ei_leaf = b & 0xffffffff;
			up[i].ei_leaf_hi = b >> 32;
			err = write_node(fs, ino, b, depth, first, cnt, buf);
		}
		free(lvl);	/* the level below, written out */
		lvl = up;
		ent = (char *)up;
		n = nodes;
		depth++;
	}
	if (err)
		goto out;
	memset(in->i_block, 0, sizeof(in->i_block));
	eh->eh_magic = EXT3_EXT_MAGIC;
	eh->eh_entries = n;
	eh->eh_max = ROOT_SLOTS;
	eh->eh_depth = depth;
	if (n)
		memcpy(eh + 1, ent, n * sizeof(struct ext3_extent));
	*dropped = g.fx.dropped;
out:
	ext2fs_free_mem(&buf);
	free(lvl);
	ext2fs_free_mem(&g.ex);
	ext2fs_free_mem(&g.node);
	return err;
}
