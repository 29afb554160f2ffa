/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-convert.h --- in-place conversions of a whole file system (tune2fs
 * -O, e2fsck -D): inline data and itree on and off (convert.c), metadata
 * checksums (csum_convert.c), directory indexes.  Included from e2x.h.
 */
#ifndef E2X_CONVERT_H
#define E2X_CONVERT_H

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

#endif /* E2X_CONVERT_H */
