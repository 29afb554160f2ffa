/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dirent.c --- the directory entry format: rec_len coding, the checksum
 * tail and index checksums, and the records of one region (insert, find,
 * remove, check).  Assumes a little-endian host, as the rest of libe2x.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

unsigned int e2x_dirent_min_len(unsigned int name_len)
{
	return (E2X_DIRENT_HDR + name_len + 3) & ~3u;
}

/* Blocks of 64 KiB cannot store rec_len 65536 in 16 bits: 65535 (and 0)
 * stand for the whole block, larger values keep bits 16-17 in bits 0-1. */
unsigned int e2x_rec_len_decode(uint16_t raw, unsigned int bs)
{
	if (bs < 65536)
		return raw;
	if (raw == 65535 || raw == 0)
		return bs;
	return (raw & 65532u) | ((raw & 3u) << 16);
}

uint16_t e2x_rec_len_encode(unsigned int len, unsigned int bs)
{
	if (len < 65536)
		return (uint16_t)len;
	if (len == bs)
		return bs == 65536 ? 65535 : 0;
	return (uint16_t)((len & 65532u) | ((len >> 16) & 3u));
}

unsigned int e2x_dirent_rec_len(const struct e2x_dirent *de, unsigned int bs)
{
	return e2x_rec_len_decode(de->rec_len, bs);
}

void e2x_dirent_set_rec_len(struct e2x_dirent *de, unsigned int len,
			    unsigned int bs)
{
	de->rec_len = e2x_rec_len_encode(len, bs);
}

void e2x_dirent_fill(struct e2x_dirent *de, ext2_ino_t ino, const char *name,
		     unsigned int name_len, unsigned int file_type)
{
	de->inode = ino;
	de->name_len = (uint8_t)name_len;
	de->file_type = (uint8_t)file_type;
	memcpy(de->name, name, name_len);
}

uint32_t e2x_dir_csum_seed(ext2_filsys fs, ext2_ino_t ino, uint32_t gen)
{
	uint32_t le_ino = ino, le_gen = gen, crc;

	crc = ext2fs_crc32c_le(fs->csum_seed, (unsigned char *)&le_ino,
			       sizeof(le_ino));
	return ext2fs_crc32c_le(crc, (unsigned char *)&le_gen, sizeof(le_gen));
}

static struct e2x_dirent_tail *tail_of(const void *block, unsigned int bs)
{
	return (struct e2x_dirent_tail *)((char *)block + bs -
					  E2X_DIRENT_TAIL_SIZE);
}

void e2x_dirblk_tail_init(void *block, unsigned int bs)
{
	struct e2x_dirent_tail *t = tail_of(block, bs);

	memset(t, 0, sizeof(*t));
	t->det_rec_len = E2X_DIRENT_TAIL_SIZE;
	t->det_reserved_ft = E2X_DIRENT_TAIL_FT;
}

int e2x_dirblk_has_tail(const void *block, unsigned int bs)
{
	const struct e2x_dirent_tail *t = tail_of(block, bs);

	return t->det_reserved_zero1 == 0 &&
	       t->det_rec_len == E2X_DIRENT_TAIL_SIZE &&
	       t->det_reserved_zero2 == 0 &&
	       t->det_reserved_ft == E2X_DIRENT_TAIL_FT;
}

uint32_t e2x_dirblk_csum(uint32_t seed, const void *block, unsigned int bs)
{
	return ext2fs_crc32c_le(seed, block, bs - E2X_DIRENT_TAIL_SIZE);
}

void e2x_dirblk_csum_set(uint32_t seed, void *block, unsigned int bs)
{
	tail_of(block, bs)->det_checksum = e2x_dirblk_csum(seed, block, bs);
}

unsigned int e2x_dx_root_limit(unsigned int bs, int csum)
{
	return (bs - E2X_DX_ROOT_CL_OFF) / sizeof(struct e2x_dx_entry) -
	       (csum ? 1 : 0);
}

unsigned int e2x_dx_node_limit(unsigned int bs, int csum)
{
	return (bs - E2X_DX_NODE_CL_OFF) / sizeof(struct e2x_dx_entry) -
	       (csum ? 1 : 0);
}

/* crc32c over the header and the COUNT used entries, then over the tail
 * with its checksum field taken as zero. */
uint32_t e2x_dx_csum(uint32_t seed, const void *block, unsigned int count_off)
{
	const struct e2x_dx_countlimit *cl =
		(const void *)((const char *)block + count_off);
	const struct e2x_dx_tail *t;
	uint32_t crc, zero = 0;
	size_t size = count_off + cl->count * sizeof(struct e2x_dx_entry);

	t = (const void *)((const char *)block + count_off +
			   cl->limit * sizeof(struct e2x_dx_entry));
	crc = ext2fs_crc32c_le(seed, block, size);
	crc = ext2fs_crc32c_le(crc, (const unsigned char *)t,
			       offsetof(struct e2x_dx_tail, dt_checksum));
	return ext2fs_crc32c_le(crc, (unsigned char *)&zero, sizeof(zero));
}

/* Returns -1 when the limit leaves no room for the tail. */
int e2x_dx_csum_set(uint32_t seed, void *block, unsigned int bs,
		    unsigned int count_off)
{
	struct e2x_dx_countlimit *cl = (void *)((char *)block + count_off);
	struct e2x_dx_tail *t;
	size_t end = count_off + (cl->limit + 1) * sizeof(struct e2x_dx_entry);

	if (end > bs || cl->count > cl->limit)
		return -1;
	t = (void *)((char *)block + count_off +
		     cl->limit * sizeof(struct e2x_dx_entry));
	t->dt_reserved = 0;
	t->dt_checksum = e2x_dx_csum(seed, block, count_off);
	return 0;
}

static struct e2x_dirent *rec_at(const struct e2x_dirregion *r,
				 unsigned int off)
{
	return (struct e2x_dirent *)(r->buf + off);
}

errcode_t e2x_dirregion_check(const struct e2x_dirregion *r)
{
	unsigned int off = 0, len;
	struct e2x_dirent *de;

	while (off < r->size) {
		if (r->size - off < E2X_DIRENT_HDR)
			return E2X_ERR_CORRUPT;
		de = rec_at(r, off);
		len = e2x_dirent_rec_len(de, r->bs);
		/* the kernel's rule: no record shorter than a 1-byte name's */
		if (len < e2x_dirent_min_len(1) || (len & 3) ||
		    len > r->size - off)
			return E2X_ERR_CORRUPT;
		if (de->inode && (!de->name_len ||
				  e2x_dirent_min_len(de->name_len) > len))
			return E2X_ERR_CORRUPT;
		off += len;
	}
	return off == r->size ? 0 : E2X_ERR_CORRUPT;
}

void e2x_dirregion_init(struct e2x_dirregion *r)
{
	struct e2x_dirent *de = rec_at(r, 0);

	memset(r->buf, 0, r->size);
	e2x_dirent_set_rec_len(de, r->size, r->bs);
}

/* Callers check the region first; the walk still refuses to loop. */
int e2x_dirregion_find(const struct e2x_dirregion *r, const char *name,
		       unsigned int name_len, int *prev)
{
	unsigned int off = 0, len;
	int last = -1;
	struct e2x_dirent *de;

	while (off + E2X_DIRENT_HDR <= r->size) {
		de = rec_at(r, off);
		len = e2x_dirent_rec_len(de, r->bs);
		if (len < E2X_DIRENT_HDR)
			break;
		if (de->inode && de->name_len == name_len &&
		    off + E2X_DIRENT_HDR + name_len <= r->size &&
		    memcmp(de->name, name, name_len) == 0) {
			if (prev)
				*prev = last;
			return (int)off;
		}
		last = (int)off;
		off += len;
	}
	return -1;
}

/* A '.' or '..' record with no inode yet: a repair left it for a later
 * pass to fill in (a parent not known yet).  It keeps its place. */
static int dot_placeholder(const struct e2x_dirent *de)
{
	return !de->inode && de->name_len >= 1 && de->name_len <= 2 &&
	       de->name[0] == '.' && (de->name_len == 1 || de->name[1] == '.');
}

errcode_t e2x_dirregion_insert(struct e2x_dirregion *r, ext2_ino_t ino,
			       const char *name, unsigned int name_len,
			       unsigned int file_type)
{
	unsigned int need = e2x_dirent_min_len(name_len);
	unsigned int off = 0, len, used;
	struct e2x_dirent *de, *nde;

	while (off + E2X_DIRENT_HDR <= r->size) {
		de = rec_at(r, off);
		len = e2x_dirent_rec_len(de, r->bs);
		if (len < E2X_DIRENT_HDR)
			return E2X_ERR_CORRUPT;
		used = de->inode || dot_placeholder(de) ?
			       e2x_dirent_min_len(de->name_len) : 0;
		if (!used && len >= need) {
			e2x_dirent_fill(de, ino, name, name_len, file_type);
			return 0;
		}
		if (used && len >= used + need) {
			nde = rec_at(r, off + used);
			e2x_dirent_set_rec_len(de, used, r->bs);
			e2x_dirent_set_rec_len(nde, len - used, r->bs);
			e2x_dirent_fill(nde, ino, name, name_len, file_type);
			return 0;
		}
		off += len;
	}
	return E2X_ERR_NO_SPACE;
}

void e2x_dirregion_remove(struct e2x_dirregion *r, int off, int prev)
{
	struct e2x_dirent *de = rec_at(r, (unsigned int)off), *pde;
	unsigned int len = e2x_dirent_rec_len(de, r->bs);

	if (prev >= 0) {
		pde = rec_at(r, (unsigned int)prev);
		e2x_dirent_set_rec_len(pde, e2x_dirent_rec_len(pde, r->bs) +
				       len, r->bs);
		memset(de, 0, E2X_DIRENT_HDR);
		return;
	}
	de->inode = 0;
	de->name_len = 0;
	de->file_type = 0;
}

unsigned int e2x_dirregion_used(const struct e2x_dirregion *r)
{
	unsigned int off = 0, len, used = 0;
	struct e2x_dirent *de;

	while (off + E2X_DIRENT_HDR <= r->size) {
		de = rec_at(r, off);
		len = e2x_dirent_rec_len(de, r->bs);
		if (len < E2X_DIRENT_HDR)
			break;
		if (de->inode)
			used += e2x_dirent_min_len(de->name_len);
		off += len;
	}
	return used;
}

unsigned int e2x_dirregion_count(const struct e2x_dirregion *r)
{
	unsigned int off = 0, len, n = 0;
	struct e2x_dirent *de;

	while (off + E2X_DIRENT_HDR <= r->size) {
		de = rec_at(r, off);
		len = e2x_dirent_rec_len(de, r->bs);
		if (len < E2X_DIRENT_HDR)
			break;
		if (de->inode)
			n++;
		off += len;
	}
	return n;
}
