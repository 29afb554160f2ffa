/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_node.c --- itree node format: header, entries, keys, checksum,
 * reading and writing nodes, and the path from the root to a leaf.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

struct e2x_itree_node *itree_hdr(char *buf)
{
	return (struct e2x_itree_node *)buf;
}

char *itree_entry(char *buf, unsigned int off)
{
	return buf + E2X_ITREE_HDR_SIZE + off;
}

/* Size of the entry at OFF of a node (leaf entries carry their length). */
unsigned int itree_entry_len(const char *buf, unsigned int off)
{
	const char *e = buf + E2X_ITREE_HDR_SIZE + off;

	if (((const struct e2x_itree_node *)buf)->in_level)
		return E2X_ITREE_INDEX_LEN;
	return E2X_ITREE_LEAF_LEN((uint8_t)e[8]);
}

/*
 * Offsets of every entry of a node, checking that they tile in_used
 * exactly and that the count matches.  A node failing this is corrupt.
 */
errcode_t itree_offsets(struct itree_ctx *c, char *buf, unsigned int *offs,
			unsigned int *count)
{
	struct e2x_itree_node *h = itree_hdr(buf);
	unsigned int n = ext2fs_le16_to_cpu(h->in_count);
	unsigned int used = ext2fs_le16_to_cpu(h->in_used);
	const unsigned char *area = (unsigned char *)buf + E2X_ITREE_HDR_SIZE;
	unsigned int off = 0, i;

	if (used > c->area || n > ITREE_MAX_ENTRIES)
		return E2X_ERR_ITREE_CORRUPT;
	if (h->in_level) {
		if (used != n * E2X_ITREE_INDEX_LEN)
			return E2X_ERR_ITREE_CORRUPT;
		for (i = 0; i < n; i++)
			offs[i] = i * E2X_ITREE_INDEX_LEN;
		*count = n;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (off + E2X_ITREE_LEAF_HDR > used)
			return E2X_ERR_ITREE_CORRUPT;
		offs[i] = off;
		off += E2X_ITREE_LEAF_LEN(area[off + 8]);
		if (off > used)
			return E2X_ERR_ITREE_CORRUPT;
	}
	if (off != used)
		return E2X_ERR_ITREE_CORRUPT;
	*count = n;
	return 0;
}

void itree_node_init(struct itree_ctx *c, char *buf, unsigned int level)
{
	struct e2x_itree_node *h = itree_hdr(buf);

	memset(buf, 0, c->bs);
	h->in_magic = ext2fs_cpu_to_le32(E2X_ITREE_NODE_MAGIC);
	h->in_level = level;
	h->in_generation = ext2fs_cpu_to_le32(c->root.ir_generation);
	h->in_owner = ext2fs_cpu_to_le32(c->dir);
}

/* Record count and bytes used; the fullness quarter follows from them. */
void itree_node_set_used(struct itree_ctx *c, char *buf, unsigned int count,
			 unsigned int used)
{
	struct e2x_itree_node *h = itree_hdr(buf);

	h->in_count = ext2fs_cpu_to_le16(count);
	h->in_used = ext2fs_cpu_to_le16(used);
	h->in_fullness = used * 4 / c->area;
	/* keep the slack zeroed so images compare and leak nothing */
	memset(buf + E2X_ITREE_HDR_SIZE + used, 0, c->area - used);
}

/* crc32c(dir seed, le64 block, header without its checksum, entries) of
 * a node of BS bytes. */
uint32_t itree_csum_of(uint32_t seed, const char *buf, blk64_t blk,
		       unsigned int bs)
{
	uint64_t b = ext2fs_cpu_to_le64(blk);
	uint32_t crc;
	size_t at = offsetof(struct e2x_itree_node, in_checksum);

	crc = e2x_crc32c(seed, &b, 8);
	crc = e2x_crc32c(crc, buf, at);
	return e2x_crc32c(crc, buf + at + 4, bs - at - 4);
}

uint32_t itree_node_csum(struct itree_ctx *c, const char *buf, blk64_t blk)
{
	return itree_csum_of(c->seed, buf, blk, c->bs);
}

/* Counts within the block: what every reader relies on before looking at
 * entries (leaves are checked entry by entry by itree_offsets()). */
static int header_sane(struct itree_ctx *c, const struct e2x_itree_node *h)
{
	unsigned int n = ext2fs_le16_to_cpu(h->in_count);
	unsigned int used = ext2fs_le16_to_cpu(h->in_used);

	if (used > c->area)
		return 0;
	if (h->in_level)
		return n >= 1 && used == n * E2X_ITREE_INDEX_LEN;
	return n * E2X_ITREE_LEAF_LEN(1) <= used;
}

/* What a cache channel's word for a block (e2x_cache_io_borrow()) holds
 * once the node's checksum passed under this directory's seed, and while
 * the node, changed in place by the itree, waits for its checksum. */
uint64_t itree_csum_mark(struct itree_ctx *c)
{
	return (uint64_t)c->seed << 32 | ITREE_CSUM_PASSED;
}

uint64_t itree_csum_owed(struct itree_ctx *c)
{
	return (uint64_t)c->seed << 32 | ITREE_CSUM_OWED;
}

/* The node's checksum, unless these very bytes passed before (or are the
 * itree's own, their checksum owed): the word the cache channel keeps with
 * them (AUX, when not NULL) or their tag (TAG, 0 for none) say so without
 * looking at them, else the byte memo. */
static errcode_t check_csum(struct itree_ctx *c, blk64_t blk, const char *buf,
			    uint64_t tag, uint64_t *aux)
{
	uint64_t v = aux ? *aux & ~(uint64_t)ITREE_LEAF_TILED : 0;

	if (v && (v == itree_csum_mark(c) || v == itree_csum_owed(c)))
		return 0;
	if (!(tag ? itree_memo_tag_hit(c->seed, blk, tag) :
		    itree_memo_hit(c->seed, blk, buf, c->bs))) {
		if (ext2fs_le32_to_cpu(((const struct e2x_itree_node *)buf)->
				       in_checksum) !=
		    itree_node_csum(c, buf, blk))
			return E2X_ERR_ITREE_CORRUPT;
		if (tag)
			itree_memo_tag_put(c->seed, blk, tag);
		else
			itree_memo_put(c->seed, blk, buf, c->bs);
	}
	if (aux)
		*aux = itree_csum_mark(c);
	return 0;
}

/* Check magic, owner, generation, counts, checksum (TAG: the bytes' tag
 * in a cache channel, or 0; AUX: the channel's word for them, or NULL) and
 * (when LEVEL >= 0) the level of node BUF read from BLK. */
errcode_t itree_check_node(struct itree_ctx *c, blk64_t blk, const char *buf,
			   int level, uint64_t tag, uint64_t *aux)
{
	const struct e2x_itree_node *h = (const void *)buf;

	if (ext2fs_le32_to_cpu(h->in_magic) != E2X_ITREE_NODE_MAGIC ||
	    ext2fs_le32_to_cpu(h->in_owner) != c->dir ||
	    ext2fs_le32_to_cpu(h->in_generation) != c->root.ir_generation)
		return E2X_ERR_ITREE_CORRUPT;
	if (level >= 0 && h->in_level != level)
		return E2X_ERR_ITREE_CORRUPT;
	if (!header_sane(c, h))
		return E2X_ERR_ITREE_CORRUPT;
	if (c->csum)
		return check_csum(c, blk, buf, tag, aux);
	return 0;
}

/* A node's block number is inside the file system. */
int itree_blk_ok(struct itree_ctx *c, blk64_t blk)
{
	return blk >= c->fs->super->s_first_data_block &&
	       blk < ext2fs_blocks_count(c->fs->super);
}

/* Read a node and check it (itree_check_node()). */
errcode_t itree_read_node(struct itree_ctx *c, blk64_t blk, char *buf,
			  int level)
{
	errcode_t err;

	if (!itree_blk_ok(c, blk))
		return E2X_ERR_ITREE_CORRUPT;
	err = io_channel_read_blk64(c->fs->io, blk, 1, buf);
	if (err)
		return err;
	return itree_check_node(c, blk, buf, level,
				c->csum ? e2x_cache_io_tag(c->fs->io, blk) : 0,
				NULL);
}

errcode_t itree_write_node(struct itree_ctx *c, blk64_t blk, char *buf)
{
	struct e2x_itree_node *h = itree_hdr(buf);

	errcode_t err;

	h->in_checksum = c->csum ?
		ext2fs_cpu_to_le32(itree_node_csum(c, buf, blk)) : 0;
	err = io_channel_write_blk64(c->fs->io, blk, 1, buf);
	if (!err && c->csum) {
		uint64_t tag = e2x_cache_io_tag(c->fs->io, blk);

		if (tag)
			itree_memo_tag_put(c->seed, blk, tag);
		else
			itree_memo_put(c->seed, blk, buf, c->bs);
	}
	return err;
}

void itree_entry_key(const char *e, int leaf, struct itree_key *k)
{
	k->ino = itree_get32(e);
	k->hash = itree_get32(e + 4);
	if (leaf) {
		k->name_len = (uint8_t)e[8];
		k->name = e + E2X_ITREE_LEAF_HDR;
	} else {
		k->name_len = 0;
		k->name = NULL;
	}
}

int itree_key_cmp_ih(const struct itree_key *a, const struct itree_key *b)
{
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return 0;
}

int itree_key_cmp(const struct itree_key *a, const struct itree_key *b)
{
	unsigned int n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int r = itree_key_cmp_ih(a, b);

	if (r)
		return r;
	r = n ? memcmp(a->name, b->name, n) : 0;
	if (r)
		return r < 0 ? -1 : 1;
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len ? -1 : 1;
	return 0;
}

/* Write a leaf entry for ENT at DST; returns its length. */
unsigned int itree_leaf_fill(char *dst, const struct e2x_itree_entry *ent)
{
	unsigned int len = E2X_ITREE_LEAF_LEN(ent->name_len);

	memset(dst, 0, len);
	itree_put32(dst, ent->ino);
	itree_put32(dst + 4, ent->hash);
	dst[8] = (char)ent->name_len;
	dst[9] = (char)ent->file_type;
	memcpy(dst + E2X_ITREE_LEAF_HDR, ent->name, ent->name_len);
	return len;
}

void itree_index_fill(char *dst, uint32_t ino, uint32_t hash, blk64_t child)
{
	itree_put32(dst, ino);
	itree_put32(dst + 4, hash);
	itree_put64(dst + 8, child);
}

blk64_t itree_index_child(const char *e)
{
	return itree_get64(e + 8);
}

/* In an interior node: the last child whose separator is below K's
 * (ino, hash), or child 0.  Equal (ino, hash) may continue into later
 * children; see itree_next_sep_equal(). */
unsigned int itree_index_pick(char *buf, const struct itree_key *k)
{
	unsigned int lo = 1, hi = ext2fs_le16_to_cpu(itree_hdr(buf)->in_count);
	struct itree_key s;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		itree_entry_key(itree_entry(buf, mid * E2X_ITREE_INDEX_LEN), 0,
				&s);
		if (itree_key_cmp_ih(&s, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/*
 * In a leaf: *POS = index of the first entry not below K, *OFF its byte
 * offset, *COUNT the entry count.  Returns 1 when that entry equals K.
 * c->offs holds the offsets afterwards.  Returns -1 on a corrupt node.
 */
int itree_leaf_find(struct itree_ctx *c, char *buf, const struct itree_key *k,
		    unsigned int *pos, unsigned int *off, unsigned int *count)
{
	unsigned int lo = 0, hi, n;
	struct itree_key e;
	int r = 1;

	if (itree_offsets(c, buf, c->offs, &n))
		return -1;
	hi = n;
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		itree_entry_key(itree_entry(buf, c->offs[mid]), 1, &e);
		r = itree_key_cmp(&e, k);
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	*count = n;
	*off = lo < n ? c->offs[lo] :
		ext2fs_le16_to_cpu(itree_hdr(buf)->in_used);
	if (lo < n) {
		itree_entry_key(itree_entry(buf, c->offs[lo]), 1, &e);
		return itree_key_cmp(&e, k) == 0;
	}
	return 0;
}

/* Fill c->path from the root down to the leaf that should hold K. */
errcode_t itree_descend(struct itree_ctx *c, const struct itree_key *k)
{
	int l = c->levels - 1;
	blk64_t blk = c->root.ir_root;
	errcode_t err;

	for (; l >= 0; l--) {
		struct itree_level *p = &c->path[l];

		p->blk = blk;
		err = itree_read_node(c, blk, p->buf, l);
		if (err)
			return err;
		if (l == 0)
			break;
		if (!itree_hdr(p->buf)->in_count)
			return E2X_ERR_ITREE_CORRUPT;
		p->idx = itree_index_pick(p->buf, k);
		blk = itree_index_child(itree_entry(p->buf,
					p->idx * E2X_ITREE_INDEX_LEN));
	}
	c->path[0].idx = 0;
	return 0;
}

/* Move the path to the next leaf to the right; *END = 1 if there is none
 * (the path is then unchanged). */
errcode_t itree_next_leaf(struct itree_ctx *c, int *end)
{
	unsigned int l = 1;
	errcode_t err;

	while (l < c->levels &&
	       c->path[l].idx + 1 >=
		       ext2fs_le16_to_cpu(itree_hdr(c->path[l].buf)->in_count))
		l++;
	if (l >= c->levels) {
		*end = 1;
		return 0;
	}
	*end = 0;
	c->path[l].idx++;
	for (; l > 0; l--) {
		struct itree_level *p = &c->path[l];
		blk64_t child = itree_index_child(itree_entry(p->buf,
					p->idx * E2X_ITREE_INDEX_LEN));

		c->path[l - 1].blk = child;
		err = itree_read_node(c, child, c->path[l - 1].buf, l - 1);
		if (err)
			return err;
		if (l - 1 > 0 && !itree_hdr(c->path[l - 1].buf)->in_count)
			return E2X_ERR_ITREE_CORRUPT;
		c->path[l - 1].idx = 0;
	}
	return 0;
}

/* 1 when the separator right after the current leaf has K's (ino, hash):
 * entries equal to K in (ino, hash) may then continue in the next leaf. */
int itree_next_sep_equal(struct itree_ctx *c, const struct itree_key *k)
{
	unsigned int l;
	struct itree_key s;

	for (l = 1; l < c->levels; l++) {
		char *buf = c->path[l].buf;
		unsigned int n = ext2fs_le16_to_cpu(itree_hdr(buf)->in_count);

		if (c->path[l].idx + 1 < (int)n) {
			itree_entry_key(itree_entry(buf, (c->path[l].idx + 1) *
						    E2X_ITREE_INDEX_LEN),
					0, &s);
			return itree_key_cmp_ih(&s, k) == 0;
		}
	}
	return 0;
}

/* 1 when every node on the path from FROM_LEVEL up is its parent's last
 * child: the node at FROM_LEVEL is the rightmost of its level. */
int itree_rightmost(struct itree_ctx *c, unsigned int from_level)
{
	unsigned int l;

	for (l = from_level + 1; l < c->levels; l++) {
		unsigned int n = ext2fs_le16_to_cpu(
			itree_hdr(c->path[l].buf)->in_count);

		if (c->path[l].idx + 1 != (int)n)
			return 0;
	}
	return 1;
}

/* Offsets of the entries packed in AREA (USED bytes); returns the count. */
unsigned int itree_area_offsets(const char *area, unsigned int used, int leaf,
				unsigned int *offs)
{
	unsigned int off = 0, n = 0;

	while (off < used) {
		offs[n++] = off;
		off += leaf ? E2X_ITREE_LEAF_LEN((uint8_t)area[off + 8]) :
			      E2X_ITREE_INDEX_LEN;
	}
	return n;
}

/*
 * Where to cut COUNT entries (TOTAL bytes) into two nodes of CAP bytes:
 * the index of the first entry of the right half, both halves non-empty
 * and fitting, the left as close to half the bytes as possible; 0 when no
 * cut fits.
 */
unsigned int itree_split_point(const unsigned int *offs, unsigned int count,
			       unsigned int total, unsigned int cap)
{
	unsigned int s, best = 0, bestd = ~0u;

	for (s = 1; s < count; s++) {
		unsigned int left = offs[s], d;

		if (left > cap || total - left > cap)
			continue;
		d = left > total / 2 ? left - total / 2 : total / 2 - left;
		if (d < bestd) {
			bestd = d;
			best = s;
		}
	}
	return best;
}

/*
 * Descend to the leaf where K is or belongs and find it there, moving right
 * while equal (ino, hash) may continue in the next leaf.
 */
errcode_t itree_descend_find(struct itree_ctx *c, const struct itree_key *k,
			     unsigned int *pos, unsigned int *off,
			     unsigned int *count, int *found)
{
	errcode_t err;
	int r, end;

	err = itree_descend(c, k);
	if (err)
		return err;
	for (;;) {
		r = itree_leaf_find(c, c->path[0].buf, k, pos, off, count);
		if (r < 0)
			return E2X_ERR_ITREE_CORRUPT;
		if (r || *pos < *count || !itree_next_sep_equal(c, k))
			break;
		err = itree_next_leaf(c, &end);
		if (err)
			return err;
		if (end)
			break;
	}
	c->path[0].idx = *pos;
	*found = r;
	return 0;
}
