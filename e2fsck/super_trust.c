/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * super_trust.c --- whether a superblock may be believed before anything
 * is read on its word: the fields it holds that cannot all be true at
 * once (sizes, group geometry, counts, layout, revision, checksum type),
 * and the fields the primary must share with its backup (nothing but an
 * offline tool that rewrites every copy changes them).  unix.c opens the
 * backup instead when either says no.
 */
#include "config.h"
#include "context.h"

/* Largest cluster: 2^(10 + 19) bytes, past which no cluster bitmap fits. */
#define MAX_LOG_CLUSTER 19

/* libext2fs's accessors take no const superblock: these read one. */
#define INCOMPAT(sb, f) (!!((sb)->s_feature_incompat & EXT4_FEATURE_INCOMPAT_##f))
#define RO_COMPAT(sb, f) \
	(!!((sb)->s_feature_ro_compat & EXT4_FEATURE_RO_COMPAT_##f))

static uint64_t sb_blocks(const struct ext2_super_block *sb)
{
	return sb->s_blocks_count |
	       (INCOMPAT(sb, 64BIT) ? (uint64_t)sb->s_blocks_count_hi << 32 : 0);
}

static unsigned int sb_block_size(const struct ext2_super_block *sb)
{
	return EXT2_MIN_BLOCK_SIZE << sb->s_log_block_size;
}

/* Block and cluster sizes, and bigalloc's cluster at least a block. */
static const char *sizes_contradict(const struct ext2_super_block *sb)
{
	if (sb->s_log_block_size > EXT2_MAX_BLOCK_LOG_SIZE -
					   EXT2_MIN_BLOCK_LOG_SIZE)
		return "block size";
	if (RO_COMPAT(sb, BIGALLOC)) {
		if (sb->s_log_cluster_size < sb->s_log_block_size ||
		    sb->s_log_cluster_size > MAX_LOG_CLUSTER)
			return "cluster size";
	} else if (sb->s_log_cluster_size != sb->s_log_block_size) {
		return "cluster size without bigalloc";
	}
	return NULL;
}

/* Groups the block count makes, or 0 when it makes none. */
static uint64_t sb_groups(const struct ext2_super_block *sb)
{
	uint64_t blocks = sb_blocks(sb);

	if (!sb->s_blocks_per_group || blocks <= sb->s_first_data_block)
		return 0;
	return (blocks - sb->s_first_data_block + sb->s_blocks_per_group -
		1) / sb->s_blocks_per_group;
}

/*
 * The group geometry every bitmap and table is found by: the first data
 * block the block size implies, blocks per group a whole number of
 * clusters that one bitmap block maps, inodes per group that one bitmap
 * block maps and an inode table block holds, and an inode count of
 * exactly that many per group.
 */
static const char *groups_contradict(const struct ext2_super_block *sb)
{
	unsigned int bsize = sb_block_size(sb);
	unsigned int ratio_log = sb->s_log_cluster_size - sb->s_log_block_size;
	unsigned int per_block = bsize / EXT2_INODE_SIZE(sb);
	uint64_t cpg = sb->s_clusters_per_group;

	if (sb->s_first_data_block != (bsize == 1024 && !ratio_log))
		return "first data block";
	if (cpg < 8 || cpg > 8ULL * bsize || cpg % 8 ||
	    (uint64_t)sb->s_blocks_per_group != cpg << ratio_log)
		return "blocks per group";
	if (!sb_groups(sb))
		return "block count";
	if (sb->s_inodes_per_group < per_block ||
	    sb->s_inodes_per_group > 8U * bsize)
		return "inodes per group";
	if ((uint64_t)sb->s_inodes_per_group * sb_groups(sb) !=
	    sb->s_inodes_count)
		return "inode count";
	return NULL;
}

/* Descriptor blocks the group count needs at descriptor size DSIZE. */
static uint64_t sb_desc_blocks(const struct ext2_super_block *sb,
			       unsigned int dsize)
{
	unsigned int per = sb_block_size(sb) / dsize;

	return (sb_groups(sb) + per - 1) / per;
}

/* Descriptor size, meta_bg's first group and the reserved descriptors. */
static const char *layout_contradicts(const struct ext2_super_block *sb)
{
	unsigned int dsize = EXT2_MIN_DESC_SIZE;

	if (INCOMPAT(sb, 64BIT)) {
		dsize = sb->s_desc_size;
		if (dsize < EXT2_MIN_DESC_SIZE_64BIT ||
		    dsize > EXT2_MAX_DESC_SIZE || (dsize & (dsize - 1)))
			return "descriptor size";
	}
	if (!!(sb->s_feature_incompat & EXT2_FEATURE_INCOMPAT_META_BG) &&
	    sb->s_first_meta_bg > sb_desc_blocks(sb, dsize))
		return "first meta_bg group";
	if (sb->s_reserved_gdt_blocks > sb_block_size(sb) / 4)
		return "reserved descriptor blocks";
	return NULL;
}

/* Revision 0 (fixed inodes, no features) and the dynamic revision. */
static const char *revision_contradicts(const struct ext2_super_block *sb)
{
	unsigned int isize = sb->s_inode_size;

	if (sb->s_rev_level > EXT2_DYNAMIC_REV)
		return "revision";
	if (sb->s_rev_level == EXT2_GOOD_OLD_REV) {
		if (sb->s_feature_compat || sb->s_feature_incompat ||
		    sb->s_feature_ro_compat)
			return "revision 0 with feature flags";
		if (isize > EXT2_GOOD_OLD_INODE_SIZE)
			return "revision 0 with large inodes";
		return NULL;
	}
	if (isize < EXT2_GOOD_OLD_INODE_SIZE || isize > sb_block_size(sb) ||
	    (isize & (isize - 1)))
		return "inode size";
	/* past the inode count, every inode of the file system would be
	 * "reserved" and cleared: the field is damaged, not the files */
	if (sb->s_first_ino < EXT2_GOOD_OLD_FIRST_INO ||
	    sb->s_first_ino > sb->s_inodes_count)
		return "first inode";
	return NULL;
}

/*
 * Fields of a superblock that cannot all be true at once: a superblock
 * saying so is damaged, whatever its checksum says, and is not trusted
 * while a backup can stand in for it.  What is wrong, or NULL.
 */
const char *fsck_super_contradiction(const struct ext2_super_block *sb)
{
	const char *why = sizes_contradict(sb);

	if (!why)
		why = revision_contradicts(sb);
	if (!why)
		why = groups_contradict(sb);
	if (!why)
		why = layout_contradicts(sb);
	if (!why && RO_COMPAT(sb, METADATA_CSUM) &&
	    sb->s_checksum_type != EXT2_CRC32C_CHKSUM)
		why = "checksum type";
	return why;
}

/* Feature bits of P that no e2x tool knows and backup B does not have:
 * a bit flipped in the primary, not a feature tune2fs set (it sets every
 * copy). */
static int unknown_features_added(const struct ext2_super_block *p,
				  const struct ext2_super_block *b)
{
	__u32 inc = p->s_feature_incompat & ~b->s_feature_incompat;
	__u32 ro = p->s_feature_ro_compat & ~b->s_feature_ro_compat;

	return (inc & ~(EXT2_LIB_FEATURE_INCOMPAT_SUPP |
			EXT4_FEATURE_INCOMPAT_MMP)) ||
	       (ro & ~(EXT2_LIB_FEATURE_RO_COMPAT_SUPP |
		       E2X_FEATURE_RO_COMPAT_ITREE));
}

/*
 * Primary P against backup B (itself free of contradictions): the fields
 * only mke2fs, tune2fs and resize2fs change, and they write every copy;
 * the kernel changes none of them but the revision (upwards), the block
 * count (online resize, which grows it and rewrites the backups too) and
 * feature flags it knows.  The field P has wrong, or NULL.
 */
const char *fsck_super_disagrees(const struct ext2_super_block *p,
				 const struct ext2_super_block *b)
{
	if (p->s_log_block_size != b->s_log_block_size ||
	    p->s_log_cluster_size != b->s_log_cluster_size)
		return "block size differs from the backup's";
	if (p->s_blocks_per_group != b->s_blocks_per_group ||
	    p->s_inodes_per_group != b->s_inodes_per_group ||
	    p->s_first_data_block != b->s_first_data_block)
		return "group geometry differs from the backup's";
	if (sb_blocks(p) < sb_blocks(b))
		return "block count below the backup's";
	if (p->s_rev_level < b->s_rev_level)
		return "revision below the backup's";
	if (p->s_rev_level != EXT2_GOOD_OLD_REV &&
	    b->s_rev_level != EXT2_GOOD_OLD_REV &&
	    (p->s_inode_size != b->s_inode_size ||
	     p->s_first_ino != b->s_first_ino))
		return "inode size or first inode differs from the backup's";
	if (INCOMPAT(p, 64BIT) && INCOMPAT(b, 64BIT) &&
	    p->s_desc_size != b->s_desc_size)
		return "descriptor size differs from the backup's";
	if (unknown_features_added(p, b))
		return "feature flags unknown to e2x and not in the backup";
	return NULL;
}
