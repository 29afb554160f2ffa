/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.c --- the named fields of the superblock and of an inode that
 * set_super_value and set_inode_field change: where each lives (split
 * lo/hi fields included), how its value is parsed, and how it is stored.
 * Pure functions over a byte buffer, so the table is unit tested.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uuid/uuid.h>
#include "debugfs.h"
#include "fields.h"

#define SB(f) offsetof(struct ext2_super_block, f)
#define SBSZ(f) sizeof(((struct ext2_super_block *)0)->f)
#define IN(f) offsetof(struct ext2_inode_large, f)
#define INSZ(f) sizeof(((struct ext2_inode_large *)0)->f)

/* Scalar field F. */
#define S(name, f, T) { name, SB(f), SBSZ(f), 0, 0, T, 0 }
/* Field with a high part H. */
#define SH(name, f, h, T) { name, SB(f), SBSZ(f), SB(h), SBSZ(h), T, 0 }
/* Array of N elements of size ESZ. */
#define SA(name, f, esz, n) { name, SB(f), esz, 0, 0, DBG_F_UINT, n }

const struct dbg_field dbg_super_fields[] = {
	S("inodes_count", s_inodes_count, DBG_F_UINT),
	SH("blocks_count", s_blocks_count, s_blocks_count_hi, DBG_F_UINT),
	SH("r_blocks_count", s_r_blocks_count, s_r_blocks_count_hi,
	   DBG_F_UINT),
	SH("free_blocks_count", s_free_blocks_count, s_free_blocks_hi,
	   DBG_F_UINT),
	S("free_inodes_count", s_free_inodes_count, DBG_F_UINT),
	S("first_data_block", s_first_data_block, DBG_F_UINT),
	S("log_block_size", s_log_block_size, DBG_F_UINT),
	S("log_cluster_size", s_log_cluster_size, DBG_F_UINT),
	S("blocks_per_group", s_blocks_per_group, DBG_F_UINT),
	S("clusters_per_group", s_clusters_per_group, DBG_F_UINT),
	S("inodes_per_group", s_inodes_per_group, DBG_F_UINT),
	SH("mtime", s_mtime, s_mtime_hi, DBG_F_TIME),
	SH("wtime", s_wtime, s_wtime_hi, DBG_F_TIME),
	S("mnt_count", s_mnt_count, DBG_F_UINT),
	S("max_mnt_count", s_max_mnt_count, DBG_F_INT),
	S("magic", s_magic, DBG_F_UINT),
	S("state", s_state, DBG_F_UINT),
	S("errors", s_errors, DBG_F_ERRORS),
	S("minor_rev_level", s_minor_rev_level, DBG_F_UINT),
	SH("lastcheck", s_lastcheck, s_lastcheck_hi, DBG_F_TIME),
	S("checkinterval", s_checkinterval, DBG_F_UINT),
	S("creator_os", s_creator_os, DBG_F_UINT),
	S("rev_level", s_rev_level, DBG_F_UINT),
	S("def_resuid", s_def_resuid, DBG_F_UINT),
	S("def_resgid", s_def_resgid, DBG_F_UINT),
	S("first_ino", s_first_ino, DBG_F_UINT),
	S("inode_size", s_inode_size, DBG_F_UINT),
	S("block_group_nr", s_block_group_nr, DBG_F_UINT),
	S("feature_compat", s_feature_compat, DBG_F_UINT),
	S("feature_incompat", s_feature_incompat, DBG_F_UINT),
	S("feature_ro_compat", s_feature_ro_compat, DBG_F_UINT),
	S("uuid", s_uuid, DBG_F_UUID),
	S("volume_name", s_volume_name, DBG_F_STRING),
	S("last_mounted", s_last_mounted, DBG_F_STRING),
	S("algorithm_usage_bitmap", s_algorithm_usage_bitmap, DBG_F_UINT),
	S("prealloc_blocks", s_prealloc_blocks, DBG_F_UINT),
	S("prealloc_dir_blocks", s_prealloc_dir_blocks, DBG_F_UINT),
	S("reserved_gdt_blocks", s_reserved_gdt_blocks, DBG_F_UINT),
	S("journal_uuid", s_journal_uuid, DBG_F_UUID),
	S("journal_inum", s_journal_inum, DBG_F_UINT),
	S("journal_dev", s_journal_dev, DBG_F_UINT),
	S("last_orphan", s_last_orphan, DBG_F_UINT),
	SA("hash_seed", s_hash_seed, 4, 4),
	S("def_hash_version", s_def_hash_version, DBG_F_UINT),
	S("jnl_backup_type", s_jnl_backup_type, DBG_F_UINT),
	S("desc_size", s_desc_size, DBG_F_UINT),
	S("default_mount_opts", s_default_mount_opts, DBG_F_UINT),
	S("first_meta_bg", s_first_meta_bg, DBG_F_UINT),
	SH("mkfs_time", s_mkfs_time, s_mkfs_time_hi, DBG_F_TIME),
	SA("jnl_blocks", s_jnl_blocks, 4, 17),
	S("min_extra_isize", s_min_extra_isize, DBG_F_UINT),
	S("want_extra_isize", s_want_extra_isize, DBG_F_UINT),
	S("flags", s_flags, DBG_F_UINT),
	S("raid_stride", s_raid_stride, DBG_F_UINT),
	S("mmp_update_interval", s_mmp_update_interval, DBG_F_UINT),
	S("mmp_interval", s_mmp_update_interval, DBG_F_UINT),
	S("mmp_block", s_mmp_block, DBG_F_UINT),
	S("raid_stripe_width", s_raid_stripe_width, DBG_F_UINT),
	S("log_groups_per_flex", s_log_groups_per_flex, DBG_F_UINT),
	S("checksum_type", s_checksum_type, DBG_F_UINT),
	S("encryption_level", s_encryption_level, DBG_F_UINT),
	S("snapshot_inum", s_snapshot_inum, DBG_F_UINT),
	S("snapshot_id", s_snapshot_id, DBG_F_UINT),
	S("snapshot_r_blocks_count", s_snapshot_r_blocks_count, DBG_F_UINT),
	S("snapshot_list", s_snapshot_list, DBG_F_UINT),
	S("kbytes_written", s_kbytes_written, DBG_F_UINT),
	S("error_count", s_error_count, DBG_F_UINT),
	SH("first_error_time", s_first_error_time, s_first_error_time_hi,
	   DBG_F_TIME),
	S("first_error_ino", s_first_error_ino, DBG_F_UINT),
	S("first_error_block", s_first_error_block, DBG_F_UINT),
	S("first_error_func", s_first_error_func, DBG_F_STRING),
	S("first_error_line", s_first_error_line, DBG_F_UINT),
	SH("last_error_time", s_last_error_time, s_last_error_time_hi,
	   DBG_F_TIME),
	S("last_error_ino", s_last_error_ino, DBG_F_UINT),
	S("last_error_block", s_last_error_block, DBG_F_UINT),
	S("last_error_func", s_last_error_func, DBG_F_STRING),
	S("last_error_line", s_last_error_line, DBG_F_UINT),
	S("mount_opts", s_mount_opts, DBG_F_STRING),
	SA("backup_bgs", s_backup_bgs, 4, 2),
	SA("encrypt_algos", s_encrypt_algos, 1, 4),
	S("encrypt_pw_salt", s_encrypt_pw_salt, DBG_F_UUID),
	S("lpf_ino", s_lpf_ino, DBG_F_UINT),
	S("usr_quota_inum", s_usr_quota_inum, DBG_F_UINT),
	S("grp_quota_inum", s_grp_quota_inum, DBG_F_UINT),
	S("prj_quota_inum", s_prj_quota_inum, DBG_F_UINT),
	S("overhead_clusters", s_overhead_clusters, DBG_F_UINT),
	S("checksum_seed", s_checksum_seed, DBG_F_UINT),
	S("encoding", s_encoding, DBG_F_UINT),
	S("encoding_flags", s_encoding_flags, DBG_F_UINT),
	S("orphan_file_inum", s_orphan_file_inum, DBG_F_UINT),
	S("checksum", s_checksum, DBG_F_UINT),
	{ NULL, 0, 0, 0, 0, 0, 0 }
};

#define MP(f) offsetof(struct mmp_struct, f)
#define MPSZ(f) sizeof(((struct mmp_struct *)0)->f)
#define M(name, f, T) { name, MP(f), MPSZ(f), 0, 0, T, 0 }

/* The multiple-mount protection block (set_mmp_value). */
const struct dbg_field dbg_mmp_fields[] = {
	M("magic", mmp_magic, DBG_F_UINT),
	M("seq", mmp_seq, DBG_F_UINT),
	M("time", mmp_time, DBG_F_UINT),
	M("nodename", mmp_nodename, DBG_F_STRING),
	M("bdevname", mmp_bdevname, DBG_F_STRING),
	M("check_interval", mmp_check_interval, DBG_F_UINT),
	M("checksum", mmp_checksum, DBG_F_UINT),
	{ NULL, 0, 0, 0, 0, 0, 0 }
};

#define I(name, f, T) { name, IN(f), INSZ(f), 0, 0, T, 0 }
#define IH(name, f, h, T) { name, IN(f), INSZ(f), IN(h), INSZ(h), T, 0 }

const struct dbg_field dbg_inode_fields[] = {
	I("mode", i_mode, DBG_F_UINT),
	IH("uid", i_uid, osd2.linux2.l_i_uid_high, DBG_F_UINT),
	IH("size", i_size, i_size_high, DBG_F_UINT),
	I("atime", i_atime, DBG_F_TIME),
	I("ctime", i_ctime, DBG_F_TIME),
	I("mtime", i_mtime, DBG_F_TIME),
	I("dtime", i_dtime, DBG_F_TIME),
	IH("gid", i_gid, osd2.linux2.l_i_gid_high, DBG_F_UINT),
	I("links_count", i_links_count, DBG_F_UINT),
	IH("blocks", i_blocks, osd2.linux2.l_i_blocks_hi, DBG_F_UINT),
	I("flags", i_flags, DBG_F_IFLAGS),
	/* i_version: 64 bits, low half in osd1, high half in the extra
	 * space; also settable one half at a time. */
	IH("version", osd1.linux1.l_i_version, i_version_hi, DBG_F_UINT),
	I("version_lo", osd1.linux1.l_i_version, DBG_F_UINT),
	I("version_hi", i_version_hi, DBG_F_UINT),
	{ "block", IN(i_block), 4, 0, 0, DBG_F_UINT, EXT2_N_BLOCKS },
	I("generation", i_generation, DBG_F_UINT),
	IH("file_acl", i_file_acl, osd2.linux2.l_i_file_acl_high,
	   DBG_F_UINT),
	IH("checksum", osd2.linux2.l_i_checksum_lo, i_checksum_hi,
	   DBG_F_UINT),
	I("extra_isize", i_extra_isize, DBG_F_UINT),
	I("ctime_extra", i_ctime_extra, DBG_F_UINT),
	I("mtime_extra", i_mtime_extra, DBG_F_UINT),
	I("atime_extra", i_atime_extra, DBG_F_UINT),
	I("crtime", i_crtime, DBG_F_TIME),
	I("crtime_extra", i_crtime_extra, DBG_F_UINT),
	I("projid", i_projid, DBG_F_UINT),
	{ NULL, 0, 0, 0, 0, 0, 0 }
};

/* "name" or "name[idx]"; accepts a leading "s_" / "i_" prefix. */
const struct dbg_field *dbg_field_find(const struct dbg_field *table,
				       const char *spec, int *index)
{
	const struct dbg_field *f;
	char name[64];
	const char *br;
	size_t len;
	uint64_t idx = 0;

	*index = -1;
	if (!strncmp(spec, "s_", 2) || !strncmp(spec, "i_", 2))
		spec += 2;
	br = strchr(spec, '[');
	len = br ? (size_t)(br - spec) : strlen(spec);
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, spec, len);
	name[len] = 0;
	if (br) {
		char num[24];
		size_t n = strlen(br + 1);

		if (n < 2 || n - 1 >= sizeof(num) || br[n] != ']')
			return NULL;
		memcpy(num, br + 1, n - 1);
		num[n - 1] = 0;
		if (dbg_parse_u64(num, 255, &idx))
			return NULL;
	}
	for (f = table; f->name; f++) {
		if (strcmp(f->name, name))
			continue;
		if (f->count > 1) {
			if (!br || idx >= f->count)
				return NULL;
			*index = (int)idx;
		} else if (br) {
			return NULL;
		}
		return f;
	}
	return NULL;
}

/* The structures are in CPU byte order in memory (libext2fs swaps them
 * on big-endian hosts), so fields are stored as native integers. */
static void put_native(unsigned char *p, unsigned int size, uint64_t v)
{
	uint8_t v8 = v;
	uint16_t v16 = v;
	uint32_t v32 = v;

	switch (size) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	case 8:
		memcpy(p, &v, 8);
		break;
	}
}

static uint64_t get_native(const unsigned char *p, unsigned int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v = 0;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	case 8:
		memcpy(&v, p, 8);
	}
	return v;
}

/* s_errors by name, as the superblock's behaviour words. */
static int errors_value(const char *value, uint64_t *v)
{
	static const char *const names[] = { "continue", "remount-ro",
					     "panic" };
	size_t i;

	for (i = 0; i < 3; i++)
		if (!strcmp(value, names[i])) {
			*v = EXT2_ERRORS_CONTINUE + i;
			return 0;
		}
	return 1;
}

/* Parse VALUE into a 64-bit number for field F (bits = all parts). */
static int parse_number(const struct dbg_field *f, const char *value,
			uint64_t *v)
{
	unsigned int bits = 8 * (f->size + f->hi_size);
	uint64_t max = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;

	if (f->type == DBG_F_ERRORS && !errors_value(value, v))
		return 0;
	if (f->type == DBG_F_TIME && !strcmp(value, "now")) {
		*v = (uint64_t)time(NULL);
		return 0;
	}
	if (f->type == DBG_F_INT && value[0] == '-') {
		int64_t s;
		char *end;

		errno = 0;
		s = strtoll(value, &end, 0);
		if (errno || *end || s < -(int64_t)(max >> 1) - 1)
			return -1;
		*v = (uint64_t)s & max;
		return 0;
	}
	return dbg_parse_u64(value, max, v);
}

/* Inode flag names (the kernel's EXT4_*_FL, lower case). */
static const struct {
	const char *name;
	uint32_t bit;
} iflag_names[] = {
	{ "secrm", 0x1 }, { "unrm", 0x2 }, { "compr", 0x4 },
	{ "sync", 0x8 }, { "immutable", 0x10 }, { "append", 0x20 },
	{ "nodump", 0x40 }, { "noatime", 0x80 }, { "dirty", 0x100 },
	{ "comprblk", 0x200 }, { "nocompr", 0x400 }, { "encrypt", 0x800 },
	{ "index", 0x1000 }, { "imagic", 0x2000 },
	{ "journal_data", 0x4000 }, { "notail", 0x8000 },
	{ "dirsync", 0x10000 }, { "topdir", 0x20000 },
	{ "huge_file", 0x40000 }, { "extents", 0x80000 },
	{ "verity", 0x100000 }, { "ea_inode", 0x200000 },
	{ "dax", 0x2000000 }, { "inline_data", 0x10000000 },
	{ "projinherit", 0x20000000 }, { "casefold", 0x40000000 },
};

static int iflag_bit(const char *name, size_t len, uint32_t *bit)
{
	size_t i;

	for (i = 0; i < sizeof(iflag_names) / sizeof(iflag_names[0]); i++)
		if (strlen(iflag_names[i].name) == len &&
		    !strncmp(iflag_names[i].name, name, len)) {
			*bit = iflag_names[i].bit;
			return 0;
		}
	return 1;
}

/* "a,b" -> exactly a|b; "+a,-b" -> OLD with a set and b cleared. */
static int parse_iflags(const char *value, uint32_t old, uint32_t *out)
{
	const char *p = value;
	uint32_t set = 0, clear = 0, bit;
	int relative = -1;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int sign = (*p == '+' || *p == '-') ? *p : 0;

		if (relative >= 0 && relative != !!sign)
			return 1;	/* no mixing of the two forms */
		relative = !!sign;
		if (iflag_bit(p + !!sign, len - !!sign, &bit))
			return 1;
		if (sign == '-')
			clear |= bit;
		else
			set |= bit;
		p += len + (end != NULL);
	}
	if (relative < 0)
		return 1;
	*out = relative ? (old | set) & ~clear : set;
	return 0;
}

int dbg_field_set(const struct dbg_field *f, int index, unsigned char *buf,
		  size_t buflen, const char *value)
{
	size_t off = f->off + (index > 0 ? (size_t)index * f->size : 0);
	uint64_t v;
	uuid_t u;

	if (off + f->size > buflen || (f->hi_size &&
				       f->hi_off + f->hi_size > buflen))
		return DBG_FIELD_OUT_OF_RANGE;
	switch (f->type) {
	case DBG_F_UUID:
		if (!strcmp(value, "null") || !strcmp(value, "clear"))
			uuid_clear(u);
		else if (!strcmp(value, "random"))
			uuid_generate(u);
		else if (!strcmp(value, "time"))
			uuid_generate_time(u);
		else if (uuid_parse(value, u))
			return DBG_FIELD_BAD_VALUE;
		memcpy(buf + off, u, f->size < 16 ? f->size : 16);
		return 0;
	case DBG_F_STRING:
		if (strlen(value) > f->size)
			return DBG_FIELD_BAD_VALUE;
		memset(buf + off, 0, f->size);
		memcpy(buf + off, value, strlen(value));
		return 0;
	case DBG_F_IFLAGS:
		if (f->size == 4 && parse_number(f, value, &v)) {
			uint32_t old, nv;

			memcpy(&old, buf + off, 4);
			if (parse_iflags(value, old, &nv))
				return DBG_FIELD_BAD_VALUE;
			memcpy(buf + off, &nv, 4);
			return 0;
		}
		break;
	}
	if (parse_number(f, value, &v))
		return DBG_FIELD_BAD_VALUE;
	put_native(buf + off, f->size, v);
	if (f->hi_size)
		put_native(buf + f->hi_off, f->hi_size, v >> (8 * f->size));
	return 0;
}

uint64_t dbg_field_get(const struct dbg_field *f, int index,
		       const unsigned char *buf, size_t buflen)
{
	size_t off = f->off + (index > 0 ? (size_t)index * f->size : 0);
	uint64_t v;

	if (off + f->size > buflen || f->size > 8)
		return 0;
	v = get_native(buf + off, f->size);
	if (f->hi_size && f->hi_off + f->hi_size <= buflen)
		v |= get_native(buf + f->hi_off, f->hi_size) << (8 * f->size);
	return v;
}

#define BG(f) offsetof(struct ext4_group_desc, f)
#define BGSZ(f) sizeof(((struct ext4_group_desc *)0)->f)
/* Group descriptor field F, high part H (past byte 32: 64bit only). */
#define G(name, f) { name, BG(f), BGSZ(f), 0, 0, DBG_F_UINT, 0 }
#define GH(name, f, h) { name, BG(f), BGSZ(f), BG(h), BGSZ(h), DBG_F_UINT, 0 }

const struct dbg_field dbg_bg_fields[] = {
	GH("block_bitmap", bg_block_bitmap, bg_block_bitmap_hi),
	GH("inode_bitmap", bg_inode_bitmap, bg_inode_bitmap_hi),
	GH("inode_table", bg_inode_table, bg_inode_table_hi),
	GH("free_blocks_count", bg_free_blocks_count,
	   bg_free_blocks_count_hi),
	GH("free_inodes_count", bg_free_inodes_count,
	   bg_free_inodes_count_hi),
	GH("used_dirs_count", bg_used_dirs_count, bg_used_dirs_count_hi),
	G("flags", bg_flags),
	GH("exclude_bitmap", bg_exclude_bitmap_lo, bg_exclude_bitmap_hi),
	GH("block_bitmap_csum", bg_block_bitmap_csum_lo,
	   bg_block_bitmap_csum_hi),
	GH("inode_bitmap_csum", bg_inode_bitmap_csum_lo,
	   bg_inode_bitmap_csum_hi),
	GH("itable_unused", bg_itable_unused, bg_itable_unused_hi),
	G("checksum", bg_checksum),
	{ NULL, 0, 0, 0, 0, 0, 0 }
};
