/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tune2fs.c --- main of e2x tune2fs and e2label: parse, open, plan,
 * apply.  Everything that could refuse runs in plan, before the first
 * byte is written, so a refused target is left exactly as it was.
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uuid/uuid.h>
#include <e2p/e2p.h>
#include "tune2fs.h"

int tune_fail(struct tune_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", ctx->prog, ctx->why);
	return EXIT_FAIL;
}

static int fail_err(struct tune_ctx *ctx, errcode_t err, const char *what)
{
	return tune_fail(ctx, "%s: %s", what, error_message(err));
}

static int wants_write(const struct tune_req *r)
{
	return r->given != 0;
}

static int check_mount(struct tune_ctx *ctx)
{
	int mflags = 0;
	errcode_t err;

	err = ext2fs_check_mount_point(ctx->req.device, &mflags, ctx->mntpt,
				       sizeof(ctx->mntpt));
	if (err)
		return fail_err(ctx, err, ctx->req.device);
	ctx->mounted = !!(mflags & EXT2_MF_MOUNTED);
	if (ctx->mounted && (ctx->req.given & ~T_ONLINE))
		return tune_fail(ctx, "%s is mounted on %s; -O, -U, -j, -J "
				 "and -I need it unmounted", ctx->req.device,
				 ctx->mntpt);
	return 0;
}

static int open_fs(struct tune_ctx *ctx)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_THREADS;
	io_manager mgr = NULL;
	errcode_t err;

	if (wants_write(&ctx->req))
		flags |= EXT2_FLAG_RW;
	if (ctx->req.undo_file && wants_write(&ctx->req)) {
		err = e2x_undo_manager(ctx->req.undo_file, &mgr);
		if (err)
			return fail_err(ctx, err, ctx->req.undo_file);
	}
	err = e2x_open_fs(ctx->req.device, flags, 0, 0, mgr, &ctx->fs);
	if (err == EXT2_ET_BAD_MAGIC || err == EXT2_ET_SB_CSUM_INVALID ||
	    err == EXT2_ET_CORRUPT_SUPERBLOCK || err == EXT2_ET_SHORT_READ)
		return tune_fail(ctx, "%s: no ext2/3/4 file system found (%s)",
				 ctx->req.device, error_message(err));
	if (err)
		return fail_err(ctx, err, ctx->req.device);
	return 0;
}

/* -U: the new UUID into OUT; 0 or a refusal. */
static int plan_uuid(struct tune_ctx *ctx, uuid_t out)
{
	const char *s = ctx->req.uuid;

	if (!strcasecmp(s, "clear"))
		uuid_clear(out);
	else if (!strcasecmp(s, "random"))
		uuid_generate_random(out);
	else if (!strcasecmp(s, "time"))
		uuid_generate_time(out);
	else if (uuid_parse(s, out))
		return tune_fail(ctx, "bad UUID '%s' (clear, random, time or "
				 "a UUID)", s);
	return 0;
}

/* Refusals that depend on the file system, not only on the options. */
static int plan(struct tune_ctx *ctx)
{
	struct tune_req *r = &ctx->req;
	struct ext2_super_block *sb = ctx->fs->super;
	uuid_t u;

	if ((r->given & T_RES_BLOCKS) &&
	    r->res_blocks > ext2fs_blocks_count(sb) / 2)
		return tune_fail(ctx, "reserved blocks count %llu is more "
				 "than half of the %llu blocks", r->res_blocks,
				 (unsigned long long)ext2fs_blocks_count(sb));
	if ((r->given & T_INODE_SIZE) && r->inode_size != EXT2_INODE_SIZE(sb))
		return tune_fail(ctx, "changing the inode size in place is "
				 "not supported; copy instead: mke2fs -I %u "
				 "-d %s NEW", r->inode_size, r->device);
	if ((r->given & T_UUID) && plan_uuid(ctx, u))
		return EXIT_FAIL;
	if ((r->given & (T_UUID | T_FEATURES | T_JOURNAL)) &&
	    ext2fs_has_feature_journal_needs_recovery(sb))
		return tune_fail(ctx, "%s has a journal to replay; run e2fsck "
				 "first", r->device);
	if (r->mntopts) {
		__u32 opts = sb->s_default_mount_opts;

		if (e2p_edit_mntopts(r->mntopts, &opts, ~0u))
			return tune_fail(ctx, "bad mount options '%s'",
					 r->mntopts);
	}
	if ((r->given & T_JOURNAL) && ext2fs_has_feature_journal(sb))
		return tune_fail(ctx, "%s has a journal already", r->device);
	if (r->given & T_FEATURES)
		return tune_plan_features(ctx);
	return 0;
}

static void set_label(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	size_t len = strlen(ctx->req.label);

	if (len > EXT2_LABEL_LEN)
		fprintf(stderr, "%s: label '%s' is longer than %d bytes; "
			"keeping the first %d\n", ctx->prog, ctx->req.label,
			EXT2_LABEL_LEN, EXT2_LABEL_LEN);
	memset(sb->s_volume_name, 0, EXT2_LABEL_LEN);
	memcpy(sb->s_volume_name, ctx->req.label,
	       len < EXT2_LABEL_LEN ? len : EXT2_LABEL_LEN);
}

/* New UUID; checksums seeded from the old one stay valid through the
 * metadata_csum_seed feature (as the reference does when it is set). */
static void set_uuid(struct tune_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	dgrp_t g;
	uuid_t u;

	plan_uuid(ctx, u);
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !ext2fs_has_feature_csum_seed(fs->super)) {
		fs->super->s_checksum_seed = fs->csum_seed;
		ext2fs_set_feature_csum_seed(fs->super);
		printf("Setting metadata_csum_seed to keep every checksum "
		       "valid under the new UUID\n");
	}
	memcpy(fs->super->s_uuid, u, sizeof(u));
	ext2fs_init_csum_seed(fs);
	/* group descriptor checksums without metadata_csum hash the UUID */
	for (g = 0; g < fs->group_desc_count; g++)
		ext2fs_group_desc_csum_set(fs, g);
}

static void set_extended(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct tune_req *r = &ctx->req;

	if (r->mount_opts) {
		memset(sb->s_mount_opts, 0, sizeof(sb->s_mount_opts));
		strcpy((char *)sb->s_mount_opts, r->mount_opts);
	}
	if (r->stride >= 0)
		sb->s_raid_stride = r->stride;
	if (r->stripe_width >= 0)
		sb->s_raid_stripe_width = r->stripe_width;
	if (r->hash_alg >= 0)
		sb->s_def_hash_version = r->hash_alg;
	if (r->test_fs == 1)
		sb->s_flags |= EXT2_FLAGS_TEST_FILESYS;
	else if (r->test_fs == 0)
		sb->s_flags &= ~EXT2_FLAGS_TEST_FILESYS;
}

/* Every superblock field the options name. */
static void set_fields(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct tune_req *r = &ctx->req;
	unsigned int g = r->given;

	if (g & T_MAX_MNT)
		sb->s_max_mnt_count = r->max_mnt;
	if (g & T_MNT_COUNT)
		sb->s_mnt_count = r->mnt_count;
	if (g & T_ERRORS)
		sb->s_errors = r->errors;
	if (g & T_RESGID)
		sb->s_def_resgid = r->resgid;
	if (g & T_RESUID)
		sb->s_def_resuid = r->resuid;
	if (g & T_INTERVAL)
		sb->s_checkinterval = r->interval;
	if (g & T_RES_RATIO)
		ext2fs_r_blocks_count_set(sb, (blk64_t)(r->res_ratio *
			ext2fs_blocks_count(sb) / 100.0));
	if (g & T_RES_BLOCKS)
		ext2fs_r_blocks_count_set(sb, r->res_blocks);
	if (g & T_LASTCHECK) {
		sb->s_lastcheck = (__u32)r->lastcheck;
		sb->s_lastcheck_hi = (__u8)(r->lastcheck >> 32);
	}
	if (g & T_LABEL)
		set_label(ctx);
	if (g & T_LAST_MNT) {
		memset(sb->s_last_mounted, 0, sizeof(sb->s_last_mounted));
		strncpy((char *)sb->s_last_mounted, r->last_mnt,
			sizeof(sb->s_last_mounted) - 1);
	}
	if (r->mntopts)
		e2p_edit_mntopts(r->mntopts, &sb->s_default_mount_opts, ~0u);
	if (g & T_EXTENDED)
		set_extended(ctx);
	if (g & T_UUID)
		set_uuid(ctx);
	ext2fs_mark_super_dirty(ctx->fs);
}

static int apply(struct tune_ctx *ctx)
{
	errcode_t err;

	set_fields(ctx);
	if (ctx->req.given & T_JOURNAL) {
		err = e2x_journal_add(ctx->fs, ctx->req.journal_mb);
		if (err)
			return fail_err(ctx, err, "adding a journal");
		printf("Journal added\n");
	}
	if (ctx->req.given & T_FEATURES)
		return tune_apply_features(ctx);
	return 0;
}

static int close_fs(struct tune_ctx *ctx, int rc)
{
	errcode_t err;

	if (!ctx->fs)
		return rc;
	if (rc || !(ctx->fs->flags & EXT2_FLAG_RW)) {
		ext2fs_free(ctx->fs);
		return rc;
	}
	/* A mounted file system gets its primary superblock only. */
	if (ctx->mounted)
		ctx->fs->flags |= EXT2_FLAG_SUPER_ONLY;
	err = ext2fs_close_free(&ctx->fs);
	if (err)
		return fail_err(ctx, err, "writing the file system");
	return rc;
}

static void print_label(ext2_filsys fs)
{
	char label[EXT2_LABEL_LEN + 1];

	memcpy(label, fs->super->s_volume_name, EXT2_LABEL_LEN);
	label[EXT2_LABEL_LEN] = 0;
	printf("%s\n", label);
}

static int is_e2label(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	return !strcmp(base ? base + 1 : argv0, "e2label");
}

int main(int argc, char **argv)
{
	struct tune_ctx ctx;
	int rc, label_only;

	memset(&ctx, 0, sizeof(ctx));
	e2x_init_errors();
	label_only = is_e2label(argv[0]);
	ctx.prog = label_only ? "e2label" : "tune2fs";
	rc = label_only ? e2label_parse(&ctx, argc, argv) :
			  tune_parse(&ctx, argc, argv);
	if (!rc && !label_only)
		printf("tune2fs (e2x %s)\n", e2x_version());
	if (!rc)
		rc = check_mount(&ctx);
	if (!rc)
		rc = open_fs(&ctx);
	if (!rc)
		rc = plan(&ctx);
	if (!rc && label_only && !ctx.req.given)
		print_label(ctx.fs);
	if (!rc)
		rc = apply(&ctx);
	if (!rc && ctx.req.list)
		list_superblock(stdout, ctx.fs);
	return close_fs(&ctx, rc);
}
