/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_stats.c --- the shape of one tree (node count, leaf fullness) and
 * process-wide operation counters, for the benchmark and debugfs.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

static uint64_t counters[ITC_MAX];

void itree_count(int which)
{
	__atomic_add_fetch(&counters[which], 1, __ATOMIC_RELAXED);
}

void e2x_itree_counters_get(struct e2x_itree_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->inserts = __atomic_load_n(&counters[ITC_INSERT], __ATOMIC_RELAXED);
	c->removes = __atomic_load_n(&counters[ITC_REMOVE], __ATOMIC_RELAXED);
	c->splits = __atomic_load_n(&counters[ITC_SPLIT], __ATOMIC_RELAXED);
	c->appends = __atomic_load_n(&counters[ITC_APPEND], __ATOMIC_RELAXED);
	c->merges = __atomic_load_n(&counters[ITC_MERGE], __ATOMIC_RELAXED);
	c->shifts = __atomic_load_n(&counters[ITC_SHIFT], __ATOMIC_RELAXED);
	c->nodes_allocated = __atomic_load_n(&counters[ITC_ALLOC],
					     __ATOMIC_RELAXED);
	c->nodes_freed = __atomic_load_n(&counters[ITC_FREE], __ATOMIC_RELAXED);
}

void e2x_itree_counters_reset(void)
{
	int i;

	for (i = 0; i < ITC_MAX; i++)
		__atomic_store_n(&counters[i], 0, __ATOMIC_RELAXED);
}

static errcode_t shape(struct itree_ctx *c, blk64_t blk, unsigned int level,
		       struct e2x_itree_stats *st)
{
	char *buf = c->path[level].buf;
	struct e2x_itree_node *h = itree_hdr(buf);
	unsigned int i, n;
	errcode_t err;

	err = itree_read_node(c, blk, buf, level);
	if (err)
		return err;
	n = ext2fs_le16_to_cpu(h->in_count);
	st->nodes++;
	if (!level) {
		st->leaves++;
		st->entries += n;
		st->leaf_bytes_used += ext2fs_le16_to_cpu(h->in_used);
		st->leaf_bytes_cap += c->area;
		return 0;
	}
	if (n * E2X_ITREE_INDEX_LEN > c->area)
		return E2X_ERR_ITREE_CORRUPT;
	for (i = 0; i < n && !err; i++)
		err = shape(c, itree_index_child(itree_entry(buf,
				i * E2X_ITREE_INDEX_LEN)), level - 1, st);
	return err;
}

errcode_t e2x_itree_stats(ext2_filsys fs, ext2_ino_t dir,
			  const struct ext2_inode_large *dir_inode,
			  struct e2x_itree_stats *st)
{
	struct itree_ctx c;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(st, 0, sizeof(*st));
	err = itree_ctx_init(&c, fs, dir, (struct ext2_inode_large *)dir_inode,
			     1);
	if (err)
		return err;
	st->levels = c.levels;
	st->clusters = c.root.ir_clusters;
	err = shape(&c, c.root.ir_root, c.levels - 1, st);
	itree_ctx_free(&c);
	return err;
}
