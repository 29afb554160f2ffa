/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_super.c --- repairs of the primary superblock made before the
 * file system can be opened: fields libext2fs refuses to open with.
 */
#include "config.h"
#include <stddef.h>
#include "e2x.h"

errcode_t e2x_repair_desc_size_unset(const char *device, io_manager mgr,
				     int flags)
{
	struct ext2_super_block sb;
	io_channel io;
	errcode_t err;

	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	err = (mgr ? mgr : unix_io_manager)->open(device, IO_FLAG_RW, &io);
	if (err)
		return err;
	err = io_channel_set_blksize(io, SUPERBLOCK_OFFSET);
	if (!err)
		err = io_channel_read_blk(io, 1, -(int)sizeof(sb), &sb);
	if (err)
		goto out;
	if (sb.s_magic != EXT2_SUPER_MAGIC || !ext2fs_has_feature_64bit(&sb) ||
	    sb.s_desc_size) {
		err = EXT2_ET_INVALID_ARGUMENT;
		goto out;
	}
	sb.s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	if (ext2fs_has_feature_metadata_csum(&sb))
		sb.s_checksum = ext2fs_crc32c_le(~0U, (unsigned char *)&sb,
				offsetof(struct ext2_super_block, s_checksum));
	err = io_channel_write_blk(io, 1, -(int)sizeof(sb), &sb);
	if (!err)
		err = io_channel_flush(io);
out:
	io_channel_close(io);
	return err;
}

errcode_t e2x_repair_mmp_rewrite(ext2_filsys fs)
{
	if (!ext2fs_has_feature_mmp(fs->super) ||
	    fs->super->s_mmp_block <= fs->super->s_first_data_block ||
	    fs->super->s_mmp_block >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_INVALID_ARGUMENT;
	/* a fresh block: magic, clean sequence, this host, the checksum */
	return ext2fs_mmp_clear(fs);
}
