/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_inplace.c --- the common insert and remove done in a cache
 * channel's own copy of the leaf: when nothing but the leaf changes, the
 * path is looked at where the cache holds it and the leaf edited there.
 */
#include "config.h"
#include <string.h>
#include "itree/itree-int.h"

/* Where key K is or belongs, seen through borrowed blocks. */
struct spot {
	blk64_t blk;		/* the leaf */
	unsigned int pos;	/* first entry not below K */
	unsigned int off;	/* its byte offset (in_used when none) */
	unsigned int count, used;
	int found;		/* entry POS equals K */
	int next_equal;		/* the separator after the leaf has K's
				 * (ino, hash): equal keys may go on there */
};

/* Ask for LEN bytes at P at once: a leaf is walked entry by entry, each
 * length telling where the next one starts. */
static void prefetch(const void *p, unsigned int len)
{
	unsigned int i;

	for (i = 64; i < len; i += 64)
		__builtin_prefetch((const char *)p + i);
}

/* itree_index_pick() on a borrowed node of N entries (N >= 1). */
static unsigned int index_pick(const char *node, unsigned int n,
			       const struct itree_key *k)
{
	const char *area = node + E2X_ITREE_HDR_SIZE;
	unsigned int lo = 1, hi = n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		const char *e = area + mid * E2X_ITREE_INDEX_LEN;
		uint32_t ino = itree_get32(e), hash = itree_get32(e + 4);

		if (ino < k->ino || (ino == k->ino && hash < k->hash))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* Find K among the leaf's entries, and (unless TILED says it was seen
 * before) check that they tile in_used exactly: 0 when they do not. */
static int leaf_scan(const char *leaf, const struct itree_key *k,
		     struct spot *s, int tiled)
{
	const unsigned char *area = (const unsigned char *)leaf +
				    E2X_ITREE_HDR_SIZE;
	unsigned int off = 0, i;
	struct itree_key e;

	s->pos = s->count;
	s->off = s->used;
	s->found = 0;
	for (i = 0; i < s->count; i++) {
		if (off + E2X_ITREE_LEAF_HDR > s->used)
			return 0;
		/* entries of lower inodes are passed on the inode alone */
		if (i < s->pos && itree_get32(area + off) >= k->ino) {
			int r;

			itree_entry_key((const char *)area + off, 1, &e);
			r = itree_key_cmp(&e, k);
			if (r >= 0) {
				s->pos = i;
				s->off = off;
				s->found = !r;
				if (tiled)
					return 1;
			}
		}
		off += E2X_ITREE_LEAF_LEN(area[off + 8]);
		if (off > s->used)
			return 0;
	}
	return off == s->used;
}

/*
 * Walk from the root to K's leaf through blocks borrowed from the cache
 * channel, checking each node as itree_read_node() does.  1 when *S
 * describes the leaf; 0 when the walk cannot tell (no cache channel, a
 * node that does not pass): the ordinary path then runs and reports.
 */
static int find_spot(struct itree_ctx *c, const struct itree_key *k,
		     struct spot *s)
{
	blk64_t blk = c->root.ir_root;
	const struct e2x_itree_node *h;
	struct itree_key next;
	int l, have_next = 0;
	const void *p = NULL;
	uint64_t tag, *aux = NULL;
	int tiled;

	for (l = c->levels - 1; l >= 0; l--) {
		unsigned int n, idx;

		if (!itree_blk_ok(c, blk) ||
		    e2x_cache_io_borrow(c->fs->io, blk, &p, &tag, &aux))
			return 0;
		if (l == 0)
			prefetch(p, c->bs < 4096 ? c->bs : 4096);
		if (itree_check_node(c, blk, p, l, tag, aux))
			return 0;
		if (l == 0)
			break;
		h = p;
		n = ext2fs_le16_to_cpu(h->in_count);
		idx = index_pick(p, n, k);
		if (idx + 1 < n) {
			itree_entry_key(itree_entry((char *)p, (idx + 1) *
						    E2X_ITREE_INDEX_LEN),
					0, &next);
			have_next = 1;
		}
		blk = itree_index_child(itree_entry((char *)p, idx *
						    E2X_ITREE_INDEX_LEN));
	}
	h = p;
	s->blk = blk;
	s->count = ext2fs_le16_to_cpu(h->in_count);
	s->used = ext2fs_le16_to_cpu(h->in_used);
	if (E2X_ITREE_HDR_SIZE + s->used > 4096)
		prefetch(p, E2X_ITREE_HDR_SIZE + s->used);
	s->next_equal = have_next && !itree_key_cmp_ih(&next, k);
	/* the word holds the seed and a mark now (itree_check_node()) */
	tiled = c->csum && (*aux & ITREE_LEAF_TILED);
	if (!leaf_scan(p, k, s, tiled))
		return 0;
	if (c->csum)
		*aux |= ITREE_LEAF_TILED;
	return 1;
}

/* The checksum of a leaf changed in place, owed until its bytes leave the
 * cache (e2x_cache_fixup_fn): the word holds the directory's seed. */
static void leaf_csum_fixup(void *data, unsigned int size,
			    unsigned long long blk, uint64_t *aux)
{
	uint32_t seed = *aux >> 32;

	itree_hdr(data)->in_checksum =
		ext2fs_cpu_to_le32(itree_csum_of(seed, data, blk, size));
	*aux = (uint64_t)seed << 32 | ITREE_CSUM_PASSED |
	       (*aux & ITREE_LEAF_TILED);
}

/* The leaf of S, to be changed in place; NULL when the channel will not. */
static char *leaf_for_change(struct itree_ctx *c, struct spot *s,
			     uint64_t **aux)
{
	uint64_t tag;
	void *p;

	if (e2x_cache_io_modify(c->fs->io, s->blk, &p, &tag, aux,
				c->csum ? leaf_csum_fixup : NULL))
		return NULL;
	return p;
}

/* The leaf was changed in place: its checksum is owed (leaf_csum_fixup()
 * computes it once, when the cache lets the bytes out); its entries still
 * tile (they did before, find_spot() saw to it). */
static void leaf_changed(struct itree_ctx *c, char *leaf, uint64_t *aux)
{
	itree_hdr(leaf)->in_checksum = 0;
	if (c->csum)
		*aux = itree_csum_owed(c) | ITREE_LEAF_TILED;
}

int itree_insert_in_place(struct itree_ctx *c, const struct itree_key *k,
			  const char *e, unsigned int len)
{
	struct spot s;
	uint64_t *aux;
	char *leaf;

	if (!find_spot(c, k, &s) || s.found || !s.pos ||
	    (s.pos == s.count && s.next_equal) || s.used + len > c->area)
		return 0;
	leaf = leaf_for_change(c, &s, &aux);
	if (!leaf)
		return 0;
	memmove(itree_entry(leaf, s.off + len), itree_entry(leaf, s.off),
		s.used - s.off);
	memcpy(itree_entry(leaf, s.off), e, len);
	itree_node_set_used(c, leaf, s.count + 1, s.used + len);
	leaf_changed(c, leaf, aux);
	return 1;
}

int itree_remove_in_place(struct itree_ctx *c, const struct itree_key *k)
{
	unsigned int len, used;
	struct spot s;
	uint64_t *aux;
	char *leaf;

	if (!find_spot(c, k, &s) || !s.found || !s.pos)
		return 0;
	len = E2X_ITREE_LEAF_LEN(k->name_len);
	used = s.used - len;
	if (c->levels > 1 && used * 4 / c->area < ITREE_CHECK_Q)
		return 0;
	leaf = leaf_for_change(c, &s, &aux);
	if (!leaf)
		return 0;
	memmove(itree_entry(leaf, s.off), itree_entry(leaf, s.off + len),
		used - s.off);
	itree_node_set_used(c, leaf, s.count - 1, used);
	leaf_changed(c, leaf, aux);
	return 1;
}
