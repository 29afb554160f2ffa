/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_file_indirect.c --- indirect-mapped (ext2/ext3) file content through
 * the file API on images made by the reference mke2fs: one table of
 * (geometry, scenario) cases.  After each case the file must still be
 * indirect-mapped, every byte must read back exactly (ours and the
 * reference debugfs "cat"), the reference e2fsck -fn must be clean and
 * i_version must have moved by one per operation.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "unit.h"
#include "fixture.h"

#define REF_MKE2FS	"/usr/sbin/mke2fs"
#define REF_DEBUGFS	"/usr/sbin/debugfs"

static const struct {
	const char *opts;	/* reference mke2fs options */
	int triple;		/* triple-indirect offsets small enough */
} geos[] = {
	{ "-t ext3 -b 1024", 1 },
	{ "-t ext3 -b 4096", 0 },
	{ "-t ext4 -O ^extent,^64bit -b 1024", 1 },
	{ "-t ext4 -O ^extent,^64bit -b 4096", 0 },
};
#define NGEOS (int)(sizeof(geos) / sizeof(geos[0]))

/* A byte position: (blk + n1 * n + n2 * n * n) blocks + bytes, where n is
 * the number of block numbers per indirect block. */
struct pos {
	int64_t blk, n1, n2, bytes;
};

enum { END = 0, W, T };		/* write [at, at + len), truncate at */

struct op {
	int kind;
	struct pos at, len;
};

#define MAXOPS 4
static const struct scenario {
	const char *name;
	int dense;		/* blocks [0, size) all mapped */
	int triple;		/* needs triple-indirect offsets */
	struct op ops[MAXOPS];
} scens[] = {
	{ "empty", 1, 0, { { T, { 0, 0, 0, 0 }, { 0 } } } },
	{ "1 byte", 1, 0, { { W, { 0 }, { 0, 0, 0, 1 } } } },
	{ "4095 bytes", 1, 0, { { W, { 0 }, { 0, 0, 0, 4095 } } } },
	{ "4096 bytes", 1, 0, { { W, { 0 }, { 0, 0, 0, 4096 } } } },
	{ "12 blocks", 1, 0, { { W, { 0 }, { 12, 0, 0, 0 } } } },
	{ "13 blocks", 1, 0, { { W, { 0 }, { 13, 0, 0, 0 } } } },
	{ "12+n blocks", 1, 0, { { W, { 0 }, { 12, 1, 0, 0 } } } },
	{ "12+n+1 blocks", 1, 0, { { W, { 0 }, { 13, 1, 0, 0 } } } },
	{ "append across single", 1, 0,
	  { { W, { 0 }, { 11, 0, 0, 100 } },
	    { W, { 11, 0, 0, 100 }, { 3, 0, 0, 0 } } } },
	{ "overwrite middle", 1, 0,
	  { { W, { 0 }, { 14, 0, 0, 0 } },
	    { W, { 5, 0, 0, 3 }, { 2, 0, 0, 0 } } } },
	{ "sparse double", 0, 0,
	  { { W, { 12, 1, 0, 0 }, { 0, 0, 0, 10 } },
	    { W, { 15, 6, 0, -5 }, { 0, 0, 0, 100 } } } },
	{ "sparse straddles triple", 0, 1,
	  { { W, { 12, 1, 1, -10 }, { 0, 0, 0, 20 } } } },
	{ "sparse deep triple", 0, 1,
	  { { W, { 0 }, { 0, 0, 0, 7 } },
	    { W, { 15, 3, 1, 1 }, { 2, 0, 0, 0 } } } },
	{ "truncate up then write", 0, 0,
	  { { T, { 20, 0, 0, 0 } }, { W, { 15, 0, 0, 0 }, { 0, 0, 0, 10 } } } },
	{ "truncate into double", 1, 0,
	  { { W, { 0 }, { 17, 2, 0, 7 } }, { T, { 13, 1, 0, 1 } } } },
	{ "truncate to single end", 1, 0,
	  { { W, { 0 }, { 17, 2, 0, 7 } }, { T, { 12, 1, 0, 0 } } } },
	{ "truncate to 13 blocks", 1, 0,
	  { { W, { 0 }, { 17, 2, 0, 7 } }, { T, { 13, 0, 0, 0 } } } },
	{ "truncate to 12 blocks", 1, 0,
	  { { W, { 0 }, { 17, 2, 0, 7 } }, { T, { 12, 0, 0, 0 } } } },
	{ "truncate to 1 byte", 1, 0,
	  { { W, { 0 }, { 17, 2, 0, 7 } }, { T, { 0, 0, 0, 1 } } } },
	{ "truncate to 0", 1, 0,
	  { { W, { 0 }, { 13, 1, 0, 0 } }, { T, { 0 } } } },
	{ "truncate out of triple", 0, 1,
	  { { W, { 0 }, { 0, 0, 0, 100 } },
	    { W, { 12, 3, 1, 5 }, { 1, 0, 0, 0 } },
	    { T, { 12, 1, 1, 0 } } } },
	{ "truncate mid triple", 0, 1,
	  { { W, { 12, 1, 1, 0 }, { 1, 0, 0, 0 } },
	    { W, { 14, 2, 1, 0 }, { 1, 0, 0, 0 } },
	    { T, { 13, 2, 1, 0 } } } },
};
#define NSCEN (int)(sizeof(scens) / sizeof(scens[0]))

static struct fixture fx;
static unsigned int bs;
static union {
	struct ext2_inode_large in;
	unsigned char raw[1024];
} ib;

static uint64_t at(const struct pos *p)
{
	int64_t n = bs / 4;

	return (uint64_t)((p->blk + p->n1 * n + p->n2 * n * n) * bs +
			  p->bytes);
}

static void load(ext2_ino_t ino)
{
	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, &ib.in), 0);
}

static uint64_t version(ext2_ino_t ino)
{
	return fixture_version(&fx, ino, &ib.in);
}

#define OP(ino, call) FIXTURE_OP(&fx, ino, &ib.in, call)

static int run(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* A fresh image by the reference mke2fs with OPTS. */
static void ref_mkfs(const char *opts)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[1024];
	int fd;

	memset(&fx, 0, sizeof(fx));
	snprintf(fx.path, sizeof(fx.path), "%s/e2x-unit-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(fx.path);
	ck_assert_msg(fd >= 0, "mkstemp failed");
	close(fd);
	unlink(fx.path);
	snprintf(cmd, sizeof(cmd), "%s -q -F %s '%s' 32M </dev/null >&2",
		 REF_MKE2FS, opts, fx.path);
	ck_assert_msg(run(cmd) == 0, "mkfs failed: %s", cmd);
	fixture_reopen(&fx);
	bs = fx.fs->blocksize;
}

static ext2_ino_t make_inode(const char *name, uint16_t mode, int ft)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_inode_new(fx.fs, EXT2_ROOT_INO, mode, &ib.in,
				       &ino), 0);
	ck_assert_int_eq(ext2fs_link(fx.fs, EXT2_ROOT_INO, name, ino, ft), 0);
	ck_assert_int_eq(e2x_write_inode(fx.fs, ino, &ib.in), 0);
	return ino;
}

/* Indirect blocks a file with blocks [0, NB) all mapped needs. */
static uint64_t meta_blocks(uint64_t nb)
{
	uint64_t n = bs / 4, m = 0;

	if (nb <= EXT2_NDIR_BLOCKS)
		return 0;
	nb -= EXT2_NDIR_BLOCKS;
	m = 1;
	if (nb <= n)
		return m;
	nb -= n;
	if (nb <= n * n)
		return m + 1 + (nb + n - 1) / n;
	m += 1 + n;
	nb -= n * n;
	return m + 1 + (nb + n * n - 1) / (n * n) + (nb + n - 1) / n;
}

/* Still indirect-mapped; dense files count exactly their data and
 * indirect blocks in i_blocks. */
static void expect_map(ext2_ino_t ino, uint64_t size, int dense)
{
	uint64_t nb = (size + bs - 1) / bs;

	load(ino);
	ck_assert(!(ib.in.i_flags & (EXT4_EXTENTS_FL | EXT4_INLINE_DATA_FL)));
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), size);
	if (dense)
		ck_assert_uint_eq(ext2fs_get_stat_i_blocks(fx.fs,
				  (struct ext2_inode *)&ib.in),
				  (nb + meta_blocks(nb)) * (bs / 512));
}

/* Our read, in chunks, equals WANT. */
static void expect_ours(ext2_ino_t ino, const unsigned char *want,
			uint64_t size)
{
	size_t chunk = 1 << 20, got;
	unsigned char *buf = malloc(chunk);
	uint64_t off;

	ck_assert_ptr_nonnull(buf);
	for (off = 0; off < size; off += got) {
		ck_assert_int_eq(e2x_file_read(fx.fs, ino, off, buf, chunk,
					       &got), 0);
		ck_assert_uint_eq(got, size - off < chunk ? size - off : chunk);
		ck_assert_msg(memcmp(buf, want + off, got) == 0,
			      "content differs in [%llu, +%zu)",
			      (unsigned long long)off, got);
	}
	ck_assert_int_eq(e2x_file_read(fx.fs, ino, size, buf, 1, &got), 0);
	ck_assert_uint_eq(got, 0);
	free(buf);
}

/* The reference debugfs "cat" of the closed image equals WANT. */
static void expect_ref_cat(ext2_ino_t ino, const unsigned char *want,
			   uint64_t size)
{
	unsigned char buf[65536];
	char cmd[512];
	uint64_t off = 0;
	size_t got;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -R 'cat <%u>' '%s' 2>/dev/null",
		 REF_DEBUGFS, ino, fx.path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while ((got = fread(buf, 1, sizeof(buf), p)) > 0) {
		ck_assert_uint_le(off + got, size);
		ck_assert_msg(memcmp(buf, want + off, got) == 0,
			      "debugfs cat differs in [%llu, +%zu)",
			      (unsigned long long)off, got);
		off += got;
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_uint_eq(off, size);
}

/* Largest size a scenario reaches. */
static uint64_t scen_span(const struct scenario *sc)
{
	uint64_t max = 0, end;
	int i;

	for (i = 0; i < MAXOPS && sc->ops[i].kind != END; i++) {
		end = at(&sc->ops[i].at);
		if (sc->ops[i].kind == W)
			end += at(&sc->ops[i].len);
		if (end > max)
			max = end;
	}
	return max;
}

START_TEST(geometry_x_scenario)
{
	const struct scenario *sc = &scens[_i % NSCEN];
	int geo = _i / NSCEN;
	unsigned char *model = NULL;
	uint64_t span, size = 0, off, len;
	ext2_ino_t ino;
	int i;

	if (sc->triple && !geos[geo].triple)
		return;
	ref_mkfs(geos[geo].opts);
	span = scen_span(sc);
	model = calloc(1, span + 1);
	ck_assert_ptr_nonnull(model);
	ino = make_inode("f", LINUX_S_IFREG | 0644, EXT2_FT_REG_FILE);
	for (i = 0; i < MAXOPS && sc->ops[i].kind != END; i++) {
		off = at(&sc->ops[i].at);
		if (sc->ops[i].kind == T) {
			OP(ino, e2x_file_truncate(fx.fs, ino, off, 0));
			if (off < size)
				memset(model + off, 0, size - off);
			size = off;
		} else {
			len = at(&sc->ops[i].len);
			fixture_fill(model + off, len, (unsigned int)i * 7 + 1);
			OP(ino, e2x_file_write(fx.fs, ino, off, model + off,
					       len, 0));
			if (off + len > size)
				size = off + len;
		}
		expect_map(ino, size, sc->dense);
	}
	fixture_close(&fx);
	fixture_reopen(&fx);
	expect_map(ino, size, sc->dense);
	expect_ours(ino, model, size);
	ck_assert_msg(fixture_ref_fsck(&fx) == 0, "%s on %s: e2fsck not clean",
		      sc->name, geos[geo].opts);
	expect_ref_cat(ino, model, size);
	free(model);
	fixture_drop(&fx);
}
END_TEST

/* Past the reach of the map: refused, nothing changed. */
START_TEST(too_big_is_refused)
{
	uint64_t n, max;
	ext2_ino_t ino;
	uint64_t v;

	ref_mkfs(geos[_i].opts);
	n = bs / 4;
	max = (EXT2_NDIR_BLOCKS + n + n * n + n * n * n) * bs;
	if (max > (1ULL << 32) * bs)
		max = (1ULL << 32) * bs;
	ino = make_inode("f", LINUX_S_IFREG | 0644, EXT2_FT_REG_FILE);
	v = version(ino);
	ck_assert_int_eq(e2x_file_write(fx.fs, ino, max, "x", 1, 0),
			 EXT2_ET_FILE_TOO_BIG);
	ck_assert_int_eq(e2x_file_truncate(fx.fs, ino, max + 1, 0),
			 EXT2_ET_FILE_TOO_BIG);
	ck_assert_uint_eq(version(ino), v);
	ck_assert_uint_eq(EXT2_I_SIZE(&ib.in), 0);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

/* A symlink too long for i_block gets one indirect-mapped block. */
START_TEST(block_symlink)
{
	char target[1100], got[1100];
	size_t len;
	ext2_ino_t ino;

	ref_mkfs(geos[_i].opts);
	memset(target, 'a', sizeof(target));
	len = bs - 1 < sizeof(target) ? bs - 1 : sizeof(target);
	memcpy(target, "/some/where/", 12);
	ino = make_inode("l", LINUX_S_IFLNK | 0777, EXT2_FT_SYMLINK);
	OP(ino, e2x_symlink_write(fx.fs, ino, target, len, 0));
	expect_map(ino, len, 1);
	OP(ino, e2x_symlink_write(fx.fs, ino, target, 100, 0));
	expect_map(ino, 100, 1);
	fixture_close(&fx);
	fixture_reopen(&fx);
	ck_assert_int_eq(e2x_symlink_read(fx.fs, ino, got, sizeof(got), &len),
			 0);
	ck_assert_uint_eq(len, 100);
	ck_assert(memcmp(got, target, 100) == 0);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	expect_ref_cat(ino, (const unsigned char *)target, 100);
	fixture_drop(&fx);
}
END_TEST

/* A file the reference debugfs wrote on ext3 stays indirect when grown
 * and cut after tune2fs turned extents on (new files get extents). */
START_TEST(stays_indirect_after_extents_on)
{
	uint64_t size = (uint64_t)(12 + 300) * 1024 + 5;
	unsigned char *model = calloc(1, size);
	char cmd[1024], src[256];
	ext2_ino_t ino;
	FILE *f;

	ck_assert_ptr_nonnull(model);
	fixture_fill(model, 5 * 1024, 11);
	snprintf(src, sizeof(src), "%s/e2x-unit-src-%d",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
						       : "/tmp", (int)getpid());
	f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(model, 1, 5 * 1024, f), 5 * 1024);
	ck_assert_int_eq(fclose(f), 0);
	ref_mkfs("-t ext3 -b 1024");
	fixture_close(&fx);
	snprintf(cmd, sizeof(cmd),
		 "%s -w -R 'write %s f' '%s' >/dev/null 2>&1 && "
		 "/usr/sbin/tune2fs -O extent '%s' >/dev/null 2>&1",
		 REF_DEBUGFS, src, fx.path, fx.path);
	ck_assert_int_eq(run(cmd), 0);
	unlink(src);
	fixture_reopen(&fx);
	ck_assert_int_eq(ext2fs_namei(fx.fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
				      "f", &ino), 0);
	expect_map(ino, 5 * 1024, 1);
	fixture_fill(model + 5 * 1024, size - 5 * 1024, 12);
	OP(ino, e2x_file_write(fx.fs, ino, 5 * 1024, model + 5 * 1024,
			       size - 5 * 1024, 0));
	expect_map(ino, size, 1);
	OP(ino, e2x_file_truncate(fx.fs, ino, 13 * 1024, 0));
	size = 13 * 1024;
	expect_map(ino, size, 1);
	fixture_close(&fx);
	fixture_reopen(&fx);
	expect_ours(ino, model, size);
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	expect_ref_cat(ino, model, size);
	free(model);
	fixture_drop(&fx);
}
END_TEST

/* Host file PATH.hI holding SIZE bytes of MODEL (only its first and
 * last 100 bytes unless DENSE: the rest stays a hole). */
static void host_copy(size_t i, const unsigned char *model, uint64_t size,
		      int dense)
{
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s.h%zu", fx.path, i);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	if (dense) {
		ck_assert_uint_eq(fwrite(model, 1, size, f), size);
	} else {
		ck_assert_uint_eq(fwrite(model, 1, 100, f), 100);
		ck_assert_int_eq(fseeko(f, (off_t)(size - 100), SEEK_SET), 0);
		ck_assert_uint_eq(fwrite(model + size - 100, 1, 100, f), 100);
	}
	ck_assert_int_eq(fclose(f), 0);
}

/* The kernel reads what we wrote (files across every map level) and
 * appends to it; we read its appends.  Only added to the suite when the
 * kernel mounts a reference-made ext3 image (fixture_kernel_probe): then
 * a loop or mount failure on ours is a failure. */
START_TEST(kernel_round_trip)
{
	static const int64_t nblocks[] = { 1, 12, 13, 12 + 256, 12 + 256 + 1,
					   12 + 256 + 65536 + 2 };
	size_t nfiles = sizeof(nblocks) / sizeof(nblocks[0]), i;
	unsigned char *model[6];
	ext2_ino_t inos[6];
	char cmd[2048], name[16];
	uint64_t size;
	int st;

	ck_assert_uint_eq(nfiles, 6);	/* the shell loop names 0-5 */

	ref_mkfs("-t ext3 -b 1024");
	for (i = 0; i < nfiles; i++) {
		size = (uint64_t)nblocks[i] * bs - 3;
		model[i] = calloc(1, size + 100);
		ck_assert_ptr_nonnull(model[i]);
		/* the last file is sparse: a head and a tail in triple */
		fixture_fill(model[i], i + 1 < nfiles ? size : 100, (unsigned)i);
		fixture_fill(model[i] + size - 100, 100, (unsigned)i + 50);
		snprintf(name, sizeof(name), "f%zu", i);
		inos[i] = make_inode(name, LINUX_S_IFREG | 0644,
				     EXT2_FT_REG_FILE);
		OP(inos[i], e2x_file_write(fx.fs, inos[i], 0, model[i],
					   i + 1 < nfiles ? size : 100, 0));
		OP(inos[i], e2x_file_write(fx.fs, inos[i], size - 100,
					   model[i] + size - 100, 100, 0));
	}
	fixture_close(&fx);
	for (i = 0; i < nfiles; i++)
		host_copy(i, model[i], (uint64_t)nblocks[i] * bs - 3,
			  i + 1 < nfiles);
	/* the kernel compares each file with the host copy of the model,
	 * then appends its last 100 bytes to it */
	snprintf(cmd, sizeof(cmd),
		 "m=$(mktemp -d /tmp/mnt-h6-XXXXXX); "
		 "l=$(losetup -f --show '%s') || exit 3; "
		 "trap 'umount $m 2>/dev/null; losetup -d $l; rmdir $m' EXIT; "
		 "n=$(dmesg | wc -l); "
		 "mount -t ext3 $l $m || exit 3; "
		 "for i in 0 1 2 3 4 5; do cmp $m/f$i '%s.h'$i || exit 1; "
		 "tail -c 100 $m/f$i >> $m/f$i || exit 1; done; "
		 "umount $m || exit 1; "
		 "dmesg | tail -n +$((n + 1)) | grep \"EXT4-fs.*${l#/dev/}\" "
		 "| grep -Ei 'error|warning' >&2 && exit 2; "
		 "exit 0", fx.path, fx.path);
	st = run(cmd);
	for (i = 0; i < nfiles; i++) {
		snprintf(cmd, sizeof(cmd), "%s.h%zu", fx.path, i);
		unlink(cmd);
	}
	ck_assert_msg(st == 0, "kernel round trip: %s (exit %d)",
		      st == 3 ? "the kernel refused our image" :
		      st == 2 ? "EXT4-fs warnings or errors" :
		      "the kernel's content differs", st);
	fixture_reopen(&fx);
	for (i = 0; i < nfiles; i++) {
		size = (uint64_t)nblocks[i] * bs - 3;
		memcpy(model[i] + size, model[i] + size - 100, 100);
		expect_map(inos[i], size + 100, i + 1 < nfiles);
		expect_ours(inos[i], model[i], size + 100);
		free(model[i]);
	}
	ck_assert_int_eq(fixture_ref_fsck(&fx), 0);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_file_indirect(void)
{
	Suite *s = suite_create("file_indirect");
	TCase *tc = tcase_create("indirect");
	const char *why;

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, geometry_x_scenario, 0, NGEOS * NSCEN);
	tcase_add_loop_test(tc, too_big_is_refused, 0, NGEOS);
	tcase_add_loop_test(tc, block_symlink, 0, NGEOS);
	tcase_add_test(tc, stays_indirect_after_extents_on);
	why = fixture_kernel_probe("ext3");
	if (why)
		e2x_unit_skip("kernel_round_trip", why);
	else
		tcase_add_test(tc, kernel_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_file_indirect)
