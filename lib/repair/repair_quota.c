/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * repair_quota.c --- writing a quota file (format v2, revision 1) anew
 * from a list of records, over the file's old content (growing it when
 * the tree needs more blocks: the caller sets up allocation).
 *
 * Layout: 1 KiB quota blocks; block 0 holds the header and the format
 * information, block 1 the root of a radix tree four levels deep (one
 * byte of the id per level, most significant first) whose last level
 * points at data blocks of 72-byte records after a 16-byte header.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

#define QB 1024U
#define QDEPTH 4
#define QDATA_HDR 16U
#define QREC 72U
#define QPER ((QB - QDATA_HDR) / QREC)

struct qbuild {
	unsigned char *buf;
	uint32_t nblocks, max;
	uint32_t data, data_used;	/* data block being filled */
	int full;
};

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t new_block(struct qbuild *b)
{
	if (b->nblocks >= b->max) {
		b->full = 1;
		return 0;
	}
	return b->nblocks++;
}

/* The data block record R goes into: its number, or 0 when out of room. */
static uint32_t place_record(struct qbuild *b, const struct e2x_dquot *r)
{
	unsigned char *e;
	int i, empty = 1;

	if (!b->data || b->data_used == QPER) {
		b->data = new_block(b);
		b->data_used = 0;
		if (!b->data)
			return 0;
	}
	e = b->buf + (uint64_t)b->data * QB + QDATA_HDR + b->data_used * QREC;
	put32(e, r->id);
	put64(e + 8, r->ihardlimit);
	put64(e + 16, r->isoftlimit);
	put64(e + 24, r->curinodes);
	put64(e + 32, r->bhardlimit);
	put64(e + 40, r->bsoftlimit);
	put64(e + 48, r->curspace);
	put64(e + 56, r->btime);
	put64(e + 64, r->itime);
	for (i = 0; i < (int)QREC && empty; i++)
		empty = !e[i];
	if (empty)	/* an all-zero record reads as a free slot */
		put64(e + 64, 1);
	b->data_used++;
	put32(b->buf + (uint64_t)b->data * QB + 8, b->data_used);
	return b->data;
}

/* Tree node BLK at DEPTH over the records R[0..N) (sorted, sharing the
 * id bytes of the levels above). */
static void build_node(struct qbuild *b, uint32_t blk, int depth,
		       const struct e2x_dquot *r, size_t n)
{
	int shift = (QDEPTH - 1 - depth) * 8;
	size_t i = 0, j;

	while (i < n && !b->full) {
		unsigned int byte = (r[i].id >> shift) & 0xff;
		uint32_t child;

		for (j = i + 1; j < n && ((r[j].id >> shift) & 0xff) == byte;
		     j++)
			;
		if (depth == QDEPTH - 1)
			child = place_record(b, &r[i]);
		else
			child = new_block(b);
		if (!child)
			return;
		put32(b->buf + (uint64_t)blk * QB + byte * 4, child);
		if (depth < QDEPTH - 1)
			build_node(b, child, depth + 1, r + i, j - i);
		i = j;
	}
}

static int rec_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct e2x_dquot *)a)->id;
	uint32_t y = ((const struct e2x_dquot *)b)->id;

	return x < y ? -1 : x > y;
}

errcode_t e2x_repair_quota_write(ext2_filsys fs, ext2_ino_t ino,
				 const struct e2x_quota_info *info,
				 struct e2x_dquot *recs, size_t n)
{
	struct ext2_inode inode;
	struct qbuild b;
	uint64_t size, len;
	errcode_t err;
	size_t i;

	if (n)
		qsort(recs, n, sizeof(*recs), rec_cmp);
	for (i = 1; i < n; i++)
		if (recs[i].id == recs[i - 1].id)
			return EXT2_ET_INVALID_ARGUMENT;
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	size = EXT2_I_SIZE(&inode);
	/* the most a tree can need: a path of 3 nodes and a data block per
	 * record, the header and the root */
	b.max = 2 + 4 * (n + 1);
	if (size / QB > b.max)
		b.max = size / QB;
	err = ext2fs_get_memzero((uint64_t)b.max * QB, &b.buf);
	if (err)
		return err;
	b.nblocks = 2;
	b.data = 0;
	b.data_used = 0;
	b.full = 0;
	build_node(&b, 1, 0, recs, n);
	if (b.full) {
		err = E2X_ERR_NO_SPACE;
		goto out;
	}
	put32(b.buf, info->magic);
	put32(b.buf + 4, 1);
	put32(b.buf + 8, info->bgrace);
	put32(b.buf + 12, info->igrace);
	put32(b.buf + 16, info->flags);
	put32(b.buf + 20, b.nblocks);
	put32(b.buf + 24, 0);
	put32(b.buf + 28, b.data && b.data_used < QPER ? b.data : 0);
	/* the old length is overwritten whole (its tail zeroed); blocks
	 * past it are allocated */
	len = (uint64_t)b.nblocks * QB;
	if (len < size)
		len = size;
	err = e2x_file_write(fs, ino, 0, b.buf, len, 0);
out:
	ext2fs_free_mem(&b.buf);
	return err;
}
