/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nullio.c --- an io manager that reads zeros and discards writes, so a
 * file system can be laid out in memory (mke2fs -n) without a target.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

static errcode_t null_open(const char *name, int flags, io_channel *channel);

static errcode_t null_close(io_channel channel)
{
	if (--channel->refcount > 0)
		return 0;
	free(channel->name);
	free(channel);
	return 0;
}

static errcode_t null_set_blksize(io_channel channel, int blksize)
{
	channel->block_size = blksize;
	return 0;
}

/* Bytes covered by `count` blocks (negative count: bytes). */
static size_t span(io_channel channel, int count)
{
	return count < 0 ? (size_t)-count
			 : (size_t)count * channel->block_size;
}

static errcode_t null_read_blk64(io_channel channel, unsigned long long block,
				 int count, void *data)
{
	memset(data, 0, span(channel, count));
	return 0;
}

static errcode_t null_read_blk(io_channel channel, unsigned long block,
			       int count, void *data)
{
	return null_read_blk64(channel, block, count, data);
}

static errcode_t null_write_blk64(io_channel channel,
				  unsigned long long block, int count,
				  const void *data)
{
	return 0;
}

static errcode_t null_write_blk(io_channel channel, unsigned long block,
				int count, const void *data)
{
	return 0;
}

static errcode_t null_write_byte(io_channel channel, unsigned long offset,
				 int count, const void *data)
{
	return 0;
}

static errcode_t null_flush(io_channel channel)
{
	return 0;
}

static errcode_t null_range(io_channel channel, unsigned long long block,
			    unsigned long long count)
{
	return 0;
}

static struct struct_io_manager null_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2x null I/O manager",
	.open = null_open,
	.close = null_close,
	.set_blksize = null_set_blksize,
	.read_blk = null_read_blk,
	.write_blk = null_write_blk,
	.flush = null_flush,
	.write_byte = null_write_byte,
	.read_blk64 = null_read_blk64,
	.write_blk64 = null_write_blk64,
	.discard = null_range,
	.zeroout = null_range,
};

io_manager e2x_null_io_manager = &null_manager;

static errcode_t null_open(const char *name, int flags, io_channel *channel)
{
	io_channel io;

	io = calloc(1, sizeof(*io));
	if (!io)
		return EXT2_ET_NO_MEMORY;
	io->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	io->manager = e2x_null_io_manager;
	io->name = strdup(name ? name : "");
	if (!io->name) {
		free(io);
		return EXT2_ET_NO_MEMORY;
	}
	io->block_size = 1024;
	io->refcount = 1;
	io->flags = CHANNEL_FLAGS_DISCARD_ZEROES;
	*channel = io;
	return 0;
}
