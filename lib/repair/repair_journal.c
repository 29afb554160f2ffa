/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_journal.c --- repair primitives for a journal that cannot be
 * used: drop it from the file system, and make a new internal one; and
 * a new orphan file for one that had to be forgotten.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

errcode_t e2x_repair_drop_journal(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode_large *in = NULL;
	unsigned int isize = EXT2_INODE_SIZE(sb);
	errcode_t err = 0;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	/* an inode whose group has lost its table (being relocated) is
	 * empty once the new table is made: nothing to write */
	if (sb->s_journal_inum && sb->s_journal_inum <= sb->s_inodes_count &&
	    ext2fs_inode_table_loc(fs, ext2fs_group_of_ino(fs,
						sb->s_journal_inum))) {
		err = ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) :
							       isize, &in);
		/* an empty inode: its blocks are the caller's to free */
		if (!err)
			err = e2x_write_inode(fs, sb->s_journal_inum, in);
		ext2fs_free_mem(&in);
		if (err)
			return err;
	}
	ext2fs_clear_feature_journal(sb);
	ext2fs_clear_feature_journal_needs_recovery(sb);
	sb->s_journal_inum = 0;
	sb->s_journal_dev = 0;
	memset(sb->s_journal_uuid, 0, sizeof(sb->s_journal_uuid));
	memset(sb->s_jnl_blocks, 0, sizeof(sb->s_jnl_blocks));
	sb->s_jnl_backup_type = 0;
	ext2fs_mark_super_dirty(fs);
	return 0;
}

/* Offsets in the jbd2 superblock (e2x-journal.h). */
#define JSB_BLOCKTYPE	0x004
#define JSB_ERRNO	0x020
#define JSB_V2_START	0x024	/* first field a version 1 block lacks */
#define JSB_NR_USERS	0x040
#define JSB_USERS	0x100
#define JSB_SIZE	0x400
#define JSB_V1		3

errcode_t e2x_repair_journal_super(ext2_filsys fs)
{
	struct ext2_inode inode;
	unsigned char *buf = NULL;
	blk64_t pblk = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!fs->super->s_journal_inum || fs->blocksize < JSB_SIZE)
		return E2X_ERR_UNSUPPORTED;	/* external journal */
	err = ext2fs_read_inode(fs, fs->super->s_journal_inum, &inode);
	if (!err)
		err = ext2fs_bmap2(fs, fs->super->s_journal_inum, &inode, NULL,
				   0, 0, NULL, &pblk);
	if (!err && !pblk)
		err = E2X_ERR_CORRUPT;
	if (!err)
		err = ext2fs_get_mem(fs->blocksize, &buf);
	if (!err)
		err = io_channel_read_blk64(fs->io, pblk, 1, buf);
	if (err)
		goto out;
	*(uint32_t *)(buf + JSB_ERRNO) = 0;	/* the check answers it */
	if (ext2fs_be32_to_cpu(*(uint32_t *)(buf + JSB_BLOCKTYPE)) == JSB_V1) {
		memset(buf + JSB_V2_START, 0, JSB_SIZE - JSB_V2_START);
	} else {
		/* an internal journal serves this file system alone */
		*(uint32_t *)(buf + JSB_NR_USERS) = ext2fs_cpu_to_be32(1);
		memset(buf + JSB_USERS + 16, 0, JSB_SIZE - JSB_USERS - 16);
		if (((struct e2x_jbd2_super *)buf)->s_checksum_type)
			((struct e2x_jbd2_super *)buf)->s_checksum =
				ext2fs_cpu_to_be32(e2x_jbd2_super_csum(
					(struct e2x_jbd2_super *)buf));
	}
	err = io_channel_write_blk64(fs->io, pblk, 1, buf);
out:
	ext2fs_free_mem(&buf);
	return err;
}

/* Blocks a journal of N blocks may take with its extent or map blocks
 * (one for every block a node maps, the worst case, plus the levels). */
static blk64_t journal_need(ext2_filsys fs, blk64_t n)
{
	blk64_t per = (fs->blocksize - 12) / 12;

	return n + (n + per - 1) / per + 4;
}

/* A journal inode left half made by a failed attempt: its blocks go back
 * and the inode is emptied, so the file system stays as it was. */
static void journal_undo(ext2_filsys fs, struct ext2_inode_large *in)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);

	if (e2x_read_inode(fs, EXT2_JOURNAL_INO, in) || !in->i_mode)
		return;
	if (!e2x_free_file_blocks(fs, EXT2_JOURNAL_INO, in, 0)) {
		memset(in, 0, isize < sizeof(*in) ? sizeof(*in) : isize);
		e2x_write_inode(fs, EXT2_JOURNAL_INO, in);
	}
}

errcode_t e2x_repair_recreate_journal(ext2_filsys fs)
{
	struct ext2fs_journal_params jp;
	struct ext2_inode_large *in = NULL;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (ext2fs_has_feature_journal(fs->super))
		return E2X_ERR_EXISTS;
	err = ext2fs_get_journal_params(&jp, fs);
	if (err)
		return err;
	/* too little room: nothing is touched */
	if (ext2fs_free_blocks_count(fs->super) <
	    journal_need(fs, (blk64_t)jp.num_journal_blocks + jp.num_fc_blocks))
		return EXT2_ET_BLOCK_ALLOC_FAIL;
	err = ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) : isize,
				 &in);
	if (err)
		return err;
	err = ext2fs_add_journal_inode3(fs, &jp, ~0ULL, 0);
	if (err) {
		journal_undo(fs, in);
		ext2fs_free_mem(&in);
		return err;
	}
	ext2fs_free_mem(&in);
	/* libext2fs wrote the inode; once more for i_version */
	err = ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) : isize,
				 &in);
	if (!err)
		err = e2x_read_inode(fs, fs->super->s_journal_inum, in);
	if (!err)
		err = e2x_write_inode(fs, fs->super->s_journal_inum, in);
	ext2fs_free_mem(&in);
	return err;
}

errcode_t e2x_repair_orphan_file_rebuild(ext2_filsys fs)
{
	struct ext2_inode_large *in = NULL;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	e2_blkcnt_t nblocks;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	if (!fs->block_map || !fs->inode_map)
		return EXT2_ET_NO_BLOCK_BITMAP;
	if (fs->super->s_orphan_file_inum)
		return E2X_ERR_EXISTS;
	nblocks = ext2fs_default_orphan_file_blocks(fs);
	err = ext2fs_create_orphan_file(fs, (blk_t)nblocks);
	if (err)
		return err;
	ext2fs_clear_feature_orphan_present(fs->super);
	ext2fs_mark_super_dirty(fs);
	/* libext2fs wrote the inode; once more for i_version */
	err = ext2fs_get_memzero(isize < sizeof(*in) ? sizeof(*in) : isize,
				 &in);
	if (!err)
		err = e2x_read_inode(fs, fs->super->s_orphan_file_inum, in);
	if (!err)
		err = e2x_write_inode(fs, fs->super->s_orphan_file_inum, in);
	ext2fs_free_mem(&in);
	return err;
}
