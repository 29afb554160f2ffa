/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fs_uuid.c --- changing a file system's UUID without breaking what is
 * checksummed with it: metadata checksums keep their seed (the old UUID's
 * crc32c moves into s_checksum_seed, feature metadata_csum_seed, as
 * tune2fs -U does on a mounted file system), and the group descriptors'
 * checksums are recomputed for the new UUID.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

/* Keep the metadata checksum seed of the current UUID. */
static void pin_csum_seed(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;

	if (!ext2fs_has_feature_metadata_csum(sb) ||
	    ext2fs_has_feature_csum_seed(sb))
		return;
	sb->s_checksum_seed = ext2fs_crc32c_le(~0U, sb->s_uuid,
					       sizeof(sb->s_uuid));
	ext2fs_set_feature_csum_seed(sb);
}

errcode_t e2x_fs_set_uuid(ext2_filsys fs, const unsigned char uuid[16],
			  int flags)
{
	dgrp_t g;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags)
		return EXT2_ET_INVALID_ARGUMENT;
	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	pin_csum_seed(fs);
	memcpy(fs->super->s_uuid, uuid, sizeof(fs->super->s_uuid));
	ext2fs_init_csum_seed(fs);
	for (g = 0; g < fs->group_desc_count; g++)
		ext2fs_group_desc_csum_set(fs, g);
	ext2fs_mark_super_dirty(fs);
	return 0;
}
