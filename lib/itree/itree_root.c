/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_root.c --- where an itree starts: the root record in the in-inode
 * attribute system.itree, and the context every itree operation runs in.
 */
#include "config.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "itree/itree-int.h"

/* Decode and sanity-check a root record value. */
static errcode_t root_decode(ext2_filsys fs, const unsigned char *v,
			     size_t len, struct e2x_itree_root *r)
{
	if (len != sizeof(*r))
		return E2X_ERR_ITREE_CORRUPT;
	r->ir_root = itree_get64(v + 0x00);
	r->ir_free = itree_get64(v + 0x08);
	r->ir_generation = itree_get32(v + 0x10);
	r->ir_clusters = itree_get32(v + 0x14);
	r->ir_version = v[0x18];
	r->ir_levels = v[0x19];
	r->ir_flags = v[0x1a] | v[0x1b] << 8;
	r->ir_nodes = itree_get32(v + 0x1c);
	if (r->ir_version != E2X_ITREE_VERSION || r->ir_flags ||
	    r->ir_levels < 1 || r->ir_levels > E2X_ITREE_MAX_LEVELS ||
	    r->ir_root < fs->super->s_first_data_block ||
	    r->ir_root >= ext2fs_blocks_count(fs->super) ||
	    (r->ir_free && r->ir_free >= ext2fs_blocks_count(fs->super)))
		return E2X_ERR_ITREE_CORRUPT;
	return 0;
}

static void root_encode(const struct e2x_itree_root *r, unsigned char *v)
{
	memset(v, 0, sizeof(*r));
	itree_put64(v + 0x00, r->ir_root);
	itree_put64(v + 0x08, r->ir_free);
	itree_put32(v + 0x10, r->ir_generation);
	itree_put32(v + 0x14, r->ir_clusters);
	v[0x18] = r->ir_version;
	v[0x19] = r->ir_levels;
	v[0x1a] = r->ir_flags & 0xff;
	v[0x1b] = r->ir_flags >> 8;
	itree_put32(v + 0x1c, r->ir_nodes);
}

errcode_t e2x_itree_root_get(ext2_filsys fs,
			     const struct ext2_inode_large *dir_inode,
			     struct e2x_itree_root *root)
{
	unsigned char v[sizeof(*root)];
	size_t len = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (EXT2_INODE_SIZE(fs->super) <= EXT2_GOOD_OLD_INODE_SIZE)
		return E2X_ERR_NOT_FOUND;
	err = e2x_xattr_ibody_get(fs, dir_inode, E2X_ITREE_XATTR_INDEX,
				  E2X_ITREE_XATTR_NAME, v, sizeof(v), &len);
	if (err)
		return err;
	return root_decode(fs, v, len, root);
}

int e2x_itree_present(ext2_filsys fs, const struct ext2_inode_large *dir_inode)
{
	struct e2x_itree_root r;

	if (!fs || fs->magic != EXT2_ET_MAGIC_EXT2FS_FILSYS ||
	    !e2x_itree_feature(fs))
		return 0;
	return e2x_itree_root_get(fs, dir_inode, &r) != E2X_ERR_NOT_FOUND;
}

errcode_t e2x_itree_room(ext2_filsys fs,
			 const struct ext2_inode_large *dir_inode)
{
	size_t max = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (EXT2_INODE_SIZE(fs->super) <= EXT2_GOOD_OLD_INODE_SIZE)
		return E2X_ERR_UNSUPPORTED;
	err = e2x_xattr_ibody_room(fs, dir_inode, E2X_ITREE_XATTR_INDEX,
				   E2X_ITREE_XATTR_NAME, &max);
	if (err)
		return err;
	return max >= sizeof(struct e2x_itree_root) ? 0 : E2X_ERR_UNSUPPORTED;
}

/* Store c->root into the inode (memory only). */
errcode_t itree_root_store(struct itree_ctx *c)
{
	unsigned char v[sizeof(c->root)];

	c->root.ir_levels = c->levels;
	root_encode(&c->root, v);
	c->root_dirty = 0;
	return e2x_xattr_ibody_set(c->fs, c->inode, E2X_ITREE_XATTR_INDEX,
				   E2X_ITREE_XATTR_NAME, v, sizeof(v));
}

/* The per-directory checksum seed, as for directory blocks. */
static uint32_t dir_seed(ext2_filsys fs, ext2_ino_t ino, uint32_t gen)
{
	uint32_t le_ino = ext2fs_cpu_to_le32(ino);
	uint32_t le_gen = ext2fs_cpu_to_le32(gen);
	uint32_t crc;

	crc = ext2fs_crc32c_le(fs->csum_seed, (unsigned char *)&le_ino, 4);
	return ext2fs_crc32c_le(crc, (unsigned char *)&le_gen, 4);
}

/*
 * Each thread keeps the scratch memory of its last operation for the next
 * one: an insert or remove then costs no malloc of a few node buffers.
 */
struct scratch {
	char *mem;
	size_t len;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_ok;

static void scratch_drop(void *p)
{
	struct scratch *s = p;

	free(s->mem);
	free(s);
}

static void scratch_init(void)
{
	scratch_ok = !pthread_key_create(&scratch_key, scratch_drop);
}

/* LEN bytes (*GOT: their real size), from the thread's spare if it is big
 * enough, else fresh. */
static char *scratch_take(size_t len, size_t *got)
{
	struct scratch *s;
	char *m;

	pthread_once(&scratch_once, scratch_init);
	s = scratch_ok ? pthread_getspecific(scratch_key) : NULL;
	if (s && s->mem && s->len >= len) {
		m = s->mem;
		*got = s->len;
		s->mem = NULL;
		return m;
	}
	*got = len;
	return malloc(len);
}

/* Keep MEM as the thread's spare (the larger one wins). */
static void scratch_give(char *mem, size_t len)
{
	struct scratch *s;

	if (!mem)
		return;
	s = scratch_ok ? pthread_getspecific(scratch_key) : NULL;
	if (scratch_ok && !s) {
		s = calloc(1, sizeof(*s));
		if (s && pthread_setspecific(scratch_key, s)) {
			free(s);
			s = NULL;
		}
	}
	if (!s || (s->mem && s->len >= len)) {
		free(mem);
		return;
	}
	free(s->mem);
	s->mem = mem;
	s->len = len;
}

/*
 * Set up C for directory DIR.  With NEED_ROOT the root record must exist
 * (E2X_ERR_NOT_FOUND otherwise, also when the fs lacks the feature).
 */
errcode_t itree_ctx_init(struct itree_ctx *c, ext2_filsys fs, ext2_ino_t dir,
			 struct ext2_inode_large *inode, int need_root)
{
	unsigned int i, n;
	errcode_t err;
	char *p;

	memset(c, 0, sizeof(*c));
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	c->fs = fs;
	c->dir = dir;
	c->inode = inode;
	c->bs = fs->blocksize;
	c->area = c->bs - E2X_ITREE_HDR_SIZE;
	c->ratio = EXT2FS_CLUSTER_RATIO(fs);
	c->csum = ext2fs_has_feature_metadata_csum(fs->super);
	c->seed = dir_seed(fs, dir, inode->i_generation);
	if (need_root) {
		if (!e2x_itree_feature(fs))
			return E2X_ERR_NOT_FOUND;
		err = e2x_itree_root_get(fs, inode, &c->root);
		if (err)
			return err;
		c->levels = c->root.ir_levels;
	}
	/* a path buffer per level, 3 spares, a wide one, the offsets */
	n = (need_root ? c->levels : E2X_ITREE_MAX_LEVELS) + 3 + 2;
	c->mem = scratch_take((size_t)n * c->bs +
			      sizeof(*c->offs) * (2 * c->bs / 12 + 4),
			      &c->memlen);
	if (!c->mem)
		return EXT2_ET_NO_MEMORY;
	p = c->mem;
	for (i = 0; i < n - 5; i++, p += c->bs)
		c->path[i].buf = p;
	for (i = 0; i < 3; i++, p += c->bs)
		c->spare[i] = p;
	c->wide = p;
	c->offs = (unsigned int *)(p + 2 * c->bs);
	return 0;
}

void itree_ctx_free(struct itree_ctx *c)
{
	unsigned int i;

	for (i = 0; i < E2X_ITREE_MAX_LEVELS; i++)
		c->path[i].buf = NULL;
	scratch_give(c->mem, c->memlen);
	c->mem = NULL;
}
