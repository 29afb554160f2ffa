/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * itreetool.c --- test driver for the itree on real images: build trees
 * for every indexed directory (reading entries with libext2fs), list one
 * directory in itree order, verify every tree against its directory.
 *
 *   itreetool build IMAGE         set the feature, build every tree
 *   itreetool list IMAGE NAME     entries of /NAME in itree order:
 *                                 "name ino file_type" per line
 *   itreetool verify IMAGE        verify every tree; exit 1 on problems
 *   itreetool drop IMAGE          drop every tree, clear the feature
 *   itreetool churn IMAGE NAME N  through the directory engine: create N
 *                                 files "new-I" in /NAME, then unlink
 *                                 every third "file-I" and "new-I"
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

/* The hash an htree directory orders NAME by. */
static errcode_t dir_hash_version(ext2_filsys fs, ext2_ino_t dir,
				  struct ext2_inode_large *inode, int *version)
{
	char *buf;
	blk64_t pblk;
	errcode_t err;
	int v;

	err = ext2fs_get_mem(fs->blocksize, &buf);
	if (err)
		return err;
	err = ext2fs_bmap2(fs, dir, (struct ext2_inode *)inode, NULL, 0, 0,
			   NULL, &pblk);
	if (!err)
		err = io_channel_read_blk64(fs->io, pblk, 1, buf);
	if (!err) {
		v = (unsigned char)buf[0x1c];
		if (v <= EXT2_HASH_TEA &&
		    (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
			v += 3;
		*version = v;
	}
	ext2fs_free_mem(&buf);
	return err;
}

struct walk_state {
	e2x_itree_entry_fn emit;
	void *emit_priv;
	int version;
	ext2_filsys fs;
	int ret;
};

static int walk_one(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		    int offset, int blocksize, char *buf, void *priv)
{
	struct walk_state *w = priv;
	struct e2x_itree_entry t;
	ext2_dirhash_t hash, minor;
	int len = ext2fs_dirent_name_len(de);

	if (!de->inode || entry == DIRENT_DOT_FILE ||
	    entry == DIRENT_DOT_DOT_FILE)
		return 0;
	if (ext2fs_dirhash2(w->version, de->name, len, w->fs->encoding, 0,
			    w->fs->super->s_hash_seed, &hash, &minor))
		return DIRENT_ABORT;
	t.ino = de->inode;
	t.hash = hash;
	t.name_len = len;
	t.name = de->name;
	t.file_type = ext2fs_dirent_file_type(de);
	w->ret = w->emit(&t, w->emit_priv);
	return w->ret ? DIRENT_ABORT : 0;
}

static errcode_t walk_dir(ext2_filsys fs, ext2_ino_t dir, void *priv,
			  e2x_itree_entry_fn emit, void *emit_priv)
{
	struct walk_state w = { emit, emit_priv, *(int *)priv, fs, 0 };
	errcode_t err;

	err = ext2fs_dir_iterate2(fs, dir, 0, NULL, walk_one, &w);
	return err ? err : w.ret;
}

static int show(const struct e2x_itree_entry *t, void *priv)
{
	printf("%.*s %u %u\n", (int)t->name_len, t->name, t->ino,
	       t->file_type);
	return 0;
}

static int problem(const struct e2x_itree_problem *p, void *priv)
{
	fprintf(stderr, "dir %u: %s (block %llu, ino %u)\n",
		*(ext2_ino_t *)priv, e2x_itree_problem_name(p->code),
		(unsigned long long)p->blk, p->ino);
	return 0;
}

/* Apply OP to every indexed directory. */
static errcode_t each_dir(ext2_filsys fs, const char *op, int *bad)
{
	struct ext2_inode_large *inode;
	ext2_inode_scan scan;
	ext2_ino_t ino;
	errcode_t err;
	int version;
	unsigned int np;
	int n = 0;

	inode = calloc(1, EXT2_INODE_SIZE(fs->super));
	err = ext2fs_open_inode_scan(fs, 0, &scan);
	if (err)
		return err;
	while (!(err = ext2fs_get_next_inode_full(scan, &ino,
			(struct ext2_inode *)inode,
			EXT2_INODE_SIZE(fs->super))) && ino) {
		if (!inode->i_links_count || !LINUX_S_ISDIR(inode->i_mode) ||
		    !(inode->i_flags & EXT2_INDEX_FL))
			continue;
		err = dir_hash_version(fs, ino, inode, &version);
		if (err)
			break;
		if (!strcmp(op, "build"))
			err = e2x_itree_build(fs, ino, inode, walk_dir,
					      &version, 0);
		else if (!strcmp(op, "drop"))
			err = e2x_itree_drop(fs, ino, inode, 0);
		else {
			err = e2x_itree_verify(fs, ino, inode, walk_dir,
					       &version, problem, &ino, &np);
			if (!err && np)
				(*bad)++;
			if (err)
				break;
			n++;
			continue;
		}
		if (!err)
			err = e2x_write_inode(fs, ino, inode);
		if (err)
			break;
		n++;
	}
	ext2fs_close_inode_scan(scan);
	free(inode);
	if (!err)
		fprintf(stderr, "%s: %d directories\n", op, n);
	return err;
}

static errcode_t list(ext2_filsys fs, const char *name)
{
	struct ext2_inode_large *inode;
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL, &ino);
	if (err)
		return err;
	inode = calloc(1, EXT2_INODE_SIZE(fs->super));
	err = e2x_read_inode(fs, ino, inode);
	if (!err)
		err = e2x_itree_iterate(fs, ino, inode, 0, show, NULL);
	free(inode);
	return err;
}

/* Library operations on a kernel-made directory: creates and unlinks go
 * through e2x_dir_mknod/e2x_dir_unlink, which keep the itree in step. */
static errcode_t churn(ext2_filsys fs, const char *name, unsigned long n)
{
	char entry[64];
	ext2_ino_t dir, ino;
	unsigned long i;
	errcode_t err;

	err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL, &dir);
	for (i = 1; !err && i <= n; i++) {
		snprintf(entry, sizeof(entry), "new-%lu", i);
		err = e2x_dir_mknod(fs, dir, entry, strlen(entry),
				    LINUX_S_IFREG | 0644, 0, &ino);
	}
	for (i = 3; !err && i <= n; i += 3) {
		snprintf(entry, sizeof(entry), "new-%lu", i);
		err = e2x_dir_unlink(fs, dir, entry, strlen(entry), 0);
		if (err)
			break;
		snprintf(entry, sizeof(entry), "file-%lu", i);
		err = e2x_dir_unlink(fs, dir, entry, strlen(entry), 0);
		if (err == E2X_ERR_NOT_FOUND)
			err = 0;	/* the workload removed a few */
	}
	return err;
}

int main(int argc, char **argv)
{
	ext2_filsys fs;
	errcode_t err;
	int bad = 0, rw;

	e2x_init_errors();
	if (argc < 3) {
		fprintf(stderr, "usage: itreetool build|list|verify|drop|churn "
				"IMAGE [NAME [N]]\n");
		return 2;
	}
	rw = !strcmp(argv[1], "build") || !strcmp(argv[1], "drop") ||
	     !strcmp(argv[1], "churn");
	/* libext2fs does not know the itree bit: open with FORCE */
	err = ext2fs_open(argv[2], (rw ? EXT2_FLAG_RW : 0) | EXT2_FLAG_64BITS |
			  EXT2_FLAG_FORCE, 0, 0, unix_io_manager, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[2], error_message(err));
		return 1;
	}
	if (!strcmp(argv[1], "build")) {
		fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
		err = each_dir(fs, "build", &bad);
	} else if (!strcmp(argv[1], "drop")) {
		err = each_dir(fs, "drop", &bad);
		fs->super->s_feature_ro_compat &= ~E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
	} else if (!strcmp(argv[1], "verify")) {
		err = each_dir(fs, "verify", &bad);
	} else if (!strcmp(argv[1], "churn") && argc > 4) {
		err = churn(fs, argv[3], strtoul(argv[4], NULL, 0));
	} else if (!strcmp(argv[1], "list") && argc > 3) {
		err = list(fs, argv[3]);
	} else {
		fprintf(stderr, "unknown command %s\n", argv[1]);
		bad = 1;
	}
	if (err)
		fprintf(stderr, "%s: %s\n", argv[1], error_message(err));
	if (rw && !err && (err = ext2fs_close_free(&fs)))
		fprintf(stderr, "close: %s\n", error_message(err));
	else if (fs)
		ext2fs_close_free(&fs);
	return err || bad ? 1 : 0;
}
