/*
 * csum.c --- the checksums e2fsck verifies on every inode and directory
 * block (metadata_csum), computed with the CPU's crc32c instruction where
 * there is one.  A mismatch is always confirmed by libext2fs, so the fast
 * path can only save time, never change a verdict.
 */
#include "config.h"
#include <string.h>
#include <stddef.h>
#include "csum.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>

__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
	}
	for (; len; len--, p++)
		c = _mm_crc32_u8((uint32_t)c, *p);
	return (uint32_t)c;
}

static int hw_usable(void)
{
	static const char probe[] = "e2x crc32c probe: 0123456789abcdef";
	static int state;	/* 0 unknown, 1 yes, -1 no */

	if (!state) {
		state = -1;
		if (__builtin_cpu_supports("sse4.2") &&
		    crc32c_hw(~0U, probe, sizeof(probe)) ==
			    ext2fs_crc32c_le(~0U, (const unsigned char *)probe,
					     sizeof(probe)))
			state = 1;
	}
	return state > 0;
}
#else
static uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return ext2fs_crc32c_le(crc, buf, len);
}

static int hw_usable(void)
{
	return 0;
}
#endif

uint32_t fsck_crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (hw_usable())
		return crc32c_hw(crc, buf, len);
	return ext2fs_crc32c_le(crc, buf, len);
}

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

	crc = crc32c_hw(fs->csum_seed, &inum, 4);
	crc = crc32c_hw(crc, &in->i_generation, 4);
	crc = crc32c_hw(crc, p, INODE_CSUM_LO_OFF);
	crc = crc32c_hw(crc, zero, 2);
	if (!has_hi) {
		crc = crc32c_hw(crc, p + INODE_CSUM_LO_OFF + 2,
				isize - INODE_CSUM_LO_OFF - 2);
		return (crc & 0xffff) == ext2fs_le16_to_cpu(in->i_checksum_lo);
	}
	crc = crc32c_hw(crc, p + INODE_CSUM_LO_OFF + 2,
			INODE_CSUM_HI_OFF - INODE_CSUM_LO_OFF - 2);
	crc = crc32c_hw(crc, zero, 2);
	crc = crc32c_hw(crc, p + INODE_CSUM_HI_OFF + 2,
			isize - INODE_CSUM_HI_OFF - 2);
	want = ext2fs_le16_to_cpu(in->i_checksum_lo) |
	       (uint32_t)ext2fs_le16_to_cpu(in->i_checksum_hi) << 16;
	return crc == want;
}

int fsck_inode_csum_ok(ext2_filsys fs, ext2_ino_t ino,
		       struct ext2_inode_large *in, unsigned int isize)
{
	if (hw_usable() && isize >= EXT2_GOOD_OLD_INODE_SIZE &&
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

	if (hw_usable()) {
		t = (const void *)((const char *)buf + size);
		crc = crc32c_hw(fs->csum_seed, &inum, 4);
		crc = crc32c_hw(crc, &gen, 4);
		crc = crc32c_hw(crc, buf, size);
		if (crc == ext2fs_le32_to_cpu(t->det_checksum))
			return 1;
	}
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

	if (hw_usable()) {
		want = inodes ? ext2fs_inode_bitmap_checksum(fs, g) :
				ext2fs_block_bitmap_checksum(fs, g);
		crc = crc32c_hw(fs->csum_seed, buf, size);
		if (EXT2_DESC_SIZE(fs->super) < hi_end)
			crc &= 0xffff;
		if (crc == want)
			return 1;
	}
	return inodes ? ext2fs_inode_bitmap_csum_verify(fs, g, buf, size) :
			ext2fs_block_bitmap_csum_verify(fs, g, buf, size);
}
