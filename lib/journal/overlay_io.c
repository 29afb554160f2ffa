/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * overlay_io.c --- an io_manager that layers an in-memory copy-on-write
 * overlay over a device opened read-only: e2fsck -n replays the journal
 * into it and checks the result without writing a byte to the device.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "e2x.h"
#include "journal/u64map.h"

#define OV_UNIT 1024U			/* granularity of the overlay */
#define E2X_OVERLAY_MAGIC 0x4F564C59L	/* "OVLY" */

struct e2x_overlay {
	errcode_t magic;
	int refs;
	io_channel base;	/* read-only, block size OV_UNIT */
	struct u64map idx;	/* unit number -> index in units[] */
	unsigned char **units;
	size_t nunits, cap;
};

struct ov_chan {
	struct e2x_overlay *ov;
	struct struct_io_stats stats;
};

/* The overlay handed to the next open() (e2x_overlay_open_fs only). */
static __thread struct e2x_overlay *staged;

static struct e2x_overlay *chan_ov(io_channel ch)
{
	return ((struct ov_chan *)ch->private_data)->ov;
}

static errcode_t new_unit(struct e2x_overlay *ov, uint64_t u,
			  unsigned char **up)
{
	unsigned char **nu, *p;
	errcode_t err;

	if (ov->nunits == ov->cap) {
		size_t cap = ov->cap ? ov->cap * 2 : 256;

		nu = realloc(ov->units, cap * sizeof(*nu));
		if (!nu)
			return EXT2_ET_NO_MEMORY;
		ov->units = nu;
		ov->cap = cap;
	}
	p = malloc(OV_UNIT);
	if (!p)
		return EXT2_ET_NO_MEMORY;
	/* Past the end of the device a unit starts as zeroes. */
	if (io_channel_read_blk64(ov->base, u, 1, p))
		memset(p, 0, OV_UNIT);
	err = u64map_put(&ov->idx, u, ov->nunits);
	if (err) {
		free(p);
		return err;
	}
	ov->units[ov->nunits++] = p;
	*up = p;
	return 0;
}

static unsigned char *find_unit(const struct e2x_overlay *ov, uint64_t u)
{
	const uint64_t *i = u64map_find(&ov->idx, u);

	return i ? ov->units[*i] : NULL;
}

/* Copy the overlap of unit U with [off, off+size) between unit and buf. */
static void overlap(uint64_t u, uint64_t off, size_t size, size_t *uoff,
		    size_t *boff, size_t *len)
{
	uint64_t ustart = u * OV_UNIT, s = off > ustart ? off : ustart;
	uint64_t e = off + size < ustart + OV_UNIT ? off + size :
						     ustart + OV_UNIT;

	*uoff = s - ustart;
	*boff = s - off;
	*len = e - s;
}

static int all_in_overlay(const struct e2x_overlay *ov, uint64_t off,
			  size_t size)
{
	uint64_t u;

	for (u = off / OV_UNIT; u * OV_UNIT < off + size; u++)
		if (!find_unit(ov, u))
			return 0;
	return 1;
}

static errcode_t read_range(struct e2x_overlay *ov, uint64_t off,
			    size_t size, unsigned char *buf)
{
	size_t uoff, boff, len;
	unsigned char *p;
	errcode_t err;
	uint64_t u;

	if (!size)
		return 0;
	/* Our channels keep offsets at multiples of 1024 (block sizes). */
	err = io_channel_read_blk64(ov->base, off / OV_UNIT, -(int)size, buf);
	if (err) {
		if (!all_in_overlay(ov, off, size))
			return err;
		memset(buf, 0, size);
	}
	for (u = off / OV_UNIT; u * OV_UNIT < off + size; u++) {
		p = find_unit(ov, u);
		if (!p)
			continue;
		overlap(u, off, size, &uoff, &boff, &len);
		memcpy(buf + boff, p + uoff, len);
	}
	return 0;
}

static errcode_t write_range(struct e2x_overlay *ov, uint64_t off,
			     size_t size, const unsigned char *buf)
{
	size_t uoff, boff, len;
	unsigned char *p;
	errcode_t err;
	uint64_t u;

	for (u = off / OV_UNIT; u * OV_UNIT < off + size; u++) {
		p = find_unit(ov, u);
		if (!p) {
			err = new_unit(ov, u, &p);
			if (err)
				return err;
		}
		overlap(u, off, size, &uoff, &boff, &len);
		if (buf)
			memcpy(p + uoff, buf + boff, len);
		else
			memset(p + uoff, 0, len);
	}
	return 0;
}

static void chan_span(io_channel ch, unsigned long long block, int count,
		      uint64_t *off, size_t *size)
{
	*off = block * (uint64_t)ch->block_size;
	*size = count < 0 ? (size_t)-(long)count :
			    (size_t)count * ch->block_size;
}

static errcode_t ov_read_blk64(io_channel ch, unsigned long long block,
			       int count, void *data)
{
	struct ov_chan *pc = ch->private_data;
	uint64_t off;
	size_t size;
	errcode_t err;

	chan_span(ch, block, count, &off, &size);
	err = read_range(pc->ov, off, size, data);
	if (!err)
		pc->stats.bytes_read += size;
	return err;
}

static errcode_t ov_write_blk64(io_channel ch, unsigned long long block,
				int count, const void *data)
{
	struct ov_chan *pc = ch->private_data;
	uint64_t off;
	size_t size;
	errcode_t err;

	chan_span(ch, block, count, &off, &size);
	err = write_range(pc->ov, off, size, data);
	if (!err)
		pc->stats.bytes_written += size;
	return err;
}

static errcode_t ov_read_blk(io_channel ch, unsigned long block, int count,
			     void *data)
{
	return ov_read_blk64(ch, block, count, data);
}

static errcode_t ov_write_blk(io_channel ch, unsigned long block, int count,
			      const void *data)
{
	return ov_write_blk64(ch, block, count, data);
}

static errcode_t ov_write_byte(io_channel ch, unsigned long offset, int size,
			       const void *data)
{
	if (size < 0)
		return EXT2_ET_INVALID_ARGUMENT;
	return write_range(chan_ov(ch), offset, size, data);
}

static errcode_t ov_zeroout(io_channel ch, unsigned long long block,
			    unsigned long long count)
{
	return write_range(chan_ov(ch), block * (uint64_t)ch->block_size,
			   count * ch->block_size, NULL);
}

static errcode_t ov_set_blksize(io_channel ch, int blksize)
{
	if (blksize < (int)OV_UNIT || blksize % OV_UNIT)
		return EXT2_ET_INVALID_ARGUMENT;
	ch->block_size = blksize;
	return 0;
}

static errcode_t ov_flush(io_channel ch)
{
	return 0;
}

static errcode_t ov_set_option(io_channel ch, const char *option,
			       const char *arg)
{
	return EXT2_ET_INVALID_ARGUMENT;
}

static errcode_t ov_get_stats(io_channel ch, io_stats *stats)
{
	struct ov_chan *pc = ch->private_data;

	pc->stats.num_fields = 2;
	*stats = &pc->stats;
	return 0;
}

static errcode_t ov_discard(io_channel ch, unsigned long long block,
			    unsigned long long count)
{
	return EXT2_ET_UNIMPLEMENTED;
}

static errcode_t ov_readahead(io_channel ch, unsigned long long block,
			      unsigned long long count)
{
	return 0;
}

static errcode_t ov_close(io_channel ch)
{
	struct ov_chan *pc;

	if (ch->magic != EXT2_ET_MAGIC_IO_CHANNEL)
		return EXT2_ET_MAGIC_IO_CHANNEL;
	if (--ch->refcount > 0)
		return 0;
	pc = ch->private_data;
	e2x_overlay_release(pc->ov);
	free(pc);
	free(ch->name);
	free(ch);
	return 0;
}

static errcode_t ov_open(const char *name, int flags, io_channel *chp)
{
	if (!staged)
		return EXT2_ET_BAD_DEVICE_NAME;
	return e2x_overlay_channel(staged, chp);
}

static struct struct_io_manager overlay_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2x overlay I/O manager",
	.open = ov_open,
	.close = ov_close,
	.set_blksize = ov_set_blksize,
	.read_blk = ov_read_blk,
	.write_blk = ov_write_blk,
	.flush = ov_flush,
	.write_byte = ov_write_byte,
	.set_option = ov_set_option,
	.get_stats = ov_get_stats,
	.read_blk64 = ov_read_blk64,
	.write_blk64 = ov_write_blk64,
	.discard = ov_discard,
	.cache_readahead = ov_readahead,
	.zeroout = ov_zeroout,
};

io_manager e2x_overlay_io_manager = &overlay_manager;

errcode_t e2x_overlay_create(const char *device, struct e2x_overlay **ovp)
{
	struct e2x_overlay *ov;
	errcode_t err;

	*ovp = NULL;
	ov = calloc(1, sizeof(*ov));
	if (!ov)
		return EXT2_ET_NO_MEMORY;
	ov->magic = E2X_OVERLAY_MAGIC;
	ov->refs = 1;
	u64map_init(&ov->idx);
	err = unix_io_manager->open(device, 0, &ov->base);
	if (!err)
		err = io_channel_set_blksize(ov->base, OV_UNIT);
	if (err) {
		e2x_overlay_release(ov);
		return err;
	}
	*ovp = ov;
	return 0;
}

void e2x_overlay_release(struct e2x_overlay *ov)
{
	size_t i;

	if (!ov || ov->magic != E2X_OVERLAY_MAGIC || --ov->refs > 0)
		return;
	if (ov->base)
		io_channel_close(ov->base);
	for (i = 0; i < ov->nunits; i++)
		free(ov->units[i]);
	free(ov->units);
	u64map_free(&ov->idx);
	ov->magic = 0;
	free(ov);
}

errcode_t e2x_overlay_channel(struct e2x_overlay *ov, io_channel *chp)
{
	struct ov_chan *pc = NULL;
	io_channel ch = NULL;

	if (!ov || ov->magic != E2X_OVERLAY_MAGIC)
		return E2X_ERR_MAGIC;
	ch = calloc(1, sizeof(*ch));
	pc = calloc(1, sizeof(*pc));
	if (!ch || !pc)
		goto nomem;
	ch->name = strdup(ov->base->name ? ov->base->name : "overlay");
	if (!ch->name)
		goto nomem;
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = e2x_overlay_io_manager;
	ch->block_size = OV_UNIT;
	ch->refcount = 1;
	ch->private_data = pc;
	pc->ov = ov;
	ov->refs++;
	*chp = ch;
	return 0;
nomem:
	if (ch)
		free(ch->name);
	free(ch);
	free(pc);
	return EXT2_ET_NO_MEMORY;
}

errcode_t e2x_overlay_open_fs(struct e2x_overlay *ov, const char *name,
			      int flags, int superblock,
			      unsigned int block_size, ext2_filsys *fsp)
{
	errcode_t err;

	if (!ov || ov->magic != E2X_OVERLAY_MAGIC)
		return E2X_ERR_MAGIC;
	staged = ov;
	err = ext2fs_open2(name, NULL, flags, superblock, block_size,
			   e2x_overlay_io_manager, fsp);
	staged = NULL;
	return err;
}

uint64_t e2x_overlay_bytes(const struct e2x_overlay *ov)
{
	if (!ov || ov->magic != E2X_OVERLAY_MAGIC)
		return 0;
	return (uint64_t)ov->nunits * OV_UNIT;
}
