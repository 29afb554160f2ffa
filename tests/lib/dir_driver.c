/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dir_driver.c --- driver of dir_kernel.sh: builds directories of every
 * form through libe2x on an image and prints what they must contain (from
 * its own bookkeeping, not from the library), lists an image through the
 * library (verifying every directory), and drops itrees.
 *
 *   dir_driver build IMAGE [itree] [deep] [unsigned]
 *                                    expected listing on stdout; deep: long
 *                                    names and 40,000 entries in "big", whose
 *                                    index must reach a third level;
 *                                    unsigned: the file system hashes names
 *                                    unsigned, and file names carry bytes
 *                                    >= 0x80 (where the two hashes differ)
 *   dir_driver list IMAGE            library listing on stdout; exit 1 on
 *                                    any e2x_dir_verify problem
 *   dir_driver dropitree IMAGE       drop every itree, clear the feature
 *
 * Listing lines: "path inode type" (type d, f or o for other), '.', '..'
 * and lost+found left out.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

#define MAXE 60000

struct rec {
	char path[320];
	ext2_ino_t ino;
	char type;
	int live;
};

static struct rec recs[MAXE];
static int nrecs;
static uint64_t seed = 88172645463325252ULL;

static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static void die(const char *what, errcode_t err)
{
	fprintf(stderr, "dir_driver: %s: %s\n", what, error_message(err));
	exit(2);
}

static void note(const char *dir, const char *name, ext2_ino_t ino, char t)
{
	struct rec *r;

	if (nrecs == MAXE) {
		fprintf(stderr, "dir_driver: too many records\n");
		exit(2);
	}
	r = &recs[nrecs++];
	snprintf(r->path, sizeof(r->path), "%.60s/%.255s", dir, name);
	r->ino = ino;
	r->type = t;
	r->live = 1;
}

static struct rec *find(const char *dir, const char *name)
{
	char path[320];
	int i;

	snprintf(path, sizeof(path), "%.60s/%.255s", dir, name);
	for (i = nrecs - 1; i >= 0; i--)
		if (recs[i].live && !strcmp(recs[i].path, path))
			return &recs[i];
	return NULL;
}

struct dirspec {
	const char *name;	/* under the root */
	int files;		/* regular files created */
	int links;		/* extra hard links to earlier files */
	int subdirs;
	int remove_pct;		/* share of names removed afterwards */
	int rename_pct;		/* share renamed (a fifth across dirs) */
};

/* The directories: small enough to stay inline (when the fs has
 * inline_data), one block (linear), and a large htree. */
static const struct dirspec specs[] = {
	{ "small", 3, 1, 1, 0, 0 },
	{ "linear", 30, 5, 2, 10, 10 },
	{ "big", 20000, 3000, 40, 20, 5 },
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))
/* "big" in deep mode: 240-byte names, mostly hard links. */
static const struct dirspec deep_big = { "big", 4000, 36000, 40, 10, 5 };
static int deep;
static int unsigned_hash;

/* File names; 240 bytes long in deep mode (padded with 'x'). */
static void file_name(char *buf, size_t size, const char *kind, int i)
{
	size_t n;

	snprintf(buf, size, "%s-%d-%llx%s", kind, i,
		 (unsigned long long)(rnd() & 0xffffff),
		 unsigned_hash ? "-caf\xc3\xa9\xff" : "");
	n = strlen(buf);
	if (deep && n < 240 && size > 240) {
		memset(buf + n, 'x', 240 - n);
		buf[240] = 0;
	}
}

static void build_dir(ext2_filsys fs, const struct dirspec *s,
		      ext2_ino_t *dirs, int idx)
{
	char name[256], dpath[64], sub[320];
	ext2_ino_t ino, fino, dir = dirs[idx];
	int i, first = nrecs;
	errcode_t err;

	snprintf(dpath, sizeof(dpath), "%s", s->name);
	for (i = 0; i < s->files; i++) {
		file_name(name, sizeof(name), "file", i);
		err = e2x_dir_mknod(fs, dir, name, strlen(name),
				    LINUX_S_IFREG | 0644, 0, &ino);
		if (err)
			die("mknod", err);
		note(dpath, name, ino, 'f');
	}
	for (i = 0; i < s->links; i++) {
		struct rec *src = &recs[first + rnd() % s->files];

		file_name(name, sizeof(name), "link", i);
		err = e2x_dir_link(fs, dir, name, strlen(name), src->ino, 0);
		if (err)
			die("link", err);
		note(dpath, name, src->ino, 'f');
	}
	for (i = 0; i < s->subdirs; i++) {
		snprintf(name, sizeof(name), "sub-%d", i);
		err = e2x_dir_mkdir(fs, dir, name, strlen(name), 0755, 0, &ino);
		if (err)
			die("mkdir", err);
		note(dpath, name, ino, 'd');
		/* one fifo inside each subdirectory */
		err = e2x_dir_mknod(fs, ino, "fifo", 4, LINUX_S_IFIFO | 0644, 0,
				    &fino);
		if (err)
			die("mknod fifo", err);
		snprintf(sub, sizeof(sub), "%.60s/%.200s", dpath, name);
		note(sub, "fifo", fino, 'o');
	}
}

static const char *base_of(const char *path)
{
	return strrchr(path, '/') + 1;
}

static void churn(ext2_filsys fs, ext2_ino_t *dirs)
{
	unsigned int d, k;
	int i, n = nrecs;
	char dirname[64], name[64];
	errcode_t err;

	for (i = 0; i < n; i++) {
		struct rec *r = &recs[i];

		if (!r->live || r->type == 'o' || r->path[0] == '.')
			continue;
		for (d = 0; d < NSPECS; d++)
			if (!strncmp(r->path, specs[d].name,
				     strlen(specs[d].name)) &&
			    r->path[strlen(specs[d].name)] == '/')
				break;
		if (d == NSPECS)
			continue;	/* inside a subdirectory */
		k = (unsigned int)(rnd() % 100);
		if ((int)k < specs[d].remove_pct) {
			if (r->type == 'd')
				continue;	/* directories only move */
			err = e2x_dir_unlink(fs, dirs[d], base_of(r->path),
					     strlen(base_of(r->path)), 0);
			if (err)
				die("unlink", err);
			r->live = 0;
		} else if ((int)k < specs[d].remove_pct + specs[d].rename_pct) {
			unsigned int nd = rnd() % 5 ? d : (d + 1) % NSPECS;

			snprintf(name, sizeof(name), "moved-%d", i);
			err = e2x_dir_rename(fs, dirs[d], base_of(r->path),
					     strlen(base_of(r->path)), dirs[nd],
					     name, strlen(name), 0);
			if (err)
				die("rename", err);
			r->live = 0;
			snprintf(dirname, sizeof(dirname), "%s",
				 specs[nd].name);
			note(dirname, name, r->ino, r->type);
			if (r->type == 'd') {
				/* its fifo moves with it */
				struct rec *f;
				char old[320];

				if (snprintf(old, sizeof(old), "%s", r->path) >=
				    (int)sizeof(old))
					die("path too long",
					    EXT2_ET_INVALID_ARGUMENT);
				f = find(old, "fifo");
				if (f) {
					f->live = 0;
					snprintf(old, sizeof(old), "%s/%s",
						 dirname, name);
					note(old, "fifo", f->ino, 'o');
				}
			}
		}
	}
}

/* indirect_levels of an htree directory's root. */
static int root_levels(ext2_filsys fs, ext2_ino_t dir)
{
	struct ext2_inode in;
	blk64_t pblk;
	char *buf = malloc(fs->blocksize);
	int levels = -1;

	if (buf && !ext2fs_read_inode(fs, dir, &in) &&
	    (in.i_flags & EXT2_INDEX_FL) &&
	    !ext2fs_bmap2(fs, dir, &in, NULL, 0, 0, NULL, &pblk) &&
	    !io_channel_read_blk64(fs->io, pblk, 1, buf))
		levels = ((struct e2x_dx_root_info *)(buf +
						      E2X_DX_ROOT_INFO_OFF))
				 ->indirect_levels;
	free(buf);
	return levels;
}

static int cmd_build(const char *image, int itree)
{
	ext2_filsys fs;
	ext2_ino_t dirs[NSPECS], ino;
	unsigned int i;
	int k;
	errcode_t err;

	err = ext2fs_open(image, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (err)
		die("open", err);
	if (itree) {
		fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
	}
	if (unsigned_hash) {
		fs->super->s_flags &= ~EXT2_FLAGS_SIGNED_HASH;
		fs->super->s_flags |= EXT2_FLAGS_UNSIGNED_HASH;
		ext2fs_mark_super_dirty(fs);
	}
	for (i = 0; i < NSPECS; i++) {
		err = e2x_dir_mkdir(fs, EXT2_ROOT_INO, specs[i].name,
				    strlen(specs[i].name), 0755, 0, &dirs[i]);
		if (err)
			die("mkdir", err);
		note(".", specs[i].name, dirs[i], 'd');
	}
	for (i = 0; i < NSPECS; i++)
		build_dir(fs, deep && !strcmp(specs[i].name, "big") ? &deep_big :
			  &specs[i], dirs, (int)i);
	if (deep && root_levels(fs, dirs[NSPECS - 1]) != 2) {
		fprintf(stderr, "dir_driver: deep: no third index level\n");
		exit(3);
	}
	churn(fs, dirs);
	err = ext2fs_close_free(&fs);
	if (err)
		die("close", err);
	for (k = 0; k < nrecs; k++) {
		struct rec *r = &recs[k];
		const char *p = r->path[0] == '.' ? r->path + 2 : r->path;

		if (!r->live)
			continue;
		ino = r->ino;
		printf("%s %u %c\n", p, ino, r->type);
	}
	return 0;
}

struct lister {
	ext2_filsys fs;
	char prefix[300];
	int problems;
	ext2_ino_t subs[256];
	char subnames[256][64];
	int nsubs;
};

static void list_dir(ext2_filsys fs, ext2_ino_t dir, const char *prefix,
		     int *problems);

static int list_ent(const struct e2x_dir_entry *ent, void *priv)
{
	struct lister *l = priv;
	char t = ent->file_type == EXT2_FT_DIR ? 'd' :
		 ent->file_type == EXT2_FT_REG_FILE ? 'f' : 'o';

	if (!l->prefix[0] && ent->name_len == 10 &&
	    !memcmp(ent->name, "lost+found", 10))
		return 0;
	printf("%s%.*s %u %c\n", l->prefix, (int)ent->name_len, ent->name,
	       ent->ino, t);
	if (t == 'd' && l->nsubs < 256 && ent->name_len < 64) {
		l->subs[l->nsubs] = ent->ino;
		memcpy(l->subnames[l->nsubs], ent->name, ent->name_len);
		l->subnames[l->nsubs][ent->name_len] = 0;
		l->nsubs++;
	}
	return 0;
}

static void list_dir(ext2_filsys fs, ext2_ino_t dir, const char *prefix,
		     int *problems)
{
	struct e2x_dir_problems p = { 0 };
	struct lister *l = calloc(1, sizeof(*l));
	char sub[300];
	size_t i;
	int k;
	errcode_t err;

	err = e2x_dir_verify(fs, dir, 0, &p);
	if (err)
		die("verify", err);
	for (i = 0; i < p.count; i++)
		fprintf(stderr, "dir %u (%s): %s at %llu+%u: %s\n", dir,
			prefix, e2x_dir_problem_name(p.list[i].code),
			(unsigned long long)p.list[i].lblk, p.list[i].offset,
			p.list[i].desc);
	*problems += (int)p.count;
	e2x_dir_problems_free(&p);
	l->fs = fs;
	snprintf(l->prefix, sizeof(l->prefix), "%s", prefix);
	err = e2x_dir_iterate(fs, dir, E2X_DIR_ORDER_DISK, 0, list_ent, l);
	if (err)
		die("iterate", err);
	for (k = 0; k < l->nsubs; k++) {
		snprintf(sub, sizeof(sub), "%s%s/", prefix, l->subnames[k]);
		list_dir(fs, l->subs[k], sub, problems);
	}
	free(l);
}

static int cmd_list(const char *image)
{
	ext2_filsys fs;
	int problems = 0;
	errcode_t err;

	err = ext2fs_open(image, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (err)
		die("open", err);
	list_dir(fs, EXT2_ROOT_INO, "", &problems);
	ext2fs_close_free(&fs);
	return problems ? 1 : 0;
}

static int drop_ent(const struct e2x_dir_entry *ent, void *priv)
{
	ext2_filsys fs = priv;
	struct ext2_inode_large *in;
	errcode_t err;

	if (ent->file_type != EXT2_FT_DIR)
		return 0;
	in = calloc(1, EXT2_INODE_SIZE(fs->super) + sizeof(*in));
	err = e2x_read_inode(fs, ent->ino, in);
	if (!err && e2x_itree_present(fs, in)) {
		err = e2x_itree_drop(fs, ent->ino, in, 0);
		if (!err)
			err = e2x_write_inode(fs, ent->ino, in);
	}
	free(in);
	if (err)
		die("drop", err);
	return e2x_dir_iterate(fs, ent->ino, E2X_DIR_ORDER_DISK, 0, drop_ent,
			       fs);
}

static int cmd_dropitree(const char *image)
{
	ext2_filsys fs;
	errcode_t err;

	/* libext2fs refuses to write a fs with a read-only compatible
	 * feature it does not know (itree): force */
	err = ext2fs_open(image, EXT2_FLAG_RW | EXT2_FLAG_64BITS |
			  EXT2_FLAG_FORCE, 0, 0, unix_io_manager, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (err)
		die("open", err);
	err = e2x_dir_iterate(fs, EXT2_ROOT_INO, E2X_DIR_ORDER_DISK, 0,
			      drop_ent, fs);
	if (err)
		die("iterate", err);
	fs->super->s_feature_ro_compat &= ~E2X_FEATURE_RO_COMPAT_ITREE;
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_close_free(&fs);
	if (err)
		die("close", err);
	return 0;
}

int main(int argc, char **argv)
{
	e2x_init_errors();
	if (argc >= 3 && !strcmp(argv[1], "build")) {
		int i, itree = 0;

		for (i = 3; i < argc; i++) {
			itree |= !strcmp(argv[i], "itree");
			deep |= !strcmp(argv[i], "deep");
			unsigned_hash |= !strcmp(argv[i], "unsigned");
		}
		return cmd_build(argv[2], itree);
	}
	if (argc == 3 && !strcmp(argv[1], "list"))
		return cmd_list(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dropitree"))
		return cmd_dropitree(argv[2]);
	fprintf(stderr, "usage: dir_driver build|list|dropitree IMAGE\n");
	return 2;
}
