/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-file.h --- the data of files: blocks mapped and allocated (alloc.c),
 * the mapped ranges (file_ranges.c), content read and written (file.c,
 * file_indirect.c) and space without content (file_space.c).  Included
 * from e2x.h; inode buffers as in e2x-inode.h.
 */
#ifndef E2X_FILE_H
#define E2X_FILE_H

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

/* file_space.c --- blocks of a file without content: allocate [START,
 * END] (logical blocks, inclusive; unwritten extents, i_size
 * kept) and punch them out again (whole clusters freed only when no other
 * block of the file uses them).  Inline content is moved to a block
 * before fallocate; a punch from block 0 empties it (size 0, still a
 * valid inline file). */
errcode_t e2x_file_fallocate(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			     blk64_t end, int flags);
errcode_t e2x_file_punch(ext2_filsys fs, ext2_ino_t ino, blk64_t start,
			 blk64_t end, int flags);

/* extent_edit.c --- a file's extent tree open for walking (through the
 * libext2fs handle e2x_extent_edit_handle gives) and for edits by hand at
 * the handle's cursor.  Each edit that succeeds writes the inode once
 * more: its checksum right and i_version moved once.  Nothing checks
 * that an edit leaves a sound tree or marks bitmaps (set_bmap allocates
 * the index blocks it needs): the edits of a debugger. */
struct e2x_extent_edit;
enum e2x_extent_op {
	E2X_EXTENT_INSERT,	/* a new entry before (or after) the cursor */
	E2X_EXTENT_REPLACE,	/* the entry under the cursor */
	E2X_EXTENT_DELETE,	/* the entry under the cursor */
	E2X_EXTENT_SPLIT,	/* the cursor's node in two */
	E2X_EXTENT_FIX_PARENTS,	/* index keys above the cursor */
	E2X_EXTENT_SET_BMAP	/* map LBLK to PBLK (0: unmap) */
};
#define E2X_EXTENT_AFTER	0x0001	/* insert after the cursor */
#define E2X_EXTENT_UNINIT	0x0002	/* an unwritten extent */
struct e2x_extent_change {
	enum e2x_extent_op op;
	int flags;
	blk64_t lblk, pblk;
	uint32_t len;
};
/* Open INO's extent tree (FLAGS must be 0); close frees it all. */
errcode_t e2x_extent_edit_open(ext2_filsys fs, ext2_ino_t ino, int flags,
			       struct e2x_extent_edit **ee);
ext2_extent_handle_t e2x_extent_edit_handle(struct e2x_extent_edit *ee);
ext2_ino_t e2x_extent_edit_ino(const struct e2x_extent_edit *ee);
/* One edit; EXT2_ET_RO_FILSYS on a file system opened read-only. */
errcode_t e2x_extent_edit_apply(struct e2x_extent_edit *ee,
				const struct e2x_extent_change *c);
void e2x_extent_edit_close(struct e2x_extent_edit *ee);

#endif /* E2X_FILE_H */
