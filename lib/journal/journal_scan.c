/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_scan.c --- pass 1 of recovery: walk the log from s_start and
 * find the first transaction that must not be replayed, with the kernel's
 * rules (sequence numbers, commit checksums v1/v2/v3, async commit, and
 * the commit-time test that tells stale blocks from corruption).
 */
#include "config.h"
#include <string.h>
#include "journal/journal-int.h"

struct scan_state {
	uint32_t tid;		/* transaction expected next */
	uint32_t blk;		/* next log block */
	uint32_t crc;		/* checksum v1: running crc32_be */
	bool need_time_check;	/* a descriptor/revoke csum failed */
	bool end_set;		/* a commit checksum failed earlier */
	uint64_t last_time;	/* commit time of the last good commit */
	uint32_t head;		/* log block after the last good commit */
};

enum step { STEP_GO, STEP_END, STEP_ERR };

/* Checksum v1: fold the descriptor and its data blocks into the crc. */
static errcode_t crc_descriptor(struct e2x_journal *j, struct scan_state *s,
				const unsigned char *desc)
{
	unsigned int n = e2x_jbd2_count_tags(j, desc);
	errcode_t err;

	s->crc = ext2fs_crc32_be(s->crc, desc, j->bs);
	while (n--) {
		err = e2x_journal_read(j, s->blk, j->buf2);
		if (err)
			return err;
		s->blk = e2x_journal_next(j, s->blk);
		s->crc = ext2fs_crc32_be(s->crc, j->buf2, j->bs);
	}
	return 0;
}

static void skip_tags(struct e2x_journal *j, struct scan_state *s,
		      const unsigned char *desc)
{
	unsigned int n = e2x_jbd2_count_tags(j, desc);

	while (n--)
		s->blk = e2x_journal_next(j, s->blk);
}

/* Checksum v1 test of a commit block: a match, or explicitly unused. */
static bool commit_v1_ok(const struct scan_state *s,
			 const struct e2x_jbd2_commit *c)
{
	uint32_t found = be32_get(&c->h_chksum[0]);

	if (c->h_chksum_type == E2X_JBD2_CRC32_CHKSUM &&
	    c->h_chksum_size == E2X_JBD2_CRC32_CHKSUM_SIZE &&
	    found == s->crc)
		return true;
	return !c->h_chksum_type && !c->h_chksum_size && !found;
}

static enum step scan_commit(struct e2x_journal *j, struct scan_state *s,
			     const unsigned char *blk,
			     struct e2x_journal_result *res)
{
	const struct e2x_jbd2_commit *c = (const void *)blk;
	uint64_t t = be64_get(&c->h_commit_sec);
	bool bad = false;

	if (s->need_time_check) {
		/* A bad descriptor/revoke block: stale if time went back. */
		res->stop_reason = t >= s->last_time ? E2X_JSTOP_BLOCK_CSUM :
						       E2X_JSTOP_STALE;
		return t >= s->last_time ? STEP_ERR : STEP_END;
	}
	if (j->compat & E2X_JBD2_COMPAT_CHECKSUM) {
		if (s->end_set) {
			res->failed_commit = j->end_tid;
			return STEP_END;
		}
		bad = !commit_v1_ok(s, c);
		s->crc = ~0U;
	}
	if (!bad && J_CSUM_V23(j))
		bad = be32_get(&c->h_chksum[0]) !=
		      e2x_jbd2_commit_csum(j->seed, blk, j->bs);
	if (bad) {
		if (t < s->last_time) {
			res->stop_reason = E2X_JSTOP_STALE;
			return STEP_END;
		}
		if (!s->end_set) {
			s->end_set = true;
			j->end_tid = s->tid;
			res->stop_reason = E2X_JSTOP_COMMIT_CSUM;
		}
		if (!(j->incompat & E2X_JBD2_INCOMPAT_ASYNC_COMMIT)) {
			res->failed_commit = s->tid;
			return STEP_END;
		}
	}
	s->last_time = t;
	s->tid++;
	s->head = s->blk;
	return STEP_GO;
}

/* One log block; STEP_END when the log ends before it. */
static enum step scan_block(struct e2x_journal *j, struct scan_state *s,
			    struct e2x_journal_result *res, errcode_t *errp)
{
	const unsigned char *b = j->buf;
	uint32_t type;

	*errp = e2x_journal_read(j, s->blk, j->buf);
	if (*errp) {
		res->stop_reason = E2X_JSTOP_IO;
		return STEP_ERR;
	}
	res->stop_log_block = s->blk;
	s->blk = e2x_journal_next(j, s->blk);
	if (be32_get(b) != E2X_JBD2_MAGIC || be32_get(b + 8) != s->tid)
		return STEP_END;
	type = be32_get(b + 4);
	switch (type) {
	case E2X_JBD2_DESCRIPTOR:
		if (!e2x_jbd2_tail_ok(j, b))
			s->need_time_check = true;
		if ((j->compat & E2X_JBD2_COMPAT_CHECKSUM) &&
		    !s->need_time_check && !s->end_set) {
			*errp = crc_descriptor(j, s, b);
			if (*errp) {
				res->stop_reason = E2X_JSTOP_IO;
				return STEP_ERR;
			}
		} else {
			skip_tags(j, s, b);
		}
		return STEP_GO;
	case E2X_JBD2_COMMIT:
		return scan_commit(j, s, b, res);
	case E2X_JBD2_REVOKE:
		if (!e2x_jbd2_tail_ok(j, b))
			s->need_time_check = true;
		return STEP_GO;
	default:
		return STEP_END;
	}
}

errcode_t e2x_journal_scan(struct e2x_journal *j,
			   struct e2x_journal_result *res)
{
	struct scan_state s;
	errcode_t err = 0;
	enum step st;
	uint64_t guard;

	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return E2X_ERR_MAGIC;
	memset(&s, 0, sizeof(s));
	s.tid = j->sequence;
	s.blk = s.head = j->start;
	s.crc = ~0U;
	res->start_tid = j->sequence;
	res->journal_errno = (int32_t)be32_get(&j->jsb.s_errno);
	res->stop_reason = E2X_JSTOP_END;
	if (!j->start) {
		res->stop_reason = E2X_JSTOP_CLEAN;
		j->end_tid = s.tid;
		goto out;
	}
	/* A log can't hold more blocks than the journal; stop loops. */
	for (guard = 0, st = STEP_GO; st == STEP_GO; guard++) {
		if (guard > 2ULL * j->maxlen) {
			err = E2X_ERR_JOURNAL;
			break;
		}
		st = scan_block(j, &s, res, &err);
	}
	if (st == STEP_ERR && !err)
		err = E2X_ERR_JOURNAL_CSUM;
	if (!s.end_set)
		j->end_tid = s.tid;
	j->head = s.head;
out:
	j->scanned = true;
	res->end_tid = j->end_tid;
	res->transactions = j->end_tid - j->sequence;
	return err;
}
