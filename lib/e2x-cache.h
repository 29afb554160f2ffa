/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-cache.h --- a write-back block cache as an io_manager layered over
 * unix_io (lib/io/cache_io.c).
 */
#ifndef E2X_CACHE_H
#define E2X_CACHE_H

/*
 * e2x_cache_io_manager opens NAME through unix_io and keeps an LRU of
 * whole blocks in memory (default E2X_CACHE_IO_DEFAULT_MB MiB; io option
 * "cache_mb=N" changes it, "writethrough" makes every single-block write
 * reach the device at once).  Single-block reads and writes are served
 * from the cache; dirty blocks reach the device when evicted, on
 * io_channel_flush() (in block order, before the device is flushed) and on
 * close.  Multi-block and byte-counted transfers go to the device and keep
 * cached copies in step.  Every program that opens a filesystem through
 * it sees its own writes: nothing else may write the device meanwhile.
 */
#define E2X_CACHE_IO_DEFAULT_MB	32

extern io_manager e2x_cache_io_manager;

/* Counters of one cache channel (for tests and benchmarks). */
struct e2x_cache_io_stats {
	uint64_t hits, misses, evictions, writebacks;
	uint64_t cached, dirty;		/* blocks now */
	uint64_t reserved[4];
};
errcode_t e2x_cache_io_stats(io_channel ch, struct e2x_cache_io_stats *st);

/*
 * A tag for the cached content of block BLK: nonzero, unique in the
 * process, and changed by every write that reaches the cached copy; 0 when
 * CH is no cache channel or BLK is not cached.  Equal tags mean equal
 * bytes, so a checksum verified under a tag need not be checked again.
 */
uint64_t e2x_cache_io_tag(io_channel ch, unsigned long long blk);

/*
 * The cached bytes of block BLK without a copy (read in on a miss, and
 * made the most recent, like a read): *DATA points into the cache and
 * *TAG is the content's tag.  When AUX is not NULL, *AUX points at a word
 * kept with the cached copy for the borrower (the itree notes there that
 * a node's checksum passed): 0 whenever the content is new.  Pointers are
 * good until the next call on CH.  EXT2_ET_UNIMPLEMENTED when CH is no
 * cache channel.
 */
errcode_t e2x_cache_io_borrow(io_channel ch, unsigned long long blk,
			      const void **data, uint64_t *tag, uint64_t **aux);

/* Finishes bytes changed in place (e2x_cache_io_modify()): DATA holds
 * SIZE bytes of block BLK, AUX the block's word (e.g. what a checksum
 * needs; the fixup leaves there what should stay). */
typedef void (*e2x_cache_fixup_fn)(void *data, unsigned int size,
				   unsigned long long blk, uint64_t *aux);

/*
 * Change the cached block BLK in place: it becomes dirty with a new tag
 * (*TAG) and a zeroed word (*AUX, when AUX is not NULL); *DATA points at
 * its bytes until the next call on CH, and what the caller writes there is
 * what the block holds.  With FIXUP, the change is unfinished: FIXUP runs
 * (once, then the tag changes again) before the bytes are copied out of
 * the cache or written to the device; borrowers see them unfinished (the
 * word tells them).  A block changed again before that keeps one pending
 * FIXUP; without FIXUP a pending one runs first.  EXT2_ET_UNIMPLEMENTED
 * when CH is no cache channel or writes through, E2X_ERR_NOT_FOUND when
 * BLK is not cached (borrow it first).
 */
errcode_t e2x_cache_io_modify(io_channel ch, unsigned long long blk,
			      void **data, uint64_t *tag, uint64_t **aux,
			      e2x_cache_fixup_fn fixup);

/*
 * e2x_guard_io_manager (guard_io.c) opens NAME through unix_io (or the
 * manager given to e2x_guard_backing) and passes
 * every write through the process's policy first: FN(ARG, OFFSET, LENGTH)
 * returns NULL to allow the bytes [OFFSET, OFFSET + LENGTH) to be written,
 * or why not; a refused write is not made and fails with
 * E2X_ERR_WRITE_REFUSED.  FN sees every write, so it may log them.  No
 * policy: all allowed.
 */
typedef const char *(*e2x_guard_fn)(void *arg, uint64_t off, uint64_t len);
extern io_manager e2x_guard_io_manager;
void e2x_guard_policy(e2x_guard_fn fn, void *arg);
/* Writes refused since the policy was last set. */
unsigned long e2x_guard_refused(void);
/* The manager the guard opens NAME through (NULL: unix_io), e.g. the
 * undo manager so that an allowed write is also saved for e2undo. */
void e2x_guard_backing(io_manager mgr);

#endif
