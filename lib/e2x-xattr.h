/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-xattr.h --- extended attributes: the in-inode area parsed, walked and
 * edited (xattr_ibody.c) and attributes by full name wherever they live
 * (xattr.c).  Included from e2x.h; inode buffers as in e2x-inode.h.
 */
#ifndef E2X_XATTR_H
#define E2X_XATTR_H

/*
 * xattr_ibody.c --- the in-inode extended-attribute area.
 *
 * On disk, right after the 128-byte base inode and i_extra_isize bytes:
 *   0x00  __le32 h_magic (E2X_XATTR_IBODY_MAGIC)
 *   0x04  entries, each E2X_XATTR_ENTRY_LEN(name_len) bytes, ended by four
 *         zero bytes; values sit at the end of the area, offsets counted
 *         from the first entry, each padded to 4 bytes.
 */
#define E2X_XATTR_IBODY_MAGIC	0xEA020000u
#define E2X_XATTR_INDEX_SYSTEM	7	/* "system." prefix */

struct e2x_xattr_entry {
	uint8_t e_name_len;	/* 0x00 name length, no prefix, no NUL */
	uint8_t e_name_index;	/* 0x01 prefix index (7 = system.) */
	uint16_t e_value_offs;	/* 0x02 value offset from first entry */
	uint32_t e_value_inum;	/* 0x04 EA inode with the value, or 0 */
	uint32_t e_value_size;	/* 0x08 value length in bytes */
	uint32_t e_hash;	/* 0x0C 0 for in-inode values (kernel rule) */
	/* 0x10 name, padded with zeros to a multiple of 4 */
};
#define E2X_XATTR_ENTRY_LEN(name_len) \
	((sizeof(struct e2x_xattr_entry) + (name_len) + 3) & ~(size_t)3)
#define E2X_XATTR_VALUE_LEN(size) (((size_t)(size) + 3) & ~(size_t)3)

/* One attribute as seen by e2x_xattr_ibody_list(). */
struct e2x_xattr {
	int name_index;
	const char *name;	/* not NUL-terminated: use name_len */
	size_t name_len;
	const void *value;	/* NULL when the value lives in an EA inode */
	size_t value_len;
	ext2_ino_t value_inum;
};

/* Check the whole area; E2X_ERR_CORRUPT when any length or offset is bad.
 * An inode without room for the area, or with no magic, is valid (empty). */
errcode_t e2x_xattr_ibody_check(ext2_filsys fs,
				const struct ext2_inode_large *inode);
/* Copy the value of NAME_INDEX/NAME into BUF (up to BUFSIZE bytes; BUF may
 * be NULL to learn the length).  *VALUE_LEN is the full length.
 * E2X_ERR_NOT_FOUND when absent. */
errcode_t e2x_xattr_ibody_get(ext2_filsys fs,
			      const struct ext2_inode_large *inode,
			      int name_index, const char *name, void *buf,
			      size_t bufsize, size_t *value_len);
/* Create or replace an attribute.  E2X_ERR_NO_SPACE when it does not fit;
 * the inode is then unchanged. */
errcode_t e2x_xattr_ibody_set(ext2_filsys fs, struct ext2_inode_large *inode,
			      int name_index, const char *name,
			      const void *value, size_t value_len);
/* Remove an attribute; E2X_ERR_NOT_FOUND when absent. */
errcode_t e2x_xattr_ibody_remove(ext2_filsys fs,
				 struct ext2_inode_large *inode,
				 int name_index, const char *name);
/* Call FN for each attribute in on-disk order; a nonzero return from FN
 * stops the walk and is returned. */
typedef int (*e2x_xattr_fn)(const struct e2x_xattr *xa, void *priv);
errcode_t e2x_xattr_ibody_list(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       e2x_xattr_fn fn, void *priv);
/* Largest value NAME_INDEX/NAME could get (replacing its present value,
 * keeping every other attribute).  E2X_ERR_NO_SPACE when not even the
 * entry with an empty value fits. */
errcode_t e2x_xattr_ibody_room(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       int name_index, const char *name,
			       size_t *max_value);

/*
 * What a walk of the area can find wrong, per entry (E2X_XATTR_F_*).  The
 * reading and editing functions above refuse an area with any of them but
 * VALUE_SHARED; a checker decides for itself which ones matter.
 */
#define E2X_XATTR_F_LIST_CUT	  0x01	/* no end mark inside the inode: the
					 * list is cut after this entry */
#define E2X_XATTR_F_EMPTY_NAME	  0x02	/* e_name_len 0 (POSIX ACLs, index 2
					 * and 3, are written that way) */
#define E2X_XATTR_F_VALUE_OUTSIDE 0x04	/* value over the entries or past
					 * the end of the inode */
#define E2X_XATTR_F_VALUE_SLACK	  0x08	/* value fits, but its padding (or
					 * an empty value's offset) does not */
#define E2X_XATTR_F_VALUE_SHARED  0x10	/* value shares bytes with another
					 * entry's value */
#define E2X_XATTR_F_NO_EA_INODE	  0x20	/* value in an inode, and the
					 * ea_inode feature is off */

/* One entry as e2x_xattr_ibody_walk() shows it. */
struct e2x_xattr_ibody_entry {
	struct e2x_xattr xa;	/* xa.value NULL when in an EA inode or when
				 * its place is at fault (LIST_CUT,
				 * VALUE_OUTSIDE, VALUE_SLACK) */
	unsigned int entry_off;	/* the entry's offset in the inode buffer */
	unsigned int value_off;	/* the value's, 0 for an EA-inode value */
	unsigned int faults;	/* E2X_XATTR_F_* */
};
typedef int (*e2x_xattr_walk_fn)(const struct e2x_xattr_ibody_entry *e,
				 void *priv);
/*
 * Call FN (may be NULL) for every whole entry of the area in on-disk order,
 * each with its faults, refusing nothing; *FAULTS (may be NULL) gets the
 * union of all of them.  E2X_ERR_CORRUPT only when i_extra_isize leaves no
 * place for an area; a nonzero return from FN stops the walk and is
 * returned.  An inode without an area or magic has no entries.
 */
errcode_t e2x_xattr_ibody_walk(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       e2x_xattr_walk_fn fn, void *priv,
			       unsigned int *faults);

/* xattr.c --- extended attributes by full name ("user.x",
 * "trusted.y", ...), in the inode or in an attribute block as they fit. */
errcode_t e2x_xattr_set(ext2_filsys fs, ext2_ino_t ino, const char *name,
			const void *value, size_t len, int flags);
/* Copy the value of NAME into BUF (up to BUFSIZE bytes; BUF may be NULL
 * to learn the length); *VALUE_LEN is the full length.  Values kept in
 * EA inodes are read and checked (inode in range, EA_INODE_FL, i_size,
 * value and entry hashes): E2X_ERR_CORRUPT when any is wrong.
 * E2X_ERR_NOT_FOUND when the attribute is absent. */
errcode_t e2x_xattr_get(ext2_filsys fs, ext2_ino_t ino, const char *name,
			void *buf, size_t bufsize, size_t *value_len);
/* E2X_ERR_NOT_FOUND when the attribute is absent. */
errcode_t e2x_xattr_remove(ext2_filsys fs, ext2_ino_t ino, const char *name,
			   int flags);

#endif /* E2X_XATTR_H */
