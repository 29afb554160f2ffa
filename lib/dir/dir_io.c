/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_io.c --- the open directory handle and its block I/O: open and close
 * (one inode write with one i_version bump), map, read, write with the
 * checksum tail or dx tail, append a block, the leaf region of a block,
 * and the directory's name hash.  The lowest layer of the directory
 * engine: it calls only dirent.c, dir_name.c and the file block map.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dir/dir-int.h"

errcode_t dirh_alloc(ext2_filsys fs, struct e2x_dirh *d)
{
	unsigned int isz;

	memset(d, 0, sizeof(*d));
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	d->fs = fs;
	d->bs = fs->blocksize;
	d->csum = ext2fs_has_feature_metadata_csum(fs->super);
	isz = EXT2_INODE_SIZE(fs->super);
	if (isz < sizeof(struct ext2_inode_large))
		isz = sizeof(struct ext2_inode_large);
	d->inode = calloc(1, isz);
	d->blk = malloc(d->bs);
	d->blk2 = malloc(d->bs);
	if (!d->inode || !d->blk || !d->blk2) {
		dirh_close(d, 0);
		return EXT2_ET_NO_MEMORY;
	}
	return 0;
}

void dirh_set_ino(struct e2x_dirh *d, ext2_ino_t ino)
{
	d->ino = ino;
	if (d->csum)
		d->seed = e2x_dir_csum_seed(d->fs, ino, d->inode->i_generation);
}

errcode_t dirh_open(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d)
{
	return dirh_open_dots(fs, ino, d, 0);
}

errcode_t dirh_open_dots(ext2_filsys fs, ext2_ino_t ino, struct e2x_dirh *d,
			 int dots_only)
{
	uint64_t size;
	errcode_t err;

	err = dirh_alloc(fs, d);
	if (err)
		return err;
	err = EXT2_ET_BAD_INODE_NUM;
	if (ino < 1 || ino > fs->super->s_inodes_count)
		goto fail;
	err = e2x_read_inode(fs, ino, d->inode);
	if (err)
		goto fail;
	err = E2X_ERR_NOT_DIR;
	if (!LINUX_S_ISDIR(d->inode->i_mode) || !d->inode->i_links_count)
		goto fail;
	err = E2X_ERR_UNSUPPORTED;
	if (!dots_only &&
	    (d->inode->i_flags & (EXT4_CASEFOLD_FL | EXT4_ENCRYPT_FL)))
		goto fail;
	dirh_set_ino(d, ino);
	if (d->inode->i_flags & EXT4_INLINE_DATA_FL) {
		d->form = E2X_DIR_FORM_INLINE;
		return 0;
	}
	size = EXT2_I_SIZE(d->inode);
	err = E2X_ERR_CORRUPT;
	if (size == 0 || size % d->bs)
		goto fail;
	d->nblocks = size / d->bs;
	/* a size beyond the blocks the inode holds means holes: refuse it
	 * before walking (or allocating for) billions of blocks */
	if (d->nblocks > ext2fs_get_stat_i_blocks(fs, (void *)d->inode) /
				 (d->bs / 512))
		goto fail;
	d->form = E2X_DIR_FORM_LINEAR;
	if ((d->inode->i_flags & EXT2_INDEX_FL) &&
	    ext2fs_has_feature_dir_index(fs->super))
		d->form = E2X_DIR_FORM_HTREE;
	return 0;
fail:
	return dirh_close(d, err);
}

errcode_t dirh_close(struct e2x_dirh *d, errcode_t err)
{
	errcode_t werr;

	if (d->changed && !err && d->ino) {
		if (!d->keep_times)
			d->inode->i_mtime = d->inode->i_ctime =
				(uint32_t)e2x_now(d->fs);
		werr = e2x_write_inode(d->fs, d->ino, d->inode);
		if (werr)
			err = werr;
		else	/* switched: the blocks it left may go now */
			e2x_blocks_release(d->fs, &d->old);
	}
	e2x_blocks_free(&d->old);
	free(d->inode);
	free(d->blk);
	free(d->blk2);
	memset(d, 0, sizeof(*d));
	return err;
}

static errcode_t dirh_map(struct e2x_dirh *d, blk64_t lblk, blk64_t *pblk)
{
	errcode_t err;

	if (lblk >= d->nblocks)
		return E2X_ERR_CORRUPT;
	err = e2x_map_file_block(d->fs, d->ino, d->inode, lblk, pblk, NULL);
	if (!err && !*pblk)
		err = E2X_ERR_CORRUPT;	/* a hole inside a directory */
	return err;
}

errcode_t dirh_read(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	blk64_t pblk;
	errcode_t err;

	err = dirh_map(d, lblk, &pblk);
	if (err)
		return err;
	return io_channel_read_blk64(d->fs->io, pblk, 1, buf);
}

static errcode_t dirh_write_raw(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	blk64_t pblk;
	errcode_t err;

	if (d->shadow) {	/* a rebuild into a fresh run (htree.c) */
		if (lblk >= d->shadow_len)
			return E2X_ERR_CORRUPT;
		pblk = d->shadow + lblk;
	} else {
		err = dirh_map(d, lblk, &pblk);
		if (err)
			return err;
	}
	return io_channel_write_blk64(d->fs->io, pblk, 1, buf);
}

errcode_t dirh_check_leaf(struct e2x_dirh *d, const char *buf)
{
	const struct e2x_dirent_tail *t;

	if (!d->csum)
		return 0;
	if (!e2x_dirblk_has_tail(buf, d->bs))
		return E2X_ERR_CORRUPT;
	t = (const void *)(buf + d->bs - E2X_DIRENT_TAIL_SIZE);
	if (t->det_checksum != e2x_dirblk_csum(d->seed, buf, d->bs))
		return EXT2_ET_DIR_CSUM_INVALID;
	return 0;
}

errcode_t dirh_check_dx(struct e2x_dirh *d, const char *buf,
			unsigned int cl_off)
{
	const struct e2x_dx_countlimit *cl = (const void *)(buf + cl_off);
	const struct e2x_dx_tail *t;

	if (!d->csum)
		return 0;
	if (cl_off + (cl->limit + 1) * 8u > d->bs || cl->count > cl->limit)
		return E2X_ERR_CORRUPT;
	t = (const void *)(buf + cl_off + cl->limit * 8u);
	if (t->dt_checksum != e2x_dx_csum(d->seed, buf, cl_off))
		return EXT2_ET_DIR_CSUM_INVALID;
	return 0;
}

errcode_t dirh_write_leaf(struct e2x_dirh *d, blk64_t lblk, char *buf)
{
	if (d->csum) {
		if (!e2x_dirblk_has_tail(buf, d->bs))
			return E2X_ERR_CORRUPT;
		e2x_dirblk_csum_set(d->seed, buf, d->bs);
	}
	return dirh_write_raw(d, lblk, buf);
}

errcode_t dirh_write_dx(struct e2x_dirh *d, blk64_t lblk, char *buf,
			unsigned int cl_off)
{
	if (d->csum && e2x_dx_csum_set(d->seed, buf, d->bs, cl_off))
		return E2X_ERR_CORRUPT;
	return dirh_write_raw(d, lblk, buf);
}

void dirh_set_size(struct e2x_dirh *d, uint64_t nblocks)
{
	d->nblocks = nblocks;
	ext2fs_inode_size_set(d->fs, (struct ext2_inode *)d->inode,
			      nblocks * d->bs);
	d->changed = 1;
}

errcode_t dirh_append_block(struct e2x_dirh *d, blk64_t *lblk)
{
	blk64_t pblk;
	uint64_t limit = ext2fs_has_feature_largedir(d->fs->super) ?
				 (1ULL << 40) : (1ULL << 31);
	errcode_t err;

	if ((d->nblocks + 1) * d->bs >= limit)
		return E2X_ERR_NO_SPACE;
	err = e2x_alloc_file_block(d->fs, d->ino, d->inode, d->nblocks,
				   E2X_ALLOC_NOZERO, &pblk);
	if (err)
		return err;
	*lblk = d->nblocks;
	dirh_set_size(d, d->nblocks + 1);
	return 0;
}

void dirh_leaf_region(struct e2x_dirh *d, char *buf, struct e2x_dirregion *r)
{
	r->buf = buf;
	r->bs = d->bs;
	r->size = d->bs;
	if (d->csum || e2x_dirblk_has_tail(buf, d->bs))
		r->size -= E2X_DIRENT_TAIL_SIZE;
}

errcode_t dirh_default_version(struct e2x_dirh *d, int *version)
{
	*version = d->fs->super->s_def_hash_version;
	return 0;
}

int dirh_hash_version(struct e2x_dirh *d, int root_version)
{
	return e2x_name_hash_version(d->fs, root_version);
}

errcode_t dirh_hash(struct e2x_dirh *d, int version, const char *name,
		    unsigned int len, uint32_t *hash, uint32_t *minor)
{
	struct e2x_name_policy p;

	e2x_name_policy_init(d->fs, d->inode->i_flags, version, &p);
	return e2x_name_hash(&p, name, len, hash, minor);
}

int dirh_name_ok(const char *name, unsigned int len)
{
	if (!name || len == 0 || len > E2X_NAME_MAX)
		return 0;
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	return memchr(name, '/', len) == NULL && memchr(name, 0, len) == NULL;
}
