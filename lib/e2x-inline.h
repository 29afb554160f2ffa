/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-inline.h --- inline data (i_block plus the system.data in-inode
 * attribute), the in-inode extended-attribute area, file content and
 * block allocation for files.  Included from e2x.h.
 *
 * Inode buffers: every "struct ext2_inode_large *inode" below points to a
 * buffer of EXT2_INODE_SIZE(fs->super) bytes (256, 512, 1024 ...), as filled
 * by e2x_read_inode(); the in-inode attribute area lives past the struct.
 *
 * Functions that take an inode buffer change it in memory only; the caller
 * writes it once with e2x_write_inode() so that i_version moves once per
 * operation.  Functions that take only an inode number (e2x_file_*,
 * e2x_symlink_*) read and write the inode themselves, once.
 */
#ifndef E2X_INLINE_H
#define E2X_INLINE_H

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
 * inline.c --- raw inline storage of an inode's bytes: the first 60 bytes
 * in i_block, the rest in the value of system.data (which exists, maybe
 * empty, whenever EXT4_INLINE_DATA_FL is set).  Raw means: no knowledge of
 * files or directories, and i_size is left to the caller.
 */
#define E2X_INLINE_IBLOCK_SIZE	60	/* sizeof(i_block) */

static inline int e2x_inode_has_inline(const struct ext2_inode_large *inode)
{
	return (inode->i_flags & EXT4_INLINE_DATA_FL) != 0;
}
/* Most bytes this inode can hold inline: 60 + the room system.data could
 * take in the in-inode attribute area (counting its present value).
 * E2X_ERR_UNSUPPORTED when the fs lacks inline_data or the inode has no
 * in-inode attribute space. */
errcode_t e2x_inline_capacity(ext2_filsys fs, ext2_ino_t ino,
			      const struct ext2_inode_large *inode,
			      size_t *max_bytes);
/* Bytes stored inline now: 60 + length of the system.data value.
 * E2X_ERR_CORRUPT if the flag is set but system.data is missing. */
errcode_t e2x_inline_size(ext2_filsys fs, ext2_ino_t ino,
			  const struct ext2_inode_large *inode, size_t *len);
/* Copy up to BUFSIZE stored bytes into BUF; *LEN is the stored size (may
 * exceed BUFSIZE, then only BUFSIZE bytes were copied). */
errcode_t e2x_inline_get(ext2_filsys fs, ext2_ino_t ino,
			 const struct ext2_inode_large *inode, void *buf,
			 size_t bufsize, size_t *len);
/* Store exactly LEN bytes inline (LEN <= capacity, else
 * E2X_ERR_INLINE_TOO_BIG and nothing changes): i_block gets the first 60
 * (zero padded), system.data the rest (empty value when LEN <= 60);
 * sets EXT4_INLINE_DATA_FL, clears EXT4_EXTENTS_FL.  An inode that is
 * not inline yet must map no blocks (E2X_ERR_HAS_BLOCKS).  In memory only;
 * i_size untouched. */
errcode_t e2x_inline_set(ext2_filsys fs, ext2_ino_t ino,
			 struct ext2_inode_large *inode, const void *buf,
			 size_t len);
/* Drop inline storage: remove system.data, zero i_block, clear the flag.
 * The inode then maps nothing (ready for e2x_alloc_file_block()).  In
 * memory only; i_size untouched.  No-op on an inode that is not inline. */
errcode_t e2x_inline_clear(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode_large *inode);

/*
 * alloc.c --- blocks for a file or directory, extent mapped, bigalloc
 * aware: within one logical cluster every block lands in the same physical
 * cluster at the same offset; i_blocks counts whole clusters.
 */
#define E2X_ALLOC_NOZERO	0x0001	/* caller fills the whole block */

/* Give an inode that maps nothing an empty extent tree in i_block and
 * EXT4_EXTENTS_FL (E2X_ERR_HAS_BLOCKS if i_block is in use). */
errcode_t e2x_extent_root_init(ext2_filsys fs,
			       struct ext2_inode_large *inode);
/* Physical block of logical block LBLK (0 for a hole).  *FLAGS (may be
 * NULL) gets E2X_MAP_UNINIT for an unwritten extent. */
#define E2X_MAP_UNINIT		0x0001
errcode_t e2x_map_file_block(ext2_filsys fs, ext2_ino_t ino,
			     struct ext2_inode_large *inode, blk64_t lblk,
			     blk64_t *pblk, int *flags);
/* Map LBLK to a new block (zeroed unless E2X_ALLOC_NOZERO), allocating a
 * cluster near the file's other blocks when its logical cluster has none.
 * An inode mapping nothing without EXT4_EXTENTS_FL gets an empty extent
 * tree first.  Returns the existing block if LBLK is mapped already.
 * Updates i_blocks; the extent code may store the inode itself when the
 * tree grows, the caller still writes it once at the end. */
errcode_t e2x_alloc_file_block(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *inode, blk64_t lblk,
			       int flags, blk64_t *pblk);
/* Unmap and free every block from LBLK on (whole clusters only when no
 * earlier block shares them); updates i_blocks. */
errcode_t e2x_free_file_blocks(ext2_filsys fs, ext2_ino_t ino,
			       struct ext2_inode_large *inode, blk64_t lblk);

/*
 * file_ranges.c --- the mapped ranges of an inode's data, for readers.
 */
struct e2x_file_range {
	uint64_t lblk;		/* first logical block */
	blk64_t pblk;		/* its physical block */
	uint64_t len;		/* blocks */
	int flags;		/* E2X_RANGE_* */
};
#define E2X_RANGE_UNWRITTEN	0x0001	/* an unwritten extent: reads zeros */
/* Called per range in logical order; nonzero stops the walk and is
 * returned. */
typedef errcode_t (*e2x_file_range_fn)(ext2_filsys fs,
				       const struct e2x_file_range *r,
				       void *priv);
/* Every mapped range of INO (INODE: its inode as read): extent leaves as
 * stored, block maps as runs; inline and fast-symlink inodes have none.
 * Block numbers are not checked against the file system.  FLAGS: 0. */
errcode_t e2x_file_ranges(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode *inode, int flags,
			  e2x_file_range_fn fn, void *priv);

/*
 * file.c --- content of regular files: inline while it fits (inline_data
 * feature), promoted to extent-mapped blocks the moment it does not, and
 * packed back on request.  FLAGS arguments are reserved: pass 0.
 */
/* Read up to LEN bytes at OFFSET; *GOT is less than LEN only at EOF.
 * Holes and unwritten extents read as zeros. */
errcode_t e2x_file_read(ext2_filsys fs, ext2_ino_t ino, uint64_t offset,
			void *buf, size_t len, size_t *got);
/* Write LEN bytes at OFFSET (a gap past EOF becomes a hole or zeros),
 * growing i_size; promotes inline content that no longer fits. */
errcode_t e2x_file_write(ext2_filsys fs, ext2_ino_t ino, uint64_t offset,
			 const void *buf, size_t len, int flags);
/* For builders that hold INODE in memory and write it once themselves
 * (populate): NBLK whole blocks of BUF at logical block LBLK, each block
 * allocated (none may be mapped yet) and every physically contiguous run
 * written at once.  i_size is the caller's. */
errcode_t e2x_file_write_new_blocks(ext2_filsys fs, ext2_ino_t ino,
				    struct ext2_inode_large *inode,
				    blk64_t lblk, const void *buf,
				    size_t nblk);
/* Set i_size to SIZE, freeing blocks past it or zeroing inline bytes past
 * it; growing past the inline capacity promotes. */
errcode_t e2x_file_truncate(ext2_filsys fs, ext2_ino_t ino, uint64_t size,
			    int flags);
/* Move block-mapped content back inline when it fits (regular files and
 * symlinks).  0 when packed or already inline, E2X_ERR_INLINE_TOO_BIG when
 * it does not fit, E2X_ERR_UNSUPPORTED without inline_data. */
errcode_t e2x_file_pack(ext2_filsys fs, ext2_ino_t ino, int flags);
/* Force content of an inline regular file or symlink into a block. */
errcode_t e2x_file_promote(ext2_filsys fs, ext2_ino_t ino, int flags);

/* pack_all.c --- pack every regular file and symlink that fits (not
 * encrypted, verity, DAX or EA-value inodes); *PACKED (may be NULL)
 * counts them.  Directories are the directory code's business. */
errcode_t e2x_file_pack_all(ext2_filsys fs, int flags, unsigned long *packed);

/* Set the target of symlink inode INO (LEN bytes, no NUL) as the kernel
 * does: fast (LEN < 60: in i_block, no flag), else inline when the
 * inline_data feature is on and it fits, else one block. */
errcode_t e2x_symlink_write(ext2_filsys fs, ext2_ino_t ino,
			    const char *target, size_t len, int flags);
/* Read the target (not NUL-terminated) of a symlink of any kind. */
errcode_t e2x_symlink_read(ext2_filsys fs, ext2_ino_t ino, char *buf,
			   size_t bufsize, size_t *len);

/*
 * inode_new.c --- a fresh inode: number allocated and counted, fields
 * initialised (extra_isize, times; for regular files empty inline storage
 * when the feature is on, else an empty extent tree; directories and
 * symlinks get an empty i_block for their own code to fill).  Not linked
 * into any directory and not written: the caller writes it once.
 */
errcode_t e2x_inode_new(ext2_filsys fs, ext2_ino_t dir, uint16_t mode,
			struct ext2_inode_large *inode, ext2_ino_t *ino);
/* The fields of a fresh inode INO of MODE, as e2x_inode_new sets them,
 * without allocating the number (a repair recreating a fixed inode). */
errcode_t e2x_inode_setup(ext2_filsys fs, ext2_ino_t ino, uint16_t mode,
			  struct ext2_inode_large *inode);

#endif /* E2X_INLINE_H */
