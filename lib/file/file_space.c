/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file_space.c --- preallocating and punching file blocks (debugfs
 * fallocate / punch) over libext2fs' extent code, bigalloc aware, with
 * one i_version move per call.
 */
#include "config.h"
#include <stdlib.h>
#include <time.h>
#include "e2x.h"

static errcode_t inode_alloc(ext2_filsys fs, struct ext2_inode_large **in)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);

	*in = calloc(1, isz < sizeof(**in) ? sizeof(**in) : isz);
	return *in ? 0 : EXT2_ET_NO_MEMORY;
}

/* Re-read INO after libext2fs stored it and store it once more: the
 * write that moves i_version (BUMP) or a plain one. */
static errcode_t finish(ext2_filsys fs, ext2_ino_t ino, int bump)
{
	struct ext2_inode_large *in;
	errcode_t err;

	err = inode_alloc(fs, &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, ino, in);
	if (err)
		goto out;
	in->i_mtime = in->i_ctime = (uint32_t)e2x_now(fs);
	if (bump)
		err = e2x_write_inode(fs, ino, in);
	else
		err = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)in,
					      EXT2_INODE_SIZE(fs->super));
out:
	free(in);
	return err;
}

static errcode_t check_args(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			    blk64_t end, int flags)
{
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (flags || start > end)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	if (!fs->block_map)
		return EXT2_ET_NO_BLOCK_BITMAP;
	return 0;
}

/* Mode and inline state of INO. */
static errcode_t inode_kind(ext2_filsys fs, ext2_ino_t ino, int *reg,
			    int *is_inline)
{
	struct ext2_inode_large *in;
	errcode_t err;

	err = inode_alloc(fs, &in);
	if (err)
		return err;
	err = e2x_read_inode(fs, ino, in);
	if (!err) {
		*reg = LINUX_S_ISREG(in->i_mode);
		*is_inline = e2x_inode_has_inline(in);
	}
	free(in);
	return err;
}

errcode_t e2x_file_fallocate(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			     blk64_t end, int flags)
{
	int reg = 0, is_inline = 0, bumped = 0;
	errcode_t err;

	err = check_args(fs, ino, start, end, flags);
	if (!err)
		err = inode_kind(fs, ino, &reg, &is_inline);
	if (err)
		return err;
	if (!reg)
		return EXT2_ET_INVALID_ARGUMENT;
	if (is_inline) {
		err = e2x_file_promote(fs, ino, 0);
		if (err)
			return err;
		bumped = 1;
	}
	err = ext2fs_fallocate(fs, EXT2_FALLOCATE_FORCE_UNINIT, ino, NULL,
			       ~0ULL, start, end - start + 1);
	if (err)
		return err;
	return finish(fs, ino, !bumped);
}

/* Inline content lives in logical block 0 alone: a punch that covers it
 * empties the file as the reference does (size 0), but through the inline
 * code so the inode keeps a valid, empty system.data; one past it has
 * nothing to free. */
static errcode_t punch_inline(ext2_filsys fs, ext2_ino_t ino, blk64_t start)
{
	if (start > 0)
		return 0;
	return e2x_file_truncate(fs, ino, 0, 0);
}

errcode_t e2x_file_punch(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			 blk64_t end, int flags)
{
	int reg = 0, is_inline = 0;
	errcode_t err;

	err = check_args(fs, ino, start, end, flags);
	if (!err)
		err = inode_kind(fs, ino, &reg, &is_inline);
	if (err)
		return err;
	if (is_inline)
		return punch_inline(fs, ino, start);
	err = ext2fs_punch(fs, ino, NULL, NULL, start, end);
	if (err)
		return err;
	return finish(fs, ino, 1);
}
