/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * geometry.c --- from what the user typed, what we know of the target and
 * the mke2fs.conf profile to the superblock template ext2fs_initialize
 * lays out, with the same defaults as the reference mke2fs 1.47.
 */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "e2x.h"

#define MAX_32		0xffffffffULL
#define MAX_TYPES	8

/* Features e2x mke2fs knows how to create (others are refused). */
#define OK_COMPAT	(EXT3_FEATURE_COMPAT_HAS_JOURNAL |		\
			 EXT2_FEATURE_COMPAT_EXT_ATTR |			\
			 EXT2_FEATURE_COMPAT_RESIZE_INODE |		\
			 EXT2_FEATURE_COMPAT_DIR_INDEX |		\
			 EXT4_FEATURE_COMPAT_SPARSE_SUPER2 |		\
			 EXT4_FEATURE_COMPAT_STABLE_INODES)
#define OK_INCOMPAT	(EXT2_FEATURE_INCOMPAT_FILETYPE |		\
			 EXT3_FEATURE_INCOMPAT_EXTENTS |		\
			 EXT2_FEATURE_INCOMPAT_META_BG |		\
			 EXT4_FEATURE_INCOMPAT_64BIT |			\
			 EXT4_FEATURE_INCOMPAT_FLEX_BG |		\
			 EXT4_FEATURE_INCOMPAT_EA_INODE |		\
			 EXT4_FEATURE_INCOMPAT_CSUM_SEED |		\
			 EXT4_FEATURE_INCOMPAT_LARGEDIR |		\
			 EXT4_FEATURE_INCOMPAT_INLINE_DATA |		\
			 EXT4_FEATURE_INCOMPAT_ENCRYPT)
#define OK_RO_COMPAT	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER |		\
			 EXT2_FEATURE_RO_COMPAT_LARGE_FILE |		\
			 EXT4_FEATURE_RO_COMPAT_HUGE_FILE |		\
			 EXT4_FEATURE_RO_COMPAT_GDT_CSUM |		\
			 EXT4_FEATURE_RO_COMPAT_DIR_NLINK |		\
			 EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE |		\
			 EXT4_FEATURE_RO_COMPAT_BIGALLOC |		\
			 EXT4_FEATURE_RO_COMPAT_METADATA_CSUM |		\
			 E2X_FEATURE_RO_COMPAT_ITREE)

/* Working state of one calculation. */
struct calc {
	const struct e2x_mkfs_request *req;
	const struct e2x_target_info *target;
	const struct e2x_profile *prof;
	struct e2x_geometry *geom;
	struct e2x_features feat;
	struct e2x_features user_set;	/* named in -O */
	struct e2x_features user_cleared; /* named with ^ in -O */
	const char *types[MAX_TYPES + 1];
	char typebuf[160];
	unsigned long long bytes;	/* file system size in bytes */
	unsigned long long r_blocks;	/* reserved for root */
	char *why;
	size_t whylen;
};

static errcode_t refuse(struct calc *c, errcode_t err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static errcode_t refuse(struct calc *c, errcode_t err, const char *fmt, ...)
{
	va_list ap;

	if (c->why && c->whylen) {
		va_start(ap, fmt);
		vsnprintf(c->why, c->whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int is_pow2(unsigned long long v)
{
	return v && !(v & (v - 1));
}

static unsigned int log2_of(unsigned long long v)
{
	unsigned int l = 0;

	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

/* Integer from the profile through the type list, or dflt. */
static long long prof_int(struct calc *c, const char *tag, long long dflt)
{
	const char *v = e2x_profile_lookup(c->prof, c->types, tag);
	char *end;
	long long n;

	if (!v || !*v)
		return dflt;
	n = strtoll(v, &end, 0);
	return *end ? dflt : n;
}

static double prof_double(struct calc *c, const char *tag, double dflt)
{
	const char *v = e2x_profile_lookup(c->prof, c->types, tag);
	char *end;
	double d;

	if (!v || !*v)
		return dflt;
	d = strtod(v, &end);
	return *end ? dflt : d;
}

/* Booleans as the profile library spells them. */
static int prof_bool(struct calc *c, const char *tag, int dflt)
{
	static const char *const yes[] = { "y", "yes", "true", "t", "1",
					   "on", NULL };
	static const char *const no[] = { "n", "no", "false", "nil", "0",
					  "off", NULL };
	const char *v = e2x_profile_lookup(c->prof, c->types, tag);
	int i;

	if (!v)
		return dflt;
	for (i = 0; yes[i]; i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (i = 0; no[i]; i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return dflt;
}

/* The size class mke2fs.conf uses when no -T is given. */
static const char *size_class(unsigned long long bytes)
{
	const unsigned long long mib = 1ULL << 20;

	if (bytes < 3 * mib)
		return "floppy";
	if (bytes < 512 * mib)
		return "small";
	if (bytes < (4ULL << 20) * mib)
		return "default";
	if (bytes < (16ULL << 20) * mib)
		return "big";
	return "huge";
}

/* Work out the fs type and the list of profile types to consult. */
static errcode_t pick_types(struct calc *c)
{
	const struct e2x_mkfs_request *req = c->req;
	const char *fs_type = req->fs_type ? req->fs_type : "ext4";
	const char *usage = req->usage_types;
	char *p, *tok, *save = NULL;
	int n = 0;

	if (strcmp(fs_type, "ext2") && strcmp(fs_type, "ext3") &&
	    strcmp(fs_type, "ext4"))
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "unknown file system type '%s' (use ext2, ext3 or ext4)",
			      fs_type);
	if (strcmp(fs_type, "ext2") && !e2x_profile_has_type(c->prof, fs_type))
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "mke2fs.conf does not define the %s type (its [fs_types] lacks '%s = {...}')",
			      fs_type, fs_type);
	snprintf(c->geom->fs_type, sizeof(c->geom->fs_type), "%s", fs_type);
	if (!usage)
		usage = size_class(c->bytes);
	if (strlen(usage) >= sizeof(c->typebuf))
		return refuse(c, E2X_ERR_BAD_OPTION, "usage type list too long");
	snprintf(c->typebuf, sizeof(c->typebuf), "%s", usage);
	c->types[n++] = c->geom->fs_type;
	for (tok = strtok_r(c->typebuf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!e2x_profile_has_type(c->prof, tok)) {
			if (req->usage_types && strcmp(tok, "default"))
				return refuse(c, E2X_ERR_BAD_OPTION,
					      "usage type '%s' is not defined in mke2fs.conf",
					      tok);
			continue;
		}
		if (n == MAX_TYPES)
			return refuse(c, E2X_ERR_BAD_OPTION,
				      "too many usage types");
		c->types[n++] = tok;
	}
	c->types[n] = NULL;
	p = c->geom->types;
	for (n = 0; c->types[n]; n++)
		p += snprintf(p, sizeof(c->geom->types) - (p - c->geom->types),
			      "%s%s", n ? "," : "", c->types[n]);
	return 0;
}

static errcode_t edit_features(struct calc *c, const char *list,
			       const char *where, int from_user)
{
	char bad[64];
	errcode_t err;

	err = e2x_features_edit(&c->feat, list,
				from_user ? &c->user_set : NULL,
				from_user ? &c->user_cleared : NULL, bad,
				sizeof(bad));
	if (err)
		return refuse(c, err, "unknown feature '%s' in %s", bad, where);
	return 0;
}

/* base_features, then each type's features, then -O or default_features. */
static errcode_t pick_features(struct calc *c)
{
	const char *v;
	errcode_t err;
	int i;

	v = e2x_profile_lookup(c->prof, c->types, "base_features");
	if (!v)
		v = "sparse_super,large_file,filetype,resize_inode,dir_index";
	err = edit_features(c, v, "mke2fs.conf base_features", 0);
	if (err)
		return err;
	for (i = 0; c->types[i]; i++) {
		v = e2x_profile_get(c->prof, "fs_types", c->types[i],
				    "features");
		if (v && (err = edit_features(c, v, "mke2fs.conf features", 0)))
			return err;
	}
	if (c->req->journal)
		c->feat.compat |= EXT3_FEATURE_COMPAT_HAS_JOURNAL;
	if (c->req->features)
		return edit_features(c, c->req->features, "-O", 1);
	v = e2x_profile_lookup(c->prof, c->types, "default_features");
	if (v)
		return edit_features(c, v, "mke2fs.conf default_features", 0);
	return 0;
}

static errcode_t check_supported(struct calc *c)
{
	static const char *const words[] = { "compat", "incompat",
					     "ro_compat" };
	__u32 extra[3];
	int w, bit;

	extra[0] = c->feat.compat & ~OK_COMPAT;
	extra[1] = c->feat.incompat & ~OK_INCOMPAT;
	extra[2] = c->feat.ro_compat & ~OK_RO_COMPAT;
	for (w = 0; w < 3; w++) {
		for (bit = 0; bit < 32; bit++) {
			const char *name;

			if (!(extra[w] & (1u << bit)))
				continue;
			name = e2x_feature_name(w, 1u << bit);
			return refuse(c, E2X_ERR_UNSUPPORTED,
				      "feature '%s' (%s) is not supported by e2x mke2fs",
				      name ? name : "?", words[w]);
		}
	}
	return 0;
}

static errcode_t pick_blocksize(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	unsigned int lsec = c->target->logical_sector;
	long long bs = c->req->blocksize;

	if (!bs) {
		bs = prof_int(c, "blocksize", 4096);
		if (bs == -1)
			bs = sysconf(_SC_PAGESIZE);
		if (lsec && bs < lsec)
			bs = lsec;
	}
	if (bs < EXT2_MIN_BLOCK_SIZE || bs > EXT2_MAX_BLOCK_SIZE ||
	    !is_pow2(bs))
		return refuse(c, E2X_ERR_BLOCKSIZE_RANGE,
			      "block size %lld is not a power of two from 1024 to 65536",
			      bs);
	if (lsec && bs < lsec)
		return refuse(c, E2X_ERR_BLOCKSIZE_RANGE,
			      "block size %lld is smaller than the device's %u-byte sectors",
			      bs, lsec);
	g->blocksize = bs;
	g->sb.s_log_block_size = log2_of(bs) - EXT2_MIN_BLOCK_LOG_SIZE;
	return 0;
}

static errcode_t pick_blocks(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	unsigned long long blocks = c->bytes / g->blocksize;
	unsigned int bits = log2_of(g->blocksize);

	if (blocks > MAX_32) {
		if (c->feat.incompat & EXT4_FEATURE_INCOMPAT_64BIT) {
			if (c->feat.compat & EXT2_FEATURE_COMPAT_RESIZE_INODE)
				g->notes |= E2X_NOTE_RESIZE_OFF;
			c->feat.compat &= ~EXT2_FEATURE_COMPAT_RESIZE_INODE;
		} else if (!(c->user_cleared.incompat &
			     EXT4_FEATURE_INCOMPAT_64BIT) &&
			   prof_bool(c, "auto_64-bit_support", 0)) {
			c->feat.incompat |= EXT4_FEATURE_INCOMPAT_64BIT;
			c->feat.compat &= ~EXT2_FEATURE_COMPAT_RESIZE_INODE;
			g->notes |= E2X_NOTE_64BIT_AUTO | E2X_NOTE_RESIZE_OFF;
		} else {
			return refuse(c, E2X_ERR_GEOMETRY,
				      "%llu blocks of %u bytes need 64-bit block numbers: enable 64bit or use larger blocks",
				      blocks, g->blocksize);
		}
	}
	if (bits + 3 + 32 < 64 && blocks > (1ULL << (bits + 3 + 32)) - 1)
		return refuse(c, E2X_ERR_GEOMETRY,
			      "%llu blocks would need more than 2^32 block groups",
			      blocks);
	g->blocks = blocks;
	return 0;
}

static errcode_t check_feature_rules(struct calc *c)
{
	struct e2x_features *f = &c->feat;

	if ((f->ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM) &&
	    (f->ro_compat & EXT4_FEATURE_RO_COMPAT_GDT_CSUM))
		f->ro_compat &= ~EXT4_FEATURE_RO_COMPAT_GDT_CSUM;
	if ((f->ro_compat & EXT4_FEATURE_RO_COMPAT_BIGALLOC) &&
	    !(f->incompat & EXT3_FEATURE_INCOMPAT_EXTENTS))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "bigalloc needs the extent feature: block maps cannot address clusters");
	if ((f->incompat & EXT2_FEATURE_INCOMPAT_META_BG) &&
	    (f->compat & EXT2_FEATURE_COMPAT_RESIZE_INODE))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "meta_bg and resize_inode cannot be combined (add ^resize_inode)");
	if ((f->compat & EXT2_FEATURE_COMPAT_RESIZE_INODE) &&
	    !(f->ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "resize_inode needs sparse_super");
	if ((f->incompat & EXT4_FEATURE_INCOMPAT_INLINE_DATA) &&
	    !(f->compat & EXT2_FEATURE_COMPAT_EXT_ATTR))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "inline_data needs ext_attr (it keeps data in the system.data attribute)");
	if ((f->ro_compat & E2X_FEATURE_RO_COMPAT_ITREE) &&
	    !(f->compat & EXT2_FEATURE_COMPAT_DIR_INDEX))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "itree needs dir_index: it is built beside each directory's htree");
	if ((f->ro_compat & E2X_FEATURE_RO_COMPAT_ITREE) &&
	    !(f->compat & EXT2_FEATURE_COMPAT_EXT_ATTR))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "itree needs ext_attr: its root record is an in-inode attribute");
	if ((f->incompat & EXT4_FEATURE_INCOMPAT_CSUM_SEED) &&
	    !(f->ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "metadata_csum_seed needs metadata_csum");
	return 0;
}

static errcode_t pick_cluster(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	unsigned long long cs = c->req->cluster_size;
	unsigned long long ratio;

	g->cluster_size = g->blocksize;
	g->sb.s_log_cluster_size = g->sb.s_log_block_size;
	if (!(c->feat.ro_compat & EXT4_FEATURE_RO_COMPAT_BIGALLOC)) {
		if (cs)
			return refuse(c, E2X_ERR_FEATURE_CONFLICT,
				      "a cluster size (-C) needs the bigalloc feature (-O bigalloc)");
		return 0;
	}
	if (!cs) {
		long long p = prof_int(c, "cluster_size", 16LL * g->blocksize);

		cs = p > 0 ? (unsigned long long)p : 0;
	}
	ratio = cs / g->blocksize;
	if (!is_pow2(cs) || cs % g->blocksize || ratio < 2 || ratio > 32768)
		return refuse(c, E2X_ERR_CLUSTER_RANGE,
			      "cluster size %llu must be a power of two from 2 to 32768 blocks of %u bytes",
			      cs, g->blocksize);
	if (cs > EXT2_MAX_CLUSTER_SIZE)
		return refuse(c, E2X_ERR_CLUSTER_RANGE,
			      "cluster size %llu is over the 512 MiB that ext4 tools handle",
			      cs);
	if (ratio > 16)
		g->notes |= E2X_NOTE_BIGALLOC_EXP;
	g->cluster_size = cs;
	g->sb.s_log_cluster_size = log2_of(cs) - EXT2_MIN_CLUSTER_LOG_SIZE;
	return 0;
}

static errcode_t pick_group_sizes(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	unsigned int bpg = c->req->blocks_per_group;
	long long flex = c->req->flex_bg_size;

	if (bpg) {
		if (bpg < 256 || bpg > 8 * g->blocksize || bpg % 8)
			return refuse(c, E2X_ERR_GEOMETRY,
				      "blocks per group (-g) must be a multiple of 8 from 256 to %u",
				      8 * g->blocksize);
		if (c->feat.ro_compat & EXT4_FEATURE_RO_COMPAT_BIGALLOC)
			g->sb.s_clusters_per_group = bpg;
		else
			g->sb.s_blocks_per_group = bpg;
	}
	if (!(c->feat.incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG)) {
		if (flex)
			return refuse(c, E2X_ERR_FEATURE_CONFLICT,
				      "a flex_bg size (-G) needs the flex_bg feature");
		return 0;
	}
	if (!flex)
		flex = prof_int(c, "flex_bg_size", 16);
	if (flex < 1 || flex > (1LL << 31) || !is_pow2(flex))
		return refuse(c, E2X_ERR_GEOMETRY,
			      "flex_bg size %lld is not a power of two", flex);
	g->sb.s_log_groups_per_flex = log2_of(flex);
	return 0;
}

static errcode_t pick_inode_size(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	long long isz = c->req->inode_size;

	if (!isz)
		isz = prof_int(c, "inode_size", 0);
	if (!isz)
		isz = EXT2_GOOD_OLD_INODE_SIZE;
	if (isz < EXT2_GOOD_OLD_INODE_SIZE || isz > g->blocksize ||
	    !is_pow2(isz))
		return refuse(c, E2X_ERR_INODE_SIZE,
			      "inode size %lld must be a power of two from 128 to the block size (%u)",
			      isz, g->blocksize);
	if ((c->feat.incompat & EXT4_FEATURE_INCOMPAT_INLINE_DATA) &&
	    isz == EXT2_GOOD_OLD_INODE_SIZE)
		return refuse(c, E2X_ERR_INODE_SIZE,
			      "inline_data needs inodes of 256 bytes or more: a 128-byte inode has no room for the system.data attribute");
	if ((c->feat.ro_compat & E2X_FEATURE_RO_COMPAT_ITREE) &&
	    isz == EXT2_GOOD_OLD_INODE_SIZE)
		return refuse(c, E2X_ERR_INODE_SIZE,
			      "itree needs inodes of 256 bytes or more: its root record lives in the in-inode attribute area");
	if (isz == EXT2_GOOD_OLD_INODE_SIZE)
		g->notes |= E2X_NOTE_128_INODE;
	g->inode_size = isz;
	g->sb.s_inode_size = isz;
	return 0;
}

static errcode_t pick_inode_count(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	unsigned long long ratio = c->req->inode_ratio;
	unsigned long long n = c->req->num_inodes;

	if (ratio) {
		if (ratio < EXT2_MIN_BLOCK_SIZE ||
		    ratio > EXT2_MAX_BLOCK_SIZE * 1024ULL)
			return refuse(c, E2X_ERR_BAD_OPTION,
				      "inode ratio (-i) %llu is outside 1024..67108864",
				      ratio);
	} else {
		long long p = prof_int(c, "inode_ratio", 8192);

		ratio = p > 0 ? (unsigned long long)p : 8192;
		if (ratio < g->blocksize)
			ratio = g->blocksize;
		if (ratio < g->cluster_size)
			ratio = g->cluster_size;
	}
	g->inode_ratio = ratio;
	if (!n) {
		n = g->blocks * g->blocksize / ratio;
		if (n > MAX_32) {
			if (!(c->feat.incompat & EXT4_FEATURE_INCOMPAT_64BIT))
				return refuse(c, E2X_ERR_GEOMETRY,
					      "%llu inodes is more than 2^32: raise the inode ratio (-i)",
					      n);
			n = MAX_32;
		}
	} else if (n > MAX_32) {
		return refuse(c, E2X_ERR_GEOMETRY,
			      "%llu inodes is more than 2^32 - 1", n);
	}
	if (n * g->inode_size >= g->blocks * g->blocksize)
		return refuse(c, E2X_ERR_GEOMETRY,
			      "%llu inodes of %u bytes would fill the whole file system: raise -i or lower -N",
			      n, g->inode_size);
	g->sb.s_inodes_count = n;
	return 0;
}

static errcode_t pick_reserved(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	double r;

	if (c->req->given & E2X_GIVEN_RESERVED)
		r = c->req->reserved_ratio;
	else
		r = prof_double(c, "reserved_ratio", 5.0);
	if (!(r >= 0.0 && r <= 50.0))
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "reserved-blocks percentage %g is outside 0..50",
			      r);
	c->r_blocks = r * g->blocks / 100.0;
	return 0;
}

/* RAID hints: the user's -E stride/stripe_width, else the topology. */
static void pick_raid(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	const struct e2x_target_info *t = c->target;
	unsigned long min_io = t->min_io, opt_io = t->optimal_io;

	if (c->req->stride || c->req->stripe_width) {
		g->sb.s_raid_stride = c->req->stride;
		g->sb.s_raid_stripe_width = c->req->stripe_width;
		return;
	}
	if (!min_io && t->physical_sector > g->blocksize)
		min_io = t->physical_sector;
	if (!opt_io)
		opt_io = min_io;
	if (min_io > g->blocksize)
		g->sb.s_raid_stride = min_io / g->blocksize;
	if (opt_io > g->blocksize)
		g->sb.s_raid_stripe_width = opt_io / g->blocksize;
}

static errcode_t pick_names(struct calc *c)
{
	const struct e2x_mkfs_request *req = c->req;
	struct e2x_geometry *g = c->geom;

	if (req->label) {
		if (strlen(req->label) > sizeof(g->sb.s_volume_name))
			return refuse(c, E2X_ERR_BAD_OPTION,
				      "volume label '%s' is longer than %zu bytes",
				      req->label, sizeof(g->sb.s_volume_name));
		memcpy(g->sb.s_volume_name, req->label, strlen(req->label));
	}
	if (req->last_mounted) {
		if (strlen(req->last_mounted) >= sizeof(g->sb.s_last_mounted))
			return refuse(c, E2X_ERR_BAD_OPTION,
				      "last-mounted directory is longer than %zu bytes",
				      sizeof(g->sb.s_last_mounted) - 1);
		strcpy((char *)g->sb.s_last_mounted, req->last_mounted);
	}
	if (req->given & E2X_GIVEN_HASH_SEED)
		memcpy(g->sb.s_hash_seed, req->hash_seed,
		       sizeof(g->sb.s_hash_seed));
	g->uuid_mode = E2X_UUID_RANDOM;
	if (!req->uuid || !strcasecmp(req->uuid, "random"))
		return 0;
	if (!strcasecmp(req->uuid, "time")) {
		g->uuid_mode = E2X_UUID_TIME;
	} else if (!strcasecmp(req->uuid, "clear") ||
		   !strcasecmp(req->uuid, "null")) {
		g->uuid_mode = E2X_UUID_CLEAR;
	} else if (uuid_parse(req->uuid, g->sb.s_uuid) == 0) {
		g->uuid_mode = E2X_UUID_GIVEN;
	} else {
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "'%s' is not a UUID (nor clear, random, time)",
			      req->uuid);
	}
	return 0;
}

/* Superblock defaults that live in the profile. */
static errcode_t pick_profile_defaults(struct calc *c)
{
	struct e2x_geometry *g = c->geom;
	const char *v;
	char bad[64];
	int hash;

	v = e2x_profile_lookup(c->prof, c->types, "hash_alg");
	hash = e2x_hash_alg(v ? v : "half_md4");
	if (hash < 0)
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "unknown hash_alg '%s' in mke2fs.conf", v);
	g->sb.s_def_hash_version = hash;
	v = e2x_profile_lookup(c->prof, c->types, "default_mntopts");
	if (e2x_parse_mntopts(v ? v : "acl,user_xattr",
			      &g->sb.s_default_mount_opts, bad, sizeof(bad)))
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "unknown mount option '%s' in mke2fs.conf", bad);
	if (prof_bool(c, "enable_periodic_fsck", 0)) {
		g->sb.s_checkinterval = 180 * 24 * 3600;
		g->sb.s_max_mnt_count = EXT2_DFL_MAX_MNT_COUNT;
	} else {
		g->sb.s_max_mnt_count = (__u16)-1;
	}
	v = e2x_profile_lookup(c->prof, c->types, "errors");
	if (!v || !strcmp(v, "continue"))
		g->sb.s_errors = EXT2_ERRORS_CONTINUE;
	else if (!strcmp(v, "remount-ro"))
		g->sb.s_errors = EXT2_ERRORS_RO;
	else if (!strcmp(v, "panic"))
		g->sb.s_errors = EXT2_ERRORS_PANIC;
	else
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "unknown errors behaviour '%s' in mke2fs.conf", v);
	return 0;
}

/* Settings that steer the writer rather than the superblock. */
static errcode_t pick_write_options(struct calc *c)
{
	const struct e2x_mkfs_request *req = c->req;
	struct e2x_geometry *g = c->geom;

	g->journal = !!(c->feat.compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL);
	g->journal_mb = req->journal_mb;
	if (req->journal_mb && !g->journal)
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "a journal size (-J size=) needs has_journal");
	g->lazy_itable_init = (req->given & E2X_GIVEN_LAZY_ITABLE) ?
		req->lazy_itable_init :
		prof_bool(c, "lazy_itable_init", c->target->lazy_itable_ok);
	g->lazy_journal_init = (req->given & E2X_GIVEN_LAZY_JOURNAL) ?
		req->lazy_journal_init :
		prof_bool(c, "lazy_journal_init", 0);
	g->discard = (req->given & E2X_GIVEN_DISCARD) ?
		req->discard : prof_bool(c, "discard", 1);
	g->packed_meta_blocks = (req->given & E2X_GIVEN_PACKED) ?
		req->packed_meta_blocks :
		prof_bool(c, "packed_meta_blocks", 0);
	if (g->packed_meta_blocks &&
	    !(c->feat.incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG))
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "packed_meta_blocks needs flex_bg");
	if (req->given & E2X_GIVEN_ROOT_OWNER) {
		g->root_uid = req->root_uid;
		g->root_gid = req->root_gid;
	}
	if (c->feat.compat & EXT4_FEATURE_COMPAT_SPARSE_SUPER2) {
		unsigned int n = (req->given & E2X_GIVEN_NUM_BACKUP) ?
			req->num_backup_sb : 2;

		if (n > 2)
			return refuse(c, E2X_ERR_BAD_OPTION,
				      "num_backup_sb must be 0, 1 or 2");
		g->sb.s_backup_bgs[0] = n >= 1 ? 1 : 0;
		g->sb.s_backup_bgs[1] = n >= 2 ? ~0U : 0;
	} else if (req->given & E2X_GIVEN_NUM_BACKUP) {
		return refuse(c, E2X_ERR_FEATURE_CONFLICT,
			      "num_backup_sb needs the sparse_super2 feature");
	}
	return 0;
}

static errcode_t pick_size(struct calc *c)
{
	const struct e2x_mkfs_request *req = c->req;

	if (req->given & E2X_GIVEN_SIZE) {
		c->bytes = req->fs_bytes;
		if (c->target->size_bytes && c->bytes > c->target->size_bytes &&
		    c->target->is_device)
			return refuse(c, E2X_ERR_TOO_SMALL,
				      "requested size %llu bytes is larger than the device (%llu bytes)",
				      c->bytes, c->target->size_bytes);
	} else {
		c->bytes = c->target->size_bytes;
	}
	if (!c->bytes)
		return refuse(c, E2X_ERR_BAD_OPTION,
			      "size unknown: give a size for a new or empty image file");
	return 0;
}

errcode_t e2x_geometry_calc(const struct e2x_mkfs_request *req,
			    const struct e2x_target_info *target,
			    const struct e2x_profile *prof,
			    struct e2x_geometry *geom, char *why,
			    size_t whylen)
{
	static const struct e2x_target_info no_target;
	struct calc c;
	errcode_t err;

	memset(geom, 0, sizeof(*geom));
	memset(&c, 0, sizeof(c));
	c.req = req;
	c.target = target ? target : &no_target;
	c.prof = prof;
	c.geom = geom;
	c.why = why;
	c.whylen = whylen;
	if (why && whylen)
		why[0] = 0;

	if ((err = pick_size(&c)) || (err = pick_types(&c)) ||
	    (err = pick_features(&c)) || (err = check_supported(&c)) ||
	    (err = pick_blocksize(&c)) || (err = pick_blocks(&c)) ||
	    (err = check_feature_rules(&c)) || (err = pick_cluster(&c)) ||
	    (err = pick_group_sizes(&c)) || (err = pick_inode_size(&c)) ||
	    (err = pick_inode_count(&c)) || (err = pick_reserved(&c)) ||
	    (err = pick_names(&c)) || (err = pick_profile_defaults(&c)) ||
	    (err = pick_write_options(&c)))
		return err;
	pick_raid(&c);

	geom->sb.s_rev_level = EXT2_DYNAMIC_REV;
	geom->sb.s_feature_compat = c.feat.compat;
	geom->sb.s_feature_incompat = c.feat.incompat;
	geom->sb.s_feature_ro_compat = c.feat.ro_compat;
	if (c.feat.incompat & EXT4_FEATURE_INCOMPAT_64BIT)
		geom->sb.s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	/* The high words are stored only once 64bit is in the template. */
	ext2fs_blocks_count_set(&geom->sb, geom->blocks);
	ext2fs_r_blocks_count_set(&geom->sb, c.r_blocks);
	if (c.feat.ro_compat & EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		geom->sb.s_checksum_type = EXT2_CRC32C_CHKSUM;
	return 0;
}
