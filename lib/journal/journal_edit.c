/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_edit.c --- adding an internal journal to a file system and
 * removing it (tune2fs -j, -O has_journal / ^has_journal).
 */
#include "config.h"
#include <string.h>
#include "file/file-int.h"

errcode_t e2x_journal_add(ext2_filsys fs, unsigned long mb)
{
	struct ext2fs_journal_params jp;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (ext2fs_has_feature_journal(fs->super))
		return E2X_ERR_EXISTS;
	err = ext2fs_read_bitmaps(fs);
	if (err)
		return err;
	err = ext2fs_get_journal_params(&jp, fs);
	if (err)
		return err;
	if (mb)
		jp.num_journal_blocks = (blk_t)((unsigned long long)mb <<
						20 >> EXT2_BLOCK_SIZE_BITS(
							fs->super));
	/* flags 0: the journal is zeroed, so no stale block replays */
	return ext2fs_add_journal_inode3(fs, &jp, ~0ULL, 0);
}

/* Clear the journal inode, keeping its i_version counting. */
static errcode_t clear_inode(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode_large *inode = NULL;
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	uint64_t v;
	errcode_t err;

	err = ext2fs_get_memzero(isz, &inode);
	if (!err)
		err = e2x_read_inode(fs, ino, inode);
	if (!err) {
		v = e2x_inode_get_version(inode, isz);
		memset(inode, 0, isz);
		if (isz > EXT2_GOOD_OLD_INODE_SIZE)
			inode->i_extra_isize = sizeof(struct ext2_inode_large) -
					       EXT2_GOOD_OLD_INODE_SIZE;
		e2x_inode_set_version(inode, isz, v);
		err = e2x_write_inode(fs, ino, inode);
	}
	ext2fs_free_mem(&inode);
	return err;
}

/*
 * Order for a crash at any write: the inode is cleared first while the
 * superblock still names the journal and keeps the copy of its block map
 * (e2fsck rebuilds the inode from that copy: the journal is back); then
 * the superblock forgets the journal; the blocks are freed in the bitmaps
 * last (until then e2fsck only finds them marked but unused).
 */
errcode_t e2x_journal_remove(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	ext2_ino_t ino = sb->s_journal_inum;
	struct e2x_blk_list j = { 0 };
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!ext2fs_has_feature_journal(sb))
		return E2X_ERR_NOT_FOUND;
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		return E2X_ERR_BUSY;
	err = ext2fs_read_bitmaps(fs);
	if (!err && ino)	/* external: only the superblock knows it */
		err = e2x_blocks_collect(fs, ino, &j);
	if (!err && ino)
		err = clear_inode(fs, ino);
	if (!err)
		err = io_channel_flush(fs->io);
	if (err)
		goto out;
	ext2fs_clear_feature_journal(sb);
	sb->s_journal_inum = 0;
	memset(sb->s_jnl_blocks, 0, sizeof(sb->s_jnl_blocks));
	sb->s_jnl_backup_type = 0;
	memset(sb->s_journal_uuid, 0, sizeof(sb->s_journal_uuid));
	sb->s_journal_dev = 0;
	err = e2x_settle(fs);
	if (!err)
		e2x_blocks_release(fs, &j);
out:
	e2x_blocks_free(&j);
	return err;
}
