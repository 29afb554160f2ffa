/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * open.c --- opening a file system for an e2x program: libext2fs's open,
 * knowing e2x's own itree feature, optionally through an undo file that
 * the reference e2undo replays, or from an e2image file with its data
 * blocks read from the original device.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "e2x.h"

/* True when itree is the only read-only-compatible feature of NAME that
 * libext2fs does not know (the other words were accepted already). */
static int only_itree_unknown(const char *name, int flags, blk64_t sb,
			      unsigned int bs, io_manager mgr)
{
	ext2_filsys fs;
	__u32 unknown;

	if (ext2fs_open2(name, NULL, flags & ~EXT2_FLAG_RW, sb, bs, mgr, &fs))
		return 0;
	unknown = fs->super->s_feature_ro_compat &
		  ~EXT2_LIB_FEATURE_RO_COMPAT_SUPP;
	ext2fs_free(fs);
	return unknown == E2X_FEATURE_RO_COMPAT_ITREE;
}

errcode_t e2x_open_fs(const char *name, int flags, blk64_t superblock,
		      unsigned int blocksize, io_manager mgr, ext2_filsys *ret)
{
	errcode_t err;

	if (!mgr)
		mgr = unix_io_manager;
	err = ext2fs_open2(name, NULL, flags, superblock, blocksize, mgr, ret);
	if (err == EXT2_ET_RO_UNSUPP_FEATURE &&
	    only_itree_unknown(name, flags, superblock, blocksize,
			       unix_io_manager))
		err = ext2fs_open2(name, NULL, flags | EXT2_FLAG_FORCE,
				   superblock, blocksize, mgr, ret);
	return err;
}

errcode_t e2x_undo_manager(const char *undo_file, io_manager *mgr)
{
	static char path[4096];
	errcode_t err;

	if (strlen(undo_file) >= sizeof(path))
		return E2X_ERR_NAME_TOO_LONG;
	/* A stale undo file from an earlier run would describe another
	 * starting point; the undo manager must begin a fresh one. */
	if (unlink(undo_file) && errno != ENOENT)
		return errno;
	strcpy(path, undo_file);
	err = set_undo_io_backing_manager(*mgr ? *mgr : unix_io_manager);
	if (!err)
		err = set_undo_io_backup_file(path);
	if (!err)
		*mgr = undo_io_manager;
	return err;
}

errcode_t e2x_image_data_source(ext2_filsys fs, const char *device)
{
	io_channel data;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!(fs->flags & EXT2_FLAG_IMAGE_FILE))
		return EXT2_ET_NOT_IMAGE_FILE;
	err = unix_io_manager->open(device, 0, &data);
	if (err)
		return err;
	err = io_channel_set_blksize(data, fs->blocksize);
	if (!err)
		err = ext2fs_set_data_io(fs, data);
	if (err)
		io_channel_close(data);
	return err;
}
