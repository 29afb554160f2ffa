/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_coll.c --- collections of directory entries in memory (one arena for
 * the names) and their orders: by hash, by name, by inode.  Used by sorted
 * walks, index builds and packing; it reads no block itself.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

errcode_t coll_add(struct dir_coll *c, ext2_ino_t ino, const char *name,
		   unsigned int len, unsigned int type)
{
	struct dir_rec *r;
	void *p;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;

		p = realloc(c->v, cap * sizeof(*c->v));
		if (!p)
			return EXT2_ET_NO_MEMORY;
		c->v = p;
		c->cap = cap;
	}
	if (c->names_len + len > c->names_cap) {
		size_t cap = c->names_cap ? c->names_cap * 2 : 4096;

		while (cap < c->names_len + len)
			cap *= 2;
		p = realloc(c->names, cap);
		if (!p)
			return EXT2_ET_NO_MEMORY;
		c->names = p;
		c->names_cap = cap;
	}
	r = &c->v[c->n++];
	memset(r, 0, sizeof(*r));
	r->ino = ino;
	r->name_off = (uint32_t)c->names_len;
	r->name_len = (uint8_t)len;
	r->file_type = (uint8_t)type;
	memcpy(c->names + c->names_len, name, len);
	c->names_len += len;
	return 0;
}

void coll_free(struct dir_coll *c)
{
	free(c->v);
	free(c->names);
	memset(c, 0, sizeof(*c));
}

const char *coll_name(const struct dir_coll *c, const struct dir_rec *r)
{
	return c->names + r->name_off;
}

/* qsort has no context argument: the arena is passed through a static
 * only for the length of one sort; sorts never nest. */
static __thread const char *sort_names;

static int cmp_name(const struct dir_rec *a, const struct dir_rec *b)
{
	unsigned int n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(sort_names + a->name_off, sort_names + b->name_off, n);

	if (c)
		return c;
	return (int)a->name_len - (int)b->name_len;
}

static int cmp_hash(const void *pa, const void *pb)
{
	const struct dir_rec *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return cmp_name(a, b);
}

static int cmp_inode(const void *pa, const void *pb)
{
	const struct dir_rec *a = pa, *b = pb;

	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return cmp_hash(pa, pb);
}

void coll_sort_hash(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_hash);
	sort_names = NULL;
}

static int cmp_name_only(const void *pa, const void *pb)
{
	return cmp_name(pa, pb);
}

void coll_sort_name(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_name_only);
	sort_names = NULL;
}

void coll_sort_inode(struct dir_coll *c)
{
	sort_names = c->names;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_inode);
	sort_names = NULL;
}
