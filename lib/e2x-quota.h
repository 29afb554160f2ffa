/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-quota.h --- read-only access to the quota files (format v2,
 * revision 1) that the quota feature keeps in the inodes named by the
 * superblock.  Included from e2x.h.
 *
 * A quota file is a tree of 1 KiB blocks: block 0 holds the header
 * (magic per type, version 1) and the free lists, block 1 is the root.
 * Four levels of 256 little-endian block references, indexed by the
 * bytes of the id from the highest, lead to data blocks: a 16-byte
 * header and fourteen 72-byte records (an all-zero record is unused).
 */
#ifndef E2X_QUOTA_H
#define E2X_QUOTA_H

enum {
	E2X_QUOTA_USER,
	E2X_QUOTA_GROUP,
	E2X_QUOTA_PROJECT,
	E2X_QUOTA_TYPES
};

/* One record, as stored (limits as the kernel left them). */
struct e2x_dquot {
	uint32_t id;
	uint64_t ihardlimit, isoftlimit, curinodes;
	uint64_t bhardlimit, bsoftlimit, curspace;	/* space in bytes */
	uint64_t btime, itime;
};

/* The format information of a quota file's header (block 0). */
struct e2x_quota_info {
	uint32_t magic, bgrace, igrace, flags;
};

/* A quota file read into memory. */
struct e2x_quota_file;

/* The inode of quota TYPE named by the superblock (0 when none). */
ext2_ino_t e2x_quota_inode(ext2_filsys fs, int type);

/*
 * Read the quota file of TYPE.  EXT2_ET_BAD_INODE_NUM when the superblock
 * names none, E2X_ERR_CORRUPT when its size cannot be a quota file, else
 * the file read's error.  Free with e2x_quota_close().
 */
errcode_t e2x_quota_open(ext2_filsys fs, int type,
			 struct e2x_quota_file **qfp);
void e2x_quota_close(struct e2x_quota_file *qf);
/* The header's magic, grace times and flags. */
void e2x_quota_file_info(const struct e2x_quota_file *qf,
			 struct e2x_quota_info *info);

/*
 * Call FN for every used record, in the tree's order (ascending ids);
 * FN returning non-zero stops the walk.  E2X_ERR_CORRUPT when the header
 * is not the type's or a reference leads outside the file.
 */
errcode_t e2x_quota_iterate(struct e2x_quota_file *qf,
			    int (*fn)(const struct e2x_dquot *dq, void *priv),
			    void *priv);

/*
 * Look ID up by its path down the tree.  E2X_ERR_NOT_FOUND when the file
 * has no record for it (DQ is then zero but for the id).
 */
errcode_t e2x_quota_get(struct e2x_quota_file *qf, uint32_t id,
			struct e2x_dquot *dq);

#endif
