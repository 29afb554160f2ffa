/*
 * xattr.c --- set and remove extended attributes by full name, in the
 * inode or its attribute block, over libext2fs' attribute handle; one
 * i_version move per call.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "e2x.h"

/* Store the inode once more after the handle wrote it, moving i_version
 * and ctime. */
static errcode_t touch(ext2_filsys fs, ext2_ino_t ino)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in;
	errcode_t err;

	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, in);
	if (!err) {
		in->i_ctime = (uint32_t)time(NULL);
		err = e2x_write_inode(fs, ino, in);
	}
	free(in);
	return err;
}

static errcode_t check_args(ext2_filsys fs, ext2_ino_t ino,
			    const char *name, int flags)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags || !name || !*name || !strchr(name, '.'))
		return EXT2_ET_INVALID_ARGUMENT;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	/* the itree root and inline data belong to their own code */
	if (!strcmp(name, "system.data") || !strcmp(name, "system.itree"))
		return E2X_ERR_UNSUPPORTED;
	return 0;
}

/* Open the attribute handle of INO, run OP, close. */
static errcode_t with_handle(ext2_filsys fs, ext2_ino_t ino,
			     const char *name, const void *value, size_t len,
			     int remove)
{
	struct ext2_xattr_handle *h = NULL;
	errcode_t err, cerr;
	void *old = NULL;
	size_t old_len;

	err = ext2fs_xattrs_open(fs, ino, &h);
	if (err)
		return err;
	err = ext2fs_xattrs_read(h);
	if (err)
		goto out;
	if (remove) {
		err = ext2fs_xattr_get(h, name, &old, &old_len);
		if (err == EXT2_ET_EA_KEY_NOT_FOUND)
			err = E2X_ERR_NOT_FOUND;
		if (!err)
			err = ext2fs_xattr_remove(h, name);
	} else {
		err = ext2fs_xattr_set(h, name, value, len);
	}
out:
	if (old)
		ext2fs_free_mem(&old);
	cerr = ext2fs_xattrs_close(&h);
	return err ? err : cerr;
}

errcode_t e2x_xattr_set(ext2_filsys fs, ext2_ino_t ino, const char *name,
			const void *value, size_t len, int flags)
{
	errcode_t err = check_args(fs, ino, name, flags);

	if (!err)
		err = with_handle(fs, ino, name, value, len, 0);
	if (!err)
		err = touch(fs, ino);
	return err;
}

errcode_t e2x_xattr_remove(ext2_filsys fs, ext2_ino_t ino, const char *name,
			   int flags)
{
	errcode_t err = check_args(fs, ino, name, flags);

	if (!err)
		err = with_handle(fs, ino, name, NULL, 0, 1);
	if (!err)
		err = touch(fs, ino);
	return err;
}
