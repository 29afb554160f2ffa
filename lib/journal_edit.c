/*
 * journal_edit.c --- adding an internal journal to a file system and
 * removing it (tune2fs -j, -O has_journal / ^has_journal).
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

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

errcode_t e2x_journal_remove(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode_large *inode = NULL;
	ext2_ino_t ino = sb->s_journal_inum;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!ext2fs_has_feature_journal(sb))
		return E2X_ERR_NOT_FOUND;
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		return E2X_ERR_BUSY;
	err = ext2fs_read_bitmaps(fs);
	if (err)
		return err;
	/* The superblock forgets the journal first: a crash after this
	 * leaves an unused inode with blocks, which e2fsck clears. */
	ext2fs_clear_feature_journal(sb);
	sb->s_journal_inum = 0;
	memset(sb->s_jnl_blocks, 0, sizeof(sb->s_jnl_blocks));
	sb->s_jnl_backup_type = 0;
	memset(sb->s_journal_uuid, 0, sizeof(sb->s_journal_uuid));
	sb->s_journal_dev = 0;
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_flush(fs);
	if (err || !ino)	/* external: only the superblock knew it */
		return err;
	err = ext2fs_get_memzero(EXT2_INODE_SIZE(sb), &inode);
	if (!err)
		err = e2x_read_inode(fs, ino, inode);
	if (!err)
		err = ext2fs_punch(fs, ino, (struct ext2_inode *)inode, NULL,
				   0, ~0ULL);
	if (!err) {
		uint64_t v = e2x_inode_get_version(inode, EXT2_INODE_SIZE(sb));

		memset(inode, 0, EXT2_INODE_SIZE(sb));
		if (EXT2_INODE_SIZE(sb) > EXT2_GOOD_OLD_INODE_SIZE)
			inode->i_extra_isize = sizeof(struct ext2_inode_large) -
					       EXT2_GOOD_OLD_INODE_SIZE;
		e2x_inode_set_version(inode, EXT2_INODE_SIZE(sb), v);
		err = e2x_write_inode(fs, ino, inode);
	}
	ext2fs_free_mem(&inode);
	return err;
}
