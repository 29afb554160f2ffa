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

/* iversion.c --- the 64-bit inode change counter (i_version) */
uint64_t e2x_inode_get_version(const struct ext2_inode_large *inode,
			       unsigned int inode_size);
void e2x_inode_set_version(struct ext2_inode_large *inode,
			   unsigned int inode_size, uint64_t version);
/* Increment i_version once; a no-op for EA-value inodes (ea_inode feature),
 * whose version field holds a reference count. */
void e2x_inode_bump_version(struct ext2_inode_large *inode,
			    unsigned int inode_size);
/* False on a Hurd file system, whose osd1 word holds the translator block
 * where Linux keeps l_i_version: nothing may count there. */
int e2x_fs_has_iversion(ext2_filsys fs);
/* Read / write a whole inode (fs->super->s_inode_size bytes).  The write
 * bumps i_version once (not on the Hurd), recomputes the checksum and
 * stores the inode. */
errcode_t e2x_read_inode(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode);
errcode_t e2x_write_inode(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode_large *inode);
/* Store INODE as given, i_version included (no bump): for a debugger that
 * sets the field, or restores it, by hand.  E2X_WRITE_NOCSUM keeps the
 * checksum field as given too. */
#define E2X_WRITE_NOCSUM	0x0001
errcode_t e2x_write_inode_exact(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode, int flags);

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
#include "e2x-repair.h"
#include "e2x-cache.h"

#ifdef __cplusplus
}
#endif

#endif /* E2X_H */
