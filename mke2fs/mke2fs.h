/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mke2fs.h --- state shared by the mke2fs program's files: the one context
 * struct (no option globals), exit codes, and the helpers' interfaces.
 */
#ifndef E2X_MKE2FS_H
#define E2X_MKE2FS_H

#include "e2x.h"

/* Exit codes (documented in mke2fs.8, EXIT STATUS). */
#define EXIT_OK		0	/* file system created (or -n shown) */
#define EXIT_USAGE	1	/* bad command line or mke2fs.conf */
#define EXIT_REFUSED	2	/* target holds data, is mounted or busy */
#define EXIT_GEOMETRY	4	/* the file system cannot be made so */
#define EXIT_IO		8	/* I/O or system error while working */

/* What we found at the target path before touching it. */
struct mk_target {
	const char *path;
	int exists;			/* the path existed */
	int is_device;			/* a block device */
	int busy;			/* exclusive open failed */
	unsigned long long orig_size;	/* regular file size before us */
	int created;			/* we created the image file */
	int resized;			/* we grew the image file */
	struct e2x_target_info info;	/* handed to the geometry */
};

/* The whole run: what the user typed, then what we worked out. */
struct mkfs_ctx {
	const char *prog;
	struct e2x_mkfs_request req;	/* parsed options (user's words) */
	const char *device;		/* target operand */
	const char *size_arg;		/* size operand, NULL: whole target */
	int force;			/* -F */
	int quiet;			/* -q */
	int dry_run;			/* -n */
	int verbose;			/* -v */
	const char *undo_file;		/* -z: blocks overwritten, for e2undo */
	struct e2x_profile *prof;
	struct mk_target target;
	struct e2x_geometry geom;	/* computed */
	ext2_filsys fs;
	blk64_t journal_blocks;
	char why[512];			/* reason of the last refusal */
	char features_buf[1024];	/* -O lists joined */
	char msg[160];			/* option error text */
	const char *populate_from;	/* -d source */
	struct e2x_pop_source *pop_src;
	uint64_t pop_entries;		/* -d source: entries below its root */
	uint64_t pop_bytes;		/* and bytes of file data */
	unsigned int default_inodes;	/* inodes before -d raised them, 0 */
	int progress_shown;
};

/* options.c */
int parse_command_line(struct mkfs_ctx *ctx, int argc, char **argv);
void print_usage(const char *prog, FILE *out);
void print_version(const char *prog);

/* device.c */
int target_inspect(struct mk_target *t, const char *path, char *why,
		   size_t whylen);
int target_signature(const struct mk_target *t, char *what, size_t len);
int target_in_use(const struct mk_target *t, char *why, size_t whylen);
int target_prepare(struct mk_target *t, unsigned long long bytes, char *why,
		   size_t whylen);
void target_rollback(struct mk_target *t);

/* populate.c (-d) */
int populate_open(struct mkfs_ctx *ctx);
int populate_fit_inodes(struct mkfs_ctx *ctx);
int populate_fit_space(struct mkfs_ctx *ctx);
int populate_run(struct mkfs_ctx *ctx, FILE *report);
void populate_close(struct mkfs_ctx *ctx);

/* report.c */
void report_notes(const struct mkfs_ctx *ctx);
void report_summary(const struct mkfs_ctx *ctx, FILE *out);

#endif
