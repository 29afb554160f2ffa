/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * features.c --- the names users type for mke2fs: feature names and
 * feature lists with ^, sizes with k/m/g/t suffixes, mount option names
 * and directory hash names.
 */
#include "config.h"
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

#define W_COMPAT	0
#define W_INCOMPAT	1
#define W_RO_COMPAT	2

/* Feature names as e2fsprogs spells them (aliases after the main name). */
static const struct feature_name {
	int word;
	__u32 mask;
	const char *name;
} feature_names[] = {
	{ W_COMPAT, EXT2_FEATURE_COMPAT_DIR_PREALLOC, "dir_prealloc" },
	{ W_COMPAT, EXT3_FEATURE_COMPAT_HAS_JOURNAL, "has_journal" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_IMAGIC_INODES, "imagic_inodes" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_EXT_ATTR, "ext_attr" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_DIR_INDEX, "dir_index" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_RESIZE_INODE, "resize_inode" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_LAZY_BG, "lazy_bg" },
	{ W_COMPAT, EXT2_FEATURE_COMPAT_EXCLUDE_BITMAP, "snapshot_bitmap" },
	{ W_COMPAT, EXT4_FEATURE_COMPAT_SPARSE_SUPER2, "sparse_super2" },
	{ W_COMPAT, EXT4_FEATURE_COMPAT_FAST_COMMIT, "fast_commit" },
	{ W_COMPAT, EXT4_FEATURE_COMPAT_STABLE_INODES, "stable_inodes" },
	{ W_COMPAT, EXT4_FEATURE_COMPAT_ORPHAN_FILE, "orphan_file" },
	{ W_RO_COMPAT, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER, "sparse_super" },
	{ W_RO_COMPAT, EXT2_FEATURE_RO_COMPAT_LARGE_FILE, "large_file" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_HUGE_FILE, "huge_file" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_GDT_CSUM, "uninit_bg" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_GDT_CSUM, "uninit_groups" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_DIR_NLINK, "dir_nlink" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE, "extra_isize" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_QUOTA, "quota" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_BIGALLOC, "bigalloc" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_METADATA_CSUM,
	  "metadata_csum" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_REPLICA, "replica" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_READONLY, "read-only" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_PROJECT, "project" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_SHARED_BLOCKS,
	  "shared_blocks" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_VERITY, "verity" },
	{ W_RO_COMPAT, EXT4_FEATURE_RO_COMPAT_ORPHAN_PRESENT,
	  "orphan_present" },
	{ W_RO_COMPAT, E2X_FEATURE_RO_COMPAT_ITREE, "itree" },
	{ W_INCOMPAT, EXT2_FEATURE_INCOMPAT_COMPRESSION, "compression" },
	{ W_INCOMPAT, EXT2_FEATURE_INCOMPAT_FILETYPE, "filetype" },
	{ W_INCOMPAT, EXT3_FEATURE_INCOMPAT_RECOVER, "needs_recovery" },
	{ W_INCOMPAT, EXT3_FEATURE_INCOMPAT_JOURNAL_DEV, "journal_dev" },
	{ W_INCOMPAT, EXT3_FEATURE_INCOMPAT_EXTENTS, "extent" },
	{ W_INCOMPAT, EXT3_FEATURE_INCOMPAT_EXTENTS, "extents" },
	{ W_INCOMPAT, EXT2_FEATURE_INCOMPAT_META_BG, "meta_bg" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_64BIT, "64bit" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_MMP, "mmp" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_FLEX_BG, "flex_bg" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_EA_INODE, "ea_inode" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_DIRDATA, "dirdata" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_CSUM_SEED, "metadata_csum_seed" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_LARGEDIR, "large_dir" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_INLINE_DATA, "inline_data" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_ENCRYPT, "encrypt" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_CASEFOLD, "casefold" },
	{ W_INCOMPAT, EXT4_FEATURE_INCOMPAT_CASEFOLD, "fname_encoding" },
};

#define N_FEATURES (sizeof(feature_names) / sizeof(feature_names[0]))

static __u32 *word_of(struct e2x_features *f, int word)
{
	if (word == W_COMPAT)
		return &f->compat;
	if (word == W_INCOMPAT)
		return &f->incompat;
	return &f->ro_compat;
}

static const struct feature_name *find_feature(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < N_FEATURES; i++)
		if (strlen(feature_names[i].name) == n &&
		    !strncasecmp(feature_names[i].name, name, n))
			return &feature_names[i];
	return NULL;
}

const char *e2x_feature_name(int word, __u32 mask)
{
	size_t i;

	for (i = 0; i < N_FEATURES; i++)
		if (feature_names[i].word == word &&
		    feature_names[i].mask == mask)
			return feature_names[i].name;
	return NULL;
}

static void copy_name(char *bad, size_t badlen, const char *s, size_t n)
{
	if (!bad || !badlen)
		return;
	if (n >= badlen)
		n = badlen - 1;
	memcpy(bad, s, n);
	bad[n] = 0;
}

errcode_t e2x_features_edit(struct e2x_features *f, const char *list,
			    struct e2x_features *set,
			    struct e2x_features *cleared, char *bad,
			    size_t badlen)
{
	const char *p = list;

	while (p && *p) {
		const struct feature_name *fn;
		size_t n;
		int neg = 0;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		n = strcspn(p, ", \t\n");
		if (*p == '^' || *p == '-') {
			neg = 1;
			p++;
			n--;
		} else if (*p == '+') {
			p++;
			n--;
		}
		if (!neg && n == 4 && !strncasecmp(p, "none", 4)) {
			memset(f, 0, sizeof(*f));
			p += n;
			continue;
		}
		fn = find_feature(p, n);
		if (!fn) {
			copy_name(bad, badlen, p, n);
			return E2X_ERR_UNKNOWN_FEATURE;
		}
		if (neg) {
			*word_of(f, fn->word) &= ~fn->mask;
			if (cleared)
				*word_of(cleared, fn->word) |= fn->mask;
			if (set)
				*word_of(set, fn->word) &= ~fn->mask;
		} else {
			*word_of(f, fn->word) |= fn->mask;
			if (set)
				*word_of(set, fn->word) |= fn->mask;
			if (cleared)
				*word_of(cleared, fn->word) &= ~fn->mask;
		}
		p += n;
	}
	return 0;
}

void e2x_features_format(const struct e2x_features *f, char *buf,
			 size_t len)
{
	static const int order[] = { W_COMPAT, W_INCOMPAT, W_RO_COMPAT };
	size_t used = 0;
	unsigned int w, bit;

	if (!len)
		return;
	buf[0] = 0;
	for (w = 0; w < 3; w++) {
		__u32 v = *word_of((struct e2x_features *)f, order[w]);

		for (bit = 0; bit < 32; bit++) {
			const char *name;
			int n;

			if (!(v & (1u << bit)))
				continue;
			name = e2x_feature_name(order[w], 1u << bit);
			if (!name)
				continue;
			n = snprintf(buf + used, len - used, "%s%s",
				     used ? " " : "", name);
			if (n < 0 || (size_t)n >= len - used)
				return;
			used += n;
		}
	}
}

errcode_t e2x_parse_size(const char *s, unsigned long long unit,
			 unsigned long long *bytes)
{
	unsigned long long n, mult;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return E2X_ERR_BAD_OPTION;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return E2X_ERR_BAD_OPTION;
	switch (*end) {
	case 0:
		mult = unit;
		break;
	case 'k': case 'K':
		mult = 1ULL << 10;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		break;
	case 't': case 'T':
		mult = 1ULL << 40;
		break;
	case 's': case 'S':	/* 512-byte sectors, as the reference */
		mult = 512;
		break;
	default:
		return E2X_ERR_BAD_OPTION;
	}
	if (*end && end[1] && strcasecmp(end + 1, "b") && strcasecmp(end + 1,
								  "ib"))
		return E2X_ERR_BAD_OPTION;
	if (mult && n > ~0ULL / mult)
		return E2X_ERR_BAD_OPTION;
	*bytes = n * mult;
	return 0;
}

static const struct {
	__u32 mask;
	const char *name;
} mntopt_names[] = {
	{ EXT2_DEFM_DEBUG, "debug" },
	{ EXT2_DEFM_BSDGROUPS, "bsdgroups" },
	{ EXT2_DEFM_XATTR_USER, "user_xattr" },
	{ EXT2_DEFM_ACL, "acl" },
	{ EXT2_DEFM_UID16, "uid16" },
	{ EXT3_DEFM_JMODE_DATA, "journal_data" },
	{ EXT3_DEFM_JMODE_ORDERED, "journal_data_ordered" },
	{ EXT3_DEFM_JMODE_WBACK, "journal_data_writeback" },
	{ EXT4_DEFM_NOBARRIER, "nobarrier" },
	{ EXT4_DEFM_BLOCK_VALIDITY, "block_validity" },
	{ EXT4_DEFM_DISCARD, "discard" },
	{ EXT4_DEFM_NODELALLOC, "nodelalloc" },
};

errcode_t e2x_parse_mntopts(const char *list, __u32 *opts, char *bad,
			    size_t badlen)
{
	const char *p = list;
	size_t i;

	while (p && *p) {
		size_t n;
		int neg = 0, found = 0;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		n = strcspn(p, ", \t\n");
		if (*p == '^') {
			neg = 1;
			p++;
			n--;
		}
		for (i = 0; i < sizeof(mntopt_names) / sizeof(mntopt_names[0]);
		     i++) {
			if (strlen(mntopt_names[i].name) != n ||
			    strncasecmp(mntopt_names[i].name, p, n))
				continue;
			if (neg)
				*opts &= ~mntopt_names[i].mask;
			else
				*opts |= mntopt_names[i].mask;
			found = 1;
			break;
		}
		if (!found) {
			copy_name(bad, badlen, p, n);
			return E2X_ERR_BAD_OPTION;
		}
		p += n;
	}
	return 0;
}

int e2x_hash_alg(const char *name)
{
	static const struct {
		int alg;
		const char *name;
	} hashes[] = {
		{ EXT2_HASH_LEGACY, "legacy" },
		{ EXT2_HASH_HALF_MD4, "half_md4" },
		{ EXT2_HASH_TEA, "tea" },
	};
	size_t i;

	for (i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++)
		if (name && !strcasecmp(name, hashes[i].name))
			return hashes[i].alg;
	return -1;
}
