/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tune2fs.h --- e2x tune2fs (and e2label): what the user typed, kept
 * apart from the open file system and the plan computed from both.
 */
#ifndef TUNE2FS_H
#define TUNE2FS_H

#include <stdio.h>
#include "e2x.h"

/* Exit codes, as the reference tune2fs: 0 done, 1 anything refused. */
#define EXIT_OK		0
#define EXIT_FAIL	1

/* What the user asked for; a field is "given" by its bit in `given`. */
#define T_MAX_MNT	0x00001	/* -c */
#define T_MNT_COUNT	0x00002	/* -C */
#define T_ERRORS	0x00004	/* -e */
#define T_RESGID	0x00008	/* -g */
#define T_INTERVAL	0x00010	/* -i */
#define T_RES_RATIO	0x00020	/* -m */
#define T_RES_BLOCKS	0x00040	/* -r */
#define T_LASTCHECK	0x00080	/* -T */
#define T_RESUID	0x00100	/* -u */
#define T_LABEL		0x00200	/* -L */
#define T_UUID		0x00400	/* -U */
#define T_MNTOPTS	0x00800	/* -o */
#define T_EXTENDED	0x01000	/* -E */
#define T_FEATURES	0x02000	/* -O */
#define T_JOURNAL	0x04000	/* -j / -J */
#define T_INODE_SIZE	0x08000	/* -I */
#define T_LAST_MNT	0x10000	/* -M */
/* What may be changed on a mounted file system (superblock fields the
 * kernel rereads or ignores while mounted, as the reference allows). */
#define T_ONLINE	(T_MAX_MNT | T_MNT_COUNT | T_ERRORS | T_RESGID | \
			 T_INTERVAL | T_RES_RATIO | T_RES_BLOCKS | \
			 T_LASTCHECK | T_RESUID | T_LABEL | T_MNTOPTS | \
			 T_EXTENDED | \
			 T_LAST_MNT)

struct tune_req {
	unsigned int given;
	int list;		/* -l */
	int force;		/* -f */
	int max_mnt;
	int mnt_count;
	int errors;		/* EXT2_ERRORS_* */
	unsigned int resuid, resgid;
	unsigned long interval;	/* seconds */
	double res_ratio;
	unsigned long long res_blocks;
	long long lastcheck;
	const char *label;
	const char *uuid;
	const char *mntopts;
	const char *features;
	const char *last_mnt;
	unsigned long journal_mb;	/* 0: default size */
	unsigned int inode_size;
	/* -E */
	const char *mount_opts;
	int stride, stripe_width;	/* -1: not given */
	int hash_alg;			/* -1: not given */
	int nopack;			/* -E nopack: inline_data flag only */
	int test_fs;			/* 1 set, 0 clear, -1 not given */
	const char *undo_file;		/* -z */
	const char *device;
};

/* One feature change the plan accepted, run in order at apply time. */
struct tune_feature_op;

struct tune_ctx {
	const char *prog;
	struct tune_req req;
	int mounted;
	char mntpt[4096];
	ext2_filsys fs;
	struct e2x_features want;	/* features after -O */
	struct e2x_features set, cleared;
	const struct tune_feature_op *ops[16];
	int nops;
	char why[512];
};

/* options.c */
int tune_parse(struct tune_ctx *ctx, int argc, char **argv);
int e2label_parse(struct tune_ctx *ctx, int argc, char **argv);
/* features.c --- -O: validate every change (plan), then run them */
int tune_plan_features(struct tune_ctx *ctx);
int tune_apply_features(struct tune_ctx *ctx);

/* list.c --- the superblock as the reference's tune2fs -l lists it */
void list_superblock(FILE *f, ext2_filsys fs);

int tune_fail(struct tune_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* TUNE2FS_H */
