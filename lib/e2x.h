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
/* Bytes to allocate for an inode buffer of FS: the on-disk inode size, and
 * never less than struct ext2_inode_large, so that its fields past 128
 * bytes read as zero on a file system of 128-byte inodes. */
size_t e2x_inode_buf_size(ext2_filsys fs);
/* Store INODE as given, i_version included (no bump): for a debugger that
 * sets the field, or restores it, by hand.  E2X_WRITE_NOCSUM keeps the
 * checksum field as given too. */
#define E2X_WRITE_NOCSUM	0x0001
errcode_t e2x_write_inode_exact(ext2_filsys fs, ext2_ino_t ino,
				struct ext2_inode_large *inode, int flags);

/* Flag for the file and directory edits that a conversion calls
 * (e2x_file_pack/promote, e2x_dir_pack_inline/expand/itree_build/drop):
 * the content is unchanged, so mtime and ctime are left as they are. */
#define E2X_KEEP_TIMES		0x8000

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

/* convert.c --- in-place feature conversions.  Each sets the feature on
 * disk before the first inode that uses it (or clears it after the last),
 * converts inode by inode keeping times, and leaves the fs flushed.  The
 * stats say what changed; free_before/after count free blocks. */
struct e2x_convert_stats {
	unsigned long files;	/* regular files and symlinks converted */
	unsigned long dirs;	/* directories converted */
	blk64_t free_before, free_after;
	unsigned long reserved[4];
};
#define E2X_CONVERT_NO_PACK	0x0001	/* inline_data on: feature only */
/* Set inline_data, then pack every file, symlink and directory that fits
 * (E2X_ERR_INODE_SIZE for 128-byte inodes). */
errcode_t e2x_convert_inline_on(ext2_filsys fs, int flags,
				struct e2x_convert_stats *st);
/* Move every inline file, symlink and directory into blocks, then clear
 * inline_data. */
errcode_t e2x_convert_inline_off(ext2_filsys fs, int flags,
				 struct e2x_convert_stats *st);
/* Set itree and build one for every indexed directory that has room
 * (E2X_ERR_FEATURE_CONFLICT without dir_index); or drop them all and
 * clear it. */
errcode_t e2x_convert_itree_on(ext2_filsys fs, int flags,
			       struct e2x_convert_stats *st);
errcode_t e2x_convert_itree_off(ext2_filsys fs, int flags,
				struct e2x_convert_stats *st);
/* csum_convert.c --- set metadata_csum and write every checksum, or
 * clear it (uninit_bg then guards the descriptors) and drop the tails.
 * E2X_ERR_FEATURE_CONFLICT with itree or mmp; E2X_ERR_NO_SPACE, before
 * anything is written, when a directory block has no room for its tail:
 * e2x_csum_check_room() names the first such directory in *INO. */
errcode_t e2x_csum_check_room(ext2_filsys fs, ext2_ino_t *ino);
errcode_t e2x_convert_csum_on(ext2_filsys fs, int flags,
			      struct e2x_convert_stats *st);
errcode_t e2x_convert_csum_off(ext2_filsys fs, int flags,
			       struct e2x_convert_stats *st);
/* Set dir_index and index every directory of more than one block. */
errcode_t e2x_convert_index_dirs(ext2_filsys fs, int flags,
				 struct e2x_convert_stats *st);
/* e2fsck -D: rebuild every indexed (or, with dir_index, multi-block)
 * directory's htree compact and in hash order, with its itree when the fs
 * has the feature; pack one-block directories inline when inline_data is
 * on and they fit.  st->dirs counts the directories rewritten. */
errcode_t e2x_optimize_dirs(ext2_filsys fs, int flags,
			    struct e2x_convert_stats *st);

/* settle.c --- write the superblock (in one write), descriptors and
 * bitmaps and wait for them: a step of a crash-safe edit. */
errcode_t e2x_settle(ext2_filsys fs);

/* journal_edit.c --- add an internal journal of MB megabytes (0: the
 * size mke2fs would choose), zeroed; or remove the journal (E2X_ERR_BUSY
 * while it needs recovery): the superblock forgets it, then its blocks
 * are freed and its inode cleared. */
errcode_t e2x_journal_add(ext2_filsys fs, unsigned long mb);
errcode_t e2x_journal_remove(ext2_filsys fs);

/* Area headers (one per concept). */
#include "e2x-geometry.h"
#include "e2x-inline.h"
#include "e2x-dir.h"
#include "e2x-itree.h"
#include "e2x-journal.h"
#include "e2x-populate.h"
#include "e2x-edit.h"
#include "e2x-quota.h"
#include "e2x-repair.h"
#include "e2x-cache.h"

#ifdef __cplusplus
}
#endif

#endif /* E2X_H */
