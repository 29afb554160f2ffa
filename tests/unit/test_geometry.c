/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_geometry.c --- mke2fs geometry: the defaults of every size class and
 * common option equal the reference mke2fs 1.47.0, refusals carry the
 * right code, sizes and feature lists parse as users type them.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

/*
 * Reference figures.  Each row was measured with
 *   truncate -s SIZE img && /usr/sbin/mke2fs -q -F OPTIONS img &&
 *   dumpe2fs -h img
 * (Debian e2fsprogs 1.47.0-2, its /etc/mke2fs.conf = our built-in
 * profile), reading Block count, Inode count, Block size, Cluster size,
 * Inodes per group, Reserved GDT blocks, Reserved block count and Total
 * journal blocks.  OPTIONS are the request columns: -t, -T, -O, -b, -C,
 * -I, -i, -N, -m (-1: not given), -g, -G, -J size=, -j.
 */
struct ref_case {
	const char *name;
	unsigned long long bytes;
	const char *type, *usage, *features;
	unsigned int bs, cs, isz, ratio;
	unsigned long long ninodes;
	double m;
	unsigned int g, flex, jmb, j;
	/* the reference's result */
	unsigned long long blocks;
	unsigned int inodes, blocksize, cluster, ipg, rsv_gdt;
	unsigned long long r_blocks;
	unsigned int journal;
};

static const struct ref_case ref_cases[] = {
	{ "d2m", 2097152ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  2048ULL, 256U, 1024, 1024, 256, 15, 102ULL, 1024 },
	{ "d8m", 8388608ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  8192ULL, 2048U, 1024, 1024, 2048, 63, 409ULL, 1024 },
	{ "d100m", 104857600ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  102400ULL, 25584U, 1024, 1024, 1968, 256, 5120ULL, 4096 },
	{ "d511m", 535822336ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  523264ULL, 130560U, 1024, 1024, 2040, 256, 26163ULL, 8192 },
	{ "d512m", 536870912ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  131072ULL, 32768U, 4096, 4096, 8192, 63, 6553ULL, 4096 },
	{ "d1g", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "d64g", 68719476736ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  16777216ULL, 4194304U, 4096, 4096, 8192, 1024, 838860ULL, 131072 },
	{ "d1t", 1099511627776ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  268435456ULL, 67108864U, 4096, 4096, 8192, 1024, 13421772ULL, 262144 },
	{ "ext2_1g", 1073741824ULL, "ext2", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 63, 13107ULL, 0 },
	{ "ext3_1g", 1073741824ULL, "ext3", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 63, 13107ULL, 8192 },
	{ "ext2_100m", 104857600ULL, "ext2", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  102400ULL, 25584U, 1024, 1024, 1968, 256, 5120ULL, 0 },
	{ "b1k_1g", 1073741824ULL, "ext4", NULL, NULL, 1024, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  1048576ULL, 65536U, 1024, 1024, 512, 256, 52428ULL, 16384 },
	{ "b2k_1g", 1073741824ULL, "ext4", NULL, NULL, 2048, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  524288ULL, 65536U, 2048, 2048, 2048, 512, 26214ULL, 16384 },
	{ "b64k_1g", 1073741824ULL, "ext4", NULL, NULL, 65536, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  16384ULL, 16384U, 65536, 65536, 16384, 0, 819ULL, 1024 },
	{ "i128", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 128, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "i1024", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 1024, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "no64", 1073741824ULL, "ext4", NULL, "^64bit", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 63, 13107ULL, 8192 },
	{ "nojournal", 1073741824ULL, "ext4", NULL, "^has_journal", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 0 },
	{ "nocsum", 1073741824ULL, "ext4", NULL, "^metadata_csum", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "inline", 1073741824ULL, "ext4", NULL, "inline_data", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "big16k", 1073741824ULL, "ext4", NULL, "bigalloc", 0, 16384, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 16384, 32768, 31, 13107ULL, 8192 },
	{ "big64k", 1073741824ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 16384U, 4096, 65536, 16384, 7, 13107ULL, 8192 },
	{ "big1m", 1073741824ULL, "ext4", NULL, "bigalloc", 0, 1048576, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 1024U, 4096, 1048576, 1024, 0, 13107ULL, 8192 },
	{ "bigdef", 1073741824ULL, "ext4", NULL, "bigalloc", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 16384U, 4096, 65536, 16384, 7, 13107ULL, 8192 },
	{ "biginl", 1073741824ULL, "ext4", NULL, "inline_data,bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 16384U, 4096, 65536, 16384, 7, 13107ULL, 8192 },
	{ "big64k_100m", 104857600ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  102400ULL, 1600U, 1024, 65536, 1600, 12, 5120ULL, 4096 },
	{ "big64k_64g", 68719476736ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  16777216ULL, 1048576U, 4096, 65536, 32768, 127, 838860ULL, 131072 },
	{ "big64k_1t", 1099511627776ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  268435456ULL, 16777216U, 4096, 65536, 32768, 120, 13421772ULL, 262144 },
	{ "inl_1t", 1099511627776ULL, "ext4", NULL, "inline_data", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  268435456ULL, 67108864U, 4096, 4096, 8192, 1024, 13421772ULL, 262144 },
	{ "Tnews", 1073741824ULL, "ext4", "news", NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 262144U, 4096, 4096, 32768, 127, 13107ULL, 8192 },
	{ "Tlargefile", 1073741824ULL, "ext4", "largefile", NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 1024U, 4096, 4096, 128, 127, 13107ULL, 8192 },
	{ "Tlargefile4", 68719476736ULL, "ext4", "largefile4", NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  16777216ULL, 16384U, 4096, 4096, 32, 1024, 838860ULL, 131072 },
	{ "Tsmall", 1073741824ULL, "ext4", "small", NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  1048576ULL, 262144U, 1024, 1024, 2048, 256, 52428ULL, 16384 },
	{ "Thuge", 1073741824ULL, "ext4", "huge", NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 16384U, 4096, 4096, 2048, 127, 13107ULL, 8192 },
	{ "i8192", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 8192, 0, -1, 0, 0, 0, 0,
	  262144ULL, 131072U, 4096, 4096, 16384, 127, 13107ULL, 8192 },
	{ "N1000", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 1000, -1, 0, 0, 0, 0,
	  262144ULL, 1024U, 4096, 4096, 128, 127, 13107ULL, 8192 },
	{ "m1", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 2621ULL, 8192 },
	{ "g8192", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 8192, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 2048, 511, 13107ULL, 8192 },
	{ "G4", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 4, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "J64", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 64, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 16384 },
	{ "j_ext2", 1073741824ULL, "ext2", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 1,
	  262144ULL, 65536U, 4096, 4096, 8192, 63, 13107ULL, 8192 },
	{ "d4g", 4294967296ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  1048576ULL, 262144U, 4096, 4096, 8192, 511, 52428ULL, 16384 },
	{ "d16g", 17179869184ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  4194304ULL, 1048576U, 4096, 4096, 8192, 1024, 209715ULL, 32768 },
	{ "d3m", 3145728ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  3072ULL, 768U, 1024, 1024, 768, 23, 153ULL, 1024 },
	{ "d20m", 20971520ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  20480ULL, 5112U, 1024, 1024, 1704, 159, 1024ULL, 1024 },
	{ "d256m", 268435456ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 1024, 1024, 2048, 256, 13107ULL, 8192 },
	{ "d1m", 1048576ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  1024ULL, 128U, 1024, 1024, 128, 7, 51ULL, 0 },
	{ "d4t", 4398046511104ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  1073741824ULL, 134217728U, 4096, 4096, 4096, 1024, 53687091ULL, 262144 },
	{ "d16t", 17592186044416ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  4294967296ULL, 268435456U, 4096, 4096, 2048, 0, 214748364ULL, 262144 },
	{ "big64k_16t", 17592186044416ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 0, 0, 0, 0,
	  4294967296ULL, 268435456U, 4096, 65536, 32768, 0, 214748364ULL, 262144 },
	{ "inl_16t", 17592186044416ULL, "ext4", NULL, "inline_data", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  4294967296ULL, 268435456U, 4096, 4096, 2048, 0, 214748364ULL, 262144 },
	{ "big1m_1t", 1099511627776ULL, "ext4", NULL, "bigalloc", 0, 1048576, 0, 0, 0, -1, 0, 0, 0, 0,
	  268435456ULL, 1048576U, 4096, 1048576, 32768, 7, 13421772ULL, 262144 },
	{ "big128m", 4294967296ULL, "ext4", NULL, "bigalloc", 0, 134217728, 0, 0, 0, -1, 0, 0, 0, 0,
	  1048576ULL, 32U, 4096, 134217728, 32, 0, 52428ULL, 16384 },
	{ "big1k16k", 104857600ULL, "ext4", NULL, "bigalloc", 1024, 16384, 0, 0, 0, -1, 0, 0, 0, 0,
	  102400ULL, 6400U, 1024, 16384, 6400, 49, 5120ULL, 4096 },
	{ "i1024inl", 1073741824ULL, "ext4", NULL, "inline_data", 0, 0, 1024, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "noresize", 1073741824ULL, "ext4", NULL, "^resize_inode", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 0, 13107ULL, 8192 },
	{ "metabg", 1073741824ULL, "ext4", NULL, "meta_bg,^resize_inode", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 0, 13107ULL, 8192 },
	{ "ss2", 1073741824ULL, "ext4", NULL, "sparse_super2", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "uninit", 1073741824ULL, "ext4", NULL, "uninit_bg,^metadata_csum", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "ext3_100m", 104857600ULL, "ext3", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  102400ULL, 25584U, 1024, 1024, 1968, 256, 5120ULL, 4096 },
	{ "noflex", 1073741824ULL, "ext4", NULL, "^flex_bg", 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 13107ULL, 8192 },
	{ "m0", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  262144ULL, 65536U, 4096, 4096, 8192, 127, 0ULL, 8192 },
	{ "ext2_8m", 8388608ULL, "ext2", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  8192ULL, 2048U, 1024, 1024, 2048, 31, 409ULL, 0 },
	{ "b1k_16g", 17179869184ULL, "ext4", NULL, NULL, 1024, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  16777216ULL, 1048576U, 1024, 1024, 512, 256, 838860ULL, 131072 },
	{ "N100", 104857600ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 100000, -1, 0, 0, 0, 0,
	  102400ULL, 100048U, 1024, 1024, 7696, 256, 5120ULL, 4096 },
	{ "i1024_1g", 1073741824ULL, "ext4", NULL, NULL, 0, 0, 0, 1024, 0, -1, 0, 0, 0, 0,
	  262144ULL, 1048576U, 4096, 4096, 32768, 500, 13007ULL, 8192 },
	{ "ext2_1t", 1099511627776ULL, "ext2", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  268435456ULL, 67108864U, 4096, 4096, 8192, 960, 13421772ULL, 0 },
	{ "b64k_1t", 1099511627776ULL, "ext4", NULL, NULL, 65536, 0, 0, 0, 0, -1, 0, 0, 0, 0,
	  16777216ULL, 16776960U, 65536, 65536, 65280, 64, 838860ULL, 131072 },
	{ "G256", 68719476736ULL, "ext4", NULL, NULL, 0, 0, 0, 0, 0, -1, 0, 256, 0, 0,
	  16777216ULL, 4194304U, 4096, 4096, 8192, 1024, 838860ULL, 131072 },
	{ "big_g", 1073741824ULL, "ext4", NULL, "bigalloc", 0, 65536, 0, 0, 0, -1, 16384, 0, 0, 0,
	  262144ULL, 16384U, 4096, 65536, 16384, 15, 13107ULL, 8192 },
};

#define N_REF (sizeof(ref_cases) / sizeof(ref_cases[0]))

static struct e2x_profile *builtin(void)
{
	struct e2x_profile *p = NULL;

	ck_assert_int_eq(e2x_profile_parse(e2x_profile_default_text(), &p,
					   NULL), 0);
	return p;
}

static void fill_request(const struct ref_case *rc,
			 struct e2x_mkfs_request *req)
{
	memset(req, 0, sizeof(*req));
	req->given = E2X_GIVEN_SIZE;
	req->fs_bytes = rc->bytes;
	req->fs_type = rc->type;
	req->usage_types = rc->usage;
	req->features = rc->features;
	req->blocksize = rc->bs;
	req->cluster_size = rc->cs;
	req->inode_size = rc->isz;
	req->inode_ratio = rc->ratio;
	req->num_inodes = rc->ninodes;
	if (rc->m >= 0) {
		req->reserved_ratio = rc->m;
		req->given |= E2X_GIVEN_RESERVED;
	}
	req->blocks_per_group = rc->g;
	req->flex_bg_size = rc->flex;
	req->journal_mb = rc->jmb;
	req->journal = rc->j || rc->jmb;
}

/* Geometry plus the in-memory layout give the reference's figures. */
START_TEST(defaults_equal_reference)
{
	const struct ref_case *rc = &ref_cases[_i];
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = builtin();
	ext2_filsys fs = NULL;
	blk64_t jb = 0;
	char why[256];
	errcode_t err;

	fill_request(rc, &req);
	err = e2x_geometry_calc(&req, NULL, p, &g, why, sizeof(why));
	ck_assert_msg(err == 0, "%s: %s", rc->name, why);
	err = e2x_mkfs_init(&g, rc->name, E2X_MKFS_DRY_RUN, &fs, &jb, why,
			    sizeof(why));
	ck_assert_msg(err == 0, "%s: %s", rc->name, why);
	ck_assert_msg(ext2fs_blocks_count(fs->super) == rc->blocks,
		      "%s: blocks %llu", rc->name,
		      (unsigned long long)ext2fs_blocks_count(fs->super));
	ck_assert_msg(fs->super->s_inodes_count == rc->inodes,
		      "%s: inodes %u, reference %u", rc->name,
		      fs->super->s_inodes_count, rc->inodes);
	ck_assert_uint_eq(fs->blocksize, rc->blocksize);
	ck_assert_uint_eq(EXT2_CLUSTER_SIZE(fs->super), rc->cluster);
	ck_assert_uint_eq(fs->super->s_inodes_per_group, rc->ipg);
	ck_assert_uint_eq(fs->super->s_reserved_gdt_blocks, rc->rsv_gdt);
	ck_assert_msg(ext2fs_r_blocks_count(fs->super) == rc->r_blocks,
		      "%s: reserved %llu", rc->name,
		      (unsigned long long)ext2fs_r_blocks_count(fs->super));
	ck_assert_msg(jb == rc->journal, "%s: journal %llu, reference %u",
		      rc->name, (unsigned long long)jb, rc->journal);
	ext2fs_free(fs);
	e2x_profile_free(p);
}
END_TEST

/*
 * Written file systems: free blocks and inodes as the reference leaves
 * them (same commands as above, Free blocks / Free inodes).
 */
static const struct {
	const char *name;
	unsigned long long bytes;
	const char *features;
	unsigned int cs;
	unsigned long long free_blocks;
	unsigned int free_inodes;
} written_cases[] = {
	{ "d8m", 8ULL << 20, NULL, 0, 6574, 2037 },
	{ "d1g", 1ULL << 30, NULL, 0, 249189, 65525 },
	{ "nojournal", 1ULL << 30, "^has_journal", 0, 257381, 65525 },
	{ "big64k", 1ULL << 30, "bigalloc", 65536, 252832, 16373 },
	{ "biginl", 1ULL << 30, "inline_data,bigalloc", 65536, 252832,
	  16373 },
	/* lost+found: 3 blocks with inline_data, as the reference */
	{ "inline", 1ULL << 30, "inline_data", 0, 249190, 65525 },
	{ "inline_1k", 100ULL << 20, "inline_data", 0, 90320, 25573 },
	/* itree changes no layout: the same counts as the defaults */
	{ "itree", 1ULL << 30, "itree", 0, 249189, 65525 },
};

START_TEST(written_free_counts_equal_reference)
{
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = builtin();
	ext2_filsys fs = NULL;
	blk64_t jb = 0;
	char why[256], path[] = "/tmp/e2x-geom-XXXXXX";
	int fd = mkstemp(path);
	errcode_t err;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, written_cases[_i].bytes), 0);
	close(fd);
	memset(&req, 0, sizeof(req));
	req.given = E2X_GIVEN_SIZE;
	req.fs_bytes = written_cases[_i].bytes;
	req.features = written_cases[_i].features;
	req.cluster_size = written_cases[_i].cs;
	err = e2x_geometry_calc(&req, NULL, p, &g, why, sizeof(why));
	ck_assert_msg(err == 0, "%s", why);
	err = e2x_mkfs_init(&g, path, 0, &fs, &jb, why, sizeof(why));
	ck_assert_msg(err == 0, "%s", why);
	ck_assert_int_eq(e2x_mkfs_write(fs, &g, jb), 0);
	ck_assert_msg(ext2fs_free_blocks_count(fs->super) ==
		      written_cases[_i].free_blocks, "%s: free %llu",
		      written_cases[_i].name,
		      (unsigned long long)ext2fs_free_blocks_count(fs->super));
	ck_assert_uint_eq(fs->super->s_free_inodes_count,
			  written_cases[_i].free_inodes);
	ck_assert_int_eq(e2x_mkfs_close(&fs), 0);
	unlink(path);
	e2x_profile_free(p);
}
END_TEST

/* Refusals: what the user asked for cannot be made; the code says why. */
static const struct {
	const char *name;
	unsigned long long bytes;
	const char *type, *features;
	unsigned int bs, cs, isz;
	errcode_t want;
} refusals[] = {
	{ "inline_128_byte_inodes", 1ULL << 30, NULL, "inline_data", 0, 0,
	  128, E2X_ERR_INODE_SIZE },
	{ "bigalloc_without_extents", 1ULL << 30, NULL, "bigalloc,^extent",
	  0, 0, 0, E2X_ERR_FEATURE_CONFLICT },
	{ "cluster_without_bigalloc", 1ULL << 30, NULL, NULL, 0, 65536, 0,
	  E2X_ERR_FEATURE_CONFLICT },
	{ "cluster_of_one_block", 1ULL << 30, NULL, "bigalloc", 4096, 4096,
	  0, E2X_ERR_CLUSTER_RANGE },
	{ "cluster_65536_blocks", 16ULL << 30, NULL, "bigalloc", 4096,
	  256U << 20, 0, E2X_ERR_CLUSTER_RANGE },
	{ "cluster_not_power_of_two", 1ULL << 30, NULL, "bigalloc", 4096,
	  3 * 4096, 0, E2X_ERR_CLUSTER_RANGE },
	{ "cluster_over_512m", 1ULL << 40, NULL, "bigalloc", 65536,
	  1U << 30, 0, E2X_ERR_CLUSTER_RANGE },
	{ "block_size_512", 1ULL << 30, NULL, NULL, 512, 0, 0,
	  E2X_ERR_BLOCKSIZE_RANGE },
	{ "block_size_128k", 1ULL << 30, NULL, NULL, 131072, 0, 0,
	  E2X_ERR_BLOCKSIZE_RANGE },
	{ "block_size_3000", 1ULL << 30, NULL, NULL, 3000, 0, 0,
	  E2X_ERR_BLOCKSIZE_RANGE },
	{ "inode_size_over_block", 1ULL << 30, NULL, NULL, 1024, 0, 2048,
	  E2X_ERR_INODE_SIZE },
	{ "inode_size_odd", 1ULL << 30, NULL, NULL, 0, 0, 300,
	  E2X_ERR_INODE_SIZE },
	{ "unknown_feature", 1ULL << 30, NULL, "frobnicate", 0, 0, 0,
	  E2X_ERR_UNKNOWN_FEATURE },
	{ "unsupported_feature", 1ULL << 30, NULL, "quota", 0, 0, 0,
	  E2X_ERR_UNSUPPORTED },
	{ "meta_bg_with_resize_inode", 1ULL << 30, NULL, "meta_bg", 0, 0,
	  0, E2X_ERR_FEATURE_CONFLICT },
	{ "32bit_16t", 16ULL << 40, NULL, "^64bit", 0, 0, 0,
	  E2X_ERR_GEOMETRY },
	{ "unknown_type", 1ULL << 30, "xfs", NULL, 0, 0, 0,
	  E2X_ERR_BAD_OPTION },
	{ "no_size", 0, NULL, NULL, 0, 0, 0, E2X_ERR_BAD_OPTION },
	{ "itree_128_byte_inodes", 1ULL << 30, NULL, "itree", 0, 0, 128,
	  E2X_ERR_INODE_SIZE },
	{ "itree_without_dir_index", 1ULL << 30, NULL, "itree,^dir_index",
	  0, 0, 0, E2X_ERR_FEATURE_CONFLICT },
	{ "itree_without_ext_attr", 1ULL << 30, NULL, "itree,^ext_attr",
	  0, 0, 0, E2X_ERR_FEATURE_CONFLICT },
};

START_TEST(refusal_has_code_and_reason)
{
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = builtin();
	char why[256];
	errcode_t err;

	memset(&req, 0, sizeof(req));
	if (refusals[_i].bytes) {
		req.given = E2X_GIVEN_SIZE;
		req.fs_bytes = refusals[_i].bytes;
	}
	req.fs_type = refusals[_i].type;
	req.features = refusals[_i].features;
	req.blocksize = refusals[_i].bs;
	req.cluster_size = refusals[_i].cs;
	req.inode_size = refusals[_i].isz;
	err = e2x_geometry_calc(&req, NULL, p, &g, why, sizeof(why));
	ck_assert_msg(err == refusals[_i].want, "%s: got %ld (%s)",
		      refusals[_i].name, (long)err, why);
	ck_assert_msg(why[0] != 0, "%s: no reason given", refusals[_i].name);
	ck_assert_ptr_null(strchr(why, '\n'));
	e2x_profile_free(p);
}
END_TEST

/* A tiny file system is refused by the layout, not written. */
/* Like the reference, ext3/ext4 need their mke2fs.conf entry. */
START_TEST(type_missing_from_profile)
{
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = NULL;
	char why[256];

	ck_assert_int_eq(e2x_profile_parse("[defaults]\nblocksize = 4096\n",
					   &p, NULL), 0);
	memset(&req, 0, sizeof(req));
	req.given = E2X_GIVEN_SIZE;
	req.fs_bytes = 1ULL << 30;
	ck_assert_int_eq(e2x_geometry_calc(&req, NULL, p, &g, why,
					   sizeof(why)), E2X_ERR_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(why, "ext4"));
	req.fs_type = "ext2";
	ck_assert_int_eq(e2x_geometry_calc(&req, NULL, p, &g, why,
					   sizeof(why)), 0);
	e2x_profile_free(p);
}
END_TEST

START_TEST(too_small_for_reserved_inodes)
{
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = builtin();
	ext2_filsys fs = NULL;
	blk64_t jb;
	char why[256];

	memset(&req, 0, sizeof(req));
	req.given = E2X_GIVEN_SIZE;
	req.fs_bytes = 64 << 10;
	ck_assert_int_eq(e2x_geometry_calc(&req, NULL, p, &g, why,
					   sizeof(why)), 0);
	ck_assert_int_eq(e2x_mkfs_init(&g, "x", E2X_MKFS_DRY_RUN, &fs, &jb,
				       why, sizeof(why)), E2X_ERR_TOO_SMALL);
	ck_assert_ptr_null(fs);
	e2x_profile_free(p);
}
END_TEST

/* Beyond 2^32 blocks: resize_inode goes, and the user is told. */
START_TEST(huge_drops_resize_inode)
{
	struct e2x_mkfs_request req;
	struct e2x_geometry g;
	struct e2x_profile *p = builtin();
	char why[256];

	memset(&req, 0, sizeof(req));
	req.given = E2X_GIVEN_SIZE;
	req.fs_bytes = 16ULL << 40;
	ck_assert_int_eq(e2x_geometry_calc(&req, NULL, p, &g, why,
					   sizeof(why)), 0);
	ck_assert(!(g.sb.s_feature_compat & EXT2_FEATURE_COMPAT_RESIZE_INODE));
	ck_assert(g.notes & E2X_NOTE_RESIZE_OFF);
	ck_assert_str_eq(g.types, "ext4,huge");
	ck_assert_uint_eq(g.inode_ratio, 65536);
	e2x_profile_free(p);
}
END_TEST

static const struct {
	const char *text;
	unsigned long long unit, want;
	int ok;
} sizes[] = {
	{ "64g", 1024, 64ULL << 30, 1 },
	{ "64G", 1024, 64ULL << 30, 1 },
	{ "16t", 1024, 16ULL << 40, 1 },
	{ "512m", 1024, 512ULL << 20, 1 },
	{ "100k", 1024, 100ULL << 10, 1 },
	{ "1GiB", 1024, 1ULL << 30, 1 },
	{ "8192", 1024, 8192ULL << 10, 1 },	/* bare: 1 KiB blocks */
	{ "8192", 4096, 8192ULL << 12, 1 },	/* bare with -b 4096 */
	{ "2s", 1024, 1024, 1 },		/* 512-byte sectors */
	{ "", 1024, 0, 0 },
	{ "g", 1024, 0, 0 },
	{ "-5", 1024, 0, 0 },
	{ "10x", 1024, 0, 0 },
	{ "10gq", 1024, 0, 0 },
	{ "99999999999t", 1024, 0, 0 },	/* overflows 64 bits */
};

START_TEST(size_suffixes)
{
	unsigned long long got = 0;
	errcode_t err = e2x_parse_size(sizes[_i].text, sizes[_i].unit, &got);

	if (sizes[_i].ok) {
		ck_assert_msg(err == 0, "'%s' refused", sizes[_i].text);
		ck_assert_msg(got == sizes[_i].want, "'%s' gave %llu",
			      sizes[_i].text, got);
	} else {
		ck_assert_msg(err == E2X_ERR_BAD_OPTION, "'%s' accepted",
			      sizes[_i].text);
	}
}
END_TEST

START_TEST(feature_list_with_caret)
{
	struct e2x_features f = { 0, 0, 0 }, set = { 0, 0, 0 },
			    cleared = { 0, 0, 0 };
	char bad[32] = "";

	ck_assert_int_eq(e2x_features_edit(&f, "has_journal,extent,64bit",
					   NULL, NULL, bad, sizeof(bad)), 0);
	ck_assert_uint_eq(f.compat, EXT3_FEATURE_COMPAT_HAS_JOURNAL);
	ck_assert_uint_eq(f.incompat, EXT3_FEATURE_INCOMPAT_EXTENTS |
				      EXT4_FEATURE_INCOMPAT_64BIT);
	ck_assert_int_eq(e2x_features_edit(&f, "^64bit, inline_data bigalloc",
					   &set, &cleared, bad, sizeof(bad)),
			 0);
	ck_assert_uint_eq(f.incompat, EXT3_FEATURE_INCOMPAT_EXTENTS |
				      EXT4_FEATURE_INCOMPAT_INLINE_DATA);
	ck_assert_uint_eq(f.ro_compat, EXT4_FEATURE_RO_COMPAT_BIGALLOC);
	ck_assert_uint_eq(cleared.incompat, EXT4_FEATURE_INCOMPAT_64BIT);
	ck_assert_uint_eq(set.incompat, EXT4_FEATURE_INCOMPAT_INLINE_DATA);
	ck_assert_int_eq(e2x_features_edit(&f, "extents,^nosuch", NULL, NULL,
					   bad, sizeof(bad)),
			 E2X_ERR_UNKNOWN_FEATURE);
	ck_assert_str_eq(bad, "nosuch");
	ck_assert_int_eq(e2x_features_edit(&f, "none", NULL, NULL, bad,
					   sizeof(bad)), 0);
	ck_assert_uint_eq(f.compat | f.incompat | f.ro_compat, 0);
}
END_TEST

START_TEST(feature_names_round_trip)
{
	struct e2x_features f = { EXT2_FEATURE_COMPAT_DIR_INDEX,
				  EXT4_FEATURE_INCOMPAT_INLINE_DATA,
				  EXT4_FEATURE_RO_COMPAT_METADATA_CSUM };
	struct e2x_features back = { 0, 0, 0 };
	char buf[128];

	e2x_features_format(&f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "dir_index inline_data metadata_csum");
	ck_assert_int_eq(e2x_features_edit(&back, buf, NULL, NULL, NULL, 0),
			 0);
	ck_assert_mem_eq(&back, &f, sizeof(f));
}
END_TEST

static Suite *suite_geometry(void)
{
	Suite *s = suite_create("geometry");
	TCase *tc = tcase_create("reference");
	TCase *tr = tcase_create("refusals");
	TCase *tp = tcase_create("parsing");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, defaults_equal_reference, 0, N_REF);
	tcase_add_loop_test(tc, written_free_counts_equal_reference, 0,
			    sizeof(written_cases) / sizeof(written_cases[0]));
	tcase_add_test(tc, huge_drops_resize_inode);
	tcase_add_loop_test(tr, refusal_has_code_and_reason, 0,
			    sizeof(refusals) / sizeof(refusals[0]));
	tcase_add_test(tr, too_small_for_reserved_inodes);
	tcase_add_test(tr, type_missing_from_profile);
	tcase_add_loop_test(tp, size_suffixes, 0,
			    sizeof(sizes) / sizeof(sizes[0]));
	tcase_add_test(tp, feature_list_with_caret);
	tcase_add_test(tp, feature_names_round_trip);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tr);
	suite_add_tcase(s, tp);
	return s;
}
E2X_UNIT_MAIN(suite_geometry)
