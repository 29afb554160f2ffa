/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_to_extents.c --- turn a small indirect block map into an extent
 * tree held in the inode (bigalloc file systems cannot use block maps).
 */
#include "config.h"
#include <string.h>
#include "e2x.h"
#include <ext2fs/ext3_extents.h>

#define ROOT_EXTENTS 4	/* extents that fit in i_block after the header */

struct run_list {
	struct ext3_extent ex[ROOT_EXTENTS];
	int n;
	int full;	/* more runs than the inode can hold */
};

static int in_data_area(ext2_filsys fs, blk64_t b)
{
	return b >= fs->super->s_first_data_block &&
	       b < ext2fs_blocks_count(fs->super);
}

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
