/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csum.c --- the checksums e2fsck verifies on every inode and directory
 * block (metadata_csum), computed with libe2x's crc32c (the CPU's
 * instruction where there is one).  A mismatch is always confirmed by
 * libext2fs, so the fast path can only save time, never change a verdict.
 */
#include "config.h"
#include <string.h>
#include <stddef.h>
#include "csum.h"

/* Offsets of the two checksum halves in the on-disk inode. */
#define INODE_CSUM_LO_OFF offsetof(struct ext2_inode_large, i_checksum_lo)
#define INODE_CSUM_HI_OFF offsetof(struct ext2_inode_large, i_checksum_hi)
#define INODE_CSUM_HI_END (INODE_CSUM_HI_OFF + 2 - EXT2_GOOD_OLD_INODE_SIZE)

static int inode_csum_fast(ext2_filsys fs, ext2_ino_t ino,
			   const struct ext2_inode_large *in,
			   unsigned int isize)
{
	const unsigned char *p = (const void *)in;
	static const unsigned char zero[2];
	uint32_t crc, want, inum = ext2fs_cpu_to_le32(ino);
	int has_hi = isize > EXT2_GOOD_OLD_INODE_SIZE &&
		     in->i_extra_isize >= INODE_CSUM_HI_END;

	crc = e2x_crc32c(fs->csum_seed, &inum, 4);
	crc = e2x_crc32c(crc, &in->i_generation, 4);
	crc = e2x_crc32c(crc, p, INODE_CSUM_LO_OFF);
	crc = e2x_crc32c(crc, zero, 2);
	if (!has_hi) {
		crc = e2x_crc32c(crc, p + INODE_CSUM_LO_OFF + 2,
				isize - INODE_CSUM_LO_OFF - 2);
		return (crc & 0xffff) == ext2fs_le16_to_cpu(in->i_checksum_lo);
	}
	crc = e2x_crc32c(crc, p + INODE_CSUM_LO_OFF + 2,
			INODE_CSUM_HI_OFF - INODE_CSUM_LO_OFF - 2);
	crc = e2x_crc32c(crc, zero, 2);
	crc = e2x_crc32c(crc, p + INODE_CSUM_HI_OFF + 2,
			isize - INODE_CSUM_HI_OFF - 2);
	want = ext2fs_le16_to_cpu(in->i_checksum_lo) |
	       (uint32_t)ext2fs_le16_to_cpu(in->i_checksum_hi) << 16;
	return crc == want;
}

int fsck_inode_csum_ok(ext2_filsys fs, ext2_ino_t ino,
		       struct ext2_inode_large *in, unsigned int isize)
{
	if (isize >= EXT2_GOOD_OLD_INODE_SIZE &&
	    isize == EXT2_INODE_SIZE(fs->super) &&
	    inode_csum_fast(fs, ino, in, isize))
		return 1;
	return ext2fs_inode_csum_verify(fs, ino, in);
}

/* A leaf block whose last 12 bytes are a checksum tail. */
int fsck_dirblock_csum_ok(ext2_filsys fs, ext2_ino_t ino, uint32_t gen,
			  void *buf)
{
	const struct ext2_dir_entry_tail *t;
	unsigned int size = fs->blocksize - sizeof(*t);
	uint32_t crc, inum = ext2fs_cpu_to_le32(ino);

	t = (const void *)((const char *)buf + size);
	crc = e2x_crc32c(fs->csum_seed, &inum, 4);
	crc = e2x_crc32c(crc, &gen, 4);
	crc = e2x_crc32c(crc, buf, size);
	if (crc == ext2fs_le32_to_cpu(t->det_checksum))
		return 1;
	return ext2fs_dirent_csum_verify(fs, ino, buf);
}

/* Bitmap checksums: the low 16 bits only when the descriptors are too
 * short to hold the high ones. */
int fsck_bitmap_csum_ok(ext2_filsys fs, dgrp_t g, int inodes, char *buf,
			int size)
{
	uint32_t want, crc;
	unsigned int hi_end = inodes ? EXT4_BG_INODE_BITMAP_CSUM_HI_END :
				       EXT4_BG_BLOCK_BITMAP_CSUM_HI_LOCATION;

	want = inodes ? ext2fs_inode_bitmap_checksum(fs, g) :
			ext2fs_block_bitmap_checksum(fs, g);
	crc = e2x_crc32c(fs->csum_seed, buf, size);
	if (EXT2_DESC_SIZE(fs->super) < hi_end)
		crc &= 0xffff;
	if (crc == want)
		return 1;
	return inodes ? ext2fs_inode_bitmap_csum_verify(fs, g, buf, size) :
			ext2fs_block_bitmap_csum_verify(fs, g, buf, size);
}
