/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cache_io.c --- e2x_cache_io_manager: a write-back LRU of whole blocks
 * layered over unix_io, so metadata touched again and again (directory and
 * itree nodes) costs a memcpy (or nothing: borrow, modify) instead of a
 * system call.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "e2x.h"

#define E2X_CACHE_MAGIC	0x43414348L	/* "CACH" */

struct centry {
	unsigned long long blk;
	struct centry *hnext;		/* hash chain */
	struct centry *prev, *next;	/* LRU: head most recent */
	int dirty;
	uint64_t tag;			/* new with every new content */
	uint64_t aux;			/* borrower's word, 0 with it */
	uint64_t stamp;			/* cc->clock when put in front */
	e2x_cache_fixup_fn fixup;	/* owed before the bytes go out */
	char *data;
};

struct cache_chan {
	errcode_t magic;
	io_channel real;
	size_t cap_bytes;
	size_t cap;			/* blocks */
	size_t n, ndirty;
	struct centry **hash;
	size_t nhash;			/* power of two */
	struct centry lru;		/* sentinel */
	struct centry *last;		/* found by the last lookup */
	uint64_t clock;			/* entries put in front so far */
	int writethrough;
	struct e2x_cache_io_stats st;
	struct slab *slabs;		/* where entries and blocks live */
	struct centry *spare;		/* unused entries (hnext chain) */
	size_t made;			/* entries in the slabs */
};

/*
 * Entries and their blocks come a slab at a time: the blocks side by side
 * in one huge-page-sized piece (few TLB misses when a walk hops between
 * blocks), the entries in one array (a lookup's entries share cache
 * lines).  Nothing is freed before the cache is emptied.
 */
#define SLAB_BYTES	(2u << 20)

struct slab {
	struct slab *next;
	char *mem;
	struct centry *ents;
};

/* Tags are unique across every cache channel of the process. */
static uint64_t tag_counter;

static uint64_t new_tag(void)
{
	return __atomic_add_fetch(&tag_counter, 1, __ATOMIC_RELAXED);
}

/* The entry holds new bytes. */
static void new_content(struct centry *e)
{
	e->tag = new_tag();
	e->aux = 0;
	e->fixup = NULL;
}

/* The bytes are about to be seen outside the cache (copied out, written to
 * the device): the fixup their last change in place put off runs now. */
static void settle(io_channel ch, struct centry *e)
{
	e2x_cache_fixup_fn fn = e->fixup;

	if (!fn)
		return;
	e->fixup = NULL;
	fn(e->data, ch->block_size, e->blk, &e->aux);
	e->tag = new_tag();
}

static struct cache_chan *cc_of(io_channel ch)
{
	return ch->private_data;
}

static size_t hash_of(struct cache_chan *cc, unsigned long long blk)
{
	return (size_t)((blk * 0x9e3779b97f4a7c15ull) >> 20) & (cc->nhash - 1);
}

static struct centry *lookup(struct cache_chan *cc, unsigned long long blk)
{
	struct centry *e;

	for (e = cc->hash[hash_of(cc, blk)]; e; e = e->hnext)
		if (e->blk == blk) {
			cc->last = e;
			return e;
		}
	return NULL;
}

static void lru_unlink(struct centry *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}

static void lru_front(struct cache_chan *cc, struct centry *e)
{
	e->next = cc->lru.next;
	e->prev = &cc->lru;
	cc->lru.next->prev = e;
	cc->lru.next = e;
	e->stamp = ++cc->clock;
}

/* A hit on E: to the front, unless fewer than a quarter of the cache went
 * in front since E did (it is then still far from eviction, and the list
 * neighbours need not be touched: they are mostly not in the CPU cache). */
static void touch(struct cache_chan *cc, struct centry *e)
{
	if (cc->clock - e->stamp < cc->cap / 4)
		return;
	lru_unlink(e);
	lru_front(cc, e);
}

static void hash_unlink(struct cache_chan *cc, struct centry *e)
{
	struct centry **pp = &cc->hash[hash_of(cc, e->blk)];

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
}

static void set_dirty(struct cache_chan *cc, struct centry *e, int dirty)
{
	if (e->dirty && !dirty)
		cc->ndirty--;
	else if (!e->dirty && dirty)
		cc->ndirty++;
	e->dirty = dirty;
}

/* E holds no block any more. */
static void give_back(struct cache_chan *cc, struct centry *e)
{
	e->blk = ~0ULL;
	e->tag = 0;
	e->fixup = NULL;
	e->hnext = cc->spare;
	cc->spare = e;
}

static void drop(struct cache_chan *cc, struct centry *e)
{
	cc->last = NULL;
	set_dirty(cc, e, 0);
	hash_unlink(cc, e);
	lru_unlink(e);
	cc->n--;
	give_back(cc, e);
}

/* A new slab of at most SLAB_BYTES, no more entries than the cache's
 * capacity; its entries join the spares. */
static errcode_t add_slab(io_channel ch)
{
	struct cache_chan *cc = cc_of(ch);
	size_t bs = ch->block_size, n = SLAB_BYTES / bs, i;
	struct slab *sl;
	void *mem;

	if (n < 1)
		n = 1;
	if (n > cc->cap - cc->made)
		n = cc->cap - cc->made;
	if (!n)
		return EXT2_ET_NO_MEMORY;	/* not reached: spares exist */
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return EXT2_ET_NO_MEMORY;
	sl->ents = calloc(n, sizeof(*sl->ents));
	if (!sl->ents ||
	    posix_memalign(&mem, n * bs >= SLAB_BYTES ? SLAB_BYTES : 4096,
			   n * bs)) {
		free(sl->ents);
		free(sl);
		return EXT2_ET_NO_MEMORY;
	}
	sl->mem = mem;
#ifdef MADV_HUGEPAGE
	if (n * bs >= SLAB_BYTES)
		(void)madvise(mem, n * bs, MADV_HUGEPAGE);
#endif
	for (i = n; i-- > 0;) {
		sl->ents[i].data = sl->mem + i * bs;
		give_back(cc, &sl->ents[i]);
	}
	sl->next = cc->slabs;
	cc->slabs = sl;
	cc->made += n;
	return 0;
}

/* Every slab back (the cache is empty). */
static void free_slabs(struct cache_chan *cc)
{
	struct slab *sl;

	while ((sl = cc->slabs)) {
		cc->slabs = sl->next;
		free(sl->mem);
		free(sl->ents);
		free(sl);
	}
	cc->spare = NULL;
	cc->made = 0;
}

static void drop_all(struct cache_chan *cc)
{
	while (cc->lru.next != &cc->lru)
		drop(cc, cc->lru.next);
}

/* Write a dirty block to the device. */
static errcode_t write_back(io_channel ch, struct centry *e)
{
	struct cache_chan *cc = cc_of(ch);
	errcode_t err;

	settle(ch, e);
	err = io_channel_write_blk64(cc->real, e->blk, 1, e->data);
	if (err)
		return err;
	set_dirty(cc, e, 0);
	cc->st.writebacks++;
	return 0;
}

static int blk_cmp(const void *a, const void *b)
{
	const struct centry *x = *(struct centry *const *)a;
	const struct centry *y = *(struct centry *const *)b;

	return x->blk < y->blk ? -1 : x->blk > y->blk;
}

/* Every dirty block to the device, in block order. */
static errcode_t write_all(io_channel ch)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry **v, *e;
	size_t i, k = 0;
	errcode_t err = 0;

	if (!cc->ndirty)
		return 0;
	v = malloc(cc->ndirty * sizeof(*v));
	if (!v)
		return EXT2_ET_NO_MEMORY;
	for (e = cc->lru.next; e != &cc->lru; e = e->next)
		if (e->dirty)
			v[k++] = e;
	qsort(v, k, sizeof(*v), blk_cmp);
	for (i = 0; i < k && !err; i++)
		err = write_back(ch, v[i]);
	free(v);
	return err;
}

/* Room for one more block: a new entry, or the least recent one emptied
 * (written back first when dirty; on failure nothing changes). */
static errcode_t take_entry(io_channel ch, struct centry **ep)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry *e;
	errcode_t err;

	if (cc->n >= cc->cap && cc->n) {
		e = cc->lru.prev;
		if (e->dirty) {
			err = write_back(ch, e);
			if (err)
				return err;
		}
		hash_unlink(cc, e);
		lru_unlink(e);
		cc->n--;
		cc->st.evictions++;
		cc->last = NULL;
		*ep = e;
		return 0;
	}
	if (!cc->spare) {
		err = add_slab(ch);
		if (err)
			return err;
	}
	e = cc->spare;
	cc->spare = e->hnext;
	*ep = e;
	return 0;
}

static void insert(struct cache_chan *cc, struct centry *e,
		   unsigned long long blk, int dirty)
{
	size_t h = hash_of(cc, blk);

	e->blk = blk;
	new_content(e);
	e->dirty = 0;
	set_dirty(cc, e, dirty);
	e->hnext = cc->hash[h];
	cc->hash[h] = e;
	lru_front(cc, e);
	cc->n++;
}

static errcode_t read_error(io_channel ch, unsigned long long blk, int count,
			    void *data, errcode_t err)
{
	size_t size = count < 0 ? (size_t)-(long)count :
				  (size_t)count * ch->block_size;

	if (ch->read_error)
		return ch->read_error(ch, blk, count, data, size, 0, err);
	return err;
}

static errcode_t write_error(io_channel ch, unsigned long long blk,
			     int count, const void *data, errcode_t err)
{
	size_t size = count < 0 ? (size_t)-(long)count :
				  (size_t)count * ch->block_size;

	if (ch->write_error)
		return ch->write_error(ch, blk, count, data, size, 0, err);
	return err;
}

/* Bytes [OFF, OFF+SIZE) of the device meet the cached blocks: copy the
 * cached bytes into BUF (TO_BUF) or BUF's bytes into the cached blocks,
 * which are then clean when wholly overwritten. */
static void overlap(io_channel ch, uint64_t off, size_t size, char *buf,
		    int to_buf)
{
	struct cache_chan *cc = cc_of(ch);
	uint64_t bs = ch->block_size, b, end = off + size;

	if (!cc->n || !size)
		return;
	for (b = off / bs; b * bs < end; b++) {
		struct centry *e = lookup(cc, b);
		uint64_t s = b * bs > off ? b * bs : off;
		uint64_t t = (b + 1) * bs < end ? (b + 1) * bs : end;

		if (!e)
			continue;
		settle(ch, e);
		if (to_buf) {
			memcpy(buf + (s - off), e->data + (s - b * bs), t - s);
			continue;
		}
		memcpy(e->data + (s - b * bs), buf + (s - off), t - s);
		new_content(e);
		if (t - s == bs)
			set_dirty(cc, e, 0);
	}
}

static uint64_t span(io_channel ch, int count)
{
	return count < 0 ? (uint64_t)-(long)count :
			   (uint64_t)count * ch->block_size;
}

/* The entry of block BLK, read from the device on a miss, made recent
 * (touch()).  *DEV_ERR tells a failed device read from a failure to make
 * room. */
static errcode_t fetch(io_channel ch, unsigned long long blk,
		       struct centry **ep, int *dev_err)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry *e;
	errcode_t err;

	e = lookup(cc, blk);
	if (e) {
		cc->st.hits++;
		touch(cc, e);
		*ep = e;
		return 0;
	}
	cc->st.misses++;
	*dev_err = 0;
	err = take_entry(ch, &e);
	if (err)
		return err;
	err = io_channel_read_blk64(cc->real, blk, 1, e->data);
	if (err) {
		give_back(cc, e);
		*dev_err = 1;
		return err;
	}
	insert(cc, e, blk, 0);
	cc->last = e;
	*ep = e;
	return 0;
}

static errcode_t cache_read_blk64(io_channel ch, unsigned long long blk,
				  int count, void *data)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry *e;
	errcode_t err;
	int dev_err;

	if (count != 1) {
		err = io_channel_read_blk64(cc->real, blk, count, data);
		if (err)
			return read_error(ch, blk, count, data, err);
		overlap(ch, blk * ch->block_size, span(ch, count), data, 1);
		return 0;
	}
	err = fetch(ch, blk, &e, &dev_err);
	if (err)
		return dev_err ? read_error(ch, blk, count, data, err) : err;
	settle(ch, e);
	memcpy(data, e->data, ch->block_size);
	return 0;
}

static errcode_t cache_write_blk64(io_channel ch, unsigned long long blk,
				   int count, const void *data)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry *e;
	errcode_t err;

	if (count != 1 || cc->writethrough) {
		err = io_channel_write_blk64(cc->real, blk, count, data);
		if (err)
			return write_error(ch, blk, count, data, err);
		overlap(ch, blk * ch->block_size, span(ch, count),
			(char *)data, 0);
		return 0;
	}
	e = lookup(cc, blk);
	if (e) {
		cc->st.hits++;
		memcpy(e->data, data, ch->block_size);
		new_content(e);
		set_dirty(cc, e, 1);
		touch(cc, e);
		return 0;
	}
	cc->st.misses++;
	err = take_entry(ch, &e);
	if (err)
		return write_error(ch, blk, count, data, err);
	memcpy(e->data, data, ch->block_size);
	insert(cc, e, blk, 1);
	return 0;
}

static errcode_t cache_read_blk(io_channel ch, unsigned long blk, int count,
				void *data)
{
	return cache_read_blk64(ch, blk, count, data);
}

static errcode_t cache_write_blk(io_channel ch, unsigned long blk, int count,
				 const void *data)
{
	return cache_write_blk64(ch, blk, count, data);
}

static errcode_t cache_write_byte(io_channel ch, unsigned long offset,
				  int size, const void *data)
{
	struct cache_chan *cc = cc_of(ch);
	errcode_t err;

	if (size < 0)
		return EXT2_ET_INVALID_ARGUMENT;
	err = io_channel_write_byte(cc->real, offset, size, data);
	if (err)
		return err;
	overlap(ch, offset, size, (char *)data, 0);
	return 0;
}

/* Cached blocks of [BLK, BLK+COUNT) are forgotten (their bytes are about
 * to be replaced on the device). */
static void forget(io_channel ch, unsigned long long blk,
		   unsigned long long count)
{
	struct cache_chan *cc = cc_of(ch);
	struct centry *e, *next;

	if (count > cc->n) {
		for (e = cc->lru.next; e != &cc->lru; e = next) {
			next = e->next;
			if (e->blk >= blk && e->blk - blk < count)
				drop(cc, e);
		}
		return;
	}
	for (; count; count--, blk++) {
		e = lookup(cc, blk);
		if (e)
			drop(cc, e);
	}
}

static errcode_t cache_zeroout(io_channel ch, unsigned long long blk,
			       unsigned long long count)
{
	struct cache_chan *cc = cc_of(ch);
	errcode_t err;

	err = io_channel_zeroout(cc->real, blk, count);
	if (!err)
		forget(ch, blk, count);
	return err;
}

static errcode_t cache_discard(io_channel ch, unsigned long long blk,
			       unsigned long long count)
{
	struct cache_chan *cc = cc_of(ch);
	errcode_t err;

	err = io_channel_discard(cc->real, blk, count);
	if (!err)
		forget(ch, blk, count);
	return err;
}

static errcode_t cache_readahead(io_channel ch, unsigned long long blk,
				 unsigned long long count)
{
	return io_channel_cache_readahead(cc_of(ch)->real, blk, count);
}

static errcode_t cache_flush(io_channel ch)
{
	errcode_t err = write_all(ch);

	if (err)
		return err;
	return io_channel_flush(cc_of(ch)->real);
}

/* A cache with room for CAP_BYTES of blocks of the channel's size. */
static errcode_t resize(io_channel ch, size_t cap_bytes)
{
	struct cache_chan *cc = cc_of(ch);
	size_t cap = cap_bytes / ch->block_size, nhash = 16;
	struct centry **h;
	errcode_t err;

	if (cap < 1)
		cap = 1;
	while (nhash < cap)
		nhash <<= 1;
	err = write_all(ch);
	if (err)
		return err;
	h = calloc(nhash, sizeof(*h));
	if (!h)
		return EXT2_ET_NO_MEMORY;
	drop_all(cc);
	free_slabs(cc);
	free(cc->hash);
	cc->hash = h;
	cc->nhash = nhash;
	cc->cap = cap;
	cc->cap_bytes = cap_bytes;
	return 0;
}

static errcode_t cache_set_blksize(io_channel ch, int blksize)
{
	struct cache_chan *cc = cc_of(ch);
	errcode_t err;

	if (blksize == ch->block_size)
		return 0;
	err = write_all(ch);
	if (!err)
		err = io_channel_set_blksize(cc->real, blksize);
	if (err)
		return err;
	drop_all(cc);
	ch->block_size = blksize;
	return resize(ch, cc->cap_bytes);
}

static errcode_t cache_set_option(io_channel ch, const char *option,
				  const char *arg)
{
	struct cache_chan *cc = cc_of(ch);
	unsigned long mb;
	char *end;

	if (!strcmp(option, "cache_mb")) {
		if (!arg)
			return EXT2_ET_INVALID_ARGUMENT;
		mb = strtoul(arg, &end, 10);
		if (*end || !mb || mb > (1UL << 20))
			return EXT2_ET_INVALID_ARGUMENT;
		return resize(ch, (size_t)mb << 20);
	}
	if (!strcmp(option, "writethrough")) {
		cc->writethrough = 1;
		return write_all(ch);
	}
	if (!cc->real->manager->set_option)
		return EXT2_ET_INVALID_ARGUMENT;
	return cc->real->manager->set_option(cc->real, option, arg);
}

static errcode_t cache_get_stats(io_channel ch, io_stats *stats)
{
	struct cache_chan *cc = cc_of(ch);

	if (!cc->real->manager->get_stats)
		return EXT2_ET_UNIMPLEMENTED;
	return cc->real->manager->get_stats(cc->real, stats);
}

static void free_chan(io_channel ch)
{
	struct cache_chan *cc = ch->private_data;

	if (cc) {
		drop_all(cc);
		free_slabs(cc);
		free(cc->hash);
		if (cc->real)
			io_channel_close(cc->real);
		free(cc);
	}
	free(ch->name);
	free(ch);
}

static errcode_t cache_close(io_channel ch)
{
	errcode_t err;

	if (ch->magic != EXT2_ET_MAGIC_IO_CHANNEL)
		return EXT2_ET_MAGIC_IO_CHANNEL;
	if (--ch->refcount > 0)
		return 0;
	err = cache_flush(ch);
	free_chan(ch);
	return err;
}

static errcode_t cache_open(const char *name, int flags, io_channel *chp)
{
	struct cache_chan *cc;
	io_channel ch;
	errcode_t err = EXT2_ET_NO_MEMORY;

	*chp = NULL;
	if (!name)
		return EXT2_ET_BAD_DEVICE_NAME;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return EXT2_ET_NO_MEMORY;
	cc = calloc(1, sizeof(*cc));
	ch->private_data = cc;
	ch->name = strdup(name);
	if (!cc || !ch->name)
		goto fail;
	cc->magic = E2X_CACHE_MAGIC;
	cc->lru.next = cc->lru.prev = &cc->lru;
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = e2x_cache_io_manager;
	ch->refcount = 1;
	err = unix_io_manager->open(name, flags, &cc->real);
	if (err)
		goto fail;
	/* one cache is enough, and device errors then show at once */
	(void)io_channel_set_options(cc->real, "cache=off");
	ch->block_size = cc->real->block_size;
	ch->flags = cc->real->flags;
	err = resize(ch, (size_t)E2X_CACHE_IO_DEFAULT_MB << 20);
	if (err)
		goto fail;
	*chp = ch;
	return 0;
fail:
	free_chan(ch);
	return err;
}

static struct struct_io_manager cache_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2x write-back cache I/O manager",
	.open = cache_open,
	.close = cache_close,
	.set_blksize = cache_set_blksize,
	.read_blk = cache_read_blk,
	.write_blk = cache_write_blk,
	.flush = cache_flush,
	.write_byte = cache_write_byte,
	.set_option = cache_set_option,
	.get_stats = cache_get_stats,
	.read_blk64 = cache_read_blk64,
	.write_blk64 = cache_write_blk64,
	.discard = cache_discard,
	.cache_readahead = cache_readahead,
	.zeroout = cache_zeroout,
};

io_manager e2x_cache_io_manager = &cache_manager;

static struct cache_chan *cache_chan_of(io_channel ch);

errcode_t e2x_cache_io_stats(io_channel ch, struct e2x_cache_io_stats *st)
{
	struct cache_chan *cc = cache_chan_of(ch);

	if (!cc)
		return EXT2_ET_MAGIC_IO_CHANNEL;
	*st = cc->st;
	st->cached = cc->n;
	st->dirty = cc->ndirty;
	return 0;
}

static struct cache_chan *cache_chan_of(io_channel ch)
{
	struct cache_chan *cc;

	if (!ch || ch->magic != EXT2_ET_MAGIC_IO_CHANNEL ||
	    ch->manager != e2x_cache_io_manager)
		return NULL;
	cc = cc_of(ch);
	return cc && cc->magic == E2X_CACHE_MAGIC ? cc : NULL;
}

uint64_t e2x_cache_io_tag(io_channel ch, unsigned long long blk)
{
	struct cache_chan *cc = cache_chan_of(ch);
	struct centry *e;

	if (!cc)
		return 0;
	e = cc->last && cc->last->blk == blk ? cc->last : lookup(cc, blk);
	return e ? e->tag : 0;
}

errcode_t e2x_cache_io_borrow(io_channel ch, unsigned long long blk,
			      const void **data, uint64_t *tag, uint64_t **aux)
{
	struct cache_chan *cc = cache_chan_of(ch);
	struct centry *e;
	errcode_t err;
	int dev_err;

	if (!cc)
		return EXT2_ET_UNIMPLEMENTED;
	err = fetch(ch, blk, &e, &dev_err);
	if (err)
		return err;
	*data = e->data;
	*tag = e->tag;
	if (aux)
		*aux = &e->aux;
	return 0;
}

errcode_t e2x_cache_io_modify(io_channel ch, unsigned long long blk,
			      void **data, uint64_t *tag, uint64_t **aux,
			      e2x_cache_fixup_fn fixup)
{
	struct cache_chan *cc = cache_chan_of(ch);
	struct centry *e;

	if (!cc || cc->writethrough)
		return EXT2_ET_UNIMPLEMENTED;
	e = cc->last && cc->last->blk == blk ? cc->last : lookup(cc, blk);
	if (!e)
		return E2X_ERR_NOT_FOUND;
	if (!fixup)
		settle(ch, e);
	new_content(e);
	e->fixup = fixup;
	set_dirty(cc, e, 1);
	*data = e->data;
	*tag = e->tag;
	if (aux)
		*aux = &e->aux;
	return 0;
}
