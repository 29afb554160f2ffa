/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck_target.h --- the entry points e2fsck fuzz drivers feed: a
 * read-only check (e2fsck -fn) of an image held in memory, and a repair
 * (e2fsck -fy) of a copy of it.
 */
#ifndef E2X_FSCK_TARGET_H
#define E2X_FSCK_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* Largest file system size the image is padded to with zeroes. */
#define FSCK_TARGET_MAX_FS	(64ULL << 20)

/* Once per process: quiet stdout, error tables. */
void fsck_target_init(void);
/* Check the image DATA[0..SIZE) as "e2fsck -fn" would; returns its exit
 * code, or -1 when the in-memory device could not be set up. */
int fsck_target_run(const uint8_t *data, size_t size);
/* The same image repaired as "e2fsck -fy" would, in a copy of its own
 * (DATA is left as it is); returns the exit code, or -1 as above. */
int fsck_target_run_fix(const uint8_t *data, size_t size);

#endif
