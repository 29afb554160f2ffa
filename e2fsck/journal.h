/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h --- e2fsck's start-up work on the journal and the orphans,
 * before any pass runs (journal.c).
 */
#ifndef E2FSCK_JOURNAL_H
#define E2FSCK_JOURNAL_H

#include "context.h"

/* Replay or account for the journal and orphans; may reopen ctx->fs.
 * Returns non-zero when the check cannot go on (exit 8). */
int fsck_journal_startup(struct fsck_ctx *ctx);
/* 1 when this run replayed journal transactions (into memory for -n). */
int fsck_journal_replayed(const struct fsck_ctx *ctx);
/* Drop the journal result and overlays (after the fs is closed). */
void fsck_journal_release(struct fsck_ctx *ctx);
/* Drop an unusable journal (a "yes" to its problem); remember to make a
 * new one at the end when it was internal. */
void fsck_journal_drop(struct fsck_ctx *ctx);
/* After the passes of a clean -y/-p run: a new journal for a dropped one. */
void fsck_journal_recreate(struct fsck_ctx *ctx);
/* Free everything the passes allocated in CTX (state.c). */
void fsck_state_free(struct fsck_ctx *ctx);
/* A repair changed what pass 1 reads: drop every pass result so the
 * check starts again at pass 1 (says so). */
void fsck_state_reset(struct fsck_ctx *ctx);

#endif
