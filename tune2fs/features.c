/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * features.c --- tune2fs -O: one table row per feature and direction,
 * saying whether the change is only the feature bit, a conversion that
 * libe2x runs in place, or a refusal with its reason.  The plan checks
 * every requested change against the table before anything is written.
 */
#include "config.h"
#include <string.h>
#include "tune2fs.h"

typedef errcode_t (*run_fn)(ext2_filsys fs, int flags,
			    struct e2x_convert_stats *st);

struct tune_feature_op {
	const char *name;
	int on;			/* 1: set, 0: clear */
	const char *refusal;	/* non-NULL: refuse with this reason */
	run_fn run;		/* NULL: flip the bit only */
	const char *report;	/* printf with files, dirs, blocks freed */
};

static errcode_t add_journal(ext2_filsys fs, int flags,
			     struct e2x_convert_stats *st)
{
	(void)flags;
	(void)st;
	return e2x_journal_add(fs, 0);
}

static errcode_t remove_journal(ext2_filsys fs, int flags,
				struct e2x_convert_stats *st)
{
	(void)flags;
	(void)st;
	return e2x_journal_remove(fs);
}

#define COPY_ONLY "changes every file's allocation; copy instead: " \
		  "mke2fs -O %s%s -d DEVICE NEW"
static const char bigalloc_refusal[] = COPY_ONLY;

/* Run order is table order: a journal goes first, dir_index comes before
 * itree, which needs it. */
static const struct tune_feature_op ops[] = {
	{ "has_journal", 0, NULL, remove_journal, "journal removed" },
	{ "has_journal", 1, NULL, add_journal, "journal added" },
	{ "dir_index", 1, NULL, e2x_convert_index_dirs,
	  "dir_index: %2$lu directories indexed" },
	{ "dir_index", 0, "indexed directories would have to be rewritten; "
	  "not supported in place", NULL, NULL },
	{ "inline_data", 1, NULL, e2x_convert_inline_on,
	  "inline_data: %lu files and %lu directories packed, %llu blocks "
	  "freed" },
	{ "inline_data", 0, NULL, e2x_convert_inline_off,
	  "inline_data: %lu inodes moved to blocks (%3$llu blocks used)" },
	{ "itree", 1, NULL, e2x_convert_itree_on,
	  "itree: built for %2$lu directories" },
	{ "itree", 0, NULL, e2x_convert_itree_off,
	  "itree: dropped from %2$lu directories" },
	{ "bigalloc", 1, bigalloc_refusal, NULL, NULL },
	{ "bigalloc", 0, bigalloc_refusal, NULL, NULL },
	{ "extent", 1, NULL, NULL, NULL },
	{ "extent", 0, "extent-mapped files cannot be mapped back", NULL,
	  NULL },
	{ "64bit", 1, "the group descriptors grow; use resize2fs -b", NULL,
	  NULL },
	{ "64bit", 0, "the group descriptors shrink; use resize2fs -s", NULL,
	  NULL },
	{ "metadata_csum", 1, NULL, e2x_convert_csum_on,
	  "metadata_csum: every checksum written" },
	{ "metadata_csum", 0, NULL, e2x_convert_csum_off,
	  "metadata_csum: cleared, uninit_bg guards the group descriptors" },
	{ "dir_nlink", 1, NULL, NULL, NULL },
	{ "dir_nlink", 0, NULL, NULL, NULL },
	{ "extra_isize", 1, NULL, NULL, NULL },
	{ "extra_isize", 0, NULL, NULL, NULL },
	{ "large_file", 1, NULL, NULL, NULL },
	{ "huge_file", 1, NULL, NULL, NULL },
	{ "ext_attr", 1, NULL, NULL, NULL },
	{ "large_dir", 1, NULL, NULL, NULL },
	{ "ea_inode", 1, NULL, NULL, NULL },
	{ "encrypt", 1, NULL, NULL, NULL },
	{ "verity", 1, NULL, NULL, NULL },
	{ "stable_inodes", 1, NULL, NULL, NULL },
	{ "stable_inodes", 0, NULL, NULL, NULL },
	{ "flex_bg", 1, NULL, NULL, NULL },
};

static const struct tune_feature_op *find_op(const char *name, int on)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].name, name) && ops[i].on == on)
			return &ops[i];
	return NULL;
}

static __u32 word_of(const struct e2x_features *f, int w)
{
	return w == 0 ? f->compat : w == 1 ? f->incompat : f->ro_compat;
}

/* Check one changed bit against the table; remember its row. */
static int plan_bit(struct tune_ctx *ctx, int w, __u32 mask, int on)
{
	const char *name = e2x_feature_name(w, mask);
	const struct tune_feature_op *op = name ? find_op(name, on) : NULL;

	if (!op)
		return tune_fail(ctx, "%s feature '%s' in place is not "
				 "supported", on ? "setting" : "clearing",
				 name ? name : "?");
	if (op->refusal) {
		char why[256];

		snprintf(why, sizeof(why), op->refusal, on ? "" : "^", name);
		return tune_fail(ctx, "%s%s: %s", on ? "" : "^", name, why);
	}
	if ((size_t)ctx->nops >= sizeof(ctx->ops) / sizeof(ctx->ops[0]))
		return tune_fail(ctx, "too many feature changes at once");
	ctx->ops[ctx->nops++] = op;
	return 0;
}

/* metadata_csum either way: not with itree or mmp (their blocks carry
 * checksums of their own), and on only when every directory block has
 * room for its checksum. */
static int plan_csum(struct tune_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	ext2_ino_t ino = 0;
	errcode_t err;

	if (fs->super->s_feature_ro_compat & E2X_FEATURE_RO_COMPAT_ITREE ||
	    ctx->set.ro_compat & E2X_FEATURE_RO_COMPAT_ITREE)
		return tune_fail(ctx, "metadata_csum: drop the itrees first "
				 "(-O ^itree), then build them again");
	if (ext2fs_has_feature_mmp(fs->super))
		return tune_fail(ctx, "metadata_csum: not supported in place "
				 "with mmp");
	/* a damaged structure would get a valid checksum */
	if (!(fs->super->s_state & EXT2_VALID_FS) && !ctx->req.force)
		return tune_fail(ctx, "%s was not cleanly unmounted; run "
				 "e2fsck first (or -f)", ctx->req.device);
	if (!(ctx->set.ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM))
		return 0;
	err = e2x_csum_check_room(fs, &ino);
	if (err == E2X_ERR_NO_SPACE)
		return tune_fail(ctx, "metadata_csum: directory inode %u has a "
				 "full block without room for its checksum; "
				 "copy instead: mke2fs -O metadata_csum -d %s "
				 "NEW", ino, ctx->req.device);
	if (err)
		return tune_fail(ctx, "metadata_csum: %s", error_message(err));
	return 0;
}

/* The conversions need what the feature rows cannot see alone. */
static int plan_needs(struct tune_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	__u32 itree = E2X_FEATURE_RO_COMPAT_ITREE;

	if ((ctx->set.incompat & EXT4_FEATURE_INCOMPAT_INLINE_DATA) &&
	    EXT2_INODE_SIZE(fs->super) <= EXT2_GOOD_OLD_INODE_SIZE)
		return tune_fail(ctx, "inline_data needs inodes larger than "
				 "128 bytes; copy instead: mke2fs -I 256 -O "
				 "inline_data -d %s NEW", ctx->req.device);
	if ((ctx->set.ro_compat & itree) &&
	    !(ctx->want.compat & EXT2_FEATURE_COMPAT_DIR_INDEX))
		return tune_fail(ctx, "itree needs dir_index");
	if ((ctx->cleared.compat & EXT2_FEATURE_COMPAT_DIR_INDEX) &&
	    (ctx->want.ro_compat & itree))
		return tune_fail(ctx, "itree needs dir_index");
	if (((ctx->set.ro_compat | ctx->cleared.ro_compat) &
	     EXT4_FEATURE_RO_COMPAT_METADATA_CSUM) && plan_csum(ctx))
		return EXIT_FAIL;
	if ((ctx->set.compat | ctx->cleared.compat) &
	    EXT3_FEATURE_COMPAT_HAS_JOURNAL &&
	    !(fs->super->s_state & EXT2_VALID_FS) && !ctx->req.force)
		return tune_fail(ctx, "%s was not cleanly unmounted; run "
				 "e2fsck first (or -f)", ctx->req.device);
	return 0;
}

int tune_plan_features(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct e2x_features have = { sb->s_feature_compat,
				     sb->s_feature_incompat,
				     sb->s_feature_ro_compat };
	char bad[64];
	int w, bit;
	errcode_t err;

	ctx->want = have;
	err = e2x_features_edit(&ctx->want, ctx->req.features, NULL, NULL,
				bad, sizeof(bad));
	if (err)
		return tune_fail(ctx, "unknown feature '%s'", bad);
	ctx->set.compat = ctx->want.compat & ~have.compat;
	ctx->set.incompat = ctx->want.incompat & ~have.incompat;
	ctx->set.ro_compat = ctx->want.ro_compat & ~have.ro_compat;
	ctx->cleared.compat = have.compat & ~ctx->want.compat;
	ctx->cleared.incompat = have.incompat & ~ctx->want.incompat;
	ctx->cleared.ro_compat = have.ro_compat & ~ctx->want.ro_compat;
	for (w = 0; w < 3; w++)
		for (bit = 0; bit < 32; bit++) {
			__u32 m = 1u << bit;

			if ((word_of(&ctx->set, w) & m) &&
			    plan_bit(ctx, w, m, 1))
				return EXIT_FAIL;
			if ((word_of(&ctx->cleared, w) & m) &&
			    plan_bit(ctx, w, m, 0))
				return EXIT_FAIL;
		}
	return plan_needs(ctx);
}

/* Flip the bit of a flag-only row. */
static void flip(ext2_filsys fs, const struct tune_feature_op *op)
{
	struct e2x_features f = { 0 };
	char list[64];
	__u32 *w[3] = { &fs->super->s_feature_compat,
			&fs->super->s_feature_incompat,
			&fs->super->s_feature_ro_compat };
	__u32 m[3];
	int i;

	snprintf(list, sizeof(list), "%s", op->name);
	e2x_features_edit(&f, list, NULL, NULL, NULL, 0);
	m[0] = f.compat;
	m[1] = f.incompat;
	m[2] = f.ro_compat;
	for (i = 0; i < 3; i++)
		*w[i] = op->on ? (*w[i] | m[i]) : (*w[i] & ~m[i]);
	ext2fs_mark_super_dirty(fs);
}

static void report(const struct tune_feature_op *op,
		   const struct e2x_convert_stats *st)
{
	long long freed = (long long)st->free_after -
			  (long long)st->free_before;

	if (!op->report)
		return;
	printf(op->report, st->files, st->dirs,
	       (unsigned long long)(freed < 0 ? -freed : freed));
	putchar('\n');
}

int tune_apply_features(struct tune_ctx *ctx)
{
	struct e2x_convert_stats st;
	int i, flags;
	errcode_t err;

	for (i = 0; i < ctx->nops; i++) {
		const struct tune_feature_op *op = ctx->ops[i];

		if (!op->run) {
			flip(ctx->fs, op);
			continue;
		}
		memset(&st, 0, sizeof(st));
		flags = ctx->req.nopack ? E2X_CONVERT_NO_PACK : 0;
		err = op->run(ctx->fs, flags, &st);
		if (err)
			return tune_fail(ctx, "%s%s: %s", op->on ? "" : "^",
					 op->name, error_message(err));
		report(op, &st);
	}
	return 0;
}
