/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_cmds.c --- logdump: the jbd2 log of the internal journal, block
 * by block (descriptor tags, revoke records, commits), optionally the
 * journal superblock (-S), old transactions past the log end (-O) and the
 * logged block contents (-a).  Read-only; every on-disk length is checked.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

struct jwalk {
	struct dbg_ctx *ctx;
	ext2_ino_t ino;
	struct ext2_inode inode;
	unsigned int bs;
	uint32_t maxlen, first;
	uint32_t incompat;
	unsigned int tag_bytes, tail_bytes;
	int dump_all;
	unsigned char *buf, *data;
};

static uint32_t be32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ext2fs_be32_to_cpu(v);
}

static uint16_t be16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return ext2fs_be16_to_cpu(v);
}

/* Read log block LBLK (journal-relative) into BUF. */
static errcode_t read_log(struct jwalk *w, uint32_t lblk, unsigned char *buf,
			  blk64_t *pblk)
{
	errcode_t err;

	err = ext2fs_bmap2(w->ctx->fs, w->ino, &w->inode, NULL, 0, lblk, NULL,
			   pblk);
	if (err)
		return err;
	if (!*pblk || *pblk >= ext2fs_blocks_count(w->ctx->fs->super))
		return EXT2_ET_BAD_BLOCK_NUM;
	return io_channel_read_blk64(w->ctx->fs->io, *pblk, 1, buf);
}

static uint32_t wrap(struct jwalk *w, uint32_t b)
{
	if (b >= w->maxlen)
		b = w->first + (b - w->maxlen) % (w->maxlen - w->first);
	return b;
}

static const char *type_name(uint32_t t)
{
	switch (t) {
	case E2X_JBD2_DESCRIPTOR:
		return "descriptor block";
	case E2X_JBD2_COMMIT:
		return "commit block";
	case E2X_JBD2_REVOKE:
		return "revoke block";
	case E2X_JBD2_SB_V1:
	case E2X_JBD2_SB_V2:
		return "superblock";
	}
	return "unknown type";
}

static void print_jsb(FILE *o, const unsigned char *b)
{
	const struct e2x_jbd2_super *s = (const void *)b;

	fprintf(o, "Journal superblock:\n"
		"  Block type:          %u\n  Block size:          %u\n"
		"  Journal length:      %u\n  First log block:     %u\n"
		"  Sequence:            %u\n  Log start:           %u\n"
		"  Errno:               %d\n  Features compat:     0x%08x\n"
		"  Features incompat:   0x%08x\n  Features ro_compat:  0x%08x\n"
		"  Users:               %u\n  Checksum type:       %u\n"
		"  Checksum:            0x%08x\n",
		be32(&s->s_header.h_blocktype), be32(&s->s_blocksize),
		be32(&s->s_maxlen), be32(&s->s_first), be32(&s->s_sequence),
		be32(&s->s_start), (int32_t)be32(&s->s_errno),
		be32(&s->s_feature_compat), be32(&s->s_feature_incompat),
		be32(&s->s_feature_ro_compat), be32(&s->s_nr_users),
		s->s_checksum_type, be32(&s->s_checksum));
}

/* Tags of one descriptor at log block B; returns the log blocks used by
 * the data that follows (the next header's position). */
static uint32_t walk_descriptor(struct jwalk *w, uint32_t b)
{
	FILE *o = w->ctx->out;
	unsigned int off = sizeof(struct e2x_jbd2_header);
	unsigned int end = w->bs - w->tail_bytes;
	uint32_t data = wrap(w, b + 1);

	while (off + w->tag_bytes <= end) {
		const unsigned char *t = w->buf + off;
		uint32_t flags;
		uint64_t fsblk = be32(t);
		blk64_t pblk;

		if (w->incompat & E2X_JBD2_INCOMPAT_CSUM_V3)
			flags = be32(t + 4);
		else
			flags = be16(t + 6);
		if (w->incompat & E2X_JBD2_INCOMPAT_64BIT)
			fsblk |= (uint64_t)be32(t + 8) << 32;
		fprintf(o, "  FS block %llu logged at journal block %u "
			"(flags 0x%x)\n", (unsigned long long)fsblk, data,
			flags);
		if (w->dump_all && !read_log(w, data, w->data, &pblk)) {
			if (flags & E2X_JBD2_FLAG_ESCAPE)
				memcpy(w->data, "\xc0\x3b\x39\x98", 4);
			dbg_hexdump(o, w->data, w->bs, 0);
		}
		data = wrap(w, data + 1);
		off += w->tag_bytes;
		if (!(flags & E2X_JBD2_FLAG_SAME_UUID))
			off += 16;
		if (flags & E2X_JBD2_FLAG_LAST_TAG)
			break;
	}
	return data;
}

static void walk_revoke(struct jwalk *w)
{
	unsigned int rsz = (w->incompat & E2X_JBD2_INCOMPAT_64BIT) ? 8 : 4;
	unsigned int count = be32(w->buf + 12), off;

	if (count > w->bs - w->tail_bytes)
		count = w->bs - w->tail_bytes;
	for (off = 16; off + rsz <= count; off += rsz) {
		uint64_t blk = be32(w->buf + off);

		if (rsz == 8)
			blk = blk << 32 | be32(w->buf + off + 4);
		fprintf(w->ctx->out, "  Revoke FS block %llu\n",
			(unsigned long long)blk);
	}
}

/* Walk from log block START expecting transaction SEQ. */
static void walk_log(struct jwalk *w, uint32_t start, uint32_t seq)
{
	FILE *o = w->ctx->out;
	uint32_t b = start, steps;
	blk64_t pblk;

	fprintf(o, "Journal starts at block %u, transaction %u\n", start, seq);
	for (steps = 0; steps < 2 * w->maxlen; steps++) {
		uint32_t magic, type, s;

		if (read_log(w, b, w->buf, &pblk)) {
			fprintf(o, "Unreadable log block %u: end of journal.\n",
				b);
			return;
		}
		magic = be32(w->buf);
		type = be32(w->buf + 4);
		s = be32(w->buf + 8);
		if (magic != E2X_JBD2_MAGIC) {
			fprintf(o, "No magic number at block %u: end of "
				"journal.\n", b);
			return;
		}
		if (s != seq) {
			fprintf(o, "Found sequence %u (not %u) at block %u: "
				"end of journal.\n", s, seq, b);
			return;
		}
		fprintf(o, "Found expected sequence %u, type %u (%s) at "
			"block %u\n", s, type, type_name(type), b);
		switch (type) {
		case E2X_JBD2_DESCRIPTOR:
			b = walk_descriptor(w, b);
			continue;
		case E2X_JBD2_COMMIT:
			seq++;
			break;
		case E2X_JBD2_REVOKE:
			walk_revoke(w);
			break;
		default:
			fprintf(o, "Unexpected block type %u at block %u: end "
				"of journal.\n", type, b);
			return;
		}
		b = wrap(w, b + 1);
	}
	fprintf(o, "Log wrapped around twice: stopping.\n");
}

static int load_journal(struct jwalk *w, const char *cmd)
{
	struct dbg_ctx *ctx = w->ctx;
	ext2_filsys fs = ctx->fs;
	blk64_t pblk;
	errcode_t err;

	if (!ext2fs_has_feature_journal(fs->super)) {
		dbg_error(ctx, cmd, 0, "the file system has no journal");
		return 1;
	}
	w->ino = fs->super->s_journal_inum;
	if (!w->ino) {
		dbg_error(ctx, cmd, 0, "external journals are not supported");
		return 1;
	}
	err = ext2fs_read_inode(fs, w->ino, &w->inode);
	if (!err)
		err = read_log(w, 0, w->buf, &pblk);
	if (err) {
		dbg_error(ctx, cmd, err, "reading the journal superblock");
		return 1;
	}
	if (be32(w->buf) != E2X_JBD2_MAGIC ||
	    (be32(w->buf + 4) != E2X_JBD2_SB_V1 &&
	     be32(w->buf + 4) != E2X_JBD2_SB_V2)) {
		dbg_error(ctx, cmd, 0, "journal superblock has no jbd2 magic");
		return 1;
	}
	w->maxlen = be32(w->buf + 0x10);
	w->first = be32(w->buf + 0x14);
	if (be32(w->buf + 0x0C) != fs->blocksize || w->first == 0 ||
	    w->first >= w->maxlen ||
	    w->maxlen > EXT2_I_SIZE(&w->inode) / fs->blocksize) {
		dbg_error(ctx, cmd, 0, "journal superblock geometry is "
			  "corrupt (block size %u, first %u, length %u)",
			  be32(w->buf + 0x0C), w->first, w->maxlen);
		return 1;
	}
	w->incompat = be32(w->buf + 0x28);
	w->tag_bytes = e2x_jbd2_tag_bytes(w->incompat);
	w->tail_bytes = (w->incompat & (E2X_JBD2_INCOMPAT_CSUM_V2 |
					E2X_JBD2_INCOMPAT_CSUM_V3)) ? 4 : 0;
	return 0;
}

int do_logdump(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct jwalk w;
	int c, old = 0, super = 0, ret = 1;
	uint32_t start, seq;

	memset(&w, 0, sizeof(w));
	w.ctx = ctx;
	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "aOS")) != -1) {
		if (c == 'a')
			w.dump_all = 1;
		else if (c == 'O')
			old = 1;
		else if (c == 'S')
			super = 1;
		else {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind != argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	w.bs = ctx->fs->blocksize;
	w.buf = malloc(w.bs);
	w.data = malloc(w.bs);
	if (!w.buf || !w.data) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		goto out;
	}
	if (load_journal(&w, argv[0]))
		goto out;
	if (super)
		print_jsb(ctx->out, w.buf);
	start = be32(w.buf + 0x1C);
	seq = be32(w.buf + 0x18);
	if (!start && !old) {
		fprintf(ctx->out, "Journal starts at block 0, transaction "
			"%u\nJournal is empty (clean); -O shows the old "
			"transactions\n", seq);
	} else {
		if (!start)
			start = w.first;
		if (old) {
			/* Old transactions: start at the first log block with
			 * whatever sequence is found there. */
			blk64_t pblk;

			if (!read_log(&w, w.first, w.buf, &pblk) &&
			    be32(w.buf) == E2X_JBD2_MAGIC) {
				start = w.first;
				seq = be32(w.buf + 8);
			}
		}
		walk_log(&w, start, seq);
	}
	ret = 0;
out:
	free(w.buf);
	free(w.data);
	return ret;
}
