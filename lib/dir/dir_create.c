/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_create.c --- a new named inode together with what makes it whole,
 * in one call and with one i_version move: a device node with its device
 * numbers, a symbolic link with its target, a regular file with its
 * content.  A failure takes the new name and inode away again.
 */
#include "config.h"
#include <stdlib.h>
#include "e2x.h"
#include "file/file-int.h"

/* Device numbers in i_block as the kernel stores them: the old 8:8 form
 * when both fit, else the new 12:20 form in i_block[1]. */
static void set_device(struct ext2_inode_large *in, unsigned int major,
		       unsigned int minor)
{
	if (major < 256 && minor < 256) {
		in->i_block[0] = major << 8 | minor;
		in->i_block[1] = 0;
	} else {
		in->i_block[0] = 0;
		in->i_block[1] = (minor & 0xff) | (major << 8) |
				 ((minor & ~0xffU) << 12);
	}
}

/* Store the device numbers into the just created INO (its one i_version
 * move was the creation's). */
static errcode_t store_device(ext2_filsys fs, ext2_ino_t ino,
			      unsigned int major, unsigned int minor)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in;
	errcode_t err;

	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, in);
	if (!err) {
		set_device(in, major, minor);
		err = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)in,
					      isz);
	}
	free(in);
	return err;
}

/* Take NAME (just made, inode INO) away again after a failed fill. */
static errcode_t undo_create(ext2_filsys fs, ext2_ino_t dir, const char *name,
			     unsigned int name_len, errcode_t err)
{
	e2x_dir_unlink(fs, dir, name, name_len, 0);
	return err;
}

errcode_t e2x_dir_mkdev(ext2_filsys fs, ext2_ino_t dir, const char *name,
			unsigned int name_len, unsigned int mode,
			unsigned int major, unsigned int minor, int flags,
			ext2_ino_t *ino)
{
	ext2_ino_t nino;
	errcode_t err;

	if ((!LINUX_S_ISCHR(mode) && !LINUX_S_ISBLK(mode)) ||
	    major > 0xfff || minor > 0xfffff)
		return EXT2_ET_INVALID_ARGUMENT;
	err = e2x_dir_mknod(fs, dir, name, name_len, mode, flags, &nino);
	if (err)
		return err;
	err = store_device(fs, nino, major, minor);
	if (err)
		return undo_create(fs, dir, name, name_len, err);
	if (ino)
		*ino = nino;
	return 0;
}

errcode_t e2x_dir_symlink(ext2_filsys fs, ext2_ino_t dir, const char *name,
			  unsigned int name_len, const char *target,
			  size_t target_len, int flags, ext2_ino_t *ino)
{
	ext2_ino_t nino;
	errcode_t err;

	err = e2x_dir_mknod(fs, dir, name, name_len, LINUX_S_IFLNK | 0777,
			    flags, &nino);
	if (err)
		return err;
	err = e2x_symlink_write(fs, nino, target, target_len,
				E2X_FILE_FRESH_INODE);
	if (err)
		return undo_create(fs, dir, name, name_len, err);
	if (ino)
		*ino = nino;
	return 0;
}

errcode_t e2x_dir_create_file(ext2_filsys fs, ext2_ino_t dir,
			      const char *name, unsigned int name_len,
			      unsigned int mode, const void *data, size_t len,
			      int flags, ext2_ino_t *ino)
{
	ext2_ino_t nino;
	errcode_t err;

	if (!LINUX_S_ISREG(mode))
		return EXT2_ET_INVALID_ARGUMENT;
	err = e2x_dir_mknod(fs, dir, name, name_len, mode, flags, &nino);
	if (err)
		return err;
	if (len)
		err = e2x_file_write(fs, nino, 0, data, len,
				     E2X_FILE_FRESH_INODE);
	if (err)
		return undo_create(fs, dir, name, name_len, err);
	if (ino)
		*ino = nino;
	return 0;
}
