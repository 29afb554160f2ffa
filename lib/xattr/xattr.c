/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xattr.c --- get, set and remove extended attributes by full name, in the
 * inode or its attribute block, over libext2fs' attribute handle; one
 * i_version move per change.  Values kept in EA inodes (ea_inode feature)
 * are read here, every field they depend on checked.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "e2x.h"

static errcode_t value_charge(ext2_filsys fs, ext2_ino_t ino,
			      const char *name, blk64_t *blocks);

/* Store the inode once more after the handle wrote it, moving i_version
 * and ctime, and charging it the change of its EA-inode blocks (OLD before,
 * NEW after, in fs blocks) as the kernel's quota charge does. */
static errcode_t touch(ext2_filsys fs, ext2_ino_t ino, blk64_t old,
		       blk64_t new)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *in;
	struct ext2_inode *i;
	errcode_t err;

	in = calloc(1, isz < sizeof(*in) ? sizeof(*in) : isz);
	if (!in)
		return EXT2_ET_NO_MEMORY;
	i = (struct ext2_inode *)in;
	err = e2x_read_inode(fs, ino, in);
	if (!err && new > old)
		err = ext2fs_iblk_add_blocks(fs, i, new - old);
	if (!err && old > new)
		err = ext2fs_iblk_sub_blocks(fs, i, old - new);
	if (!err) {
		in->i_ctime = (uint32_t)e2x_now(fs);
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
	blk64_t old = 0, new = 0;

	if (!err)
		err = value_charge(fs, ino, name, &old);
	if (!err)
		err = with_handle(fs, ino, name, value, len, 0);
	if (!err)
		err = value_charge(fs, ino, name, &new);
	if (!err)
		err = touch(fs, ino, old, new);
	return err;
}

errcode_t e2x_xattr_remove(ext2_filsys fs, ext2_ino_t ino, const char *name,
			   int flags)
{
	errcode_t err = check_args(fs, ino, name, flags);
	blk64_t old = 0;

	if (!err)
		err = value_charge(fs, ino, name, &old);
	if (!err)
		err = with_handle(fs, ino, name, NULL, 0, 1);
	if (!err)
		err = touch(fs, ino, old, 0);
	return err;
}

/* ---- get ----------------------------------------------------------- */

#define XATTR_VALUE_MAX		65536	/* kernel's largest value */
#define NAME_HASH_SHIFT		5
#define VALUE_HASH_SHIFT	16

/* Name prefixes and their on-disk index; whole names first. */
static const struct {
	int index;
	const char *prefix;
	int whole;		/* the name is the prefix itself */
} prefixes[] = {
	{ 2, "system.posix_acl_access", 1 },
	{ 3, "system.posix_acl_default", 1 },
	{ 8, "system.richacl", 1 },
	{ 1, "user.", 0 },
	{ 4, "trusted.", 0 },
	{ 6, "security.", 0 },
	{ 7, "system.", 0 },
};

/* Split NAME into its index and the stored suffix; 0 if none fits. */
static int name_split(const char *name, const char **suffix)
{
	size_t i, n;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i].prefix);
		if (strncmp(name, prefixes[i].prefix, n))
			continue;
		if (prefixes[i].whole && name[n])
			continue;
		*suffix = name + n;
		return prefixes[i].index;
	}
	return 0;
}

/* Where an attribute's value lives, as its entry says. */
struct xloc {
	int found;
	uint32_t inum;		/* EA inode, 0 for a value in place */
	uint32_t size;		/* e_value_size */
	uint32_t hash;		/* e_hash */
	unsigned char name[256];
	size_t name_len;
};

struct ibody_find {
	int index;
	const char *suffix;
	struct xloc *loc;
};

static int ibody_match(const struct e2x_xattr *xa, void *priv)
{
	struct ibody_find *f = priv;
	const unsigned char *hdr;

	if (xa->name_index != f->index || xa->name_len != strlen(f->suffix) ||
	    memcmp(xa->name, f->suffix, xa->name_len))
		return 0;
	/* The entry header ends right before the name: e_hash is its
	 * last word (layout in e2x-xattr.h). */
	hdr = (const unsigned char *)xa->name;
	f->loc->found = 1;
	f->loc->inum = xa->value_inum;
	f->loc->size = (uint32_t)xa->value_len;
	f->loc->hash = (uint32_t)hdr[-4] | (uint32_t)hdr[-3] << 8 |
		       (uint32_t)hdr[-2] << 16 | (uint32_t)hdr[-1] << 24;
	return 1;
}

/* Find INDEX/SUFFIX among the entries of an attribute block BUF. */
static errcode_t block_find(ext2_filsys fs, const unsigned char *buf,
			    int index, const char *suffix, struct xloc *loc)
{
	const struct ext2_ext_attr_header *h = (const void *)buf;
	struct ext2_ext_attr_entry e;
	size_t off = sizeof(*h), bs = fs->blocksize, len;
	size_t slen = strlen(suffix);

	if (h->h_magic != EXT2_EXT_ATTR_MAGIC || h->h_blocks != 1)
		return E2X_ERR_CORRUPT;
	for (;;) {
		if (off + 4 > bs)
			return E2X_ERR_CORRUPT;
		if (!memcmp(buf + off, "\0\0\0\0", 4))
			return 0;
		if (off + sizeof(e) > bs)
			return E2X_ERR_CORRUPT;
		memcpy(&e, buf + off, sizeof(e));
		len = EXT2_EXT_ATTR_LEN(e.e_name_len);
		if (e.e_name_len == 0 || off + len > bs)
			return E2X_ERR_CORRUPT;
		if (e.e_name_index == index && e.e_name_len == slen &&
		    !memcmp(buf + off + sizeof(e), suffix, slen)) {
			loc->found = 1;
			loc->inum = e.e_value_inum;
			loc->size = e.e_value_size;
			loc->hash = e.e_hash;
			return 0;
		}
		off += len;
	}
}

/* Locate the entry of INDEX/SUFFIX: the inode's area, then its block. */
static errcode_t entry_find(ext2_filsys fs, ext2_ino_t ino,
			    const struct ext2_inode_large *in, int index,
			    const char *suffix, struct xloc *loc)
{
	struct ibody_find f = { index, suffix, loc };
	blk64_t blk = ext2fs_file_acl_block(fs, (const struct ext2_inode *)in);
	unsigned char *buf = NULL;
	errcode_t err;

	err = e2x_xattr_ibody_list(fs, in, ibody_match, &f);
	if (err == 1)
		err = 0;
	if (err || loc->found || !blk)
		goto out;
	if (blk < fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(fs->super)) {
		err = E2X_ERR_CORRUPT;
		goto out;
	}
	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (!err)
		err = ext2fs_read_ext_attr3(fs, blk, buf, ino);
	if (!err)
		err = block_find(fs, buf, index, suffix, loc);
out:
	ext2fs_free_mem(&buf);
	return err;
}

/* Read INO into a new *IN (to free()) and locate INDEX/SUFFIX in it. */
static errcode_t locate(ext2_filsys fs, ext2_ino_t ino, int index,
			const char *suffix, struct ext2_inode_large **in,
			struct xloc *loc)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	errcode_t err;

	memset(loc, 0, sizeof(*loc));
	*in = calloc(1, isz < sizeof(**in) ? sizeof(**in) : isz);
	if (!*in)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, *in);
	if (!err)
		err = entry_find(fs, ino, *in, index, suffix, loc);
	return err;
}

/* The blocks the value of NAME charges to INO: none in place, its size
 * in whole clusters when it lives in an EA inode (e2fsck's rule). */
static errcode_t value_charge(ext2_filsys fs, ext2_ino_t ino,
			      const char *name, blk64_t *blocks)
{
	unsigned int csize = EXT2_CLUSTER_SIZE(fs->super);
	struct ext2_inode_large *in = NULL;
	const char *suffix = NULL;
	struct xloc loc;
	int index;
	errcode_t err;

	*blocks = 0;
	index = name_split(name, &suffix);
	if (!index || !ext2fs_has_feature_ea_inode(fs->super))
		return 0;
	err = locate(fs, ino, index, suffix, &in, &loc);
	if (!err && loc.found && loc.inum)
		*blocks = EXT2FS_C2B(fs, (loc.size + csize - 1) / csize);
	free(in);
	return err;
}

/* e_hash of an EA-inode entry: the name's bytes (as unsigned or, as old
 * code did, signed chars), then the value's hash as one word. */
static uint32_t entry_hash(const char *suffix, uint32_t value_hash,
			   int as_signed)
{
	uint32_t h = 0;
	size_t i;

	for (i = 0; suffix[i]; i++) {
		signed char sc = (signed char)suffix[i];
		uint32_t c = as_signed ? (uint32_t)(int32_t)sc
				       : (unsigned char)suffix[i];

		h = (h << NAME_HASH_SHIFT) ^ (h >> (32 - NAME_HASH_SHIFT)) ^ c;
	}
	return (h << VALUE_HASH_SHIFT) ^ (h >> (32 - VALUE_HASH_SHIFT)) ^
	       value_hash;
}

/* The inode LOC names must be an EA inode: flagged, a linked regular
 * file of exactly the value's size. */
static errcode_t ea_inode_check(const struct xloc *loc,
				const struct ext2_inode_large *ea)
{
	if (!(ea->i_flags & EXT4_EA_INODE_FL) ||
	    !LINUX_S_ISREG(ea->i_mode) || ea->i_links_count == 0 ||
	    (ea->i_flags & EXT4_INLINE_DATA_FL))
		return E2X_ERR_CORRUPT;
	if (EXT2_I_SIZE(ea) != loc->size)
		return E2X_ERR_CORRUPT;
	return 0;
}

/* Hashes: the value's crc32c (seeded like other metadata) is kept in
 * the EA inode's i_atime and folded into e_hash.  Old Lustre EA inodes
 * carry no hash but point back at their owner (i_mtime, i_generation). */
static errcode_t ea_hash_check(ext2_filsys fs, ext2_ino_t owner,
			       const struct ext2_inode_large *in,
			       const struct ext2_inode_large *ea,
			       const struct xloc *loc, const char *suffix,
			       const void *value)
{
	uint32_t vh = ext2fs_crc32c_le(fs->csum_seed, value, loc->size);

	if (vh != ext2fs_get_ea_inode_hash((struct ext2_inode *)ea)) {
		if (ea->i_mtime == owner &&
		    ea->i_generation == in->i_generation)
			return 0;
		return E2X_ERR_CORRUPT;
	}
	if (loc->hash && loc->hash != entry_hash(suffix, vh, 0) &&
	    loc->hash != entry_hash(suffix, vh, 1))
		return E2X_ERR_CORRUPT;
	return 0;
}

/* The value LOC keeps in an EA inode, into a new buffer *VALUE. */
static errcode_t ea_inode_read(ext2_filsys fs, ext2_ino_t owner,
			       const struct ext2_inode_large *in,
			       const struct xloc *loc, const char *suffix,
			       void **value)
{
	unsigned int isz = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *ea = NULL;
	size_t got = 0;
	errcode_t err;

	*value = NULL;
	if (!ext2fs_has_feature_ea_inode(fs->super) ||
	    loc->inum < EXT2_FIRST_INODE(fs->super) ||
	    loc->inum > fs->super->s_inodes_count || loc->inum == owner ||
	    loc->size > XATTR_VALUE_MAX)
		return E2X_ERR_CORRUPT;
	ea = calloc(1, isz < sizeof(*ea) ? sizeof(*ea) : isz);
	if (!ea)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, loc->inum, ea);
	if (!err)
		err = ea_inode_check(loc, ea);
	if (!err)
		err = ext2fs_get_memzero(loc->size + 1, value);
	if (!err && loc->size)
		err = e2x_file_read(fs, loc->inum, 0, *value, loc->size, &got);
	if (!err && got != loc->size)
		err = E2X_ERR_CORRUPT;
	if (!err)
		err = ea_hash_check(fs, owner, in, ea, loc, suffix, *value);
	if (err)
		ext2fs_free_mem(value);
	free(ea);
	return err;
}

/* A value stored in place, through libext2fs' attribute handle. */
static errcode_t handle_get(ext2_filsys fs, ext2_ino_t ino, const char *name,
			    void **value, size_t *len)
{
	struct ext2_xattr_handle *h = NULL;
	errcode_t err;

	err = ext2fs_xattrs_open(fs, ino, &h);
	if (err)
		return err;
	err = ext2fs_xattrs_read(h);
	if (!err)
		err = ext2fs_xattr_get(h, name, value, len);
	if (err == EXT2_ET_EA_KEY_NOT_FOUND)
		err = E2X_ERR_NOT_FOUND;
	ext2fs_xattrs_close(&h);
	return err;
}

errcode_t e2x_xattr_get(ext2_filsys fs, ext2_ino_t ino, const char *name,
			void *buf, size_t bufsize, size_t *value_len)
{
	struct ext2_inode_large *in = NULL;
	struct xloc loc;
	const char *suffix = NULL;
	void *value = NULL;
	size_t len = 0;
	int index;
	errcode_t err;

	*value_len = 0;
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!name || ino < 1 || ino > fs->super->s_inodes_count)
		return EXT2_ET_INVALID_ARGUMENT;
	index = name_split(name, &suffix);
	if (!index)
		return EXT2_ET_INVALID_ARGUMENT;
	err = locate(fs, ino, index, suffix, &in, &loc);
	if (err)
		goto out;
	if (!loc.found) {
		err = E2X_ERR_NOT_FOUND;
		goto out;
	}
	if (loc.inum) {
		err = ea_inode_read(fs, ino, in, &loc, suffix, &value);
		len = loc.size;
	} else {
		err = handle_get(fs, ino, name, &value, &len);
	}
	if (err)
		goto out;
	*value_len = len;
	if (buf)
		memcpy(buf, value, len < bufsize ? len : bufsize);
out:
	if (value)
		ext2fs_free_mem(&value);
	free(in);
	return err;
}
