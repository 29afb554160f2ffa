/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-populate.h --- filling a new file system from a source: a directory
 * tree (populate_dirsrc.c) or an ext2/3/4 image read-only through libext2fs
 * (populate_imgsrc.c), copied by one engine (populate.c) through libe2x.
 */
#ifndef E2X_POPULATE_H
#define E2X_POPULATE_H

#include <stdint.h>

/* What a source tells about one entry (times in seconds + nanoseconds). */
struct e2x_pop_stat {
	uint32_t mode;		/* type and permission bits (LINUX_S_*) */
	uint32_t uid, gid;
	uint32_t nlink;
	uint64_t size;
	uint32_t rdev_major, rdev_minor;
	int64_t atime, mtime, ctime, crtime;
	uint32_t atime_ns, mtime_ns, ctime_ns, crtime_ns;
	uint32_t flags;		/* EXT2_*_FL the user may set (chattr) */
	uint32_t projid;
	uint64_t id;		/* identity for hard links */
	uint64_t alloc_bytes;	/* space the source allocates (holes: less) */
	unsigned int have;	/* E2X_POP_HAVE_* */
	uint32_t reserved[4];
};
#define E2X_POP_HAVE_CRTIME	0x0001
#define E2X_POP_HAVE_FLAGS	0x0002
#define E2X_POP_HAVE_PROJID	0x0004
#define E2X_POP_HAVE_ALLOC	0x0008	/* alloc_bytes is known */

/* One directory entry of a source. */
struct e2x_pop_entry {
	char *name;		/* NUL-terminated, owned by the source list */
	unsigned int name_len;
	uint64_t cookie;	/* source's own handle (inode number...) */
	struct e2x_pop_stat st;
};

/* Called for each extended attribute: full name ("user.x"), value in the
 * form getxattr(2) returns it (POSIX ACLs in the VFS layout). */
typedef errcode_t (*e2x_pop_xattr_fn)(const char *name, const void *value,
				      size_t len, void *priv);

/* A source: a table of operations over opaque directory and file
 * handles.  Entries are listed with their stat filled in. */
struct e2x_pop_source_ops {
	errcode_t (*root)(void *s, void **dir, struct e2x_pop_stat *st);
	errcode_t (*list)(void *s, void *dir, struct e2x_pop_entry **v,
			  size_t *n);
	errcode_t (*open_dir)(void *s, void *dir, struct e2x_pop_entry *e,
			      void **sub);
	void (*close_dir)(void *s, void *dir);
	errcode_t (*open_file)(void *s, void *dir, struct e2x_pop_entry *e,
			       void **f);
	/* First data byte range at or after OFF: [*start, *end); *start ==
	 * *end when the rest of the file is a hole. */
	errcode_t (*next_data)(void *s, void *f, uint64_t off, uint64_t *start,
			       uint64_t *end);
	errcode_t (*read)(void *s, void *f, uint64_t off, void *buf,
			  size_t len, size_t *got);
	void (*close_file)(void *s, void *f);
	errcode_t (*readlink)(void *s, void *dir, struct e2x_pop_entry *e,
			      char *buf, size_t size, size_t *len);
	/* HANDLE: the open file or directory of E, or NULL. */
	errcode_t (*xattrs)(void *s, void *dir, struct e2x_pop_entry *e,
			    void *handle, e2x_pop_xattr_fn fn, void *priv);
	/* Entries below the root (for progress) and, when BYTES is not
	 * NULL, the bytes of regular file data they hold. */
	errcode_t (*count)(void *s, uint64_t *n, uint64_t *bytes);
	void (*close)(void *s);
};

struct e2x_pop_source {
	const struct e2x_pop_source_ops *ops;
	void *priv;
	const char *kind;	/* "directory" or "image" */
	uint64_t blocks_hint;	/* bytes the source holds, if known */
	unsigned int want;	/* E2X_POP_WANT_*, set by the engine */
};
#define E2X_POP_WANT_PROJID	0x0001	/* the target keeps project ids */

/* Open SOURCE: a directory, or an ext2/3/4 image file or block device
 * (read-only).  Refusals (E2X_ERR_MOUNTED for a read-write mounted image,
 * E2X_ERR_JOURNAL when its journal needs recovery, EXT2_ET_* when it is
 * no ext2/3/4 file system) leave a reason in WHY. */
errcode_t e2x_pop_source_open(const char *path, int flags,
			      struct e2x_pop_source **src, char *why,
			      size_t whylen);
void e2x_pop_source_close(struct e2x_pop_source *src);
/* populate_dirsrc.c / populate_imgsrc.c constructors. */
errcode_t e2x_pop_dirsrc_open(const char *path, struct e2x_pop_source *src,
			      char *why, size_t whylen);
errcode_t e2x_pop_imgsrc_open(const char *path, struct e2x_pop_source *src,
			      char *why, size_t whylen);

/* What a populate run did. */
struct e2x_pop_summary {
	uint64_t entries;	/* source entries handled */
	uint64_t files, dirs, symlinks, specials, hardlinks;
	uint64_t bytes;		/* regular file content (i_size sum) */
	uint64_t inlined;	/* files, symlinks, dirs stored inline */
	uint64_t inline_saved;	/* bytes of blocks inlining avoided */
	uint64_t xattrs;
	uint64_t reserved[4];
	/* On failure: the source path that failed (malloc'd, may be NULL). */
	char *fail_path;
};

/* Progress: called every few hundred entries and at the end. */
typedef void (*e2x_pop_progress_fn)(uint64_t done, uint64_t total,
				    void *priv);

#define E2X_POP_KEEP_ROOT_OWNER	0x0001	/* root's uid/gid stay as made */

struct e2x_pop_opts {
	int flags;
	uint64_t total;		/* entries expected (0: unknown) */
	e2x_pop_progress_fn progress;
	void *progress_priv;
	uint64_t reserved[4];
};

/* Copy everything below the source's root into directory ROOT of FS
 * (root's own attributes too).  An existing directory of the same name
 * (lost+found) is merged into.  On failure SUM->fail_path says where. */
errcode_t e2x_populate(ext2_filsys fs, ext2_ino_t root,
		       struct e2x_pop_source *src,
		       const struct e2x_pop_opts *opts,
		       struct e2x_pop_summary *sum);
void e2x_pop_summary_free(struct e2x_pop_summary *sum);

#endif /* E2X_POPULATE_H */
