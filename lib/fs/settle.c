/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * settle.c --- writing out the superblock, group descriptors and bitmaps
 * at a step of a crash-safe edit, and waiting for them.  The primary
 * superblock goes out in one write: libext2fs otherwise writes only its
 * changed pieces, one by one, and a crash between two of them would leave
 * a superblock with half of an edit (a feature bit without its fields).
 */
#include "config.h"
#include "e2x.h"

errcode_t e2x_settle(ext2_filsys fs)
{
	errcode_t err;

	/* without the copy of what is on disk, libext2fs writes it whole */
	ext2fs_free_mem(&fs->orig_super);
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_flush(fs);
	if (!err)
		err = io_channel_flush(fs->io);
	return err;
}
