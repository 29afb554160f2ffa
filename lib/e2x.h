/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x.h --- public interface of libe2x, the shared ext4 library of the e2x
 * suite, built on the distribution's libext2fs.
 *
 * libe2x owns every on-disk change the e2x programs make.  Functions return
 * an errcode_t (libext2fs codes, or the e2x codes of e2x_err.et) and never
 * print or exit.  Declarations are grouped by the file that defines them;
 * larger areas have a header of their own, included at the end.
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

/* iversion.c --- the 64-bit inode change counter (i_version) */
uint64_t e2x_inode_get_version(const struct ext2_inode_large *inode,
			       unsigned int inode_size);
void e2x_inode_set_version(struct ext2_inode_large *inode,
			   unsigned int inode_size, uint64_t version);
/* Increment i_version once; a no-op for EA-value inodes (ea_inode feature),
 * whose version field holds a reference count. */
void e2x_inode_bump_version(struct ext2_inode_large *inode,
			    unsigned int inode_size);
/* Read / write a whole inode (fs->super->s_inode_size bytes).  The write
 * bumps i_version once, recomputes the checksum and stores the inode. */
errcode_t e2x_read_inode(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode);
errcode_t e2x_write_inode(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode_large *inode);

/* crc32c.c --- crc32c(CRC, P, LEN), the value ext2fs_crc32c_le() gives,
 * with the CPU's instruction where there is one. */
uint32_t e2x_crc32c(uint32_t crc, const void *p, size_t len);

/* Area headers (one per concept). */
#include "e2x-geometry.h"
#include "e2x-inline.h"
#include "e2x-dir.h"
#include "e2x-itree.h"
#include "e2x-journal.h"
#include "e2x-populate.h"
#include "e2x-edit.h"
#include "e2x-cache.h"

#ifdef __cplusplus
}
#endif

#endif /* E2X_H */
