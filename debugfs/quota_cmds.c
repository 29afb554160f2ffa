/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quota_cmds.c --- list_quota and get_quota: the records of the quota
 * files, read through libe2x's quota reader, in the reference's table.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "debugfs.h"

static const char *const qtype_name[E2X_QUOTA_TYPES] = {
	"user", "group", "project"
};

/* A type by name (any case) or number; -1 after the error lines. */
static int parse_qtype(struct dbg_ctx *ctx, const char *cmd, const char *s)
{
	char *end;
	long n;
	int t;

	for (t = 0; t < E2X_QUOTA_TYPES; t++)
		if (!strcasecmp(s, qtype_name[t]))
			return t;
	n = strtol(s, &end, 0);
	if (*s && !*end && n >= 0 && n < E2X_QUOTA_TYPES)
		return (int)n;
	dbg_error(ctx, cmd, 0, "Invalid quota type: %s", s);
	fprintf(ctx->out, "Valid quota types are:");
	for (t = 0; t < E2X_QUOTA_TYPES; t++)
		fprintf(ctx->out, " %s", qtype_name[t]);
	fprintf(ctx->out, " \n");
	return -1;
}

/* Check the feature, parse the type and read its file. */
static int open_qtype(struct dbg_ctx *ctx, const char *cmd, const char *s,
		      struct e2x_quota_file **qf)
{
	errcode_t err;
	int t;

	if (!ext2fs_has_feature_quota(ctx->fs->super)) {
		dbg_error(ctx, cmd, 0, "quota feature not enabled");
		return -1;
	}
	t = parse_qtype(ctx, cmd, s);
	if (t < 0)
		return -1;
	err = e2x_quota_open(ctx->fs, t, qf);
	if (err) {
		dbg_error(ctx, cmd, err, "while opening quota inode (type %d)",
			  t);
		return -1;
	}
	fprintf(ctx->out, "%7s id %10s %8s %8s %11s %8s %8s\n",
		qtype_name[t], "space", "quota", "limit", "inodes", "quota",
		"limit");
	return t;
}

static int print_dquot(const struct e2x_dquot *dq, void *priv)
{
	fprintf(priv, "%10u %10llu %8llu %8llu %11llu %8llu %8llu\n",
		dq->id, (unsigned long long)dq->curspace,
		(unsigned long long)dq->bsoftlimit,
		(unsigned long long)dq->bhardlimit,
		(unsigned long long)dq->curinodes,
		(unsigned long long)dq->isoftlimit,
		(unsigned long long)dq->ihardlimit);
	return 0;
}

/* list_quota quota_type */
int do_list_quota(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct e2x_quota_file *qf;
	errcode_t err;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (open_qtype(ctx, argv[0], argv[1], &qf) < 0)
		return 1;
	err = e2x_quota_iterate(qf, print_dquot, ctx->out);
	e2x_quota_close(qf);
	if (err) {
		dbg_error(ctx, argv[0], err, "while reading quota file");
		return 1;
	}
	return 0;
}

/* get_quota quota_type id */
int do_get_quota(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct e2x_quota_file *qf;
	struct e2x_dquot dq;
	unsigned long long id;
	errcode_t err;
	char *end;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (!ext2fs_has_feature_quota(ctx->fs->super)) {
		dbg_error(ctx, argv[0], 0, "quota feature not enabled");
		return 1;
	}
	/* as the reference: any number strtol takes, kept to 32 bits */
	id = (unsigned long long)strtoll(argv[2], &end, 0);
	if (!*argv[2] || *end) {
		dbg_error(ctx, argv[0], 0, "Bad id - %s", argv[2]);
		return 1;
	}
	if (open_qtype(ctx, argv[0], argv[1], &qf) < 0)
		return 1;
	err = e2x_quota_get(qf, (uint32_t)id, &dq);
	e2x_quota_close(qf);
	if (err && err != E2X_ERR_NOT_FOUND) {
		dbg_error(ctx, argv[0], err, "while reading quota file");
		return 1;
	}
	print_dquot(&dq, ctx->out);
	return 0;
}
