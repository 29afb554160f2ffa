/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_itree.c --- keeping a directory's itree in step: the hooks the
 * directory engine calls on add, remove, index build and drop, and the
 * entry producer the itree uses to build and verify against.
 */
#include "config.h"
#include <string.h>
#include "dir/dir-int.h"

int dir_itree_present(struct e2x_dirh *d)
{
	return e2x_itree_present(d->fs, d->inode);
}

int dir_itree_wanted(struct e2x_dirh *d)
{
	return e2x_itree_feature(d->fs) && d->form == E2X_DIR_FORM_HTREE;
}

/* Where block 0 of D lies when the inode's own extent list says so at a
 * glance (a depth-0 tree); 0 when the general mapping must tell. */
static blk64_t first_block_quick(struct e2x_dirh *d)
{
	const struct ext3_extent_header *eh = (const void *)d->inode->i_block;
	const struct ext3_extent *ex = (const void *)(eh + 1);
	unsigned int i, n = ext2fs_le16_to_cpu(eh->eh_entries);
	blk64_t pblk;

	if (!(d->inode->i_flags & EXT4_EXTENTS_FL) ||
	    ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    eh->eh_depth || n > 4 || !d->nblocks)
		return 0;
	for (i = 0; i < n; i++, ex++) {
		unsigned int len = ext2fs_le16_to_cpu(ex->ee_len);

		if (ext2fs_le32_to_cpu(ex->ee_block) || !len ||
		    len > EXT_INIT_MAX_LEN)
			continue;
		pblk = (blk64_t)ext2fs_le16_to_cpu(ex->ee_start_hi) << 32 |
		       ext2fs_le32_to_cpu(ex->ee_start);
		if (pblk < d->fs->super->s_first_data_block ||
		    pblk >= ext2fs_blocks_count(d->fs->super))
			return 0;
		return pblk;
	}
	return 0;
}

/* The version D's names hash with (unsigned variant applied), as
 * dirh_order_version() gives it, but without mapping block 0 through
 * libext2fs or copying it when the inode and the cache channel allow. */
static errcode_t root_version(struct e2x_dirh *d, int *version)
{
	blk64_t pblk = first_block_quick(d);
	const struct e2x_dx_root_info *ri;
	const void *blk;
	uint64_t tag;

	if (!pblk || e2x_cache_io_borrow(d->fs->io, pblk, &blk, &tag, NULL))
		return dirh_order_version(d, version);
	ri = (const void *)((const char *)blk + E2X_DX_ROOT_INFO_OFF);
	if (ri->hash_version > EXT2_HASH_TEA_UNSIGNED)
		return E2X_ERR_CORRUPT;
	*version = dirh_hash_version(d, ri->hash_version);
	return 0;
}

/* The htree major hash of NAME in D (the itree's second key). */
static errcode_t itree_hash(struct e2x_dirh *d, const char *name,
			    unsigned int len, uint32_t *hash)
{
	int v;
	errcode_t err;

	err = root_version(d, &v);
	if (err)
		return err;
	return dirh_hash(d, v, name, len, hash, NULL);
}

errcode_t dir_itree_insert(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t ino, unsigned int type)
{
	struct e2x_itree_entry ent;
	errcode_t err;

	/* without a tree the itree call does nothing: no separate look for
	 * the root record first (the callers change D anyway) */
	if (!e2x_itree_feature(d->fs))
		return 0;
	memset(&ent, 0, sizeof(ent));
	err = itree_hash(d, name, len, &ent.hash);
	if (err)
		return err;
	ent.ino = ino;
	ent.name = name;
	ent.name_len = len;
	ent.file_type = type;
	d->changed = 1;
	return e2x_itree_insert(d->fs, d->ino, d->inode, &ent, 0);
}

errcode_t dir_itree_remove(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t ino)
{
	struct e2x_itree_entry ent;
	errcode_t err;

	/* without a tree the itree call does nothing: no separate look for
	 * the root record first (the callers change D anyway) */
	if (!e2x_itree_feature(d->fs))
		return 0;
	memset(&ent, 0, sizeof(ent));
	err = itree_hash(d, name, len, &ent.hash);
	if (err)
		return err;
	ent.ino = ino;
	ent.name = name;
	ent.name_len = len;
	d->changed = 1;
	return e2x_itree_remove(d->fs, d->ino, d->inode, &ent, 0);
}

struct emit_ctx {
	e2x_itree_entry_fn emit;
	void *emit_priv;
	int version;
	int ret;
};

static int emit_rec(struct e2x_dirh *d, blk64_t lblk, unsigned int off,
		    struct e2x_dirent *de, void *priv)
{
	struct emit_ctx *ec = priv;
	struct e2x_itree_entry ent;
	errcode_t err;

	(void)lblk;
	(void)off;
	memset(&ent, 0, sizeof(ent));
	err = dirh_hash(d, ec->version, de->name, de->name_len, &ent.hash,
			NULL);
	if (err)
		return (int)err;
	ent.ino = de->inode;
	ent.name = de->name;
	ent.name_len = de->name_len;
	ent.file_type = de->file_type;
	ec->ret = ec->emit(&ent, ec->emit_priv);
	return ec->ret;
}

/* e2x_itree_walk_fn over an open handle (WALK_PRIV).  Uses d->blk only
 * through the walk; the itree code reads its own nodes. */
static errcode_t walk_handle(ext2_filsys fs, ext2_ino_t dir, void *walk_priv,
			     e2x_itree_entry_fn emit, void *emit_priv)
{
	struct e2x_dirh *d = walk_priv;
	struct emit_ctx ec = { emit, emit_priv, 0, 0 };
	int v;
	errcode_t err;

	(void)fs;
	(void)dir;
	if (d->form != E2X_DIR_FORM_HTREE)
		return 0;
	err = dirh_order_version(d, &v);
	if (err)
		return err;
	ec.version = v;
	err = dirh_walk(d, 0, emit_rec, &ec);
	if (ec.ret)
		return ec.ret;
	return err;
}

errcode_t dir_itree_build(struct e2x_dirh *d)
{
	errcode_t err;

	if (!dir_itree_wanted(d))
		return 0;
	err = e2x_itree_room(d->fs, d->inode);
	if (err == E2X_ERR_UNSUPPORTED)
		return 0;	/* no in-inode room: the dir stays htree only */
	if (err)
		return err;
	d->changed = 1;
	return e2x_itree_build(d->fs, d->ino, d->inode, walk_handle, d, 0);
}

errcode_t dir_itree_drop(struct e2x_dirh *d)
{
	if (!dir_itree_present(d))
		return 0;
	d->changed = 1;
	return e2x_itree_drop(d->fs, d->ino, d->inode, 0);
}

/* For dir_verify.c: run the itree verifier with our entry producer. */
errcode_t dir_itree_verify(struct e2x_dirh *d, e2x_itree_problem_fn fn,
			   void *priv, unsigned int *nproblems)
{
	return e2x_itree_verify(d->fs, d->ino, d->inode, walk_handle, d, fn,
				priv, nproblems);
}
