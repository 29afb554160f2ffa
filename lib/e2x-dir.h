/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-dir.h --- directories: the entry format (dirent.c), the name policy
 * (dir_name.c), the API every program uses over the layered engine (dir.c
 * dispatches to the inline, linear and htree forms; dir_change.c adds and
 * removes with changes of form and itree upkeep; see dir-int.h), namespace
 * operations (dir_ops.c) and the checker (dir_verify.c).
 */
#ifndef E2X_DIR_H
#define E2X_DIR_H

/*
 * On-disk formats.  All fields little-endian; offsets in the comments.
 */

/* A directory entry (with the filetype feature). */
struct e2x_dirent {
/*00*/	uint32_t inode;		/* 0 = unused record */
/*04*/	uint16_t rec_len;	/* encoded, see e2x_rec_len_decode() */
/*06*/	uint8_t name_len;
/*07*/	uint8_t file_type;	/* EXT2_FT_* */
/*08*/	char name[];		/* not NUL-terminated */
};
#define E2X_DIRENT_HDR		8
#define E2X_NAME_MAX		255

/* The checksum tail: the last 12 bytes of a leaf block with metadata_csum,
 * shaped as an unused entry so old readers skip it. */
struct e2x_dirent_tail {
/*00*/	uint32_t det_reserved_zero1;	/* inode 0 */
/*04*/	uint16_t det_rec_len;		/* 12 */
/*06*/	uint8_t det_reserved_zero2;	/* name_len 0 */
/*07*/	uint8_t det_reserved_ft;	/* 0xDE */
/*08*/	uint32_t det_checksum;		/* crc32c, see e2x_dirblk_csum() */
};
#define E2X_DIRENT_TAIL_SIZE	12
#define E2X_DIRENT_TAIL_FT	0xDE

/* htree root: '.' (rec_len 12), '..' (rec_len bs - 12), then this. */
struct e2x_dx_root_info {
/*00*/	uint32_t reserved_zero;
/*04*/	uint8_t hash_version;		/* EXT2_HASH_*, signed variant */
/*05*/	uint8_t info_length;		/* 8 */
/*06*/	uint8_t indirect_levels;	/* 0..1, 0..2 with large_dir */
/*07*/	uint8_t unused_flags;
};
/* Overlays the hash of entry 0 of every index block. */
struct e2x_dx_countlimit {
/*00*/	uint16_t limit;
/*02*/	uint16_t count;
};
struct e2x_dx_entry {
/*00*/	uint32_t hash;		/* low bit: continuation of previous leaf */
/*04*/	uint32_t block;		/* logical block in the directory */
};
/* After the last possible dx_entry of an index block with metadata_csum. */
struct e2x_dx_tail {
/*00*/	uint32_t dt_reserved;
/*04*/	uint32_t dt_checksum;
};
#define E2X_DX_ROOT_INFO_OFF	24	/* dx_root_info in block 0 */
#define E2X_DX_ROOT_CL_OFF	32	/* countlimit in block 0 */
#define E2X_DX_NODE_CL_OFF	8	/* countlimit after the fake entry */
#define E2X_INLINE_DOTDOT_SIZE	4	/* parent inode before inline entries */

/*
 * dirent.c --- entry format and the records of one block (or inline region)
 */
/* Smallest record holding a name of NAME_LEN bytes. */
unsigned int e2x_dirent_min_len(unsigned int name_len);
/* rec_len <-> disk for block size BS (65536 is stored as 65535). */
unsigned int e2x_rec_len_decode(uint16_t raw, unsigned int bs);
uint16_t e2x_rec_len_encode(unsigned int len, unsigned int bs);
unsigned int e2x_dirent_rec_len(const struct e2x_dirent *de,
				unsigned int bs);
void e2x_dirent_set_rec_len(struct e2x_dirent *de, unsigned int len,
			    unsigned int bs);
/* Fill NAME into a record at DE (rec_len untouched). */
void e2x_dirent_fill(struct e2x_dirent *de, ext2_ino_t ino, const char *name,
		     unsigned int name_len, unsigned int file_type);
/* The per-inode checksum seed: crc32c(fs seed, ino, generation). */
uint32_t e2x_dir_csum_seed(ext2_filsys fs, ext2_ino_t ino, uint32_t gen);
/* Leaf block tail: initialise, test, compute and store the checksum. */
void e2x_dirblk_tail_init(void *block, unsigned int bs);
int e2x_dirblk_has_tail(const void *block, unsigned int bs);
uint32_t e2x_dirblk_csum(uint32_t seed, const void *block, unsigned int bs);
void e2x_dirblk_csum_set(uint32_t seed, void *block, unsigned int bs);
/* Index block checksum (COUNT_OFF = offset of the countlimit). */
uint32_t e2x_dx_csum(uint32_t seed, const void *block, unsigned int count_off);
int e2x_dx_csum_set(uint32_t seed, void *block, unsigned int bs,
		    unsigned int count_off);
/* Index limits for block size BS. */
unsigned int e2x_dx_root_limit(unsigned int bs, int csum);
unsigned int e2x_dx_node_limit(unsigned int bs, int csum);

/*
 * A region is a chain of records covering SIZE bytes at BUF (a block minus
 * its tail, or an inline part).  BS is the fs block size (rec_len coding).
 */
struct e2x_dirregion {
	char *buf;
	unsigned int size;
	unsigned int bs;
};
/* Every record well-formed and the chain exactly covering the region. */
errcode_t e2x_dirregion_check(const struct e2x_dirregion *r);
/* One unused record covering the region. */
void e2x_dirregion_init(struct e2x_dirregion *r);
/* Offset of NAME (>= 0) or -1; *PREV gets the previous record or -1. */
int e2x_dirregion_find(const struct e2x_dirregion *r, const char *name,
		       unsigned int name_len, int *prev);
/* Insert a record; E2X_ERR_NO_SPACE when no gap is large enough. */
errcode_t e2x_dirregion_insert(struct e2x_dirregion *r, ext2_ino_t ino,
			       const char *name, unsigned int name_len,
			       unsigned int file_type);
/* Remove the record at OFF, merging it into PREV (or clearing it). */
void e2x_dirregion_remove(struct e2x_dirregion *r, int off, int prev);
/* Bytes the live records need when packed. */
unsigned int e2x_dirregion_used(const struct e2x_dirregion *r);
/* Number of live records. */
unsigned int e2x_dirregion_count(const struct e2x_dirregion *r);

/*
 * dir.c, dir_change.c --- the API over inline, linear and htree directories
 */
enum e2x_dir_order {
	E2X_DIR_ORDER_DISK = 0,	/* as stored */
	E2X_DIR_ORDER_HASH = 1,	/* by (hash, minor hash) of the dir */
	E2X_DIR_ORDER_INODE = 2	/* by inode number (itree when present) */
};

/* One entry handed to an iterator. */
struct e2x_dir_entry {
	ext2_ino_t ino;
	unsigned int name_len;
	unsigned int file_type;
	const char *name;	/* not NUL-terminated; valid during callback */
	uint32_t hash;		/* valid for HASH and INODE orders */
	uint32_t minor_hash;
	uint64_t reserved[2];
};
/* Return 0 to continue, E2X_DIR_ITER_STOP to stop, anything else = error
 * passed back by e2x_dir_iterate(). */
#define E2X_DIR_ITER_STOP	1
typedef int (*e2x_dir_iter_fn)(const struct e2x_dir_entry *ent, void *priv);

/* Flags. */
#define E2X_DIR_ITER_DOTS	0x0001	/* also report '.' and '..' */
#define E2X_DIR_NO_ITREE	0x0100	/* add/remove: leave the itree alone */
#define E2X_DIR_NO_INDEX	0x0200	/* add: never build an htree */
#define E2X_DIR_NOREPLACE	0x0400	/* rename: fail if the target exists */
#define E2X_DIR_MKDIR_BLOCK	0x0800	/* mkdir: a block even with inline_data */
#define E2X_DIR_VERIFY_FAST	0x1000	/* verify: skip reading entry inodes */
#define E2X_DIR_BUILD_FULL	0x2000	/* build_htree: leaves filled up (a
					 * directory that will rarely grow) */

/* Look NAME up in DIR; E2X_ERR_NOT_FOUND if absent.  INO/FILE_TYPE may be
 * NULL. */
errcode_t e2x_dir_lookup(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, ext2_ino_t *ino,
			 unsigned int *file_type);
/* Add an entry (no link count change).  Promotes inline directories,
 * builds the htree (and itree) when a directory outgrows one block. */
errcode_t e2x_dir_add(ext2_filsys fs, ext2_ino_t dir, const char *name,
		      unsigned int name_len, ext2_ino_t ino,
		      unsigned int file_type, int flags);
/* Remove an entry (no link count change); OLD_INO may be NULL. */
errcode_t e2x_dir_remove(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, int flags,
			 ext2_ino_t *old_ino);
errcode_t e2x_dir_iterate(ext2_filsys fs, ext2_ino_t dir,
			  enum e2x_dir_order order, int flags,
			  e2x_dir_iter_fn fn, void *priv);
/* Index a block directory with an htree (and itree if the fs has it). */
errcode_t e2x_dir_build_htree(ext2_filsys fs, ext2_ino_t dir, int flags);
/* One new entry for e2x_dir_add_many (no link count change). */
struct e2x_dir_new {
	const char *name;
	unsigned int name_len;
	ext2_ino_t ino;
	unsigned int file_type;		/* EXT2_FT_* */
};
/* Add N entries with distinct new names at once (lib/dir/dir_fill.c): each
 * leaf read and written once; a directory that outgrows one block is
 * indexed straight from the sorted entries (E2X_DIR_BUILD_FULL: leaves
 * filled up; E2X_DIR_NO_INDEX honoured).  A name already present or
 * given twice: E2X_ERR_EXISTS before any block is written (entries that
 * went inline before the directory left the inode stay). */
errcode_t e2x_dir_add_many(ext2_filsys fs, ext2_ino_t dir,
			   const struct e2x_dir_new *v, size_t n, int flags);
/* Number of live entries (without '.' and '..'). */
errcode_t e2x_dir_count(ext2_filsys fs, ext2_ino_t dir, uint64_t *count);
/* The form a directory is stored in. */
enum e2x_dir_form {
	E2X_DIR_FORM_INLINE = 1,
	E2X_DIR_FORM_LINEAR = 2,
	E2X_DIR_FORM_HTREE = 3
};
errcode_t e2x_dir_form(ext2_filsys fs, ext2_ino_t dir, enum e2x_dir_form *f);
/* Hash of NAME as directory DIR's index (or the fs default) orders it. */
errcode_t e2x_dir_hash(ext2_filsys fs, ext2_ino_t dir, const char *name,
		       unsigned int name_len, uint32_t *hash, uint32_t *minor);

/*
 * dir_name.c --- the name policy: every hash or comparison of a directory
 * name, in lib and in the programs, goes through these.
 */
struct e2x_name_policy {
	int version;		/* EXT2_HASH_*, unsigned variant applied */
	int casefold;		/* fold names through ENCODING */
	const uint32_t *seed;	/* s_hash_seed (zeros: the default seed) */
	const struct ext2fs_nls_table *encoding;
	int reserved[4];
};
/* VERSION as stored (dx_root or s_def_hash_version) with the superblock's
 * unsigned-char variant applied to the legacy algorithms (applying it to a
 * version already applied changes nothing). */
int e2x_name_hash_version(ext2_filsys fs, int version);
/* The policy of a directory with inode flags DIR_FLAGS (EXT4_CASEFOLD_FL
 * counts when the fs has an encoding) whose names hash with VERSION (as
 * stored or applied); the seed and encoding are the file system's. */
void e2x_name_policy_init(ext2_filsys fs, uint32_t dir_flags, int version,
			  struct e2x_name_policy *p);
errcode_t e2x_name_hash(const struct e2x_name_policy *p, const char *name,
			unsigned int len, uint32_t *hash, uint32_t *minor);
/* 1 when the names are the same name under P (NULL: byte equality). */
int e2x_name_equal(const struct e2x_name_policy *p, const char *a,
		   unsigned int alen, const char *b, unsigned int blen);
/* The EXT2_FT_* an entry records for an inode of MODE (0: unknown). */
unsigned int e2x_ftype_of_mode(unsigned int mode);

/*
 * dir_ops.c --- namespace operations: inodes, link counts, '.' and '..'
 */
/* Create directory NAME in PARENT: inline when the fs has inline_data
 * (never lost+found in the root, nor with E2X_DIR_MKDIR_BLOCK), else one
 * block with '.' and '..'.  Counts the parent's link (dir_nlink). */
errcode_t e2x_dir_mkdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			unsigned int name_len, unsigned int mode, int flags,
			ext2_ino_t *ino);
/* Remove the empty directory NAME from PARENT and free it. */
errcode_t e2x_dir_rmdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			unsigned int name_len, int flags);
/* Create an empty inode of MODE (not a directory) linked as NAME. */
errcode_t e2x_dir_mknod(ext2_filsys fs, ext2_ino_t dir, const char *name,
			unsigned int name_len, unsigned int mode, int flags,
			ext2_ino_t *ino);
/* dir_create.c --- NAME and a new inode made whole in one call, with one
 * i_version move; on failure neither is left behind.  A character or
 * block device (MODE) with its numbers (major < 4096, minor < 2^20, stored
 * as the kernel does); a symbolic link to TARGET (fast, inline or one
 * block); a regular file holding LEN bytes of DATA (inline while it
 * fits).  FLAGS as e2x_dir_mknod. */
errcode_t e2x_dir_mkdev(ext2_filsys fs, ext2_ino_t dir, const char *name,
			unsigned int name_len, unsigned int mode,
			unsigned int major, unsigned int minor, int flags,
			ext2_ino_t *ino);
errcode_t e2x_dir_symlink(ext2_filsys fs, ext2_ino_t dir, const char *name,
			  unsigned int name_len, const char *target,
			  size_t target_len, int flags, ext2_ino_t *ino);
errcode_t e2x_dir_create_file(ext2_filsys fs, ext2_ino_t dir,
			      const char *name, unsigned int name_len,
			      unsigned int mode, const void *data, size_t len,
			      int flags, ext2_ino_t *ino);
/* Add a hard link NAME -> INO (a non-directory) and count it. */
errcode_t e2x_dir_link(ext2_filsys fs, ext2_ino_t dir, const char *name,
		       unsigned int name_len, ext2_ino_t ino, int flags);
/* Remove NAME (a non-directory), dropping its link count; the inode and
 * its blocks are freed at zero. */
errcode_t e2x_dir_unlink(ext2_filsys fs, ext2_ino_t dir, const char *name,
			 unsigned int name_len, int flags);
/* Rename within or across directories; replaces a non-directory or an
 * empty directory target unless E2X_DIR_NOREPLACE. */
errcode_t e2x_dir_rename(ext2_filsys fs, ext2_ino_t odir, const char *oname,
			 unsigned int olen, ext2_ino_t ndir, const char *nname,
			 unsigned int nlen, int flags);
/* Pack a block directory back inline when it fits (conversion). */
errcode_t e2x_dir_pack_inline(ext2_filsys fs, ext2_ino_t dir, int flags);

/*
 * dir_verify.c --- every violated invariant of one directory
 */
enum e2x_dir_problem_code {
	E2X_DIRP_NOT_DIR = 1,
	E2X_DIRP_BAD_SIZE,	/* i_size not matching the form */
	E2X_DIRP_HOLE,		/* unmapped block inside i_size */
	E2X_DIRP_BAD_RECORD,	/* rec_len / name_len out of bounds */
	E2X_DIRP_BAD_INODE,	/* entry inode number out of range */
	E2X_DIRP_BAD_TYPE,	/* file type invalid */
	E2X_DIRP_BAD_NAME,	/* '/' or NUL in a name, or empty */
	E2X_DIRP_DUP_NAME,
	E2X_DIRP_NO_DOT,	/* '.' or '..' missing or misplaced */
	E2X_DIRP_NO_TAIL,	/* metadata_csum block without a tail */
	E2X_DIRP_BAD_CSUM,
	E2X_DIRP_DX_ROOT,	/* dx_root_info invalid */
	E2X_DIRP_DX_LIMIT,	/* count/limit wrong */
	E2X_DIRP_DX_ORDER,	/* index hashes not ascending */
	E2X_DIRP_DX_RANGE,	/* entry in a leaf outside its hash range */
	E2X_DIRP_DX_REF,	/* block referenced twice or never */
	E2X_DIRP_DX_DEPTH,	/* too many levels */
	E2X_DIRP_INLINE,	/* inline parent or region invalid */
	E2X_DIRP_FLAGS,		/* inode flags contradict the form */
	E2X_DIRP_ITREE,		/* reported by the itree verifier */
	E2X_DIRP_MAX
};
struct e2x_dir_problem {
	enum e2x_dir_problem_code code;
	uint64_t lblk;		/* logical block, or ~0 when not in a block */
	unsigned int offset;	/* byte offset in the block */
	char desc[96];
};
struct e2x_dir_problems {
	size_t count;
	size_t cap;
	struct e2x_dir_problem *list;
};
/* Check every invariant of DIR; problems are appended to *OUT (initialise
 * it to zeros; free with e2x_dir_problems_free).  Returns an error only
 * when the check itself could not run. */
errcode_t e2x_dir_verify(ext2_filsys fs, ext2_ino_t dir, int flags,
			 struct e2x_dir_problems *out);
void e2x_dir_problems_free(struct e2x_dir_problems *p);
const char *e2x_dir_problem_name(enum e2x_dir_problem_code code);

/* dir_edit.c --- whole-directory edits over the directory engine:
 * each reads and writes the inodes it changes and moves i_version once. */
/* Append one empty leaf block to a linear directory; an inline directory
 * is moved into its first block instead.  E2X_ERR_UNSUPPORTED for an
 * indexed directory (a block outside the index would be lost). */
errcode_t e2x_dir_expand(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Build (or rebuild) the itree of an htree directory from its entries.
 * E2X_ERR_UNSUPPORTED without the itree feature, for a directory that is
 * not indexed, or without in-inode room for the root record. */
errcode_t e2x_dir_itree_build(ext2_filsys fs, ext2_ino_t dir, int flags);
/* Drop a directory's itree, freeing its nodes (E2X_ERR_NOT_FOUND when it
 * has none). */
errcode_t e2x_dir_itree_drop(ext2_filsys fs, ext2_ino_t dir, int flags);


#endif
