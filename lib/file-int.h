/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file-int.h --- private to the file-content code (file.c and its
 * helpers): the indirect (ext2/ext3 block-mapped) form of a file.
 */
#ifndef E2X_FILE_INT_H
#define E2X_FILE_INT_H

#include "e2x.h"

/* True when INODE keeps (or, having no map yet on a file system without
 * extents, will keep) its content in the indirect block map. */
int e2x_file_is_indirect(ext2_filsys fs,
			 const struct ext2_inode_large *inode);
/* Bytes an indirect map can address: 12 direct, single, double and
 * triple indirect blocks (capped at 2^32 logical blocks). */
uint64_t e2x_indirect_max_bytes(ext2_filsys fs);
/* Map LBLK of an indirect-mapped inode to a new zeroed block, allocating
 * the indirect blocks on the way, all near the file's blocks; i_blocks
 * counts every block allocated.  libext2fs stores the inode when blocks
 * were added (no i_version move); the caller still writes it once. */
errcode_t e2x_indirect_alloc_block(ext2_filsys fs, ext2_ino_t ino,
				   struct ext2_inode_large *inode,
				   blk64_t lblk, blk64_t *pblk);

#endif /* E2X_FILE_INT_H */
