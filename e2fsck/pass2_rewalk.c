/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2_rewalk.c --- read a directory's entries a second time, after pass
 * 2 checked them: the same entries check_entry() saw (named, not '.' or
 * '..', up to the first structural error of a block), for the checks that
 * need them all again instead of holding them in memory.  A block FN
 * changed is written back before the next is read.
 */
#include "config.h"
#include <string.h>
#include "pass1.h"
#include "pass2.h"

static int plain_name(const struct ext2_dir_entry *d, int len)
{
	if (!d->inode || !len)
		return 0;
	if (len == 1 && d->name[0] == '.')
		return 0;
	return !(len == 2 && d->name[0] == '.' && d->name[1] == '.');
}

/* Entries of BUF[0, END) after the first SKIP slots; nonzero: stopped. */
static int each_in_region(struct p2_dir *pd, char *buf, unsigned int end,
			  int skip, unsigned int min_rec, p2_entry_fn fn,
			  void *priv)
{
	unsigned int off = 0, rec_len;
	int slot = 0, rc;

	while (off + 8 <= end) {
		struct ext2_dir_entry *d = (void *)(buf + off);
		int len = ext2fs_dirent_name_len(d);

		if (ext2fs_get_rec_len(pd->fs, d, &rec_len) ||
		    rec_len < min_rec || (rec_len & 3) || off + rec_len > end ||
		    ((len + 8 + 3) & ~3) > (int)rec_len)
			return 0;
		if (slot++ >= skip && plain_name(d, len)) {
			rc = fn(pd, d, priv);
			if (rc)
				return rc;
		}
		off += rec_len;
	}
	return 0;
}

static int each_in_blocks(struct p2_dir *pd, p2_entry_fn fn, void *priv)
{
	ext2_filsys fs = pd->fs;
	size_t i;
	int rc;

	for (i = 0; i < pd->nblocks; i++) {
		uint64_t lblk = pd->blocks[i].lblk;

		if (pd->dx && lblk < pd->ndx && pd->dx[lblk].role == DX_INDEX)
			continue;
		if (io_channel_read_blk64(fs->io, pd->blocks[i].pblk, 1,
					  pd->buf))
			continue;
		rc = each_in_region(pd, pd->buf, fs->blocksize, lblk ? 0 : 2,
				    12, fn, priv);
		p2_fix_flush(pd, pd->blocks[i].pblk, 0);
		if (rc)
			return rc;
	}
	return 0;
}

static int each_inline(struct p2_dir *pd, p2_entry_fn fn, void *priv)
{
	char *ib = (char *)pd->inode->i_block;
	unsigned int voff, vlen;
	uint32_t vinum;
	const char *why;
	int rc;

	rc = each_in_region(pd, ib + EXT4_INLINE_DATA_DOTDOT_SIZE,
			    EXT4_MIN_INLINE_DATA_SIZE -
				    EXT4_INLINE_DATA_DOTDOT_SIZE,
			    0, 8, fn, priv);
	if (rc)
		return rc;
	if (p1_ibody_find(pd->fs, pd->inode, FSCK_XATTR_INDEX_SYSTEM,
			  "data", &voff, &vlen, &vinum, &why) || !vlen ||
	    vinum || voff + vlen > pd->isize)
		return 0;
	return each_in_region(pd, (char *)pd->inode + voff, vlen, 0, 8, fn,
			      priv);
}

int p2_each_entry(struct p2_dir *pd, p2_entry_fn fn, void *priv)
{
	if (pd->inode->i_flags & EXT4_INLINE_DATA_FL)
		return each_inline(pd, fn, priv);
	return each_in_blocks(pd, fn, priv);
}
