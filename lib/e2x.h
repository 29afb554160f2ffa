/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x.h --- public interface of libe2x, the shared ext4 library of the e2x
 * suite, built on the distribution's libext2fs.
 *
 * libe2x owns every on-disk change the e2x programs make.  Functions return
 * an errcode_t (libext2fs codes, or the e2x codes of e2x_err.et) and never
 * print or exit.  This header holds what concerns the library and the
 * file system as a whole (version, errors, clock, UUID, open, settle);
 * every concept has a header of its own, included at the end, where the
 * declarations are grouped by the file that defines them.
 */
#ifndef E2X_H
#define E2X_H

#include <stddef.h>
#include <stdint.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>
#include "e2x_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* version.c */
const char *e2x_version(void);
/* The -V text of program PROG (two lines, newline-terminated) into BUF;
 * returns what snprintf returns. */
int e2x_version_text(const char *prog, char *buf, size_t len);
/* --help or --version among the arguments (before "--"): which one, or 0.
 * Programs call it first so the long forms work whatever else is given. */
#define E2X_ARG_HELP	1
#define E2X_ARG_VERSION	2
int e2x_std_arg(int argc, char **argv);
/* Register the libext2fs and libe2x com_err tables (idempotent). */
void e2x_init_errors(void);

/* clock.c --- "now" for the times e2x stamps: FS->now when set, else the
 * system clock. */
time_t e2x_now(ext2_filsys fs);

/* fs_uuid.c --- set the file system's UUID (16 bytes) and keep it
 * openable: the metadata checksum seed stays that of the old UUID
 * (metadata_csum_seed), group descriptor checksums follow the new one.
 * FLAGS must be 0; the change is written when FS is flushed. */
errcode_t e2x_fs_set_uuid(ext2_filsys fs, const unsigned char uuid[16],
			  int flags);

/* crc32c.c --- crc32c(CRC, P, LEN), the value ext2fs_crc32c_le() gives,
 * with the CPU's instruction where there is one. */
uint32_t e2x_crc32c(uint32_t crc, const void *p, size_t len);

/* open.c --- open NAME (libext2fs flags; MGR NULL for unix_io), also when
 * e2x's itree is its only read-only-compatible feature libext2fs does not
 * know (libe2x maintains it). */
errcode_t e2x_open_fs(const char *name, int flags, blk64_t superblock,
		      unsigned int blocksize, io_manager mgr, ext2_filsys *ret);
/* Route the writes of *MGR (NULL: unix_io) through libext2fs's undo
 * manager into UNDO_FILE (removed first), which e2undo replays; *MGR then
 * is the manager to open with.  One undo file per process. */
errcode_t e2x_undo_manager(const char *undo_file, io_manager *mgr);
/* FS was opened from an e2image file (EXT2_FLAG_IMAGE_FILE), which holds
 * only metadata: read every other block from DEVICE (read-only) instead,
 * the device the image was taken from.  Closed with FS. */
errcode_t e2x_image_data_source(ext2_filsys fs, const char *device);

/* settle.c --- write the superblock (in one write), descriptors and
 * bitmaps and wait for them: a step of a crash-safe edit. */
errcode_t e2x_settle(ext2_filsys fs);

/* Area headers (one per concept). */
#include "e2x-inode.h"
#include "e2x-xattr.h"
#include "e2x-inline.h"
#include "e2x-file.h"
#include "e2x-geometry.h"
#include "e2x-meta.h"
#include "e2x-dir.h"
#include "e2x-itree.h"
#include "e2x-journal.h"
#include "e2x-populate.h"
#include "e2x-convert.h"
#include "e2x-quota.h"
#include "e2x-repair.h"
#include "e2x-cache.h"

#ifdef __cplusplus
}
#endif

#endif /* E2X_H */
