/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_block.c --- what the block forms (linear and htree) share: the
 * disk-order walk over every leaf record (index blocks skipped), '..' in
 * block 0, and a fresh block 0 with '.' and '..'.  Below the form files;
 * calls only the handle I/O (dir_io.c) and the entry format.
 */
#include "config.h"
#include <string.h>
#include "dir/dir-int.h"

void blocks_init_block0(struct e2x_dirh *d, char *buf, ext2_ino_t parent)
{
	struct e2x_dirent *dot = (void *)buf, *dotdot = (void *)(buf + 12);
	unsigned int end = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);

	memset(buf, 0, d->bs);
	e2x_dirent_fill(dot, d->ino, ".", 1, EXT2_FT_DIR);
	e2x_dirent_set_rec_len(dot, 12, d->bs);
	e2x_dirent_fill(dotdot, parent, "..", 2, EXT2_FT_DIR);
	e2x_dirent_set_rec_len(dotdot, end - 12, d->bs);
	if (!ext2fs_has_feature_filetype(d->fs->super))
		dot->file_type = dotdot->file_type = 0;
	if (d->csum)
		e2x_dirblk_tail_init(buf, d->bs);
}

/* True for an htree index block: a fake unused entry spanning the block. */
static int is_dx_node(struct e2x_dirh *d, const char *buf)
{
	const struct e2x_dirent *de = (const void *)buf;

	return de->inode == 0 && e2x_dirent_rec_len(de, d->bs) == d->bs &&
	       de->name_len == 0;
}

/* Records of block LBLK in BUF: '.' and '..' (block 0) only when DOTS;
 * in an htree block 0 holds nothing else. */
static errcode_t walk_block(struct e2x_dirh *d, blk64_t lblk, char *buf,
			    int dots, dirh_rec_fn fn, void *priv)
{
	struct e2x_dirregion r;
	struct e2x_dirent *de;
	unsigned int off = 0, len, idx = 0;
	int ret;

	errcode_t err;

	if (d->form == E2X_DIR_FORM_HTREE && lblk > 0 && is_dx_node(d, buf))
		return 0;
	if (d->form != E2X_DIR_FORM_HTREE || lblk > 0) {
		err = dirh_check_leaf(d, buf);
		if (err)
			return err;
	}
	dirh_leaf_region(d, buf, &r);
	if (d->form == E2X_DIR_FORM_HTREE && lblk == 0)
		r.size = 24;	/* '.' and '..' as far as this walk goes */
	else if (e2x_dirregion_check(&r))
		return E2X_ERR_CORRUPT;
	while (off + E2X_DIRENT_HDR <= r.size) {
		de = (void *)(buf + off);
		len = e2x_dirent_rec_len(de, d->bs);
		if (len < E2X_DIRENT_HDR)
			return E2X_ERR_CORRUPT;
		if (de->inode && (lblk != 0 || idx >= 2 || dots)) {
			ret = fn(d, lblk, off, de, priv);
			if (ret)
				return ret;
		}
		off += len;
		idx++;
	}
	return 0;
}

errcode_t blocks_walk(struct e2x_dirh *d, int dots, dirh_rec_fn fn, void *priv)
{
	blk64_t lblk;
	errcode_t err;

	for (lblk = 0; lblk < d->nblocks; lblk++) {
		err = dirh_read(d, lblk, d->blk);
		if (err)
			return err;
		err = walk_block(d, lblk, d->blk, dots, fn, priv);
		if (err)
			return err;
	}
	return 0;
}

/* '..' is the second record of block 0 in both block forms. */
errcode_t blocks_parent(struct e2x_dirh *d, ext2_ino_t *parent)
{
	struct e2x_dirent *dot = (void *)d->blk2, *dotdot;
	errcode_t err;

	err = dirh_read(d, 0, d->blk2);
	if (!err)
		err = d->form == E2X_DIR_FORM_HTREE ?
			      dirh_check_dx(d, d->blk2, E2X_DX_ROOT_CL_OFF) :
			      dirh_check_leaf(d, d->blk2);
	if (err)
		return err;
	if (e2x_dirent_rec_len(dot, d->bs) != 12 || dot->name_len != 1)
		return E2X_ERR_CORRUPT;
	dotdot = (void *)(d->blk2 + 12);
	if (dotdot->name_len != 2 || memcmp(dotdot->name, "..", 2))
		return E2X_ERR_CORRUPT;
	*parent = dotdot->inode;
	return 0;
}

errcode_t blocks_set_parent(struct e2x_dirh *d, ext2_ino_t parent)
{
	struct e2x_dirent *dotdot = (void *)(d->blk2 + 12);
	ext2_ino_t old;
	errcode_t err;

	err = blocks_parent(d, &old);
	if (err)
		return err;
	dotdot->inode = parent;
	if (d->form == E2X_DIR_FORM_HTREE)
		return dirh_write_dx(d, 0, d->blk2, E2X_DX_ROOT_CL_OFF);
	return dirh_write_leaf(d, 0, d->blk2);
}
