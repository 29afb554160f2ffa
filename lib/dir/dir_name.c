/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_name.c --- the one name policy of directories: how a name is hashed
 * (hash version with the superblock's unsigned-char variant, the hash seed,
 * the encoding and the casefold flag) and how two names compare, and the
 * file type an entry records for an inode's mode.  Everything in e2x that
 * hashes or compares a directory name calls these.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "e2x.h"

int e2x_name_hash_version(ext2_filsys fs, int version)
{
	if (version <= EXT2_HASH_TEA &&
	    (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
		return version + EXT2_HASH_LEGACY_UNSIGNED - EXT2_HASH_LEGACY;
	return version;
}

void e2x_name_policy_init(ext2_filsys fs, uint32_t dir_flags, int version,
			  struct e2x_name_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->version = e2x_name_hash_version(fs, version);
	p->seed = fs->super->s_hash_seed;
	p->encoding = fs->encoding;
	if (fs->encoding && (dir_flags & EXT4_CASEFOLD_FL))
		p->casefold = 1;
}

errcode_t e2x_name_hash(const struct e2x_name_policy *p, const char *name,
			unsigned int len, uint32_t *hash, uint32_t *minor)
{
	ext2_dirhash_t h = 0, m = 0;
	errcode_t err;

	err = ext2fs_dirhash2(p->version, name, (int)len, p->encoding,
			      p->casefold ? EXT4_CASEFOLD_FL : 0, p->seed,
			      &h, &m);
	*hash = h;
	if (minor)
		*minor = m;
	return err;
}

int e2x_name_equal(const struct e2x_name_policy *p, const char *a,
		   unsigned int alen, const char *b, unsigned int blen)
{
	int c;

	if (p && p->casefold) {
		c = ext2fs_casefold_cmp(p->encoding, (const unsigned char *)a,
					alen, (const unsigned char *)b, blen);
		if (c != -EINVAL)
			return c == 0;
		/* not valid in the encoding: the bytes decide */
	}
	return alen == blen && !memcmp(a, b, alen);
}

unsigned int e2x_ftype_of_mode(unsigned int mode)
{
	switch (mode & LINUX_S_IFMT) {
	case LINUX_S_IFREG:
		return EXT2_FT_REG_FILE;
	case LINUX_S_IFDIR:
		return EXT2_FT_DIR;
	case LINUX_S_IFCHR:
		return EXT2_FT_CHRDEV;
	case LINUX_S_IFBLK:
		return EXT2_FT_BLKDEV;
	case LINUX_S_IFIFO:
		return EXT2_FT_FIFO;
	case LINUX_S_IFSOCK:
		return EXT2_FT_SOCK;
	case LINUX_S_IFLNK:
		return EXT2_FT_SYMLINK;
	}
	return EXT2_FT_UNKNOWN;
}
