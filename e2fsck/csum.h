/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csum.h --- inode, directory block and bitmap checksums verified fast,
 * every mismatch confirmed by libext2fs (csum.c).
 */
#ifndef E2FSCK_CSUM_H
#define E2FSCK_CSUM_H

#include "e2x.h"

/* 1 when the inode's checksum is right (ISIZE bytes at IN, the on-disk
 * inode size; IN is not changed). */
int fsck_inode_csum_ok(ext2_filsys fs, ext2_ino_t ino,
		       struct ext2_inode_large *in, unsigned int isize);
/* 1 when the leaf block BUF of directory INO (generation GEN as stored)
 * matches its checksum tail. */
int fsck_dirblock_csum_ok(ext2_filsys fs, ext2_ino_t ino, uint32_t gen,
			  void *buf);
/* 1 when the block (INODES 0) or inode bitmap of group G, SIZE bytes at
 * BUF, matches the checksum in its descriptor. */
int fsck_bitmap_csum_ok(ext2_filsys fs, dgrp_t g, int inodes, char *buf,
			int size);

#endif
