/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_repair.c --- the repair primitives of e2x-repair.h: record salvage
 * as named cases over a region in memory, then on fresh images a leaf
 * written back with its tail, a damaged htree (and itree) rebuilt, files
 * and directories reconnected and '..' repointed; each with i_version
 * moved once and (without itree) the reference e2fsck -fn clean after.
 */
#include "config.h"
#include <string.h>
#include "unit.h"
#include "fixture.h"

/* ---- salvage in memory ------------------------------------------------ */

/* A record to lay down: inode, rec_len, name (name_len = strlen). */
struct rec {
	uint32_t ino;
	uint16_t rec_len;
	const char *name;
};

/* One case: records laid in a 64-byte region from offset 0 (rec_len 0
 * ends the list), the offset to salvage and its previous record, and the
 * chain expected after (offset, inode) until the region's end. */
struct salvage_case {
	const char *what;
	struct rec in[6];
	unsigned int off;
	int prev;
	struct {
		unsigned int off;
		uint32_t ino;
	} out[6];
	unsigned int nout;
};

#define REGION 64

static const struct salvage_case salvage_cases[] = {
	{ "rec_len 0 cut to the next whole record",
	  { { 11, 12, "a" }, { 12, 0, "bb" }, { 13, 40, "ccc" } },
	  12, 0, { { 0, 11 }, { 12, 12 }, { 24, 13 } }, 3 },
	{ "rec_len past the end cut to the region",
	  { { 11, 12, "a" }, { 12, 200, "bb" } },
	  12, 0, { { 0, 11 }, { 12, 12 } }, 2 },
	{ "unreadable header absorbed by the record before",
	  { { 11, 12, "a" }, { 0xffffffff, 3, "" }, { 13, 40, "ccc" } },
	  12, 0, { { 0, 11 }, { 20, 13 } }, 2 },
	{ "name longer than a sound record: the record goes",
	  { { 11, 12, "a" }, { 12, 12, "a-long-name" } , { 13, 40, "c" } },
	  12, 0, { { 0, 11 }, { 24, 13 } }, 2 },
	{ "scrap at the start: the next record moves over it",
	  { { 0, 8, "" }, { 12, 56, "bb" } },
	  0, -1, { { 0, 12 } }, 1 },
	{ "garbage at the start becomes an unused record",
	  { { 0xffffffff, 1, "" }, { 0, 0, NULL }, { 0, 0, NULL } },
	  0, -1, { { 0, 0 } }, 1 },
};

/* Lay the records of C; a record with rec_len 0 and no name ends it. */
static void lay(char *buf, const struct salvage_case *c)
{
	unsigned int off = 0, i;

	memset(buf, 0, REGION);
	for (i = 0; i < 6 && (c->in[i].rec_len || c->in[i].name); i++) {
		struct e2x_dirent *de = (void *)(buf + off);
		const char *n = c->in[i].name ? c->in[i].name : "";

		if (off + 8 + strlen(n) > REGION)
			break;
		de->inode = c->in[i].ino;
		de->rec_len = c->in[i].rec_len;
		de->name_len = (uint8_t)strlen(n);
		memcpy(de->name, n, strlen(n));
		/* the next record starts where a sane one would */
		off += c->in[i].rec_len >= 8 && c->in[i].rec_len <= 40 ?
			       c->in[i].rec_len :
			       e2x_dirent_min_len(strlen(n));
		if (off >= REGION)
			break;
	}
}

START_TEST(salvage_region)
{
	const struct salvage_case *c = &salvage_cases[_i];
	char buf[REGION];
	struct e2x_dirregion r = { .buf = buf, .size = REGION, .bs = 1024 };
	unsigned int off = c->off, n = 0;
	int prev = c->prev;

	lay(buf, c);
	/* salvage until the chain holds, as pass 2 walks */
	while (off < REGION) {
		struct e2x_dirent *de = (void *)(buf + off);
		unsigned int len = off + 8 <= REGION ?
					   e2x_dirent_rec_len(de, r.bs) : 0;

		if (len < 12 || (len & 3) || len > REGION - off ||
		    e2x_dirent_min_len(de->name_len) > len) {
			unsigned int next = e2x_dirregion_salvage(&r, off,
								  prev, 12,
								  1000);
			ck_assert_msg(next >= off, "%s: went back", c->what);
			off = next;
			continue;
		}
		prev = (int)off;
		off += len;
	}
	ck_assert_int_eq(e2x_dirregion_check(&r), 0);
	for (off = 0; off < REGION; n++) {
		struct e2x_dirent *de = (void *)(buf + off);

		ck_assert_msg(n < c->nout, "%s: extra record at %u", c->what,
			      off);
		ck_assert_msg(off == c->out[n].off && de->inode == c->out[n].ino,
			      "%s: record %u at %u ino %u", c->what, n, off,
			      de->inode);
		off += e2x_dirent_rec_len(de, r.bs);
	}
	ck_assert_msg(n == c->nout, "%s: %u records", c->what, n);
}
END_TEST

/* ---- on an image ------------------------------------------------------ */

static struct fixture fx;
static union {
	struct ext2_inode_large in;
	unsigned char raw[1024];
} ib;

#define OP(ino, call) FIXTURE_OP(&fx, ino, &ib.in, call)

static void open_fs(const char *opts, const char *size)
{
	fixture_mkfs_bitmaps(&fx, opts, size);
}

static void close_clean(void)
{
	fixture_drop_clean(&fx);
}

static ext2_ino_t mkdir_in(ext2_ino_t parent, const char *name, int flags)
{
	ext2_ino_t ino;

	ck_assert_int_eq(e2x_dir_mkdir(fx.fs, parent, name, strlen(name), 0755,
				       flags, &ino), 0);
	return ino;
}

static void fill_dir(ext2_ino_t dir, unsigned int n)
{
	fixture_fill_dir(&fx, dir, n);
}

static void all_found(ext2_ino_t dir, unsigned int n)
{
	char name[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "a-rather-long-entry-name-%u", i);
		ck_assert_int_eq(e2x_dir_lookup(fx.fs, dir, name, strlen(name),
						NULL, NULL), 0);
	}
}

static blk64_t block_of(ext2_ino_t ino, blk64_t lblk)
{
	blk64_t pblk = 0;

	ck_assert_int_eq(e2x_read_inode(fx.fs, ino, &ib.in), 0);
	ck_assert_int_eq(e2x_map_file_block(fx.fs, ino, &ib.in, lblk, &pblk,
					    NULL), 0);
	return pblk;
}

START_TEST(dirblk_write_makes_tail)
{
	char buf[4096];
	ext2_ino_t d;
	blk64_t pblk;
	struct e2x_dirent *last;

	open_fs("-b 4096 -O metadata_csum", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d", E2X_DIR_MKDIR_BLOCK);
	pblk = block_of(d, 0);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, pblk, 1, buf), 0);
	/* '..' swallows the tail, the checksum goes stale */
	last = (void *)(buf + 12);
	e2x_dirent_set_rec_len(last, 4096 - 12, 4096);
	ck_assert_int_eq(e2x_repair_dirblk_write(fx.fs, d, pblk, buf, 0), 0);
	ck_assert(e2x_dirblk_has_tail(buf, 4096));
	OP(d, e2x_repair_dir_touch(fx.fs, d, 0));
	close_clean();
}
END_TEST

/* Lay a record of NAME_LEN 'n's at OFF, REC_LEN long. */
static unsigned int put(char *buf, unsigned int off, ext2_ino_t ino,
			unsigned int name_len, unsigned int rec_len)
{
	struct e2x_dirent *de = (void *)(buf + off);

	de->inode = ino;
	de->name_len = (uint8_t)name_len;
	de->file_type = 0;
	memset(de->name, 'n', name_len);
	e2x_dirent_set_rec_len(de, rec_len, 1024);
	return off + rec_len;
}

START_TEST(dirblk_write_refuses_full_block)
{
	char buf[1024];
	unsigned int off;
	ext2_ino_t d;
	int i;

	open_fs("-b 1024 -O metadata_csum", "8M");
	d = mkdir_in(EXT2_ROOT_INO, "d", E2X_DIR_MKDIR_BLOCK);
	memset(buf, 0, sizeof(buf));
	off = put(buf, 0, d, 1, 12);
	for (i = 0; i < 3; i++)
		off = put(buf, off, d, 255, 264);
	off = put(buf, off, d, 212, 220);
	ck_assert_uint_eq(off, 1024);
	ck_assert_int_eq(e2x_repair_dirblk_write(fx.fs, d, block_of(d, 0),
						 buf, 0),
			 E2X_ERR_NO_SPACE);
	fixture_drop(&fx);
}
END_TEST

/* Break the root of D's index: unknown info length. */
static void break_dx_root(ext2_ino_t d)
{
	char buf[1024];
	blk64_t pblk = block_of(d, 0);

	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, pblk, 1, buf), 0);
	buf[E2X_DX_ROOT_INFO_OFF + 5] = 3;
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, pblk, 1, buf), 0);
}

START_TEST(reindex_rebuilds_htree)
{
	enum e2x_dir_form form;
	ext2_ino_t d;

	open_fs("-b 1024 -O metadata_csum", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d", 0);
	fill_dir(d, 120);
	break_dx_root(d);
	OP(d, e2x_repair_dir_reindex(fx.fs, d, 0));
	ck_assert_int_eq(e2x_dir_form(fx.fs, d, &form), 0);
	ck_assert_int_eq(form, E2X_DIR_FORM_HTREE);
	all_found(d, 120);
	close_clean();
}
END_TEST

/* A root index whose limit is the other checksum mode's (a metadata_csum
 * switch cut short): rebuilt with every entry, the times kept. */
START_TEST(reindex_takes_other_mode_limit)
{
	int csum = _i;
	struct e2x_dx_countlimit *cl;
	uint32_t mtime, ctime;
	enum e2x_dir_form form;
	char buf[1024];
	blk64_t pblk;
	ext2_ino_t d;

	open_fs(csum ? "-b 1024 -O metadata_csum" : "-b 1024 -O ^metadata_csum",
		"16M");
	d = mkdir_in(EXT2_ROOT_INO, "d", 0);
	fill_dir(d, 120);
	pblk = block_of(d, 0);
	mtime = ib.in.i_mtime - 1000;
	ctime = ib.in.i_ctime - 2000;
	ib.in.i_mtime = mtime;
	ib.in.i_ctime = ctime;
	ck_assert_int_eq(e2x_write_inode(fx.fs, d, &ib.in), 0);
	ck_assert_int_eq(io_channel_read_blk64(fx.fs->io, pblk, 1, buf), 0);
	cl = (void *)(buf + E2X_DX_ROOT_CL_OFF);
	cl->limit = (uint16_t)e2x_dx_root_limit(1024, !csum);
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, pblk, 1, buf), 0);
	OP(d, e2x_repair_dir_reindex(fx.fs, d, 0));
	ck_assert_int_eq(e2x_dir_form(fx.fs, d, &form), 0);
	ck_assert_int_eq(form, E2X_DIR_FORM_HTREE);
	ck_assert_int_eq(e2x_read_inode(fx.fs, d, &ib.in), 0);
	ck_assert_uint_eq(ib.in.i_mtime, mtime);
	ck_assert_uint_eq(ib.in.i_ctime, ctime);
	all_found(d, 120);
	close_clean();
}
END_TEST

START_TEST(unindex_keeps_entries)
{
	enum e2x_dir_form form;
	ext2_ino_t d;

	open_fs("-b 1024", "16M");
	d = mkdir_in(EXT2_ROOT_INO, "d", 0);
	fill_dir(d, 120);
	break_dx_root(d);
	OP(d, e2x_repair_dir_unindex(fx.fs, d, 0));
	ck_assert_int_eq(e2x_dir_form(fx.fs, d, &form), 0);
	ck_assert_int_eq(form, E2X_DIR_FORM_LINEAR);
	all_found(d, 120);
	close_clean();
}
END_TEST

static size_t dir_problems(ext2_ino_t dir)
{
	return fixture_dir_problems(&fx, dir);
}

START_TEST(reindex_rebuilds_damaged_itree)
{
	struct e2x_itree_root root;
	ext2_ino_t d;
	char buf[1024];

	open_fs("-b 1024 -I 256", "16M");
	fx.fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
	d = mkdir_in(EXT2_ROOT_INO, "d", 0);
	fill_dir(d, 60);
	ck_assert_int_eq(e2x_read_inode(fx.fs, d, &ib.in), 0);
	ck_assert(e2x_itree_present(fx.fs, &ib.in));
	ck_assert_int_eq(e2x_itree_root_get(fx.fs, &ib.in, &root), 0);
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(io_channel_write_blk64(fx.fs->io, root.ir_root, 1,
						buf), 0);
	ck_assert_uint_gt(dir_problems(d), 0);
	OP(d, e2x_repair_dir_reindex(fx.fs, d, 0));
	ck_assert_int_eq(e2x_read_inode(fx.fs, d, &ib.in), 0);
	ck_assert(e2x_itree_present(fx.fs, &ib.in));
	ck_assert_uint_eq(dir_problems(d), 0);
	all_found(d, 60);
	fixture_drop(&fx);
}
END_TEST

START_TEST(reconnect_file)
{
	ext2_ino_t lpf, f, got;

	open_fs("-b 1024", "8M");
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, EXT2_ROOT_INO, "lost+found",
					10, &lpf, NULL), 0);
	ck_assert_int_eq(e2x_dir_mknod(fx.fs, EXT2_ROOT_INO, "f", 1,
				       LINUX_S_IFREG | 0644, 0, &f), 0);
	/* the name goes, the count stays: an unattached inode */
	ck_assert_int_eq(e2x_dir_remove(fx.fs, EXT2_ROOT_INO, "f", 1, 0, NULL),
			 0);
	OP(f, e2x_repair_reconnect(fx.fs, lpf, f, "#12", 0));
	ck_assert_uint_eq(ib.in.i_links_count, 1);
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, lpf, "#12", 3, &got, NULL), 0);
	ck_assert_uint_eq(got, f);
	close_clean();
}
END_TEST

START_TEST(reconnect_dir)
{
	ext2_ino_t lpf, a, b, got;

	open_fs(_i ? "-b 1024 -I 256 -O inline_data" : "-b 1024", "8M");
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, EXT2_ROOT_INO, "lost+found",
					10, &lpf, NULL), 0);
	a = mkdir_in(EXT2_ROOT_INO, "a", 0);
	b = mkdir_in(a, "b", 0);
	ck_assert_int_eq(e2x_dir_remove(fx.fs, a, "b", 1, 0, NULL), 0);
	/* a loses b's '..' */
	ck_assert_int_eq(e2x_read_inode(fx.fs, a, &ib.in), 0);
	ib.in.i_links_count--;
	ck_assert_int_eq(e2x_write_inode(fx.fs, a, &ib.in), 0);
	OP(lpf, e2x_repair_reconnect(fx.fs, lpf, b, "#b", 0));
	ck_assert_uint_eq(ib.in.i_links_count, 3);
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, b, "..", 2, &got, NULL), 0);
	ck_assert_uint_eq(got, lpf);
	close_clean();
}
END_TEST

START_TEST(set_dotdot_inline_and_block)
{
	ext2_ino_t a, b, got;

	open_fs("-b 1024 -I 256 -O inline_data", "8M");
	a = mkdir_in(EXT2_ROOT_INO, "a", _i ? E2X_DIR_MKDIR_BLOCK : 0);
	b = mkdir_in(EXT2_ROOT_INO, "b", 0);
	OP(a, e2x_repair_set_dotdot(fx.fs, a, b, 0));
	ck_assert_int_eq(e2x_dir_lookup(fx.fs, a, "..", 2, &got, NULL), 0);
	ck_assert_uint_eq(got, b);
	/* back, so the tree is consistent for the reference */
	OP(a, e2x_repair_set_dotdot(fx.fs, a, EXT2_ROOT_INO, 0));
	close_clean();
}
END_TEST

/* ---- quota files -------------------------------------------------- */

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Look ID up in the quota tree BUF the way the kernel does: one id byte
 * per level, most significant first; the record's offset or 0. */
static size_t quota_lookup(const unsigned char *buf, size_t len, uint32_t id)
{
	uint32_t blk = 1;
	size_t off;
	int d;

	for (d = 0; d < 4; d++) {
		ck_assert_uint_lt((blk + 1) * 1024, len + 1);
		blk = get32(buf + blk * 1024 + ((id >> (24 - 8 * d)) & 0xff) * 4);
		if (!blk)
			return 0;
	}
	for (off = blk * 1024 + 16; off + 72 <= (blk + 1) * 1024; off += 72)
		if (get32(buf + off) == id && get32(buf + off + 8) == id + 1)
			return off;
	return 0;
}

/* 40 ids spread over every byte of the id, a tree larger than the file
 * was (it grows through the allocator): each is found by its path with
 * its usage, and the header counts the blocks the tree uses. */
START_TEST(quota_write_finds_every_id)
{
	static const char hdr_file[2048];
	struct e2x_quota_info info = { 0xd9c01f11, 604800, 604800, 0 };
	struct e2x_dquot recs[40];
	unsigned char *buf;
	ext2_ino_t ino;
	size_t got, off;
	unsigned int i;

	open_fs("", "16M");
	ck_assert_int_eq(e2x_dir_create_file(fx.fs, EXT2_ROOT_INO, "q", 1,
					     LINUX_S_IFREG | 0600, hdr_file,
					     sizeof(hdr_file), 0, &ino), 0);
	memset(recs, 0, sizeof(recs));
	for (i = 0; i < 40; i++) {
		recs[i].id = (39 - i) * 0x01020305u;	/* unsorted */
		recs[i].ihardlimit = recs[i].id + 1;
		recs[i].curspace = 1024 * i;
		recs[i].curinodes = i;
	}
	ck_assert_int_eq(e2x_repair_quota_write(fx.fs, ino, &info, recs, 40),
			 0);
	buf = calloc(1, 1 << 20);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(e2x_file_read(fx.fs, ino, 0, buf, 1 << 20, &got), 0);
	ck_assert_uint_gt(got, 2048);
	ck_assert_uint_eq(get32(buf), 0xd9c01f11);
	ck_assert_uint_eq(get32(buf + 4), 1);
	ck_assert_uint_eq(get32(buf + 20) * 1024, got);
	for (i = 0; i < 40; i++) {
		uint32_t id = i * 0x01020305u;

		off = quota_lookup(buf, got, id);
		ck_assert_msg(off, "id %u not found by its path", id);
		ck_assert_uint_eq(get32(buf + off + 24), 39 - i);
		ck_assert_uint_eq(get32(buf + off + 48), 1024 * (39 - i));
	}
	free(buf);
	close_clean();
}
END_TEST

/* A block map becomes an in-inode extent tree: runs merged, pointers
 * outside the file system left out; five runs do not fit (refused, the
 * inode unchanged). */
START_TEST(map_to_extents_runs)
{
	static const uint32_t three[] = { 100, 101, 102, 0, 200, 300, 301,
					  0x7ffffff0 };
	static const uint32_t five[] = { 100, 0, 200, 0, 300, 0, 400, 0, 500 };
	struct ext2_inode_large in, save;
	struct ext3_extent_header *eh = (void *)in.i_block;
	struct ext3_extent *ex = (void *)(eh + 1);

	open_fs("-b 1024", "8M");
	memset(&in, 0, sizeof(in));
	memcpy(in.i_block, three, sizeof(three));
	ck_assert_int_eq(e2x_repair_map_to_extents(fx.fs, &in), 0);
	ck_assert(in.i_flags & EXT4_EXTENTS_FL);
	ck_assert_uint_eq(eh->eh_magic, EXT3_EXT_MAGIC);
	ck_assert_uint_eq(eh->eh_entries, 3);
	ck_assert_uint_eq(eh->eh_max, 4);
	ck_assert_uint_eq(eh->eh_depth, 0);
	ck_assert_uint_eq(ex[0].ee_block, 0);
	ck_assert_uint_eq(ex[0].ee_len, 3);
	ck_assert_uint_eq(ex[0].ee_start, 100);
	ck_assert_uint_eq(ex[1].ee_block, 4);
	ck_assert_uint_eq(ex[1].ee_len, 1);
	ck_assert_uint_eq(ex[1].ee_start, 200);
	ck_assert_uint_eq(ex[2].ee_block, 5);
	ck_assert_uint_eq(ex[2].ee_len, 2);
	ck_assert_uint_eq(ex[2].ee_start, 300);

	memset(&in, 0, sizeof(in));
	memcpy(in.i_block, five, sizeof(five));
	save = in;
	ck_assert_int_eq(e2x_repair_map_to_extents(fx.fs, &in),
			 E2X_ERR_NO_SPACE);
	ck_assert_int_eq(memcmp(&save, &in, sizeof(in)), 0);
	close_clean();
}
END_TEST

/* A value inode's flag and count: one write each, and the count (kept
 * where i_version would be) is what was asked, not bumped past it. */
START_TEST(ea_inode_flag_and_refs)
{
	ext2_ino_t v;

	open_fs("-b 1024 -O ea_inode", "8M");
	ck_assert_int_eq(e2x_dir_mknod(fx.fs, EXT2_ROOT_INO, "v", 1,
				       LINUX_S_IFREG | 0600, 0, &v), 0);
	ck_assert_int_eq(e2x_repair_ea_inode_flag(fx.fs, v), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, v, &ib.in), 0);
	ck_assert(ib.in.i_flags & EXT4_EA_INODE_FL);
	ck_assert_int_eq(e2x_repair_ea_inode_refs(fx.fs, v, 3), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, v, &ib.in), 0);
	ck_assert_uint_eq(ext2fs_get_ea_inode_ref((struct ext2_inode *)&ib.in),
			  3);
	ck_assert_int_eq(e2x_repair_ea_inode_refs(fx.fs, v, 1), 0);
	ck_assert_int_eq(e2x_read_inode(fx.fs, v, &ib.in), 0);
	ck_assert_uint_eq(ext2fs_get_ea_inode_ref((struct ext2_inode *)&ib.in),
			  1);
	ck_assert(ib.in.i_flags & EXT4_EA_INODE_FL);
	ck_assert_int_eq(e2x_repair_ea_inode_flag(fx.fs, 1),
			 EXT2_ET_BAD_INODE_NUM);
	fixture_drop(&fx);
}
END_TEST

static Suite *suite_repair(void)
{
	Suite *s = suite_create("repair");
	TCase *tm = tcase_create("salvage");
	TCase *tc = tcase_create("image");

	tcase_add_loop_test(tm, salvage_region, 0,
			    sizeof(salvage_cases) / sizeof(salvage_cases[0]));
	suite_add_tcase(s, tm);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, dirblk_write_makes_tail);
	tcase_add_test(tc, dirblk_write_refuses_full_block);
	tcase_add_test(tc, reindex_rebuilds_htree);
	tcase_add_loop_test(tc, reindex_takes_other_mode_limit, 0, 2);
	tcase_add_test(tc, unindex_keeps_entries);
	tcase_add_test(tc, reindex_rebuilds_damaged_itree);
	tcase_add_test(tc, reconnect_file);
	tcase_add_loop_test(tc, reconnect_dir, 0, 2);
	tcase_add_loop_test(tc, set_dotdot_inline_and_block, 0, 2);
	tcase_add_test(tc, quota_write_finds_every_id);
	tcase_add_test(tc, map_to_extents_runs);
	tcase_add_test(tc, ea_inode_flag_and_refs);
	suite_add_tcase(s, tc);
	return s;
}
E2X_UNIT_MAIN(suite_repair)
