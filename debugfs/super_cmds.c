/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * super_cmds.c --- the stats command: superblock fields by name (feature
 * names include e2x's itree) and, without -h, every group descriptor.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <e2p/e2p.h>
#include "debugfs.h"

/* Feature name, knowing e2x's own ro_compat bit. */
const char *dbg_feature_name(int word, uint32_t mask)
{
	if (word == E2P_FEATURE_RO_INCOMPAT &&
	    mask == E2X_FEATURE_RO_COMPAT_ITREE)
		return E2X_ITREE_FEATURE_NAME;
	return e2p_feature2string(word, mask);
}

void dbg_print_features(FILE *o, const struct ext2_super_block *sb)
{
	const uint32_t words[3] = { sb->s_feature_compat,
				    sb->s_feature_incompat,
				    sb->s_feature_ro_compat };
	int w, bit, any = 0;

	for (w = 0; w < 3; w++)
		for (bit = 0; bit < 32; bit++)
			if (words[w] & (1u << bit)) {
				fprintf(o, " %s",
					dbg_feature_name(w, 1u << bit));
				any = 1;
			}
	if (!any)
		fputs(" (none)", o);
	fputc('\n', o);
}

static void print_time(FILE *o, const char *label, uint32_t lo, uint8_t hi)
{
	char buf[40];
	int64_t t = (int64_t)lo | ((int64_t)hi << 32);

	if (!t) {
		fprintf(o, "%-28s n/a\n", label);
		return;
	}
	dbg_format_time(t, buf, sizeof(buf));
	fprintf(o, "%-28s %s\n", label, buf);
}

static const char *state_name(uint16_t s)
{
	if ((s & EXT2_VALID_FS) && (s & EXT2_ERROR_FS))
		return "clean with errors";
	if (s & EXT2_ERROR_FS)
		return "not clean with errors";
	return (s & EXT2_VALID_FS) ? "clean" : "not clean";
}

static void print_super(FILE *o, ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;
	char name[EXT2_LABEL_LEN + 1], mnt[sizeof(sb->s_last_mounted) + 1];
	char *os = e2p_os2string(sb->s_creator_os);

	memcpy(name, sb->s_volume_name, EXT2_LABEL_LEN);
	name[EXT2_LABEL_LEN] = 0;
	memcpy(mnt, sb->s_last_mounted, sizeof(sb->s_last_mounted));
	mnt[sizeof(sb->s_last_mounted)] = 0;
	fprintf(o, "%-28s %s\n", "Filesystem volume name:",
		*name ? name : "<none>");
	fprintf(o, "%-28s %s\n", "Last mounted on:", *mnt ? mnt : "<none>");
	fprintf(o, "%-28s %s\n", "Filesystem UUID:", e2p_uuid2str(sb->s_uuid));
	fprintf(o, "%-28s 0x%04X\n", "Filesystem magic number:", sb->s_magic);
	fprintf(o, "%-28s %u\n", "Filesystem revision #:", sb->s_rev_level);
	fprintf(o, "%-28s", "Filesystem features:");
	dbg_print_features(o, sb);
	fprintf(o, "%-28s %s\n", "Filesystem state:", state_name(sb->s_state));
	fprintf(o, "%-28s %s\n", "Filesystem OS type:", os ? os : "?");
	free(os);
	fprintf(o, "%-28s %u\n", "Inode count:", sb->s_inodes_count);
	fprintf(o, "%-28s %llu\n", "Block count:",
		(unsigned long long)ext2fs_blocks_count(sb));
	fprintf(o, "%-28s %llu\n", "Reserved block count:",
		(unsigned long long)ext2fs_r_blocks_count(sb));
	fprintf(o, "%-28s %llu\n", "Free blocks:",
		(unsigned long long)ext2fs_free_blocks_count(sb));
	fprintf(o, "%-28s %u\n", "Free inodes:", sb->s_free_inodes_count);
	fprintf(o, "%-28s %u\n", "First block:", sb->s_first_data_block);
	fprintf(o, "%-28s %u\n", "Block size:", fs->blocksize);
	fprintf(o, "%-28s %u\n", "Cluster size:",
		fs->blocksize << fs->cluster_ratio_bits);
	fprintf(o, "%-28s %u\n", "Reserved GDT blocks:",
		sb->s_reserved_gdt_blocks);
	fprintf(o, "%-28s %u\n", "Blocks per group:", sb->s_blocks_per_group);
	fprintf(o, "%-28s %u\n", "Clusters per group:",
		sb->s_clusters_per_group);
	fprintf(o, "%-28s %u\n", "Inodes per group:", sb->s_inodes_per_group);
	fprintf(o, "%-28s %u\n", "Inode blocks per group:",
		fs->inode_blocks_per_group);
	fprintf(o, "%-28s %u\n", "Block groups:", fs->group_desc_count);
	if (ext2fs_has_feature_flex_bg(sb))
		fprintf(o, "%-28s %u\n", "Flex block group size:",
			1u << sb->s_log_groups_per_flex);
	print_time(o, "Filesystem created:", sb->s_mkfs_time,
		   sb->s_mkfs_time_hi);
	print_time(o, "Last mount time:", sb->s_mtime, sb->s_mtime_hi);
	print_time(o, "Last write time:", sb->s_wtime, sb->s_wtime_hi);
	print_time(o, "Last checked:", sb->s_lastcheck, sb->s_lastcheck_hi);
	fprintf(o, "%-28s %u\n", "Mount count:", sb->s_mnt_count);
	fprintf(o, "%-28s %d\n", "Maximum mount count:",
		(int16_t)sb->s_max_mnt_count);
	fprintf(o, "%-28s %u\n", "First inode:", sb->s_first_ino);
	fprintf(o, "%-28s %u\n", "Inode size:", EXT2_INODE_SIZE(sb));
	if (EXT2_INODE_SIZE(sb) > EXT2_GOOD_OLD_INODE_SIZE) {
		fprintf(o, "%-28s %u\n", "Required extra isize:",
			sb->s_min_extra_isize);
		fprintf(o, "%-28s %u\n", "Desired extra isize:",
			sb->s_want_extra_isize);
	}
	if (sb->s_journal_inum)
		fprintf(o, "%-28s %u\n", "Journal inode:", sb->s_journal_inum);
	fprintf(o, "%-28s %s\n", "Default directory hash:",
		e2p_hash2string(sb->s_def_hash_version));
	fprintf(o, "%-28s %s\n", "Directory Hash Seed:",
		e2p_uuid2str(sb->s_hash_seed));
	if (ext2fs_has_feature_metadata_csum(sb)) {
		fprintf(o, "%-28s crc32c\n", "Checksum type:");
		fprintf(o, "%-28s 0x%08x\n", "Checksum:", sb->s_checksum);
	}
}

static void print_group(FILE *o, ext2_filsys fs, dgrp_t g)
{
	fprintf(o, " Group %4u: block bitmap at %llu, inode bitmap at %llu, "
		"inode table at %llu\n", g,
		(unsigned long long)ext2fs_block_bitmap_loc(fs, g),
		(unsigned long long)ext2fs_inode_bitmap_loc(fs, g),
		(unsigned long long)ext2fs_inode_table_loc(fs, g));
	fprintf(o, "             %u free %s, %u free inodes, %u directories",
		ext2fs_bg_free_blocks_count(fs, g),
		fs->cluster_ratio_bits ? "clusters" : "blocks",
		ext2fs_bg_free_inodes_count(fs, g),
		ext2fs_bg_used_dirs_count(fs, g));
	if (ext2fs_has_group_desc_csum(fs))
		fprintf(o, ", %u unused inodes",
			ext2fs_bg_itable_unused(fs, g));
	fputc('\n', o);
	if (ext2fs_has_group_desc_csum(fs))
		fprintf(o, "             flags:%s%s%s, checksum 0x%04x\n",
			ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT) ?
			" INODE_UNINIT" : "",
			ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT) ?
			" BLOCK_UNINIT" : "",
			ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_ZEROED) ?
			" ITABLE_ZEROED" : "",
			ext2fs_bg_checksum(fs, g));
}

int do_stats(struct dbg_ctx *ctx, int argc, char **argv)
{
	int header_only = 0, c;
	dgrp_t g;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "h")) != -1) {
		if (c != 'h') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		header_only = 1;
	}
	if (optind != argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	print_super(ctx->out, ctx->fs);
	if (header_only)
		return 0;
	for (g = 0; g < ctx->fs->group_desc_count; g++)
		print_group(ctx->out, ctx->fs, g);
	return 0;
}
