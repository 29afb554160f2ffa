/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_claims.c --- the blocks the files claim, found read-only before
 * anything is written, so that super.c can tell a descriptor pointer
 * damaged onto a file's blocks (the table or bitmap goes back where the
 * backup descriptors have it, the file keeps its blocks) from a file
 * pointer damaged into a real table (pass 1's business).
 *
 * Asked for only when some group's metadata is not where the backup
 * descriptors put it: one pass over the inode tables, each such group's
 * table read where the backup has it (the descriptor's may be a file's
 * data), every extent tree and block map walked, nothing written.  The
 * map is per block, not per cluster: with bigalloc, group metadata
 * shares its cluster with the reserved descriptor blocks.
 */
#include "config.h"
#include "context.h"

/* Group G's metadata K differs from where the backup descriptors put it
 * (0 there, or no backup, says nothing). */
static int moved_from_backup(ext2_filsys fs, dgrp_t g, enum e2x_group_meta k,
			     blk64_t *was)
{
	return !e2x_group_meta_backup_loc(fs, g, k, was) && *was &&
	       *was != e2x_group_meta_loc(fs, g, k);
}

/* An inode table at B lies inside the file system. */
static int table_in_fs(ext2_filsys fs, blk64_t b)
{
	return b >= fs->super->s_first_data_block &&
	       b < ext2fs_blocks_count(fs->super) &&
	       ext2fs_blocks_count(fs->super) - b >= fs->inode_blocks_per_group;
}

/*
 * The inode table each group is read from by the scan: where the backup
 * has it when that differs, none when out of range.  The descriptors'
 * own places go to SAVED (the caller puts them back).  1 when some
 * group's metadata differs from the backup's.
 */
static int tables_for_scan(ext2_filsys fs, blk64_t *saved)
{
	static const enum e2x_group_meta kinds[E2X_GM_KINDS] = {
		E2X_GM_BLOCK_BITMAP, E2X_GM_INODE_BITMAP, E2X_GM_INODE_TABLE
	};
	int moved = 0, i;
	blk64_t was, t;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		saved[g] = t = ext2fs_inode_table_loc(fs, g);
		for (i = 0; i < E2X_GM_KINDS; i++) {
			if (!moved_from_backup(fs, g, kinds[i], &was))
				continue;
			moved = 1;
			if (kinds[i] == E2X_GM_INODE_TABLE)
				t = was;
		}
		ext2fs_inode_table_loc_set(fs, g, table_in_fs(fs, t) ? t : 0);
	}
	return moved;
}

static int claim_block(ext2_filsys fs, blk64_t *b, e2_blkcnt_t cnt,
		       blk64_t ref, int off, void *arg)
{
	(void)cnt;
	(void)ref;
	(void)off;
	if (fsck_block_in_fs(fs, *b))
		ext2fs_mark_block_bitmap2(arg, *b);
	return 0;
}

/* An extent-mapped inode's tree nodes and extents. */
static void claim_extents(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode *in, ext2fs_block_bitmap map)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	blk64_t total = ext2fs_blocks_count(fs->super);
	errcode_t err;

	if (ext2fs_extent_open2(fs, ino, in, &h))
		return;
	for (err = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &e); !err;
	     err = ext2fs_extent_get(h, EXT2_EXTENT_NEXT, &e)) {
		if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!e.e_len || e.e_pblk < fs->super->s_first_data_block ||
		    e.e_pblk >= total)
			continue;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			ext2fs_mark_block_bitmap2(map, e.e_pblk);
			continue;
		}
		ext2fs_mark_block_bitmap_range2(
			map, e.e_pblk,
			total - e.e_pblk < e.e_len ? total - e.e_pblk :
						      e.e_len);
	}
	ext2fs_extent_free(h);
}

/* Inode INO's blocks, when it is in use and maps any. */
static void claim_inode(ext2_filsys fs, ext2_ino_t ino,
			struct ext2_inode *in, ext2fs_block_bitmap map)
{
	if (ino == EXT2_BAD_INO || !in->i_mode ||
	    (!in->i_links_count && in->i_dtime) ||
	    (in->i_flags & EXT4_INLINE_DATA_FL) ||
	    !ext2fs_inode_has_valid_blocks2(fs, in))
		return;
	if (in->i_flags & EXT4_EXTENTS_FL)
		claim_extents(fs, ino, in, map);
	else
		ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				      claim_block, map);
	if (ext2fs_file_acl_block(fs, in) &&
	    fsck_block_in_fs(fs, ext2fs_file_acl_block(fs, in)))
		ext2fs_mark_block_bitmap2(map, ext2fs_file_acl_block(fs, in));
}

/* Every inode the scan reads (checksums that fail say garbage). */
static errcode_t scan_claims(ext2_filsys fs, ext2fs_block_bitmap map)
{
	ext2_inode_scan scan;
	struct ext2_inode in;
	ext2_ino_t ino;
	errcode_t err;
	int flags = EXT2_SF_SKIP_MISSING_ITABLE;

	if (ext2fs_has_group_desc_csum(fs))
		flags |= EXT2_SF_DO_LAZY;
	err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err)
		return err;
	ext2fs_inode_scan_flags(scan, flags, 0);
	for (;;) {
		err = ext2fs_get_next_inode(scan, &ino, &in);
		if (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE ||
		    err == EXT2_ET_INODE_CSUM_INVALID ||
		    err == EXT2_ET_INODE_IS_GARBAGE)
			continue;
		if (err || !ino || ino > fs->super->s_inodes_count)
			break;
		claim_inode(fs, ino, &in, map);
	}
	ext2fs_close_inode_scan(scan);
	return err;
}

/*
 * The map of the blocks files claim, in *RET (the caller frees it), or
 * NULL when every group's metadata is where the backup descriptors have
 * it (nothing to decide) or the scan could not be made.
 */
errcode_t fsck_file_claims(struct fsck_ctx *ctx, ext2fs_block_bitmap *ret)
{
	ext2_filsys fs = ctx->fs;
	ext2fs_block_bitmap map = NULL;
	blk64_t *saved;
	errcode_t err;
	dgrp_t g;

	*ret = NULL;
	err = ext2fs_get_array(fs->group_desc_count, sizeof(*saved), &saved);
	if (err)
		return err;
	if (!tables_for_scan(fs, saved))
		goto out;
	ext2fs_flush_icache(fs);
	err = ext2fs_allocate_subcluster_bitmap(fs, "blocks files claim",
						 &map);
	if (!err)
		err = scan_claims(fs, map);
	if (err && map) {
		ext2fs_free_block_bitmap(map);
		map = NULL;
	}
	*ret = map;
out:
	for (g = 0; g < fs->group_desc_count; g++)
		ext2fs_inode_table_loc_set(fs, g, saved[g]);
	/* inodes read from the backup's tables are not the descriptors' */
	ext2fs_flush_icache(fs);
	ext2fs_free_mem(&saved);
	return err;
}
