/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guard_io.c --- e2x_guard_io_manager: unix_io with a gate on every write.
 * A program that repairs a file system states which bytes it may write
 * (e2x_guard_policy); a write the policy refuses is not made, fails with
 * E2X_ERR_WRITE_REFUSED, so a repair that would have written over
 * something it has not proved to own stops instead.  The policy sees every
 * write (the program may log them).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

/* The channel and what it wraps in one allocation; the name is the
 * wrapped channel's. */
struct guard_chan {
	struct struct_io_channel ch;
	io_channel real;
};

/* One policy for the process: every channel the manager opens uses it. */
static e2x_guard_fn policy;
static void *policy_arg;
static unsigned long refused;
static io_manager backing;

void e2x_guard_backing(io_manager mgr)
{
	backing = mgr;
}

void e2x_guard_policy(e2x_guard_fn fn, void *arg)
{
	policy = fn;
	policy_arg = arg;
	if (fn)
		refused = 0;
}

unsigned long e2x_guard_refused(void)
{
	return refused;
}

static io_channel real_of(io_channel ch)
{
	return ((struct guard_chan *)ch->private_data)->real;
}

/* Bytes a block-addressed request of COUNT (negative: bytes) covers. */
static uint64_t req_len(io_channel ch, int count)
{
	return count < 0 ? (uint64_t)-count : (uint64_t)count * ch->block_size;
}

/* 0 when [OFF, OFF + LEN) may be written. */
static errcode_t gate(uint64_t off, uint64_t len)
{
	const char *why = policy ? policy(policy_arg, off, len) : NULL;

	if (!why)
		return 0;
	refused++;
	return E2X_ERR_WRITE_REFUSED;
}

static errcode_t guard_write_blk64(io_channel ch, unsigned long long blk,
				   int count, const void *buf)
{
	errcode_t err = gate(blk * ch->block_size, req_len(ch, count));

	return err ? err : io_channel_write_blk64(real_of(ch), blk, count, buf);
}

static errcode_t guard_write_blk(io_channel ch, unsigned long blk, int count,
				 const void *buf)
{
	return guard_write_blk64(ch, blk, count, buf);
}

static errcode_t guard_write_byte(io_channel ch, unsigned long off, int size,
				  const void *buf)
{
	errcode_t err = gate(off, size);

	return err ? err : io_channel_write_byte(real_of(ch), off, size, buf);
}

static errcode_t guard_zeroout(io_channel ch, unsigned long long blk,
			       unsigned long long count)
{
	errcode_t err = gate(blk * ch->block_size, count * ch->block_size);

	return err ? err : io_channel_zeroout(real_of(ch), blk, count);
}

static errcode_t guard_discard(io_channel ch, unsigned long long blk,
			       unsigned long long count)
{
	errcode_t err = gate(blk * ch->block_size, count * ch->block_size);

	return err ? err : io_channel_discard(real_of(ch), blk, count);
}

static errcode_t guard_read_blk64(io_channel ch, unsigned long long blk,
				  int count, void *buf)
{
	return io_channel_read_blk64(real_of(ch), blk, count, buf);
}

static errcode_t guard_read_blk(io_channel ch, unsigned long blk, int count,
				void *buf)
{
	return io_channel_read_blk64(real_of(ch), blk, count, buf);
}

static errcode_t guard_set_blksize(io_channel ch, int blksize)
{
	errcode_t err = io_channel_set_blksize(real_of(ch), blksize);

	if (!err)
		ch->block_size = blksize;
	return err;
}

static errcode_t guard_flush(io_channel ch)
{
	return io_channel_flush(real_of(ch));
}

static errcode_t guard_set_option(io_channel ch, const char *opt,
				  const char *arg)
{
	io_channel real = real_of(ch);

	if (!real->manager->set_option)
		return EXT2_ET_INVALID_ARGUMENT;
	return real->manager->set_option(real, opt, arg);
}

static errcode_t guard_get_stats(io_channel ch, io_stats *stats)
{
	io_channel real = real_of(ch);

	if (!real->manager->get_stats)
		return EXT2_ET_UNIMPLEMENTED;
	return real->manager->get_stats(real, stats);
}

static errcode_t guard_readahead(io_channel ch, unsigned long long blk,
				 unsigned long long count)
{
	return io_channel_cache_readahead(real_of(ch), blk, count);
}

static errcode_t guard_close(io_channel ch)
{
	struct guard_chan *gc = ch->private_data;
	errcode_t err;

	if (ch->magic != EXT2_ET_MAGIC_IO_CHANNEL)
		return EXT2_ET_MAGIC_IO_CHANNEL;
	if (--ch->refcount > 0)
		return 0;
	err = io_channel_close(gc->real);
	free(gc);
	return err;
}

static errcode_t guard_open(const char *name, int flags, io_channel *chp)
{
	struct guard_chan *gc;
	errcode_t err;

	*chp = NULL;
	if (!name)
		return EXT2_ET_BAD_DEVICE_NAME;
	gc = calloc(1, sizeof(*gc));
	if (!gc)
		return EXT2_ET_NO_MEMORY;
	err = (backing ? backing : unix_io_manager)->open(name, flags,
							  &gc->real);
	if (err) {
		free(gc);
		return err;
	}
	gc->ch.magic = EXT2_ET_MAGIC_IO_CHANNEL;
	gc->ch.manager = e2x_guard_io_manager;
	gc->ch.name = gc->real->name;
	gc->ch.private_data = gc;
	gc->ch.refcount = 1;
	gc->ch.block_size = gc->real->block_size;
	gc->ch.flags = gc->real->flags;
	*chp = &gc->ch;
	return 0;
}

static struct struct_io_manager guard_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2x write guard I/O manager",
	.open = guard_open,
	.close = guard_close,
	.set_blksize = guard_set_blksize,
	.read_blk = guard_read_blk,
	.write_blk = guard_write_blk,
	.flush = guard_flush,
	.write_byte = guard_write_byte,
	.set_option = guard_set_option,
	.get_stats = guard_get_stats,
	.read_blk64 = guard_read_blk64,
	.write_blk64 = guard_write_blk64,
	.discard = guard_discard,
	.cache_readahead = guard_readahead,
	.zeroout = guard_zeroout,
};

io_manager e2x_guard_io_manager = &guard_manager;
