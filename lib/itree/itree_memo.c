/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * itree_memo.c --- a memo of node checksums already verified: the exact
 * bytes of a node, its block and its directory's checksum seed.  A node
 * read again with identical bytes under the same block and seed would pass
 * again, so its crc32c need not be recomputed; any other byte is a miss.
 * Shared by every fs the process opens (keys include the seed, which
 * depends on the fs UUID), one mutex, a fixed megabyte.  Over a cache
 * channel (e2x-cache.h) a second memo keeps just the block's content tag:
 * equal tags mean equal bytes, so nothing is compared or copied.
 */
#include "config.h"
#include <pthread.h>
#include <string.h>
#include "itree/itree-int.h"

#define MEMO_BYTES	(1u << 20)
#define MEMO_MAXSLOTS	(MEMO_BYTES / 1024)

struct memo_slot {
	blk64_t blk;
	uint32_t seed;
	int valid;
};

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static char memo_data[MEMO_BYTES];
static struct memo_slot memo_slots[MEMO_MAXSLOTS];
static unsigned int memo_bs;	/* block size the slots are cut for */

static unsigned int slot_of(blk64_t blk, uint32_t seed, unsigned int bs)
{
	uint64_t h = (blk ^ ((uint64_t)seed << 21)) * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(h >> 40) % (MEMO_BYTES / bs);
}

/* Slots are laid out for one block size at a time. */
static void memo_cut(unsigned int bs)
{
	if (memo_bs == bs)
		return;
	memset(memo_slots, 0, sizeof(memo_slots));
	memo_bs = bs;
}

int itree_memo_hit(uint32_t seed, blk64_t blk, const char *buf,
		   unsigned int bs)
{
	unsigned int s;
	int hit = 0;

	if (bs > MEMO_BYTES / 4)
		return 0;
	pthread_mutex_lock(&memo_lock);
	memo_cut(bs);
	s = slot_of(blk, seed, bs);
	if (memo_slots[s].valid && memo_slots[s].blk == blk &&
	    memo_slots[s].seed == seed &&
	    !memcmp(memo_data + (size_t)s * bs, buf, bs))
		hit = 1;
	pthread_mutex_unlock(&memo_lock);
	return hit;
}

void itree_memo_put(uint32_t seed, blk64_t blk, const char *buf,
		    unsigned int bs)
{
	unsigned int s;

	if (bs > MEMO_BYTES / 4)
		return;
	pthread_mutex_lock(&memo_lock);
	memo_cut(bs);
	s = slot_of(blk, seed, bs);
	memcpy(memo_data + (size_t)s * bs, buf, bs);
	memo_slots[s].blk = blk;
	memo_slots[s].seed = seed;
	memo_slots[s].valid = 1;
	pthread_mutex_unlock(&memo_lock);
}

/* ---- by content tag (cache channels) ---------------------------------- */

#define TAG_SLOTS	(1u << 16)

struct tag_slot {
	blk64_t blk;
	uint64_t tag;
	uint32_t seed;
};

static struct tag_slot tag_slots[TAG_SLOTS];

static unsigned int tag_slot_of(blk64_t blk, uint32_t seed)
{
	uint64_t h = (blk ^ ((uint64_t)seed << 21)) * 0x9e3779b97f4a7c15ull;

	return (unsigned int)(h >> 48) & (TAG_SLOTS - 1);
}

int itree_memo_tag_hit(uint32_t seed, blk64_t blk, uint64_t tag)
{
	struct tag_slot *t;
	int hit;

	if (!tag)
		return 0;
	pthread_mutex_lock(&memo_lock);
	t = &tag_slots[tag_slot_of(blk, seed)];
	hit = t->tag == tag && t->blk == blk && t->seed == seed;
	pthread_mutex_unlock(&memo_lock);
	return hit;
}

void itree_memo_tag_put(uint32_t seed, blk64_t blk, uint64_t tag)
{
	struct tag_slot *t;

	if (!tag)
		return;
	pthread_mutex_lock(&memo_lock);
	t = &tag_slots[tag_slot_of(blk, seed)];
	t->blk = blk;
	t->tag = tag;
	t->seed = seed;
	pthread_mutex_unlock(&memo_lock);
}
