/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_extent.c --- repair an extent tree in place: keep every extent
 * that is sound, drop the rest, and leave a tree the kernel and e2fsck
 * accept (keys matching nodes, ordered extents, checksums right).
 */
#include "config.h"
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

/* Whether leaf extent EX can stay; may clear an unwritten mark. */
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
	if (!len || lblk < fx->next || lblk + len > fx->max_lblk ||
	    !range_ok(fs, pblk, len) || (lblk & cmask) != (pblk & cmask))
		return 0;
	if (uninit && (fx->flags & E2X_REPAIR_EXT_DIR)) {
		ex->ee_len = len;
		*changed = 1;
	}
	fx->next = lblk + len;
	return 1;
}

static errcode_t fix_node(struct ext_fixer *fx,
			  struct ext3_extent_header *eh, int *changed);

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
	if (io_channel_read_blk64(fs->io, blk, 1, buf) ||
	    ext2fs_extent_header_verify(buf, fs->blocksize) ||
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
		int keep;

		err = fix_child(fx, child, eh->eh_depth - 1, &keep, &key);
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
		if (!keep_extent(fx, &ex[i], changed)) {
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
	if (flags & E2X_REPAIR_EXT_DIR_LIMIT)
		fx.max_lblk = (1ULL << 32) / fs->blocksize;
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
