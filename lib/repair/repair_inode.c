/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_inode.c --- repair primitives on one inode: clear it, and drop
 * the illegal pointers of an indirect block map, forget the in-inode
 * extended attributes; take blocks off the bad-blocks inode's list; turn
 * a small block map into an extent tree (bigalloc cannot use block maps).
 */
#include "config.h"
#include <string.h>
#include "e2x.h"
#include <ext2fs/ext3_extents.h>

void e2x_repair_clear_inode(struct ext2_inode_large *in, uint32_t now)
{
	in->i_links_count = 0;
	in->i_dtime = now ? now : 1;
	in->i_flags &= ~(EXT4_INLINE_DATA_FL | EXT2_INDEX_FL);
}

void e2x_repair_clear_ibody_xattrs(struct ext2_inode_large *in,
				   unsigned int isize)
{
	unsigned int start = EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize;

	if (isize <= EXT2_GOOD_OLD_INODE_SIZE || start >= isize)
		return;
	memset((char *)in + start, 0, isize - start);
}

static int in_data_area(ext2_filsys fs, blk64_t b)
{
	return b >= fs->super->s_first_data_block &&
	       b < ext2fs_blocks_count(fs->super);
}

/* Illegal pointers of one indirect block at LEVEL (1 = points at data)
 * are zeroed, legal ones followed; the block is rewritten if changed. */
static errcode_t fix_ind_block(ext2_filsys fs, blk64_t blk, int level,
			       uint64_t base, uint64_t max_lblk,
			       uint64_t *dropped, int *unreadable)
{
	uint32_t apb = fs->blocksize / 4, i, *map = NULL;
	uint64_t span = 1;
	int changed = 0, bad, l;
	errcode_t err;

	for (l = 1; l < level; l++)
		span *= apb;

	*unreadable = 0;
	err = ext2fs_get_mem(fs->blocksize, &map);
	if (err)
		return err;
	if (io_channel_read_blk64(fs->io, blk, 1, map)) {
		*unreadable = 1;
		goto out;
	}
	for (i = 0; i < apb && !err; i++) {
		blk64_t b = ext2fs_le32_to_cpu(map[i]);

		if (!b)
			continue;
		bad = !in_data_area(fs, b) || base + i * span >= max_lblk;
		if (!bad && level > 1)
			err = fix_ind_block(fs, b, level - 1, base + i * span,
					    max_lblk, dropped, &bad);
		if (bad) {
			map[i] = 0;
			changed = 1;
			(*dropped)++;
		}
	}
	if (!err && changed)
		err = io_channel_write_blk64(fs->io, blk, 1, map);
out:
	ext2fs_free_mem(&map);
	return err;
}

errcode_t e2x_repair_ind_map(ext2_filsys fs, struct ext2_inode_large *in,
			     uint64_t max_lblk, uint64_t *dropped)
{
	uint64_t apb = fs->blocksize / 4;
	const uint64_t base[3] = { EXT2_NDIR_BLOCKS, EXT2_NDIR_BLOCKS + apb,
				   EXT2_NDIR_BLOCKS + apb + apb * apb };
	errcode_t err = 0;
	int i, bad;

	if (!max_lblk)
		max_lblk = ~0ULL;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*dropped = 0;
	if (in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL))
		return EXT2_ET_INVALID_ARGUMENT;
	for (i = 0; i < EXT2_N_BLOCKS && !err; i++) {
		blk64_t b = in->i_block[i];

		if (!b)
			continue;
		bad = !in_data_area(fs, b) ||
		      (i < EXT2_NDIR_BLOCKS ? (uint64_t)i :
					      base[i - EXT2_NDIR_BLOCKS]) >=
			      max_lblk;
		if (!bad && i >= EXT2_NDIR_BLOCKS)
			err = fix_ind_block(fs, b, i - EXT2_NDIR_BLOCKS + 1,
					    base[i - EXT2_NDIR_BLOCKS],
					    max_lblk, dropped, &bad);
		if (bad) {
			in->i_block[i] = 0;
			(*dropped)++;
		}
	}
	return err;
}

/* ---- block map to extents ---------------------------------------- */

#define ROOT_EXTENTS 4	/* extents that fit in i_block after the header */

struct run_list {
	struct ext3_extent ex[ROOT_EXTENTS];
	int n;
	int full;	/* more runs than the inode can hold */
};

/* Logical block LBLK at PBLK: extends the last run or starts one. */
static void add_block(struct run_list *r, uint64_t lblk, blk64_t pblk)
{
	struct ext3_extent *last = r->n ? &r->ex[r->n - 1] : NULL;

	if (last && last->ee_block + last->ee_len == lblk &&
	    last->ee_start + last->ee_len == pblk &&
	    last->ee_len < EXT_INIT_MAX_LEN) {
		last->ee_len++;
		return;
	}
	if (r->n == ROOT_EXTENTS) {
		r->full = 1;
		return;
	}
	r->ex[r->n++] = (struct ext3_extent){ .ee_block = lblk, .ee_len = 1,
					      .ee_start = pblk };
}

/* The data blocks under indirect block BLK at LEVEL (1 = points at data);
 * pointers outside the data area and unreadable blocks are left out. */
static errcode_t gather_ind(ext2_filsys fs, blk64_t blk, int level,
			    uint64_t base, struct run_list *r)
{
	uint32_t apb = fs->blocksize / 4, i, *map = NULL;
	uint64_t span = 1;
	errcode_t err;
	int l;

	for (l = 1; l < level; l++)
		span *= apb;
	err = ext2fs_get_mem(fs->blocksize, &map);
	if (err)
		return err;
	if (io_channel_read_blk64(fs->io, blk, 1, map))
		goto out;
	for (i = 0; i < apb && !err && !r->full; i++) {
		blk64_t b = ext2fs_le32_to_cpu(map[i]);

		if (!b || !in_data_area(fs, b))
			continue;
		if (level == 1)
			add_block(r, base + i * span, b);
		else
			err = gather_ind(fs, b, level - 1, base + i * span, r);
	}
out:
	ext2fs_free_mem(&map);
	return err;
}

errcode_t e2x_repair_map_to_extents(ext2_filsys fs,
				    struct ext2_inode_large *in)
{
	uint64_t apb = fs->blocksize / 4;
	const uint64_t base[3] = { EXT2_NDIR_BLOCKS, EXT2_NDIR_BLOCKS + apb,
				   EXT2_NDIR_BLOCKS + apb + apb * apb };
	struct run_list r = { .n = 0 };
	struct ext3_extent_header *eh;
	errcode_t err = 0;
	int i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (in->i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL))
		return EXT2_ET_INVALID_ARGUMENT;
	for (i = 0; i < EXT2_N_BLOCKS && !err && !r.full; i++) {
		blk64_t b = in->i_block[i];

		if (!b || !in_data_area(fs, b))
			continue;
		if (i < EXT2_NDIR_BLOCKS)
			add_block(&r, i, b);
		else
			err = gather_ind(fs, b, i - EXT2_NDIR_BLOCKS + 1,
					 base[i - EXT2_NDIR_BLOCKS], &r);
	}
	if (!err && r.full)
		err = E2X_ERR_NO_SPACE;
	if (err)
		return err;
	memset(in->i_block, 0, sizeof(in->i_block));
	eh = (struct ext3_extent_header *)in->i_block;
	eh->eh_magic = EXT3_EXT_MAGIC;
	eh->eh_entries = r.n;
	eh->eh_max = ROOT_EXTENTS;
	memcpy(eh + 1, r.ex, r.n * sizeof(r.ex[0]));
	in->i_flags |= EXT4_EXTENTS_FL;
	return 0;
}

errcode_t e2x_repair_bb_unlist(ext2_filsys fs, const blk64_t *blks, size_t n)
{
	ext2_badblocks_list bb = NULL;
	errcode_t err;
	size_t i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = ext2fs_read_bb_inode(fs, &bb);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (blks[i] < ((blk64_t)1 << 32))
			ext2fs_badblocks_list_del(bb, blks[i]);
	/* the rewrite frees every block of the old list; the ones taken
	 * off it stay in use (they are the caller's to own) */
	err = ext2fs_update_bb_inode(fs, bb);
	for (i = 0; !err && i < n; i++)
		ext2fs_block_alloc_stats2(fs, blks[i], +1);
	ext2fs_badblocks_list_free(bb);
	return err;
}
