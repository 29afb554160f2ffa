/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dumpe2fs.c --- e2x dumpe2fs: the superblock (as tune2fs -l lists it),
 * the journal superblock and, without -h, every block group with its
 * metadata locations and free ranges, in the reference's layout.  It opens
 * itree file systems, whose feature the reference does not know.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <e2p/e2p.h>
#include "tune2fs/tune2fs.h"

struct dump_opts {
	int header_only;	/* -h */
	int hex;		/* -x */
	blk64_t superblock;	/* -o superblock= */
	unsigned int blocksize;	/* -o blocksize= */
	const char *device;
};

#define USAGE "Usage: dumpe2fs [-fhxV] [-o superblock=<num>] " \
	"[-o blocksize=<num>] device\n"

static int usage(void)
{
	fputs(USAGE, stderr);
	return EXIT_FAIL;
}

/* --help (-h is "header only" here, as in e2fsprogs), -V/--version:
 * answer on standard output and exit 0. */
static void help_or_version(int what)
{
	char text[256];

	if (what == E2X_ARG_HELP) {
		fputs(USAGE, stdout);
	} else {
		e2x_version_text("dumpe2fs", text, sizeof(text));
		fputs(text, stdout);
	}
	exit(EXIT_OK);
}

static int parse_o(struct dump_opts *o, const char *arg)
{
	char *end;
	unsigned long long v;

	if (!strncmp(arg, "superblock=", 11)) {
		v = strtoull(arg + 11, &end, 0);
		if (*end || end == arg + 11)
			return 1;
		o->superblock = v;
		return 0;
	}
	if (!strncmp(arg, "blocksize=", 10)) {
		v = strtoull(arg + 10, &end, 0);
		if (*end || end == arg + 10 || v < 1024 || v > 65536)
			return 1;
		o->blocksize = v;
		return 0;
	}
	return 1;
}

static int parse(struct dump_opts *o, int argc, char **argv)
{
	int c;

	c = e2x_std_arg(argc, argv);
	if (c)
		help_or_version(c);
	opterr = 0;
	while ((c = getopt(argc, argv, "fhxVo:")) != -1) {
		switch (c) {
		case 'f':
			break;
		case 'V':
			help_or_version(E2X_ARG_VERSION);
			break;
		case 'h':
			o->header_only = 1;
			break;
		case 'x':
			o->hex = 1;
			break;
		case 'o':
			if (parse_o(o, optarg)) {
				fprintf(stderr, "dumpe2fs: bad -o option '%s' "
					"(superblock=N, blocksize=N)\n",
					optarg);
				return EXIT_FAIL;
			}
			break;
		default:
			fprintf(stderr, "dumpe2fs: unknown option -%c or a "
				"missing value (see dumpe2fs(8))\n", optopt);
			return EXIT_FAIL;
		}
	}
	if (optind != argc - 1)
		return usage();
	if (o->superblock && !o->blocksize)
		o->blocksize = 1024;	/* search the sizes, as e2fsprogs */
	o->device = argv[optind];
	return 0;
}

static void put_blk(const struct dump_opts *o, blk64_t b)
{
	printf(o->hex ? "0x%08llx" : "%llu", (unsigned long long)b);
}

/* A-B always (metadata); a free range of one is just A. */
static void put_span(const struct dump_opts *o, blk64_t a, blk64_t b)
{
	put_blk(o, a);
	putchar('-');
	put_blk(o, b);
}

static void put_range(const struct dump_opts *o, blk64_t a, blk64_t b)
{
	if (b != a)
		put_span(o, a, b);
	else
		put_blk(o, a);
}

/* " (+rel)" inside the group, " (bg #G + rel)" elsewhere (flex_bg). */
static void put_where(ext2_filsys fs, dgrp_t g, blk64_t b)
{
	blk64_t first = ext2fs_group_first_block2(fs, g);
	dgrp_t owner = ext2fs_group_of_blk2(fs, b);

	if (owner == g)
		printf(" (+%llu)", (unsigned long long)(b - first));
	else
		printf(" (bg #%u + %llu)", owner, (unsigned long long)(b -
		       ext2fs_group_first_block2(fs, owner)));
}

static void put_flags(ext2_filsys fs, dgrp_t g)
{
	static const struct {
		int flag;
		const char *name;
	} names[] = { { EXT2_BG_INODE_UNINIT, "INODE_UNINIT" },
		      { EXT2_BG_BLOCK_UNINIT, "BLOCK_UNINIT" },
		      { EXT2_BG_INODE_ZEROED, "ITABLE_ZEROED" } };
	const char *sep = " [";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (ext2fs_bg_flags_test(fs, g, names[i].flag)) {
			printf("%s%s", sep, names[i].name);
			sep = ", ";
		}
	if (*sep == ',')
		putchar(']');
}

static void put_super_lines(const struct dump_opts *o, ext2_filsys fs,
			    dgrp_t g)
{
	blk64_t sb, old_desc, new_desc;
	blk_t used;

	ext2fs_super_and_bgd_loc2(fs, g, &sb, &old_desc, &new_desc, &used);
	if (ext2fs_bg_has_super(fs, g)) {
		printf("  %s superblock at ", g ? "Backup" : "Primary");
		put_blk(o, sb);
		if (old_desc) {
			printf(", Group descriptors at ");
			put_span(o, old_desc, old_desc + fs->desc_blocks - 1);
			if (fs->super->s_reserved_gdt_blocks) {
				printf("\n  Reserved GDT blocks at ");
				put_span(o, old_desc + fs->desc_blocks,
					  old_desc + fs->desc_blocks +
					  fs->super->s_reserved_gdt_blocks -
					  1);
			}
		} else if (new_desc) {
			printf(", Group descriptor at ");
			put_blk(o, new_desc);
		}
		putchar('\n');
	} else if (new_desc) {
		printf("  Group descriptor at ");
		put_blk(o, new_desc);
		putchar('\n');
	}
}

static void put_bitmap_line(const struct dump_opts *o, ext2_filsys fs,
			    dgrp_t g, const char *what, blk64_t at,
			    __u32 csum)
{
	printf("  %s bitmap at ", what);
	put_blk(o, at);
	put_where(fs, g, at);
	if (ext2fs_has_feature_metadata_csum(fs->super))
		printf(", csum 0x%08x", csum);
	putchar('\n');
}

/* Free ranges of a bitmap between FIRST and LAST, comma separated, in
 * steps of STEP (a cluster: a range ends at its last cluster's start). */
static void put_free(const struct dump_opts *o, const char *what,
		     int (*is_free)(ext2_filsys, __u64), ext2_filsys fs,
		     __u64 first, __u64 last, unsigned int step)
{
	const char *sep = "";
	__u64 a, b;

	printf("  Free %s: ", what);
	for (a = first; a <= last; a = b + step) {
		if (!is_free(fs, a)) {
			b = a;
			continue;
		}
		for (b = a; b + step <= last && is_free(fs, b + step);
		     b += step)
			;
		printf("%s", sep);
		put_range(o, a, b);
		sep = ", ";
	}
	putchar('\n');
}

static int block_free(ext2_filsys fs, __u64 b)
{
	return !ext2fs_fast_test_block_bitmap2(fs->block_map, b);
}

static int inode_free(ext2_filsys fs, __u64 i)
{
	return !ext2fs_fast_test_inode_bitmap2(fs->inode_map, i);
}

static void put_group(const struct dump_opts *o, ext2_filsys fs, dgrp_t g)
{
	blk64_t first = ext2fs_group_first_block2(fs, g);
	blk64_t last = ext2fs_group_last_block2(fs, g);
	blk64_t it = ext2fs_inode_table_loc(fs, g);
	__u64 ifirst = (__u64)g * fs->super->s_inodes_per_group + 1;
	int csum = ext2fs_has_group_desc_csum(fs);

	printf("Group %u: (Blocks ", g);
	put_span(o, first, last);
	putchar(')');
	if (csum) {
		printf(" csum 0x%04x", ext2fs_bg_checksum(fs, g));
		put_flags(fs, g);
	}
	putchar('\n');
	put_super_lines(o, fs, g);
	put_bitmap_line(o, fs, g, "Block", ext2fs_block_bitmap_loc(fs, g),
			ext2fs_block_bitmap_checksum(fs, g));
	put_bitmap_line(o, fs, g, "Inode", ext2fs_inode_bitmap_loc(fs, g),
			ext2fs_inode_bitmap_checksum(fs, g));
	printf("  Inode table at ");
	put_span(o, it, it + fs->inode_blocks_per_group - 1);
	put_where(fs, g, it);
	printf("\n  %u free %s, %u free inodes, %u directories",
	       ext2fs_bg_free_blocks_count(fs, g),
	       fs->cluster_ratio_bits ? "clusters" : "blocks",
	       ext2fs_bg_free_inodes_count(fs, g),
	       ext2fs_bg_used_dirs_count(fs, g));
	if (csum)
		printf(", %u unused inodes", ext2fs_bg_itable_unused(fs, g));
	putchar('\n');
	put_free(o, "blocks", block_free, fs, first, last,
		 EXT2FS_CLUSTER_RATIO(fs));
	put_free(o, "inodes", inode_free, fs, ifirst,
		 ifirst + fs->super->s_inodes_per_group - 1, 1);
}

/* The journal superblock, as libe2p lists it. */
static void put_journal(ext2_filsys fs)
{
	char buf[1024];
	ext2_file_t f;
	unsigned int got = 0;

	if (!ext2fs_has_feature_journal(fs->super) ||
	    !fs->super->s_journal_inum)
		return;
	if (ext2fs_file_open(fs, fs->super->s_journal_inum, 0, &f))
		return;
	if (!ext2fs_file_read(f, buf, sizeof(buf), &got) &&
	    got == sizeof(buf))
		e2p_list_journal_super(stdout, buf, fs->blocksize, 0);
	ext2fs_file_close(f);
}

int main(int argc, char **argv)
{
	struct dump_opts o;
	ext2_filsys fs;
	errcode_t err;
	dgrp_t g;
	int rc;

	memset(&o, 0, sizeof(o));
	e2x_init_errors();
	rc = parse(&o, argc, argv);
	if (rc)
		return rc;
	fprintf(stderr, "dumpe2fs (e2x %s)\n", e2x_version());
	err = e2x_open_fs(o.device, EXT2_FLAG_64BITS | EXT2_FLAG_FORCE |
			  EXT2_FLAG_IGNORE_CSUM_ERRORS, o.superblock,
			  o.blocksize, NULL, &fs);
	if (err) {
		fprintf(stderr, "dumpe2fs: %s: %s\n", o.device,
			error_message(err));
		return EXIT_FAIL;
	}
	list_superblock(stdout, fs);
	put_journal(fs);
	putchar('\n');
	if (!o.header_only) {
		err = ext2fs_read_bitmaps(fs);
		if (err) {
			fprintf(stderr, "dumpe2fs: %s: reading bitmaps: %s\n",
				o.device, error_message(err));
			ext2fs_free(fs);
			return EXIT_FAIL;
		}
		putchar('\n');
		for (g = 0; g < fs->group_desc_count; g++)
			put_group(&o, fs, g);
	}
	ext2fs_free(fs);
	return 0;
}
