/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultconv.c --- runs one in-place conversion over a fault-injecting
 * io channel that stops writing after N writes, to show that a
 * conversion cut short at any write leaves a file system e2fsck brings
 * back with every file intact, and an undo file e2undo replays.
 *
 *   faultconv IMAGE CONVERSION N MODE [UNDO_FILE]
 *
 * CONVERSION: inline_on, inline_off, itree_on, itree_off, index_on,
 * journal_off, optimize, csum_on, csum_off.  N < 0: no fault; the total number of writes is
 * printed ("writes N").  MODE "drop": writes past N are silently lost (a
 * power cut: the program runs on and closes); "fail": they fail with EIO
 * (the program stops at the first error, as a killed one would, but the
 * undo file is closed).  Exit 0 unless the setup itself failed.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

static const char *target;	/* the image: other files (the undo
				 * file) are not faulted */
static long limit = -1;		/* writes allowed; < 0: all */
static long writes;		/* writes seen */
static int drop;		/* past the limit: drop (1) or fail (0) */

/* 1 when this write may reach the device; else how to answer it. */
static int allowed(errcode_t *err)
{
	writes++;
	if (limit < 0 || writes <= limit)
		return 1;
	*err = drop ? 0 : EIO;
	return 0;
}

static io_channel inner(io_channel ch)
{
	return ch->private_data;
}

static errcode_t f_close(io_channel ch)
{
	errcode_t err = io_channel_close(inner(ch));

	free(ch->name);
	free(ch);
	return err;
}

static errcode_t f_set_blksize(io_channel ch, int bs)
{
	ch->block_size = bs;
	return io_channel_set_blksize(inner(ch), bs);
}

static errcode_t f_read_blk64(io_channel ch, unsigned long long b, int n,
			      void *d)
{
	return io_channel_read_blk64(inner(ch), b, n, d);
}

static errcode_t f_read_blk(io_channel ch, unsigned long b, int n, void *d)
{
	return f_read_blk64(ch, b, n, d);
}

static errcode_t f_write_blk64(io_channel ch, unsigned long long b, int n,
			       const void *d)
{
	errcode_t err = 0;

	if (!allowed(&err))
		return err;
	return io_channel_write_blk64(inner(ch), b, n, d);
}

static errcode_t f_write_blk(io_channel ch, unsigned long b, int n,
			     const void *d)
{
	return f_write_blk64(ch, b, n, d);
}

static errcode_t f_write_byte(io_channel ch, unsigned long off, int n,
			      const void *d)
{
	errcode_t err = 0;

	if (!allowed(&err))
		return err;
	return io_channel_write_byte(inner(ch), off, n, d);
}

static errcode_t f_flush(io_channel ch)
{
	return io_channel_flush(inner(ch));
}

static errcode_t f_set_option(io_channel ch, const char *opt, const char *arg)
{
	return inner(ch)->manager->set_option(inner(ch), opt, arg);
}

static errcode_t f_get_stats(io_channel ch, io_stats *st)
{
	return inner(ch)->manager->get_stats(inner(ch), st);
}

static errcode_t f_zeroout(io_channel ch, unsigned long long b,
			   unsigned long long n)
{
	errcode_t err = 0;

	if (!allowed(&err))
		return err;
	return io_channel_zeroout(inner(ch), b, n);
}

static errcode_t f_open(const char *name, int flags, io_channel *ret);

static struct struct_io_manager fault_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "fault injection",
	.open = f_open,
	.close = f_close,
	.set_blksize = f_set_blksize,
	.read_blk = f_read_blk,
	.write_blk = f_write_blk,
	.flush = f_flush,
	.write_byte = f_write_byte,
	.set_option = f_set_option,
	.get_stats = f_get_stats,
	.read_blk64 = f_read_blk64,
	.write_blk64 = f_write_blk64,
	.zeroout = f_zeroout,
};

static errcode_t f_open(const char *name, int flags, io_channel *ret)
{
	io_channel ch, in;
	errcode_t err;

	err = unix_io_manager->open(name, flags, &in);
	if (err || strcmp(name, target)) {
		*ret = in;
		return err;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch || !(ch->name = strdup(name))) {
		free(ch);
		io_channel_close(in);
		return EXT2_ET_NO_MEMORY;
	}
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = &fault_manager;
	ch->block_size = in->block_size;
	ch->refcount = 1;
	ch->flags = in->flags;
	ch->private_data = in;
	*ret = ch;
	return 0;
}

typedef errcode_t (*conv_fn)(ext2_filsys, int, struct e2x_convert_stats *);

static errcode_t journal_off(ext2_filsys fs, int flags,
			     struct e2x_convert_stats *st)
{
	(void)flags;
	(void)st;
	return e2x_journal_remove(fs);
}

static const struct {
	const char *name;
	conv_fn fn;
} convs[] = {
	{ "inline_on", e2x_convert_inline_on },
	{ "inline_off", e2x_convert_inline_off },
	{ "itree_on", e2x_convert_itree_on },
	{ "itree_off", e2x_convert_itree_off },
	{ "index_on", e2x_convert_index_dirs },
	{ "journal_off", journal_off },
	{ "optimize", e2x_optimize_dirs },
	{ "csum_on", e2x_convert_csum_on },
	{ "csum_off", e2x_convert_csum_off },
};

int main(int argc, char **argv)
{
	struct e2x_convert_stats st;
	io_manager mgr = &fault_manager;
	conv_fn fn = NULL;
	ext2_filsys fs;
	errcode_t err;
	size_t i;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: faultconv IMAGE CONVERSION N "
			"drop|fail [UNDO]\n");
		return 2;
	}
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++)
		if (!strcmp(argv[2], convs[i].name))
			fn = convs[i].fn;
	if (!fn) {
		fprintf(stderr, "faultconv: unknown conversion %s\n", argv[2]);
		return 2;
	}
	target = argv[1];
	limit = atol(argv[3]);
	drop = !strcmp(argv[4], "drop");
	e2x_init_errors();
	if (argc == 6 && (err = e2x_undo_manager(argv[5], &mgr))) {
		fprintf(stderr, "faultconv: undo: %s\n", error_message(err));
		return 2;
	}
	err = e2x_open_fs(argv[1], EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0, mgr,
			  &fs);
	if (err) {
		fprintf(stderr, "faultconv: %s: %s\n", argv[1],
			error_message(err));
		return 2;
	}
	err = fn(fs, 0, &st);
	if (err)
		printf("conversion stopped: %s\n", error_message(err));
	err = ext2fs_close_free(&fs);
	if (err)
		printf("close: %s\n", error_message(err));
	if (fs)
		ext2fs_free(fs);
	printf("writes %ld\n", writes);
	return 0;
}
