/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c --- what mke2fs tells the user: notes on decisions taken on
 * their behalf, and the summary of the new (or planned, with -n) file
 * system.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <uuid/uuid.h>
#include "mke2fs.h"

void report_notes(const struct mkfs_ctx *ctx)
{
	const struct e2x_geometry *g = &ctx->geom;

	if (ctx->quiet)
		return;
	if (g->notes & E2X_NOTE_RESIZE_OFF)
		fprintf(stderr, "%s: note: resize_inode left out: it cannot "
			"reserve descriptors beyond 2^32 blocks\n", ctx->prog);
	if (g->notes & E2X_NOTE_64BIT_AUTO)
		fprintf(stderr, "%s: note: 64bit turned on for more than 2^32 "
			"blocks\n", ctx->prog);
	if (g->journal && !ctx->journal_blocks)
		fprintf(stderr, "%s: note: too small for a journal; made "
			"without one\n", ctx->prog);
	if (g->notes & E2X_NOTE_BIGALLOC_EXP)
		fprintf(stderr, "%s: note: clusters of more than 16 blocks are "
			"less tested in the kernel\n", ctx->prog);
	if (g->notes & E2X_NOTE_128_INODE)
		fprintf(stderr, "%s: note: 128-byte inodes cannot store dates "
			"after 2038\n", ctx->prog);
	if (g->sb.s_feature_ro_compat & E2X_FEATURE_RO_COMPAT_ITREE)
		fprintf(stderr, "%s: note: itree is e2x's own read-only "
			"compatible feature: the kernel mounts this file system "
			"read-only, and e2fsprogs' e2fsck, tune2fs and debugfs "
			"-w refuse it\n", ctx->prog);
	if (ctx->default_inodes)
		fprintf(stderr, "%s: note: %s holds %llu entries: made %u "
			"inodes instead of the default %u\n", ctx->prog,
			ctx->populate_from,
			(unsigned long long)ctx->pop_entries,
			ctx->fs ? ctx->fs->super->s_inodes_count :
				  g->sb.s_inodes_count, ctx->default_inodes);
	if (ctx->target.info.alignment_offset)
		fprintf(stderr, "%s: note: %s is misaligned by %lu bytes for "
			"its physical sectors; expect slow I/O\n", ctx->prog,
			ctx->device, ctx->target.info.alignment_offset);
	if (g->blocksize > 4096)
		fprintf(stderr, "%s: note: %u-byte blocks mount only on kernels "
			"with pages at least that large\n", ctx->prog,
			g->blocksize);
}

static void print_backups(ext2_filsys fs, FILE *out)
{
	unsigned int shown = 0;
	dgrp_t g;

	fprintf(out, "  %-12s", "backups");
	for (g = 1; g < fs->group_desc_count; g++) {
		if (!ext2fs_bg_has_super(fs, g))
			continue;
		fprintf(out, "%s%llu", shown ? ", " : " superblock copies at ",
			(unsigned long long)ext2fs_group_first_block2(fs, g));
		shown++;
	}
	fprintf(out, "%s\n", shown ? "" : " none");
}

void report_summary(const struct mkfs_ctx *ctx, FILE *out)
{
	const ext2_filsys fs = ctx->fs;
	struct ext2_super_block *sb = fs->super;
	struct e2x_features f = { sb->s_feature_compat,
				  sb->s_feature_incompat,
				  sb->s_feature_ro_compat };
	unsigned long long blocks = ext2fs_blocks_count(sb);
	char feat[512], uuid[40];
	unsigned int bs = fs->blocksize;

	e2x_features_format(&f, feat, sizeof(feat));
	uuid_unparse(sb->s_uuid, uuid);
	fprintf(out, "%s %s file system on %s (types %s)%s\n",
		ctx->dry_run ? "Would make an" : "Made an", ctx->geom.fs_type,
		ctx->device, ctx->geom.types,
		ctx->dry_run ? ": dry run, nothing written" : "");
	fprintf(out, "  %-12s %llu blocks of %u bytes (%llu bytes)\n", "size",
		blocks, bs, blocks * bs);
	if (ext2fs_has_feature_bigalloc(sb))
		fprintf(out, "  %-12s %u bytes (%u blocks), %u per group\n",
			"clusters", EXT2_CLUSTER_SIZE(sb),
			EXT2FS_CLUSTER_RATIO(fs), sb->s_clusters_per_group);
	/* the ratio in effect: -d may have raised the count */
	fprintf(out, "  %-12s %u of %u bytes, one per %llu bytes\n", "inodes",
		sb->s_inodes_count, EXT2_INODE_SIZE(sb),
		ctx->default_inodes ? blocks * bs / sb->s_inodes_count :
				      (unsigned long long)ctx->geom.inode_ratio);
	fprintf(out, "  %-12s %u of %u blocks and %u inodes", "groups",
		fs->group_desc_count, sb->s_blocks_per_group,
		sb->s_inodes_per_group);
	if (ext2fs_has_feature_flex_bg(sb))
		fprintf(out, ", %u per flex group",
			1U << sb->s_log_groups_per_flex);
	fprintf(out, "\n");
	fprintf(out, "  %-12s %llu blocks for root\n", "reserved",
		(unsigned long long)ext2fs_r_blocks_count(sb));
	if (ctx->journal_blocks)
		fprintf(out, "  %-12s %llu blocks (%llu MiB)\n", "journal",
			(unsigned long long)ctx->journal_blocks,
			(unsigned long long)ctx->journal_blocks * bs >> 20);
	else
		fprintf(out, "  %-12s none\n", "journal");
	if (!ctx->dry_run)
		fprintf(out, "  %-12s %llu blocks, %u inodes\n", "free",
			(unsigned long long)ext2fs_free_blocks_count(sb),
			sb->s_free_inodes_count);
	print_backups(fs, out);
	fprintf(out, "  %-12s %s\n", "features", feat);
	fprintf(out, "  %-12s %s\n", "UUID", uuid);
	if (sb->s_volume_name[0])
		fprintf(out, "  %-12s %.*s\n", "label",
			(int)sizeof(sb->s_volume_name), sb->s_volume_name);
}
