/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_replay.c --- pass 3 of recovery: copy every logged block that
 * is not revoked and passes its tag checksum to its home location.
 */
#include "config.h"
#include <string.h>
#include "journal/journal-int.h"

struct replay {
	io_channel sink;
	struct e2x_journal_result *res;
	unsigned char *desc;	/* copy of the descriptor block */
};

static uint64_t tag_block(const struct e2x_journal *j, const unsigned char *t)
{
	uint64_t blk = be32_get(t);

	if (j->incompat & E2X_JBD2_INCOMPAT_64BIT)
		blk |= (uint64_t)be32_get(t + 8) << 32;
	return blk;
}

static bool tag_csum_ok(const struct e2x_journal *j, const unsigned char *t,
			uint32_t tid, const void *data)
{
	uint32_t c;

	if (!J_CSUM_V23(j))
		return true;
	c = e2x_jbd2_data_csum(j->seed, tid, data, j->bs);
	if (j->incompat & E2X_JBD2_INCOMPAT_CSUM_V3)
		return be32_get(t + 12) == c;
	return be16_get(t + 4) == (uint16_t)c;
}

/* Replay the data block logged at LBLK for tag T. */
static errcode_t replay_one(struct e2x_journal *j, struct replay *r,
			    const unsigned char *t, uint32_t tid,
			    uint32_t lblk)
{
	uint64_t blk = tag_block(j, t);
	uint16_t flags = be16_get(t + 6);
	errcode_t err;

	err = e2x_journal_read(j, lblk, j->buf2);
	if (err)
		return err;
	if (e2x_revoke_test(j, blk, tid)) {
		r->res->revoke_hits++;
		return 0;
	}
	if (!tag_csum_ok(j, t, tid, j->buf2) ||
	    blk >= ext2fs_blocks_count(j->fs->super)) {
		r->res->bad_data_blocks++;
		return 0;
	}
	if (flags & E2X_JBD2_FLAG_ESCAPE)
		be32_put(j->buf2, E2X_JBD2_MAGIC);
	err = io_channel_write_blk64(r->sink, blk, 1, j->buf2);
	if (err)
		return err;
	r->res->blocks_replayed++;
	return 0;
}

static errcode_t replay_descriptor(struct e2x_journal *j, uint32_t tid,
				   uint32_t next_blk, void *data)
{
	struct replay *r = data;
	const unsigned char *t;
	unsigned int off = sizeof(struct e2x_jbd2_header);
	unsigned int limit = j->bs - j->tail_bytes;
	uint32_t lblk = next_blk;
	uint16_t flags;
	errcode_t err;

	memcpy(r->desc, j->buf, j->bs);
	while (off + j->tag_bytes <= limit) {
		t = r->desc + off;
		flags = be16_get(t + 6);
		err = replay_one(j, r, t, tid, lblk);
		if (err)
			return err;
		lblk = e2x_journal_next(j, lblk);
		off += j->tag_bytes;
		if (!(flags & E2X_JBD2_FLAG_SAME_UUID))
			off += 16;
		if (flags & E2X_JBD2_FLAG_LAST_TAG)
			break;
	}
	return 0;
}

errcode_t e2x_journal_replay(struct e2x_journal *j, io_channel sink,
			     struct e2x_journal_result *res)
{
	struct replay r;
	errcode_t err;

	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return E2X_ERR_MAGIC;
	if (sink->block_size != (int)j->bs)
		return EXT2_ET_INVALID_ARGUMENT;
	r.sink = sink;
	r.res = res;
	err = ext2fs_get_mem(j->bs, &r.desc);
	if (err)
		return err;
	err = e2x_journal_walk(j, E2X_JBD2_DESCRIPTOR, replay_descriptor, &r);
	ext2fs_free_mem(&r.desc);
	return err;
}
