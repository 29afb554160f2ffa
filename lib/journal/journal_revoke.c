/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_revoke.c --- pass 2 of recovery: the revoke table.  A block
 * revoked in transaction T is not replayed from any transaction <= T.
 */
#include "config.h"
#include "journal/journal-int.h"

errcode_t e2x_revoke_set(struct e2x_journal *j, uint64_t blk, uint32_t tid)
{
	uint64_t *old = u64map_find(&j->revoke, blk);

	if (old) {
		if (e2x_tid_gt(tid, (uint32_t)*old))
			*old = tid;
		return 0;
	}
	return u64map_put(&j->revoke, blk, tid);
}

bool e2x_revoke_test(const struct e2x_journal *j, uint64_t blk, uint32_t tid)
{
	const uint64_t *rec = u64map_find(&j->revoke, blk);

	return rec && !e2x_tid_gt(tid, (uint32_t)*rec);
}

/* Records are 4 or 8 bytes; r_count counts the bytes used. */
static errcode_t read_records(struct e2x_journal *j, uint32_t tid,
			      uint32_t next_blk, void *data)
{
	struct e2x_journal_result *res = data;
	const unsigned char *b = j->buf;
	unsigned int rlen = (j->incompat & E2X_JBD2_INCOMPAT_64BIT) ? 8 : 4;
	uint32_t count = be32_get(b + 12);
	unsigned int off = sizeof(struct e2x_jbd2_revoke_header);
	uint64_t blk;
	errcode_t err;

	if (count > j->bs - j->tail_bytes)
		return E2X_ERR_JOURNAL;
	for (; off + rlen <= count; off += rlen) {
		blk = rlen == 8 ? be64_get(b + off) : be32_get(b + off);
		err = e2x_revoke_set(j, blk, tid);
		if (err)
			return err;
		res->revoke_records++;
	}
	return 0;
}

errcode_t e2x_journal_revoke_pass(struct e2x_journal *j,
				  struct e2x_journal_result *res)
{
	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return E2X_ERR_MAGIC;
	return e2x_journal_walk(j, E2X_JBD2_REVOKE, read_records, res);
}
