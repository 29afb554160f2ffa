/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_walk.c --- the common log walk of recovery passes 2 and 3: from
 * s_start through the transactions the scan accepted, handing each
 * descriptor or revoke block to a pass.
 */
#include "config.h"
#include "journal/journal-int.h"

errcode_t e2x_journal_walk(struct e2x_journal *j, uint32_t type,
			   e2x_jwalk_fn fn, void *data)
{
	uint32_t tid = j->sequence, blk = j->start, btype, n;
	const unsigned char *b = j->buf;
	uint64_t guard;
	errcode_t err;

	if (!j->scanned)
		return E2X_ERR_JOURNAL;
	if (!j->start)
		return 0;
	for (guard = 0; e2x_tid_gt(j->end_tid, tid); guard++) {
		if (guard > 2ULL * j->maxlen)
			return E2X_ERR_JOURNAL;
		err = e2x_journal_read(j, blk, j->buf);
		if (err)
			return err;
		blk = e2x_journal_next(j, blk);
		/* The scan accepted this part of the log: it can't end here */
		if (be32_get(b) != E2X_JBD2_MAGIC || be32_get(b + 8) != tid)
			return E2X_ERR_JOURNAL;
		btype = be32_get(b + 4);
		if (btype == E2X_JBD2_COMMIT) {
			tid++;
			continue;
		}
		if (btype != E2X_JBD2_DESCRIPTOR && btype != E2X_JBD2_REVOKE)
			return E2X_ERR_JOURNAL;
		if (!e2x_jbd2_tail_ok(j, b))
			return E2X_ERR_JOURNAL_CSUM;
		if (btype == type) {
			err = fn(j, tid, blk, data);
			if (err)
				return err;
		}
		if (btype == E2X_JBD2_DESCRIPTOR)
			for (n = e2x_jbd2_count_tags(j, b); n; n--)
				blk = e2x_journal_next(j, blk);
	}
	return 0;
}
