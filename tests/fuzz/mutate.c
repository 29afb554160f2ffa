/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mutate.c --- deterministic, structure-aware mutations of ext4 images:
 * find the superblock, group descriptors, inodes, extent nodes, directory
 * blocks, xattr blocks, journal blocks and itree nodes of a seed once,
 * then change their fields to values checkers get wrong (0, ~0, +-1, a
 * flipped bit, the block count, another field's value).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <ext2fs/ext2fs.h>
#include "mutate.h"

/* A field: offset in its structure and width in bytes. */
struct field {
	unsigned short off;
	unsigned char width;
};

static const struct field super_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 },
	{ 24, 4 }, { 28, 4 }, { 32, 4 }, { 36, 4 }, { 40, 4 }, { 52, 2 },
	{ 54, 2 }, { 58, 2 }, { 60, 2 }, { 62, 2 }, { 76, 4 }, { 84, 4 },
	{ 88, 2 }, { 90, 2 }, { 92, 4 }, { 96, 4 }, { 100, 4 }, { 206, 2 },
	{ 224, 4 }, { 228, 4 }, { 232, 4 }, { 236, 4 }, { 252, 1 },
	{ 253, 1 }, { 254, 2 }, { 256, 4 }, { 260, 4 }, { 268, 4 },
	{ 272, 4 }, { 316, 4 }, { 320, 4 }, { 328, 4 }, { 332, 4 },
	{ 336, 4 }, { 340, 4 }, { 344, 4 }, { 348, 2 }, { 350, 2 },
	{ 352, 4 }, { 360, 4 }, { 372, 1 }, { 373, 1 }, { 404, 4 },
	{ 0x240, 4 }, { 0x244, 4 }, { 0x248, 4 }, { 0x24c, 4 },
	{ 0x250, 4 }, { 0x268, 4 }, { 0x26c, 4 }, { 0x270, 4 },
	{ 0x27c, 2 }, { 0x27e, 2 }, { 0x280, 4 }, { 0x3fc, 4 },
};

static const struct field gdesc_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 2 }, { 14, 2 }, { 16, 2 },
	{ 18, 2 }, { 20, 4 }, { 24, 2 }, { 26, 2 }, { 28, 2 }, { 30, 2 },
	{ 32, 4 }, { 36, 4 }, { 40, 4 }, { 44, 2 }, { 46, 2 }, { 48, 2 },
	{ 50, 2 },
};

static const struct field inode_fields[] = {
	{ 0, 2 }, { 4, 4 }, { 20, 4 }, { 26, 2 }, { 28, 4 }, { 32, 4 },
	{ 32, 1 }, { 34, 1 }, { 40, 4 }, { 44, 4 }, { 48, 4 }, { 52, 4 },
	{ 56, 4 }, { 60, 4 }, { 64, 4 }, { 84, 4 }, { 88, 4 }, { 92, 4 },
	{ 96, 4 }, { 104, 4 }, { 108, 4 }, { 116, 2 }, { 118, 2 },
	{ 124, 2 }, { 128, 2 }, { 130, 2 }, { 152, 4 }, { 156, 4 },
	{ 160, 4 }, { 164, 4 }, { 168, 2 }, { 170, 1 }, { 172, 2 },
	{ 176, 4 }, { 180, 4 },
};

/* Extent header and the first entries (leaf or index alike). */
static const struct field extent_fields[] = {
	{ 0, 2 }, { 2, 2 }, { 4, 2 }, { 6, 2 }, { 8, 4 },
	{ 12, 4 }, { 16, 2 }, { 18, 2 }, { 20, 4 },
	{ 24, 4 }, { 28, 2 }, { 30, 2 }, { 32, 4 },
	{ 36, 4 }, { 40, 2 }, { 42, 2 }, { 44, 4 },
};

static const struct field xattr_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 16, 4 },
	{ 32, 1 }, { 33, 1 }, { 34, 2 }, { 36, 4 }, { 40, 4 }, { 44, 4 },
	{ 48, 1 }, { 50, 1 }, { 52, 1 },
};

static const struct field journal_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 },
	{ 24, 4 }, { 28, 4 }, { 32, 4 }, { 36, 4 }, { 40, 4 }, { 44, 4 },
	{ 64, 4 }, { 68, 4 }, { 72, 4 }, { 80, 1 }, { 84, 4 }, { 252, 4 },
	{ 48, 4 }, { 56, 4 },
};

static const struct field itree_fields[] = {
	{ 0, 4 }, { 4, 2 }, { 6, 2 }, { 8, 1 }, { 9, 1 }, { 10, 2 },
	{ 12, 4 }, { 16, 4 }, { 20, 4 }, { 24, 4 }, { 32, 4 }, { 36, 4 },
	{ 40, 1 }, { 41, 1 }, { 40, 4 }, { 44, 4 }, { 48, 4 },
};

/* dx_root info and first entries, when a directory block is a root. */
static const struct field dxroot_fields[] = {
	{ 24, 4 }, { 28, 1 }, { 29, 1 }, { 30, 1 }, { 31, 1 }, { 32, 2 },
	{ 34, 2 }, { 36, 4 }, { 40, 4 }, { 44, 4 }, { 48, 4 }, { 52, 4 },
};

struct field_table {
	const struct field *f;
	size_t n;
	int big_endian;
};

#define TABLE(a, be) { a, sizeof(a) / sizeof(a[0]), be }
static const struct field_table tables[MK_NKINDS] = {
	[MK_SUPER] = TABLE(super_fields, 0),
	[MK_GDESC] = TABLE(gdesc_fields, 0),
	[MK_INODE] = TABLE(inode_fields, 0),
	[MK_EXTENT] = TABLE(extent_fields, 0),
	[MK_XATTR] = TABLE(xattr_fields, 0),
	[MK_JOURNAL] = TABLE(journal_fields, 1),
	[MK_ITREE] = TABLE(itree_fields, 0),
};

const char *mut_kind_name(enum mut_kind k)
{
	static const char *const names[MK_NKINDS] = {
		"superblock", "group descriptor", "inode", "extent node",
		"directory block", "xattr block", "journal block",
		"itree node", "any byte"
	};

	return k < MK_NKINDS ? names[k] : "?";
}

uint64_t mut_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t get_le(const uint8_t *p, unsigned int w)
{
	uint64_t v = 0;

	while (w--)
		v = v << 8 | p[w];
	return v;
}

static void put_le(uint8_t *p, unsigned int w, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < w; i++, v >>= 8)
		p[i] = v & 0xff;
}

static uint64_t get_be(const uint8_t *p, unsigned int w)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < w; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, unsigned int w, uint64_t v)
{
	while (w--) {
		p[w] = v & 0xff;
		v >>= 8;
	}
}

static int add_region(struct mut_map *m, enum mut_kind kind, size_t off,
		      size_t len)
{
	struct mut_region *nr;

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;

		nr = realloc(m->r, cap * sizeof(*nr));
		if (!nr)
			return -1;
		m->r = nr;
		m->cap = cap;
	}
	m->r[m->n++] = (struct mut_region){ kind, off, len };
	m->count[kind]++;
	return 0;
}

/* A block of directory entries whose rec_lens chain to its end. */
static int looks_like_dirents(const uint8_t *b, unsigned int bs)
{
	unsigned int off = 0, n = 0, rec, nlen;

	while (off + 8 <= bs) {
		rec = get_le(b + off + 4, 2);
		nlen = b[off + 6];
		if (bs >= 65536 && rec == 0)
			rec = 65536;
		if (rec < 8 || rec % 4 || off + rec > bs ||
		    (get_le(b + off, 4) && nlen + 8U > rec))
			return 0;
		off += rec;
		n++;
	}
	return off == bs && n >= 2;
}

static int classify_block(struct mut_map *m, const uint8_t *b, size_t off)
{
	unsigned int bs = m->blocksize;
	int r = 0;

	if (get_le(b, 2) == 0xf30a)
		r = add_region(m, MK_EXTENT, off, bs);
	else if (get_le(b, 4) == 0xea020000)
		r = add_region(m, MK_XATTR, off, bs);
	else if (get_be(b, 4) == 0xc03b3998)
		r = add_region(m, MK_JOURNAL, off, bs);
	else if (get_le(b, 4) == 0x45525449)
		r = add_region(m, MK_ITREE, off, bs);
	else if (looks_like_dirents(b, bs))
		r = add_region(m, MK_DIRENT, off, bs);
	return r;
}

static int map_inodes(struct mut_map *m, const uint8_t *img, size_t size,
		      uint64_t itable, unsigned int ipg, unsigned int isz)
{
	size_t off = itable * m->blocksize, i;
	const uint8_t *ino;
	static const uint8_t zero[128];

	for (i = 0; i < ipg && i < 2048; i++, off += isz) {
		if (off + isz > size)
			break;
		ino = img + off;
		if (!memcmp(ino, zero, 128))
			continue;
		if (add_region(m, MK_INODE, off, isz))
			return -1;
		/* i_flags EXTENTS: the root node in i_block */
		if ((get_le(ino + 32, 4) & 0x80000) &&
		    add_region(m, MK_EXTENT, off + 40, 60))
			return -1;
	}
	return 0;
}

static int map_groups(struct mut_map *m, const uint8_t *img, size_t size)
{
	const uint8_t *sb = img + 1024;
	uint64_t first = get_le(sb + 20, 4), bpg = get_le(sb + 32, 4);
	unsigned int ipg = get_le(sb + 40, 4), isz = get_le(sb + 88, 2);
	unsigned int dsz = 32, g, ngroups;
	size_t gdt, off;
	uint64_t itable;

	if (get_le(sb + 76, 4) == 0)
		isz = 128;
	if ((get_le(sb + 96, 4) & 0x80) && get_le(sb + 254, 2) >= 64)
		dsz = get_le(sb + 254, 2) > 1024 ? 64 : get_le(sb + 254, 2);
	if (!bpg || first >= m->blocks || isz < 128 || isz > m->blocksize)
		return 0;
	ngroups = (m->blocks - first + bpg - 1) / bpg;
	/* the descriptors follow the superblock's block */
	gdt = (1024 / m->blocksize + 1) * (size_t)m->blocksize;
	for (g = 0; g < ngroups && g < 256; g++) {
		off = gdt + (size_t)g * dsz;
		if (off + dsz > size)
			break;
		if (add_region(m, MK_GDESC, off, dsz))
			return -1;
		itable = get_le(img + off + 8, 4);
		if (dsz >= 64)
			itable |= get_le(img + off + 40, 4) << 32;
		if (itable && itable < m->blocks &&
		    map_inodes(m, img, size, itable, ipg, isz))
			return -1;
	}
	return 0;
}

int mut_map_build(struct mut_map *m, const uint8_t *img, size_t size)
{
	const uint8_t *sb = img + 1024;
	static const uint8_t zero[64];
	size_t off;

	memset(m, 0, sizeof(*m));
	m->blocksize = 4096;
	if (size >= 2048 && get_le(sb + 56, 2) == 0xef53) {
		if (get_le(sb + 24, 4) <= 6)
			m->blocksize = 1024U << get_le(sb + 24, 4);
		m->blocks = get_le(sb + 4, 4);
		m->csum = !!(get_le(sb + 100, 4) & 0x400);
		if (add_region(m, MK_SUPER, 1024, 1024) ||
		    map_groups(m, img, size))
			return -1;
	}
	for (off = 0; off + m->blocksize <= size; off += m->blocksize)
		if (memcmp(img + off, zero, sizeof(zero)) &&
		    classify_block(m, img + off, off))
			return -1;
	/* some byte of the image, wherever it is */
	return add_region(m, MK_ANY, 0, size);
}

void mut_map_free(struct mut_map *m)
{
	free(m->r);
	memset(m, 0, sizeof(*m));
}

/* A value for a field of WIDTH bytes now holding CUR. */
static uint64_t pick_value(const struct mut_map *m, uint64_t cur,
			   unsigned int width, uint64_t *st)
{
	uint64_t mask = width >= 8 ? ~0ULL : (1ULL << (8 * width)) - 1;
	uint64_t r = mut_rand(st);

	switch (r % 12) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mask;
	case 3: return (cur + 1) & mask;
	case 4: return (cur - 1) & mask;
	case 5: return cur ^ (1ULL << ((r >> 8) % (8 * width)));
	case 6: return (cur * 2) & mask;
	case 7: return (cur / 2);
	case 8: return m->blocks & mask;
	case 9: return (m->blocks - 1) & mask;
	case 10: return (mask >> 1) + 1;	/* top bit only */
	default: return (r >> 16) & mask;
	}
}

static void mutate_field(const struct mut_map *m, uint8_t *p, size_t room,
			 const struct field *f, int be, uint64_t *st)
{
	uint64_t cur, v;

	if (f->off + f->width > room)
		return;
	p += f->off;
	cur = be ? get_be(p, f->width) : get_le(p, f->width);
	v = pick_value(m, cur, f->width, st);
	if (be)
		put_be(p, f->width, v);
	else
		put_le(p, f->width, v);
}

/* One field of the Kth directory entry, or of the dx_root info. */
static void mutate_dirent(const struct mut_map *m, uint8_t *b, size_t len,
			  uint64_t *st)
{
	static const struct field ent[] = {
		{ 0, 4 }, { 4, 2 }, { 6, 1 }, { 7, 1 }, { 8, 1 }, { 9, 1 },
	};
	const size_t nent = sizeof(ent) / sizeof(ent[0]);
	const size_t ndx = sizeof(dxroot_fields) / sizeof(dxroot_fields[0]);
	unsigned int k = mut_rand(st) % 8, off = 0, rec;

	if (mut_rand(st) % 4 == 0 && get_le(b + 4, 2) == 12) {
		mutate_field(m, b, len, &dxroot_fields[mut_rand(st) % ndx], 0,
			     st);
		return;
	}
	if (mut_rand(st) % 8 == 0) {	/* the checksum tail */
		mutate_field(m, b + len - 12, 12,
			     &ent[mut_rand(st) % 4], 0, st);
		return;
	}
	while (k-- && off + 8 <= len) {
		rec = get_le(b + off + 4, 2);
		if (rec < 8 || off + rec + 8 > len)
			break;
		off += rec;
	}
	mutate_field(m, b + off, len - off, &ent[mut_rand(st) % nent], 0, st);
}

static void mutate_region(const struct mut_map *m, uint8_t *img,
			  size_t size, const struct mut_region *r,
			  uint64_t *st)
{
	const struct field_table *t = &tables[r->kind];
	uint8_t *p = img + r->off;
	size_t len = r->len;
	size_t at;

	if (r->off >= size)
		return;
	if (len > size - r->off)
		len = size - r->off;
	if (!len)
		return;
	switch (mut_rand(st) % 8) {
	case 0:		/* a random bit of the structure */
		at = mut_rand(st) %
		     (len < 256 || r->kind == MK_ANY ? len : 256);
		p[at] ^= 1U << (mut_rand(st) % 8);
		return;
	case 1:		/* a random byte */
		at = mut_rand(st) % len;
		p[at] = mut_rand(st);
		return;
	default:
		break;
	}
	if (r->kind == MK_DIRENT) {
		mutate_dirent(m, p, len, st);
	} else if (t->n) {
		mutate_field(m, p, len, &t->f[mut_rand(st) % t->n],
			     t->big_endian, st);
	} else {
		at = mut_rand(st) % len;
		p[at] ^= 1U << (mut_rand(st) % 8);
	}
}

/* A region of KIND (any region when none), chosen by ST. */
static const struct mut_region *pick_region(const struct mut_map *m,
					    enum mut_kind kind, uint64_t *st)
{
	size_t k = mut_rand(st) % (m->count[kind] ? m->count[kind] : m->n), i;

	for (i = 0; i < m->n; i++)
		if (!m->count[kind] || m->r[i].kind == kind)
			if (k-- == 0)
				return &m->r[i];
	return &m->r[0];
}

/* The superblock checksum, so a changed field is judged on its own. */
static void refresh_sb_csum(uint8_t *img, size_t size)
{
	uint32_t c;

	if (size < 2048)
		return;
	c = ext2fs_crc32c_le(~0U, img + 1024, 1020);
	put_le(img + 1024 + 1020, 4, c);
}

void mut_apply(const struct mut_map *m, uint8_t *img, size_t size,
	       uint64_t *st, char *what, size_t whatlen)
{
	unsigned int n = 1 + mut_rand(st) % 4, i;
	const struct mut_region *r;
	enum mut_kind kind;

	if (!m->n)
		return;
	for (i = 0; i < n; i++) {
		kind = mut_rand(st) % MK_NKINDS;
		r = pick_region(m, kind, st);
		if (i == 0 && what)
			snprintf(what, whatlen, "%s at %zu (%u mutations)",
				 mut_kind_name(r->kind), r->off, n);
		mutate_region(m, img, size, r, st);
	}
	if (m->csum && mut_rand(st) % 2)
		refresh_sb_csum(img, size);
}
