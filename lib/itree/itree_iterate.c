/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_iterate.c --- walking a directory in inode order: the leaves of
 * its itree from left to right.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

struct walk {
	e2x_itree_entry_fn fn;
	void *priv;
};

static int leaf_entries(struct itree_ctx *c, char *buf, struct walk *w)
{
	unsigned int i, n;
	int r;

	if (itree_offsets(c, buf, c->offs, &n))
		return E2X_ERR_ITREE_CORRUPT;
	for (i = 0; i < n; i++) {
		const char *e = itree_entry(buf, c->offs[i]);
		struct e2x_itree_entry ent;

		ent.ino = itree_get32(e);
		ent.hash = itree_get32(e + 4);
		ent.name_len = (uint8_t)e[8];
		ent.file_type = (uint8_t)e[9];
		ent.name = e + E2X_ITREE_LEAF_HDR;
		r = w->fn(&ent, w->priv);
		if (r)
			return r;
	}
	return 0;
}

/* Depth first; the buffer of each level is reused by its children. */
static int visit(struct itree_ctx *c, blk64_t blk, unsigned int level,
		 struct walk *w)
{
	char *buf = c->path[level].buf;
	unsigned int i, n;
	errcode_t err;
	int r;

	err = itree_read_node(c, blk, buf, level);
	if (err)
		return err;
	if (!level)
		return leaf_entries(c, buf, w);
	n = ext2fs_le16_to_cpu(itree_hdr(buf)->in_count);
	if (n * E2X_ITREE_INDEX_LEN > c->area)
		return E2X_ERR_ITREE_CORRUPT;
	for (i = 0; i < n; i++) {
		r = visit(c, itree_index_child(itree_entry(buf,
				i * E2X_ITREE_INDEX_LEN)), level - 1, w);
		if (r)
			return r;
	}
	return 0;
}

errcode_t e2x_itree_iterate(ext2_filsys fs, ext2_ino_t dir,
			    const struct ext2_inode_large *dir_inode, int flags,
			    e2x_itree_entry_fn fn, void *priv)
{
	struct itree_ctx c;
	struct walk w = { fn, priv };
	errcode_t err;
	int r;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!fn)
		return EXT2_ET_INVALID_ARGUMENT;
	err = itree_ctx_init(&c, fs, dir, (struct ext2_inode_large *)dir_inode,
			     1);
	if (err)
		return err;
	r = visit(&c, c.root.ir_root, c.levels - 1, &w);
	itree_ctx_free(&c);
	return r == E2X_ITREE_STOP ? 0 : r;
}
