/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mkfs.c --- lays a new file system down from a geometry: the in-memory
 * layout (ext2fs_initialize), then discard, group tables, inode tables,
 * root directory, lost+found, reserved inodes, resize inode and journal.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "e2x.h"

/* Discard in steps of this many bytes (keeps each request modest). */
#define DISCARD_STEP	(2ULL << 30)
/* lost+found is pre-sized to this many bytes, within 2..12 blocks. */
#define LPF_BYTES	16384

static void say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

/* Superblock fields ext2fs_initialize leaves to the caller. */
static void apply_identity(ext2_filsys fs, const struct e2x_geometry *geom)
{
	struct ext2_super_block *sb = fs->super;
	const struct ext2_super_block *t = &geom->sb;

	switch (geom->uuid_mode) {
	case E2X_UUID_GIVEN:
		memcpy(sb->s_uuid, t->s_uuid, sizeof(sb->s_uuid));
		break;
	case E2X_UUID_CLEAR:
		memset(sb->s_uuid, 0, sizeof(sb->s_uuid));
		break;
	case E2X_UUID_TIME:
		uuid_generate_time(sb->s_uuid);
		break;
	default:
		uuid_generate(sb->s_uuid);
		break;
	}
	if (ext2fs_has_feature_csum_seed(sb))
		sb->s_checksum_seed = ext2fs_crc32c_le(~0, sb->s_uuid,
						       sizeof(sb->s_uuid));
	ext2fs_init_csum_seed(fs);
	/* a seed given (-E hash_seed=) makes directory hashes reproducible */
	if (uuid_is_null((const unsigned char *)t->s_hash_seed))
		uuid_generate((unsigned char *)sb->s_hash_seed);
	else
		memcpy(sb->s_hash_seed, t->s_hash_seed,
		       sizeof(sb->s_hash_seed));
	sb->s_def_hash_version = t->s_def_hash_version;
	sb->s_default_mount_opts = t->s_default_mount_opts;
	sb->s_max_mnt_count = t->s_max_mnt_count;
	sb->s_checkinterval = t->s_checkinterval;
	sb->s_errors = t->s_errors;
	sb->s_raid_stride = t->s_raid_stride;
	sb->s_raid_stripe_width = t->s_raid_stripe_width;
	memcpy(sb->s_volume_name, t->s_volume_name, sizeof(sb->s_volume_name));
	memcpy(sb->s_last_mounted, t->s_last_mounted,
	       sizeof(sb->s_last_mounted));
	if (ext2fs_has_feature_metadata_csum(sb))
		sb->s_checksum_type = EXT2_CRC32C_CHKSUM;
}

/* Journal size in blocks: the default for the size, or -J size=. */
static errcode_t journal_size(ext2_filsys fs, const struct e2x_geometry *geom,
			      blk64_t *blocks, char *why, size_t whylen)
{
	struct ext2fs_journal_params jp;
	unsigned long long want;

	*blocks = 0;
	if (!geom->journal)
		return 0;
	if (geom->journal_mb) {
		want = (unsigned long long)geom->journal_mb * 1024 /
		       (fs->blocksize / 1024);
		if (want < 1024 || want > 10240000) {
			say(why, whylen,
			    "journal of %llu blocks: it must have 1024 to 10240000 blocks",
			    want);
			return E2X_ERR_GEOMETRY;
		}
		if (want > ext2fs_free_blocks_count(fs->super) / 2) {
			say(why, whylen,
			    "journal of %u MiB is over half the free space",
			    geom->journal_mb);
			return E2X_ERR_GEOMETRY;
		}
		*blocks = want;
		return 0;
	}
	if (ext2fs_get_journal_params(&jp, fs))
		return 0;	/* too small for a journal: made without */
	*blocks = jp.num_journal_blocks;
	return 0;
}

errcode_t e2x_mkfs_init(const struct e2x_geometry *geom, const char *target,
			int flags, ext2_filsys *ret_fs,
			blk64_t *journal_blocks, char *why, size_t whylen)
{
	return e2x_mkfs_init_io(geom, target, flags, NULL, ret_fs,
				journal_blocks, why, whylen);
}

errcode_t e2x_mkfs_init_io(const struct e2x_geometry *geom,
			   const char *target, int flags, io_manager mgr,
			   ext2_filsys *ret_fs, blk64_t *journal_blocks,
			   char *why, size_t whylen)
{
	struct ext2_super_block param = geom->sb;
	io_manager io = mgr ? mgr : unix_io_manager;
	ext2_filsys fs = NULL;
	int iflags = EXT2_FLAG_64BITS;
	errcode_t err;

	*ret_fs = NULL;
	if (why && whylen)
		why[0] = 0;
	if (flags & E2X_MKFS_DRY_RUN)
		io = e2x_null_io_manager;
	else
		iflags |= EXT2_FLAG_EXCLUSIVE;
	/* libext2fs refuses ro_compat bits it does not know: lay out
	 * without the itree bit and set it on the open handle. */
	param.s_feature_ro_compat &= ~E2X_FEATURE_RO_COMPAT_ITREE;
	err = ext2fs_initialize(target, iflags, &param, io, &fs);
	if (!err)
		fs->super->s_feature_ro_compat |= geom->sb.s_feature_ro_compat &
						  E2X_FEATURE_RO_COMPAT_ITREE;
	if (err == EXT2_ET_TOOSMALL) {
		say(why, whylen,
		    "%llu blocks of %u bytes are too few for even one block group with its tables",
		    geom->blocks, geom->blocksize);
		return E2X_ERR_TOO_SMALL;
	}
	if (err == EXT2_ET_TOO_MANY_INODES) {
		say(why, whylen, "too many inodes for this geometry");
		return E2X_ERR_GEOMETRY;
	}
	if (err) {
		say(why, whylen, "laying out the file system: %s",
		    error_message(err));
		return err;
	}
	if (fs->super->s_inodes_count <= EXT2_FIRST_INO(fs->super)) {
		say(why, whylen,
		    "only %u inodes fit; %u are reserved and lost+found needs one more",
		    fs->super->s_inodes_count,
		    EXT2_FIRST_INO(fs->super) - 1);
		ext2fs_free(fs);
		return E2X_ERR_TOO_SMALL;
	}
	apply_identity(fs, geom);
	err = journal_size(fs, geom, journal_blocks, why, whylen);
	if (err) {
		ext2fs_free(fs);
		return err;
	}
	if (!*journal_blocks)
		ext2fs_clear_feature_journal(fs->super);
	*ret_fs = fs;
	return 0;
}

/* True when the target is an image file without any data: a discard
 * would change nothing and it already reads back as zeros. */
static int image_is_one_hole(const char *path)
{
	struct stat st;
	int fd, hole;

	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	hole = lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO;
	close(fd);
	return hole;
}

/*
 * Discard the whole target (punches holes in an image file).  Returns
 * nonzero when the target now reads back as zeros.
 */
static int discard_all(ext2_filsys fs)
{
	blk64_t blocks = ext2fs_blocks_count(fs->super);
	blk64_t step = DISCARD_STEP / fs->blocksize;
	blk64_t cur;

	if (fs->io->manager == unix_io_manager &&
	    image_is_one_hole(fs->device_name))
		return 1;

	/* Probe with one block so an unsupported discard costs nothing. */
	if (io_channel_discard(fs->io, 0, 1))
		return 0;
	for (cur = 0; cur < blocks; cur += step) {
		blk64_t n = blocks - cur < step ? blocks - cur : step;

		if (io_channel_discard(fs->io, cur, n))
			return 0;
	}
	return io_channel_discard_zeroes_data(fs->io) ? 1 : 0;
}

/* Wipe old signatures: the sectors after the boot sector and the end of
 * the device (RAID superblocks); this also proves the size. */
static errcode_t wipe_old_signatures(ext2_filsys fs)
{
	static const char zero[3072];
	blk64_t blocks = ext2fs_blocks_count(fs->super);
	blk64_t rsv = 65536 / fs->blocksize, start;
	errcode_t err;

	err = io_channel_write_byte(fs->io, 1024, sizeof(zero), zero);
	if (err)
		return err;
	if (!rsv)
		rsv = 1;
	start = blocks & ~(rsv - 1);
	if (start > rsv)
		start -= rsv;
	if (start > 0 && start < blocks)
		return ext2fs_zero_blocks2(fs, start, blocks - start, NULL,
					   NULL);
	return 0;
}

/* All bitmaps, then all inode tables, packed at the start of the disk. */
static errcode_t allocate_packed(ext2_filsys fs)
{
	blk64_t goal = 0, b;
	dgrp_t g;
	errcode_t err;

	for (g = 0; g < fs->group_desc_count; g++) {
		err = ext2fs_new_block2(fs, goal, NULL, &b);
		if (err)
			return err;
		ext2fs_block_alloc_stats2(fs, b, +1);
		ext2fs_block_bitmap_loc_set(fs, g, b);
		goal = b;
	}
	for (g = 0; g < fs->group_desc_count; g++) {
		err = ext2fs_new_block2(fs, goal, NULL, &b);
		if (err)
			return err;
		ext2fs_block_alloc_stats2(fs, b, +1);
		ext2fs_inode_bitmap_loc_set(fs, g, b);
		goal = b;
	}
	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t end = ext2fs_blocks_count(fs->super) - 1;

		err = ext2fs_get_free_blocks2(fs, goal, end,
					      fs->inode_blocks_per_group,
					      fs->block_map, &b);
		if (err)
			return err;
		ext2fs_block_alloc_stats_range(fs, b,
					       fs->inode_blocks_per_group, +1);
		ext2fs_inode_table_loc_set(fs, g, b);
		ext2fs_group_desc_csum_set(fs, g);
		goal = b;
	}
	return 0;
}

/* Zero the inode tables unless the kernel or the discard does it. */
static errcode_t write_inode_tables(ext2_filsys fs, int lazy, int zeroed)
{
	dgrp_t g;
	errcode_t err;

	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t start = ext2fs_inode_table_loc(fs, g);
		blk64_t num = fs->inode_blocks_per_group;

		if (lazy) {
			unsigned long long used =
				fs->super->s_inodes_per_group -
				ext2fs_bg_itable_unused(fs, g);

			used *= EXT2_INODE_SIZE(fs->super);
			num = ext2fs_div64_ceil(used, fs->blocksize);
		}
		if (!lazy || zeroed) {
			ext2fs_bg_flags_set(fs, g, EXT2_BG_INODE_ZEROED);
			ext2fs_group_desc_csum_set(fs, g);
		}
		if (!zeroed && num) {
			err = ext2fs_zero_blocks2(fs, start, num, NULL, NULL);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Reserved inodes get valid checksums even though nothing uses them. */
static errcode_t write_reserved_inodes(ext2_filsys fs)
{
	struct ext2_inode_large *inode;
	unsigned int size = EXT2_INODE_SIZE(fs->super);
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_get_memzero(size, &inode);
	if (err)
		return err;
	for (ino = 1; ino < EXT2_FIRST_INO(fs->super); ino++) {
		err = ext2fs_write_inode_full(fs, ino,
					      (struct ext2_inode *)inode, size);
		if (err)
			break;
	}
	ext2fs_free_mem(&inode);
	return err;
}

/* Read an inode, set the root owner when asked, write it back with one
 * i_version bump. */
static errcode_t touch_inode(ext2_filsys fs, ext2_ino_t ino,
			     const struct e2x_geometry *geom, int set_owner)
{
	struct ext2_inode_large *inode;
	errcode_t err;

	err = ext2fs_get_memzero(e2x_inode_buf_size(fs), &inode);
	if (err)
		return err;
	err = e2x_read_inode(fs, ino, inode);
	if (err)
		goto out;
	if (set_owner) {
		inode->i_uid = geom->root_uid & 0xffff;
		ext2fs_set_i_uid_high(*inode, geom->root_uid >> 16);
		inode->i_gid = geom->root_gid & 0xffff;
		ext2fs_set_i_gid_high(*inode, geom->root_gid >> 16);
	}
	err = e2x_write_inode(fs, ino, inode);
out:
	ext2fs_free_mem(&inode);
	return err;
}

static errcode_t create_root(ext2_filsys fs, const struct e2x_geometry *geom)
{
	errcode_t err;

	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, NULL);
	if (err)
		return err;
	return touch_inode(fs, EXT2_ROOT_INO, geom, 1);
}

/*
 * lost+found: mode 0700, in blocks (never inline, so e2fsck can add
 * entries without allocating), pre-sized to LPF_BYTES within 2..12 blocks
 * as the reference does.
 */
static errcode_t create_lost_found(ext2_filsys fs,
				   const struct e2x_geometry *geom)
{
	const char *name = "lost+found";
	__u32 incompat = fs->super->s_feature_incompat;
	unsigned int want = LPF_BYTES / fs->blocksize, have;
	ext2_ino_t ino;
	errcode_t err;
	int umask = fs->umask;

	if (want < 2)
		want = 2;
	if (want > EXT2_NDIR_BLOCKS)
		want = EXT2_NDIR_BLOCKS;
	/*
	 * With inline_data the reference makes lost+found inline and its
	 * first expansion only moves it into one block: one block fewer.
	 * Same size here, so free block counts match the reference.
	 */
	if (incompat & EXT4_FEATURE_INCOMPAT_INLINE_DATA)
		want--;
	/* ext2fs_mkdir makes new directories inline when it can. */
	ext2fs_clear_feature_inline_data(fs->super);
	fs->umask = 077;
	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, name);
	fs->umask = umask;
	fs->super->s_feature_incompat = incompat;
	if (err)
		return err;
	err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL, &ino);
	if (err)
		return err;
	for (have = 1; have < want; have++) {
		err = ext2fs_expand_dir(fs, ino);
		if (err)
			return err;
	}
	return touch_inode(fs, ino, geom, 0);
}

static void reserve_inodes(ext2_filsys fs)
{
	ext2_ino_t ino;

	for (ino = EXT2_ROOT_INO + 1; ino < EXT2_FIRST_INO(fs->super); ino++)
		ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	ext2fs_mark_ib_dirty(fs);
}

static errcode_t create_bad_block_inode(ext2_filsys fs)
{
	ext2fs_mark_inode_bitmap2(fs->inode_map, EXT2_BAD_INO);
	ext2fs_inode_alloc_stats2(fs, EXT2_BAD_INO, +1, 0);
	return ext2fs_update_bb_inode(fs, NULL);
}

/* Used clusters in [first, last] of the block bitmap, by runs. */
static errcode_t count_used(ext2_filsys fs, blk64_t first, blk64_t last,
			    blk64_t *used)
{
	blk64_t cur = first, set, clear;
	errcode_t err;

	*used = 0;
	while (cur <= last) {
		err = ext2fs_find_first_set_block_bitmap2(fs->block_map, cur,
							  last, &set);
		if (err == ENOENT)
			break;
		if (err)
			return err;
		err = ext2fs_find_first_zero_block_bitmap2(fs->block_map, set,
							   last, &clear);
		if (err == ENOENT)
			clear = last + 1;
		else if (err)
			return err;
		*used += EXT2FS_NUM_B2C(fs, clear - set);
		cur = clear;
	}
	return 0;
}

/* Free cluster counts from the bitmap (bigalloc allocation statistics
 * count blocks, not clusters). */
static errcode_t fix_cluster_counts(ext2_filsys fs)
{
	blk64_t total = 0, used, first, last;
	dgrp_t g;
	errcode_t err;

	for (g = 0; g < fs->group_desc_count; g++) {
		first = ext2fs_group_first_block2(fs, g);
		last = ext2fs_group_last_block2(fs, g);
		err = count_used(fs, first, last, &used);
		if (err)
			return err;
		used = EXT2FS_NUM_B2C(fs, last - first + 1) - used;
		ext2fs_bg_free_blocks_count_set(fs, g, used);
		ext2fs_group_desc_csum_set(fs, g);
		total += used;
	}
	ext2fs_free_blocks_count_set(fs->super, EXT2FS_C2B(fs, total));
	ext2fs_mark_super_dirty(fs);
	ext2fs_mark_bb_dirty(fs);
	return 0;
}

static errcode_t add_journal(ext2_filsys fs, const struct e2x_geometry *geom,
			     blk64_t blocks, int lazy)
{
	struct ext2fs_journal_params jp;
	int flags = EXT2_MKJOURNAL_NO_MNT_CHECK;

	memset(&jp, 0, sizeof(jp));
	jp.num_journal_blocks = blocks;
	if (lazy)
		flags |= EXT2_MKJOURNAL_LAZYINIT;
	return ext2fs_add_journal_inode3(fs, &jp,
					 geom->packed_meta_blocks ? 0 : ~0ULL,
					 flags);
}

errcode_t e2x_mkfs_write(ext2_filsys fs, const struct e2x_geometry *geom,
			 blk64_t journal_blocks)
{
	int lazy_itable = geom->lazy_itable_init;
	int lazy_journal = geom->lazy_journal_init;
	int zeroed = 0;
	blk64_t overhead = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (geom->discard && discard_all(fs)) {
		zeroed = 1;
		lazy_itable = 1;
		lazy_journal = 1;
	}
	fs->stride = fs->super->s_raid_stride;
	if (geom->packed_meta_blocks)
		err = allocate_packed(fs);
	else
		err = ext2fs_allocate_tables(fs);
	if (err)
		return err;
	err = ext2fs_convert_subcluster_bitmap(fs, &fs->block_map);
	if (err)
		return err;
	err = count_used(fs, fs->super->s_first_data_block,
			 ext2fs_blocks_count(fs->super) - 1, &overhead);
	if (err)
		return err;
	if ((err = wipe_old_signatures(fs)) ||
	    (err = write_inode_tables(fs, lazy_itable, zeroed)))
		return err;
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    (err = write_reserved_inodes(fs)))
		return err;
	if ((err = create_root(fs, geom)) ||
	    (err = create_lost_found(fs, geom)))
		return err;
	reserve_inodes(fs);
	if ((err = create_bad_block_inode(fs)))
		return err;
	if (ext2fs_has_feature_resize_inode(fs->super) &&
	    (err = ext2fs_create_resize_inode(fs)))
		return err;
	if (journal_blocks) {
		err = add_journal(fs, geom, journal_blocks, lazy_journal);
		if (err)
			return err;
		overhead += EXT2FS_NUM_B2C(fs, journal_blocks);
	}
	fs->super->s_overhead_clusters = overhead +
					 fs->super->s_first_data_block;
	if (ext2fs_has_feature_bigalloc(fs->super) &&
	    (err = fix_cluster_counts(fs)))
		return err;
	ext2fs_mark_super_dirty(fs);
	return 0;
}

errcode_t e2x_mkfs_close(ext2_filsys *fs)
{
	if (!fs || !*fs)
		return 0;
	EXT2_CHECK_MAGIC(*fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	return ext2fs_close_free(fs);
}
