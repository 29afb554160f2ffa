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
/* Free everything the passes allocated in CTX (state.c). */
void fsck_state_free(struct fsck_ctx *ctx);

#endif
