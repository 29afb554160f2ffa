/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readahead.h --- readahead advice for the passes (readahead.c).
 */
#ifndef E2FSCK_READAHEAD_H
#define E2FSCK_READAHEAD_H

#include "context.h"

/* Open the device a second time for advice; no-op on failure. */
void fsck_ra_open(struct fsck_ctx *ctx);
/* Blocks [BLK, BLK + N) will be read soon (adjacent calls merge). */
void fsck_ra_blocks(struct fsck_ctx *ctx, blk64_t blk, blk64_t n);
void fsck_ra_flush(struct fsck_ctx *ctx);
/* The used part of group G's inode table will be read soon. */
void fsck_ra_itable(struct fsck_ctx *ctx, dgrp_t g);
void fsck_ra_close(struct fsck_ctx *ctx);

#endif
