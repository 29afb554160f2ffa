/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_journal_format.c --- jbd2 format facts (layout, tag sizes, tid
 * order), the revoke table, and recovery of logs written by an
 * independent implementation: the reference debugfs' journal_write, for
 * every checksum version and tag size, with revokes and damaged blocks.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "unit.h"
#include "journal/journal-int.h"

#define REF_MKE2FS "/usr/sbin/mke2fs"
#define REF_DEBUGFS "/usr/sbin/debugfs"
#define REF_FSCK "/usr/sbin/e2fsck"

/* Layout pinned to the jbd2 on-disk format. */
_Static_assert(offsetof(struct e2x_jbd2_super, s_blocksize) == 0x0C, "bs");
_Static_assert(offsetof(struct e2x_jbd2_super, s_maxlen) == 0x10, "maxlen");
_Static_assert(offsetof(struct e2x_jbd2_super, s_first) == 0x14, "first");
_Static_assert(offsetof(struct e2x_jbd2_super, s_sequence) == 0x18, "seq");
_Static_assert(offsetof(struct e2x_jbd2_super, s_start) == 0x1C, "start");
_Static_assert(offsetof(struct e2x_jbd2_super, s_errno) == 0x20, "errno");
_Static_assert(offsetof(struct e2x_jbd2_super, s_feature_compat) == 0x24,
	       "compat");
_Static_assert(offsetof(struct e2x_jbd2_super, s_feature_incompat) == 0x28,
	       "incompat");
_Static_assert(offsetof(struct e2x_jbd2_super, s_uuid) == 0x30, "uuid");
_Static_assert(offsetof(struct e2x_jbd2_super, s_nr_users) == 0x40, "users");
_Static_assert(offsetof(struct e2x_jbd2_super, s_checksum_type) == 0x50,
	       "csum type");
_Static_assert(offsetof(struct e2x_jbd2_super, s_num_fc_blks) == 0x54, "fc");
_Static_assert(offsetof(struct e2x_jbd2_super, s_checksum) == 0xFC, "csum");
_Static_assert(offsetof(struct e2x_jbd2_super, s_users) == 0x100, "users");
_Static_assert(sizeof(struct e2x_jbd2_super) == 0x400, "sb size");
_Static_assert(offsetof(struct e2x_jbd2_tag3, t_flags) == 4, "tag3 flags");
_Static_assert(offsetof(struct e2x_jbd2_tag3, t_checksum) == 12, "tag3 csum");
_Static_assert(offsetof(struct e2x_jbd2_tag, t_checksum) == 4, "tag csum");
_Static_assert(offsetof(struct e2x_jbd2_tag, t_flags) == 6, "tag flags");
_Static_assert(offsetof(struct e2x_jbd2_tag, t_blocknr_high) == 8, "tag hi");
_Static_assert(offsetof(struct e2x_jbd2_commit, h_chksum_type) == 0x0C, "ct");
_Static_assert(offsetof(struct e2x_jbd2_commit, h_chksum) == 0x10, "csum");
_Static_assert(offsetof(struct e2x_jbd2_commit, h_commit_sec) == 0x30, "sec");
_Static_assert(offsetof(struct e2x_jbd2_commit, h_commit_nsec) == 0x38, "ns");
_Static_assert(offsetof(struct e2x_jbd2_revoke_header, r_count) == 0x0C, "rc");

static const struct {
	uint32_t incompat;
	unsigned int bytes;
} tag_cases[] = {
	{ 0, 8 },
	{ E2X_JBD2_INCOMPAT_64BIT, 12 },
	{ E2X_JBD2_INCOMPAT_CSUM_V2, 10 },
	{ E2X_JBD2_INCOMPAT_CSUM_V2 | E2X_JBD2_INCOMPAT_64BIT, 14 },
	{ E2X_JBD2_INCOMPAT_CSUM_V3, 16 },
	{ E2X_JBD2_INCOMPAT_CSUM_V3 | E2X_JBD2_INCOMPAT_64BIT, 16 },
	{ E2X_JBD2_INCOMPAT_REVOKE | E2X_JBD2_INCOMPAT_ASYNC_COMMIT, 8 },
};

START_TEST(tag_size_per_feature_set)
{
	ck_assert_uint_eq(e2x_jbd2_tag_bytes(tag_cases[_i].incompat),
			  tag_cases[_i].bytes);
}
END_TEST

START_TEST(tid_order_wraps)
{
	ck_assert(e2x_tid_gt(1, 0));
	ck_assert(!e2x_tid_gt(0, 0));
	ck_assert(e2x_tid_geq(0, 0));
	ck_assert(e2x_tid_gt(0, 0xFFFFFFFFU));
	ck_assert(e2x_tid_gt(5, 0xFFFFFFF0U));
	ck_assert(!e2x_tid_gt(0xFFFFFFF0U, 5));
	ck_assert(e2x_tid_gt(0x80000000U, 1));
	ck_assert(!e2x_tid_geq(0xFFFFFFFFU, 0));
}
END_TEST

START_TEST(crc32c_known_answer)
{
	/* the standard crc32c check value; ours is the unfinalised form */
	const unsigned char s[] = "123456789";

	ck_assert_uint_eq(ext2fs_crc32c_le(~0U, s, 9) ^ ~0U, 0xE3069283U);
}
END_TEST

START_TEST(checksums_ignore_their_own_field)
{
	unsigned char b[1024];
	uint32_t c1, c2;

	memset(b, 0x5A, sizeof(b));
	c1 = e2x_jbd2_block_tail_csum(7, b, sizeof(b));
	memset(b + sizeof(b) - 4, 0, 4);
	c2 = e2x_jbd2_block_tail_csum(7, b, sizeof(b));
	ck_assert_uint_eq(c1, c2);
	ck_assert_uint_eq(c2, ext2fs_crc32c_le(7, b, sizeof(b)));
	c1 = e2x_jbd2_commit_csum(7, b, sizeof(b));
	memset(b + 16, 0xFF, 4);
	ck_assert_uint_eq(e2x_jbd2_commit_csum(7, b, sizeof(b)), c1);
	/* the data checksum covers the tid first */
	ck_assert_uint_ne(e2x_jbd2_data_csum(7, 1, b, 1024),
			  e2x_jbd2_data_csum(7, 2, b, 1024));
}
END_TEST

START_TEST(revoke_keeps_latest_tid)
{
	struct e2x_journal j;

	memset(&j, 0, sizeof(j));
	u64map_init(&j.revoke);
	ck_assert(!e2x_revoke_test(&j, 100, 1));
	ck_assert_int_eq(e2x_revoke_set(&j, 100, 5), 0);
	ck_assert(e2x_revoke_test(&j, 100, 5));
	ck_assert(e2x_revoke_test(&j, 100, 4));
	ck_assert(!e2x_revoke_test(&j, 100, 6));
	ck_assert_int_eq(e2x_revoke_set(&j, 100, 3), 0);	/* older */
	ck_assert(!e2x_revoke_test(&j, 100, 6));
	ck_assert_int_eq(e2x_revoke_set(&j, 100, 7), 0);	/* newer */
	ck_assert(e2x_revoke_test(&j, 100, 6));
	ck_assert(!e2x_revoke_test(&j, 101, 1));
	/* across the 32-bit wrap */
	ck_assert_int_eq(e2x_revoke_set(&j, 1ULL << 40, 0xFFFFFFFFU), 0);
	ck_assert(e2x_revoke_test(&j, 1ULL << 40, 0xFFFFFFFEU));
	ck_assert(!e2x_revoke_test(&j, 1ULL << 40, 0));
	ck_assert_int_eq(e2x_revoke_set(&j, 1ULL << 40, 1), 0);
	ck_assert(e2x_revoke_test(&j, 1ULL << 40, 0));
	ck_assert(!e2x_revoke_test(&j, 100, 8));
	u64map_free(&j.revoke);
}
END_TEST

START_TEST(revoke_table_grows)
{
	struct e2x_journal j;
	uint64_t b;

	memset(&j, 0, sizeof(j));
	u64map_init(&j.revoke);
	for (b = 0; b < 100000; b++)
		ck_assert_int_eq(e2x_revoke_set(&j, b * 7919, (uint32_t)b), 0);
	for (b = 0; b < 100000; b++)
		ck_assert(e2x_revoke_test(&j, b * 7919, (uint32_t)b));
	ck_assert(!e2x_revoke_test(&j, 5, 0));
	u64map_free(&j.revoke);
}
END_TEST

/* ---- logs written by the reference debugfs -------------------------- */

struct ref_case {
	const char *mkfs;	/* extra mke2fs options */
	const char *jopen;	/* debugfs journal_open options */
	uint32_t want_incompat;	/* journal features that must result */
};

static const struct ref_case ref_cases[] = {
	{ "", "", E2X_JBD2_INCOMPAT_64BIT },
	{ "-O ^64bit", "", 0 },
	{ "", "-c -v 2", E2X_JBD2_INCOMPAT_CSUM_V2 | E2X_JBD2_INCOMPAT_64BIT },
	{ "-O ^64bit", "-c -v 2", E2X_JBD2_INCOMPAT_CSUM_V2 },
	{ "", "-c -v 3", E2X_JBD2_INCOMPAT_CSUM_V3 | E2X_JBD2_INCOMPAT_64BIT },
	{ "-O ^64bit", "-c -v 3", E2X_JBD2_INCOMPAT_CSUM_V3 },
	{ "-b 1024", "-c -v 3",
	  E2X_JBD2_INCOMPAT_CSUM_V3 | E2X_JBD2_INCOMPAT_64BIT },
	{ "-b 1024 -O ^64bit", "-c -v 2", E2X_JBD2_INCOMPAT_CSUM_V2 },
};

struct ref_img {
	char path[64];
	char data[64];
	unsigned int bs;
	blk64_t target;		/* first of the three blocks written */
	blk64_t jblk0;		/* journal block 0 on disk */
};

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static int have_reference(void)
{
	return access(REF_MKE2FS, X_OK) == 0 &&
	       access(REF_DEBUGFS, X_OK) == 0 && access(REF_FSCK, X_OK) == 0;
}

/*
 * Three transactions: T1 writes blocks target, target+1 (content 'A',
 * 'B'), T2 revokes target+1, T3 writes target+2 ('A').  The targets are
 * free blocks near the end of the fs.
 */
static void make_ref_image(struct ref_img *ri, const struct ref_case *rc)
{
	ext2_filsys fs;
	FILE *f;
	int i;

	snprintf(ri->path, sizeof(ri->path), "/tmp/e2x-jfmt-%d.img",
		 (int)getpid());
	snprintf(ri->data, sizeof(ri->data), "/tmp/e2x-jfmt-%d.dat",
		 (int)getpid());
	f = fopen(ri->data, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 3 * 4096; i++)
		fputc('A' + i / 4096, f);
	fclose(f);
	ck_assert_int_eq(sh("rm -f %s; %s -q -F -t ext4 %s %s 32M >/dev/null",
			    ri->path,
			    REF_MKE2FS, rc->mkfs, ri->path), 0);
	ck_assert_int_eq(ext2fs_open(ri->path, EXT2_FLAG_64BITS, 0, 0,
				     unix_io_manager, &fs), 0);
	ri->bs = fs->blocksize;
	ri->target = ext2fs_blocks_count(fs->super) - 16;
	ck_assert_int_eq(ext2fs_bmap2(fs, fs->super->s_journal_inum, NULL,
				      NULL, 0, 0, NULL, &ri->jblk0), 0);
	ext2fs_close_free(&fs);
	ck_assert_int_eq(sh("printf 'jo %s\\njw -b %llu,%llu %s\\n"
			    "jw -r %llu /dev/null\\njw -b %llu %s\\njc\\n' | "
			    "%s -w -f - %s >/dev/null 2>&1",
			    rc->jopen, (unsigned long long)ri->target,
			    (unsigned long long)ri->target + 1, ri->data,
			    (unsigned long long)ri->target + 1,
			    (unsigned long long)ri->target + 2, ri->data,
			    REF_DEBUGFS, ri->path), 0);
}

static void drop_ref_image(struct ref_img *ri)
{
	unlink(ri->path);
	unlink(ri->data);
}

static unsigned char read_byte_at(const char *path, uint64_t off)
{
	unsigned char c = 0;
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseeko(f, off, SEEK_SET), 0);
	ck_assert_int_eq(fread(&c, 1, 1, f), 1);
	fclose(f);
	return c;
}

static void flip_byte_at(const char *path, uint64_t off)
{
	unsigned char c = read_byte_at(path, off) ^ 0x5A;
	FILE *f = fopen(path, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseeko(f, off, SEEK_SET), 0);
	ck_assert_int_eq(fwrite(&c, 1, 1, f), 1);
	fclose(f);
}

static errcode_t recover_image(const char *path, int flags,
			       struct e2x_journal_result *r)
{
	struct e2x_journal_opts o;
	ext2_filsys fs;
	errcode_t err;

	memset(&o, 0, sizeof(o));
	o.flags = flags;
	ck_assert_int_eq(ext2fs_open(path, EXT2_FLAG_64BITS |
				     (flags ? 0 : EXT2_FLAG_RW), 0, 0,
				     unix_io_manager, &fs), 0);
	ck_assert(ext2fs_has_feature_journal_needs_recovery(fs->super));
	err = e2x_journal_recover(fs, &o, r);
	ext2fs_free(fs);
	return err;
}

START_TEST(recover_reference_log)
{
	const struct ref_case *rc = &ref_cases[_i];
	struct e2x_journal_result r;
	struct ref_img ri;
	ext2_filsys fs;
	struct e2x_journal *j;
	uint64_t t;

	make_ref_image(&ri, rc);
	/* the features debugfs produced are the ones this case covers */
	ck_assert_int_eq(ext2fs_open(ri.path, EXT2_FLAG_64BITS, 0, 0,
				     unix_io_manager, &fs), 0);
	ck_assert_int_eq(e2x_journal_load(fs, NULL, &j), 0);
	ck_assert_uint_eq(j->incompat & ~(E2X_JBD2_INCOMPAT_REVOKE),
			  rc->want_incompat);
	e2x_journal_free(j);
	ext2fs_close_free(&fs);

	ck_assert_int_eq(recover_image(ri.path, 0, &r), 0);
	ck_assert_uint_eq(r.transactions, 3);
	ck_assert_uint_eq(r.stop_reason, E2X_JSTOP_END);
	ck_assert_uint_eq(r.revoke_records, 1);
	ck_assert_uint_eq(r.revoke_hits, 1);
	ck_assert_uint_eq(r.blocks_replayed, 2);
	ck_assert_uint_eq(r.bad_data_blocks, 0);
	t = ri.target * ri.bs;
	ck_assert_uint_eq(read_byte_at(ri.path, t), 'A');
	/* revoked */
	ck_assert_uint_eq(read_byte_at(ri.path, t + ri.bs), 0);
	ck_assert_uint_eq(read_byte_at(ri.path, t + 2 * ri.bs), 'A');
	ck_assert_int_eq(sh("%s -fn %s >/dev/null 2>&1", REF_FSCK, ri.path),
			 0);
	drop_ref_image(&ri);
}
END_TEST

/* A dry run writes nothing, yet its overlay shows the replayed blocks. */
START_TEST(dry_run_replays_into_overlay)
{
	struct e2x_journal_result r;
	struct ref_img ri;
	ext2_filsys fs;
	unsigned char *buf;
	char cmd[256];

	make_ref_image(&ri, &ref_cases[4]);
	snprintf(cmd, sizeof(cmd), "cp %s %s.orig", ri.path, ri.path);
	ck_assert_int_eq(sh("%s", cmd), 0);
	ck_assert_int_eq(recover_image(ri.path, E2X_JOURNAL_DRY_RUN, &r), 0);
	ck_assert_int_eq(sh("cmp -s %s %s.orig", ri.path, ri.path), 0);
	ck_assert_ptr_nonnull(r.fs_overlay);
	ck_assert_int_eq(e2x_overlay_open_fs(r.fs_overlay, ri.path,
					     EXT2_FLAG_64BITS | EXT2_FLAG_RW,
					     0, 0, &fs), 0);
	ck_assert(!ext2fs_has_feature_journal_needs_recovery(fs->super));
	buf = malloc(fs->blocksize);
	ck_assert_int_eq(io_channel_read_blk64(fs->io, ri.target, 1, buf), 0);
	ck_assert_uint_eq(buf[0], 'A');
	/* writes land in the overlay, never on the image */
	memset(buf, 'Z', fs->blocksize);
	ck_assert_int_eq(io_channel_write_blk64(fs->io, ri.target + 3, 1, buf),
			 0);
	ck_assert_int_eq(ext2fs_close_free(&fs), 0);
	ck_assert_int_eq(sh("cmp -s %s %s.orig", ri.path, ri.path), 0);
	ck_assert_uint_ge(e2x_overlay_bytes(r.fs_overlay), 3 * 1024);
	free(buf);
	e2x_journal_result_release(&r);
	sh("rm -f %s.orig", ri.path);
	drop_ref_image(&ri);
}
END_TEST

/*
 * Damage one block of T2 (log: T1 = desc@1 data@2,3 commit@4; T2 =
 * revoke@5 commit@6; T3 = desc@7 data@8 commit@9) and check where the
 * recovery stops.
 */
static const struct {
	unsigned int logblk;	/* log block damaged */
	int from_end;		/* offset counted from the block's end */
	unsigned int off;
	uint32_t want_tx;
	uint32_t stop;
	errcode_t want_err;
	uint64_t want_bad;
} damage_cases[] = {
	{ 6, 0, 16, 1, E2X_JSTOP_COMMIT_CSUM, 0, 0 },	/* T2 commit */
	{ 5, 1, 1, 0, E2X_JSTOP_BLOCK_CSUM, E2X_ERR_JOURNAL_CSUM, 0 },
	{ 8, 0, 100, 3, E2X_JSTOP_END, E2X_ERR_JOURNAL_CSUM, 1 }, /* data */
	{ 9, 0, 0, 2, E2X_JSTOP_END, 0, 0 },	/* T3 commit magic */
};

START_TEST(damaged_log_stops_where_the_kernel_does)
{
	struct e2x_journal_result r;
	struct ref_img ri;
	uint64_t off;

	make_ref_image(&ri, &ref_cases[4]);	/* csum v3, contiguous log */
	off = (ri.jblk0 + damage_cases[_i].logblk) * ri.bs;
	off += damage_cases[_i].from_end ? ri.bs - damage_cases[_i].off :
					   damage_cases[_i].off;
	flip_byte_at(ri.path, off);
	ck_assert_int_eq(recover_image(ri.path, 0, &r),
			 damage_cases[_i].want_err);
	ck_assert_uint_eq(r.transactions, damage_cases[_i].want_tx);
	ck_assert_uint_eq(r.stop_reason, damage_cases[_i].stop);
	ck_assert_uint_eq(r.bad_data_blocks, damage_cases[_i].want_bad);
	drop_ref_image(&ri);
}
END_TEST

/* needs_recovery over an empty log: only the flag goes. */
START_TEST(empty_log_only_clears_the_flag)
{
	struct e2x_journal_result r;
	struct ref_img ri;
	ext2_filsys fs;

	make_ref_image(&ri, &ref_cases[4]);
	ck_assert_int_eq(sh("%s -f %s -E journal_only -y >/dev/null 2>&1; "
			    "%s -w -R 'feature needs_recovery' %s "
			    ">/dev/null 2>&1; cp %s %s.orig", REF_FSCK,
			    ri.path, REF_DEBUGFS, ri.path, ri.path, ri.path),
			 0);
	ck_assert_int_eq(recover_image(ri.path, 0, &r), 0);
	ck_assert_uint_eq(r.stop_reason, E2X_JSTOP_CLEAN);
	ck_assert_uint_eq(r.transactions, 0);
	ck_assert_int_eq(ext2fs_open(ri.path, EXT2_FLAG_64BITS, 0, 0,
				     unix_io_manager, &fs), 0);
	ck_assert(!ext2fs_has_feature_journal_needs_recovery(fs->super));
	ext2fs_close_free(&fs);
	/* the journal superblock is as it was */
	ck_assert_int_eq(sh("cmp -s -i %llu:%llu -n 1024 %s %s.orig",
			    (unsigned long long)ri.jblk0 * ri.bs,
			    (unsigned long long)ri.jblk0 * ri.bs, ri.path,
			    ri.path), 0);
	sh("rm -f %s.orig", ri.path);
	drop_ref_image(&ri);
}
END_TEST

static Suite *journal_suite(void)
{
	Suite *s = suite_create("journal_format");
	TCase *tc = tcase_create("format");
	TCase *tr = tcase_create("reference_logs");

	tcase_add_loop_test(tc, tag_size_per_feature_set, 0,
			    sizeof(tag_cases) / sizeof(tag_cases[0]));
	tcase_add_test(tc, tid_order_wraps);
	tcase_add_test(tc, crc32c_known_answer);
	tcase_add_test(tc, checksums_ignore_their_own_field);
	tcase_add_test(tc, revoke_keeps_latest_tid);
	tcase_add_test(tc, revoke_table_grows);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tr);
	if (!have_reference()) {
		e2x_unit_skip("reference_logs",
			      "no reference mke2fs, debugfs and e2fsck");
		return s;
	}
	tcase_set_timeout(tr, 60);
	tcase_add_loop_test(tr, recover_reference_log, 0,
			    sizeof(ref_cases) / sizeof(ref_cases[0]));
	tcase_add_test(tr, dry_run_replays_into_overlay);
	tcase_add_test(tr, empty_log_only_clears_the_flag);
	tcase_add_loop_test(tr, damaged_log_stops_where_the_kernel_does, 0,
			    sizeof(damage_cases) / sizeof(damage_cases[0]));
	return s;
}

E2X_UNIT_MAIN(journal_suite)
