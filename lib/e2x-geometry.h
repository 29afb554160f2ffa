/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-geometry.h --- file system geometry: from what the user asked for to
 * a complete superblock template (geometry.c), the mke2fs.conf profile that
 * supplies the defaults (profile.c), feature and size parsing (features.c)
 * and the writer that lays the new file system down (mkfs.c).
 */
#ifndef E2X_GEOMETRY_H
#define E2X_GEOMETRY_H

#include <sys/types.h>

/* ---- profile.c: the mke2fs.conf profile ------------------------------- */

struct e2x_profile;

/*
 * Load the profile mke2fs reads: $MKE2FS_CONFIG when set, else
 * /etc/mke2fs.conf; when that file does not exist, the built-in default
 * (the same settings e2fsprogs 1.47 ships).  On a syntax error returns
 * E2X_ERR_BAD_OPTION with the line number in *bad_line.
 */
errcode_t e2x_profile_load(const char *path, struct e2x_profile **ret,
			   int *bad_line);
/* Parse profile text held in memory (tests, built-in default). */
errcode_t e2x_profile_parse(const char *text, struct e2x_profile **ret,
			    int *bad_line);
/* The built-in default profile text. */
const char *e2x_profile_default_text(void);
void e2x_profile_free(struct e2x_profile *prof);
/*
 * Value of `tag` in [section] (subsection NULL) or in the relation
 * `subsection = { ... }` of [section]; NULL when absent.  The last
 * definition wins, as in the reference.
 */
const char *e2x_profile_get(const struct e2x_profile *prof,
			    const char *section, const char *subsection,
			    const char *tag);
/*
 * Look `tag` up through a list of [fs_types] names (later names win) and
 * then [defaults]; NULL when absent everywhere.
 */
const char *e2x_profile_lookup(const struct e2x_profile *prof,
			       const char *const *types, const char *tag);
/* True when [fs_types] has a relation named `type`. */
int e2x_profile_has_type(const struct e2x_profile *prof, const char *type);

/* ---- features.c: names, sizes, lists ---------------------------------- */

/* A feature set, the three words of the superblock. */
struct e2x_features {
	__u32 compat;
	__u32 incompat;
	__u32 ro_compat;
};

/*
 * Apply a comma (or space) separated feature list to *f: "name" sets,
 * "^name" clears, "none" clears all.  Features named with ^ are also
 * recorded in *cleared, the others in *set (either may be NULL).  An
 * unknown name returns E2X_ERR_UNKNOWN_FEATURE and copies it to bad.
 */
errcode_t e2x_features_edit(struct e2x_features *f, const char *list,
			    struct e2x_features *set,
			    struct e2x_features *cleared, char *bad,
			    size_t badlen);
/* Name of one feature (compat word 0, incompat 1, ro_compat 2); NULL if
 * unknown. */
const char *e2x_feature_name(int word, __u32 mask);
/* Write the space-separated names of every feature in f to buf. */
void e2x_features_format(const struct e2x_features *f, char *buf,
			 size_t len);

/*
 * Parse a size with an optional k/m/g/t (or K/M/G/T) suffix: a bare
 * number counts units of `unit` bytes.  Returns the size in bytes.
 */
errcode_t e2x_parse_size(const char *s, unsigned long long unit,
			 unsigned long long *bytes);
/* Parse mount option names (default_mntopts) into s_default_mount_opts. */
errcode_t e2x_parse_mntopts(const char *list, __u32 *opts, char *bad,
			    size_t badlen);
/* Directory hash name (half_md4, tea, legacy) to EXT2_HASH_*; -1 if
 * unknown. */
int e2x_hash_alg(const char *name);

/* ---- geometry.c: request -> superblock template ----------------------- */

/* What the user typed.  Zero / NULL means "not given"; fields that may
 * legitimately be zero have a flag in `given`. */
#define E2X_GIVEN_RESERVED	0x0001	/* reserved_ratio */
#define E2X_GIVEN_LAZY_ITABLE	0x0002
#define E2X_GIVEN_LAZY_JOURNAL	0x0004
#define E2X_GIVEN_DISCARD	0x0008
#define E2X_GIVEN_ROOT_OWNER	0x0010
#define E2X_GIVEN_NUM_BACKUP	0x0020
#define E2X_GIVEN_PACKED	0x0040
#define E2X_GIVEN_SIZE		0x0080	/* fs_bytes */
#define E2X_GIVEN_HASH_SEED	0x0100	/* hash_seed */

struct e2x_mkfs_request {
	unsigned int given;		/* E2X_GIVEN_* */
	const char *fs_type;		/* -t: ext2, ext3, ext4 (NULL: ext4) */
	const char *usage_types;	/* -T list (NULL: by size) */
	unsigned long long fs_bytes;	/* size operand (bytes) */
	unsigned int blocksize;		/* -b */
	unsigned int cluster_size;	/* -C (bytes) */
	unsigned int inode_size;	/* -I */
	unsigned int inode_ratio;	/* -i */
	unsigned long long num_inodes;	/* -N */
	double reserved_ratio;		/* -m (percent) */
	unsigned int blocks_per_group;	/* -g */
	unsigned int flex_bg_size;	/* -G */
	const char *label;		/* -L */
	const char *last_mounted;	/* -M */
	const char *uuid;		/* -U: uuid, clear, random, time */
	const char *features;		/* -O */
	int journal;			/* -j or -J given */
	unsigned int journal_mb;	/* -J size= (MiB) */
	int lazy_itable_init;		/* -E lazy_itable_init= */
	int lazy_journal_init;		/* -E lazy_journal_init= */
	int discard;			/* -E discard / nodiscard */
	unsigned int root_uid;		/* -E root_owner= */
	unsigned int root_gid;
	unsigned int stride;		/* -E stride= (blocks) */
	unsigned int stripe_width;	/* -E stripe_width= (blocks) */
	unsigned int num_backup_sb;	/* -E num_backup_sb= (sparse_super2) */
	int packed_meta_blocks;		/* -E packed_meta_blocks= */
	unsigned char hash_seed[16];	/* -E hash_seed= (directory hashes) */
	unsigned int reserved[4];
};

/* What we know of the target. */
struct e2x_target_info {
	unsigned long long size_bytes;	/* 0: unknown (image to create) */
	unsigned int logical_sector;	/* 0: unknown */
	unsigned int physical_sector;
	unsigned long min_io;		/* topology hints (bytes), 0: none */
	unsigned long optimal_io;
	unsigned long alignment_offset;
	int is_device;			/* a block device */
	int lazy_itable_ok;		/* kernel zeroes inode tables lazily */
	unsigned int reserved[4];
};

/* How the UUID is chosen. */
enum e2x_uuid_mode {
	E2X_UUID_RANDOM = 0,
	E2X_UUID_TIME,
	E2X_UUID_CLEAR,
	E2X_UUID_GIVEN,
};

/* Things geometry decided on the user's behalf, worth telling them. */
#define E2X_NOTE_64BIT_AUTO	0x0001	/* 64bit set: > 2^32 blocks */
#define E2X_NOTE_RESIZE_OFF	0x0002	/* resize_inode off: > 2^32 blocks */
#define E2X_NOTE_NO_JOURNAL	0x0004	/* too small for a journal */
#define E2X_NOTE_BIGALLOC_EXP	0x0008	/* cluster > 16 blocks */
#define E2X_NOTE_128_INODE	0x0010	/* 128-byte inodes: no 2038+ dates */

/* The computed geometry: a superblock template for ext2fs_initialize and
 * the decisions that live outside the superblock. */
struct e2x_geometry {
	struct ext2_super_block sb;	/* template (param of initialize) */
	char fs_type[16];		/* ext2, ext3, ext4 */
	char types[160];		/* profile types used, comma list */
	unsigned long long blocks;	/* file system size in blocks */
	unsigned int blocksize;
	unsigned int cluster_size;	/* == blocksize without bigalloc */
	unsigned int inode_size;
	unsigned int inode_ratio;
	int journal;			/* create a journal */
	unsigned int journal_mb;	/* requested size, 0: default */
	int lazy_itable_init;
	int lazy_journal_init;
	int discard;
	int packed_meta_blocks;
	unsigned int root_uid;
	unsigned int root_gid;
	enum e2x_uuid_mode uuid_mode;
	unsigned int notes;		/* E2X_NOTE_* */
	unsigned int reserved[8];
};

/*
 * Turn a request into a geometry, following the reference mke2fs's rules
 * (profile lookups by fs type and size class, block size by size, inode
 * ratio, reserved blocks, flex_bg, 64bit for > 2^32 blocks).  Nothing is
 * printed; on refusal returns an E2X_ERR_* code and a one-line reason in
 * why (when why is not NULL).
 */
errcode_t e2x_geometry_calc(const struct e2x_mkfs_request *req,
			    const struct e2x_target_info *target,
			    const struct e2x_profile *prof,
			    struct e2x_geometry *geom, char *why,
			    size_t whylen);

/* ---- nullio.c: an io manager that stores nothing (dry runs) ----------- */
extern io_manager e2x_null_io_manager;

/* ---- mkfs.c: writing the new file system ------------------------------ */

#define E2X_MKFS_DRY_RUN	0x0001	/* lay out in memory only */

/*
 * Lay the file system out in memory (ext2fs_initialize) on `target`,
 * apply the geometry's UUID, label, hash and defaults, and work out the
 * journal size (*journal_blocks, 0: none).  With E2X_MKFS_DRY_RUN nothing
 * touches the target.
 */
errcode_t e2x_mkfs_init(const struct e2x_geometry *geom, const char *target,
			int flags, ext2_filsys *ret_fs,
			blk64_t *journal_blocks, char *why, size_t whylen);
/* The same through the io manager MGR (NULL: unix_io), e.g. the undo
 * manager e2x_undo_manager() set up; ignored with E2X_MKFS_DRY_RUN. */
errcode_t e2x_mkfs_init_io(const struct e2x_geometry *geom,
			   const char *target, int flags, io_manager mgr,
			   ext2_filsys *ret_fs, blk64_t *journal_blocks,
			   char *why, size_t whylen);
/*
 * Write everything: discard, group tables, inode tables, root directory,
 * lost+found, reserved inodes, resize inode, journal and accounting.
 * The caller closes with e2x_mkfs_close().
 */
errcode_t e2x_mkfs_write(ext2_filsys fs, const struct e2x_geometry *geom,
			 blk64_t journal_blocks);
/* Flush superblocks and descriptors, close and free the handle. */
errcode_t e2x_mkfs_close(ext2_filsys *fs);

#endif
