/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inline_driver.c --- runs a scripted list of libe2x file operations on an
 * image and keeps, beside them, a plain in-memory model of what each file
 * must contain, written out for the kernel cross-check (inline_kernel.sh).
 *
 *   inline_driver run IMAGE EXPECTDIR < SCRIPT
 *   inline_driver cat IMAGE NAME          (content to stdout, via libe2x)
 *   inline_driver write IMAGE NAME OFFSET|end LEN SEED
 *                   (writes LEN pattern bytes via libe2x; prints them)
 *   inline_driver kind IMAGE NAME         (prints inline, blocks or fast)
 *   inline_driver packall IMAGE           (e2x_file_pack_all; prints count)
 *
 * Script lines (names live in the root directory; a number may be written
 * "cap", "cap+N", "cap-N" (inline capacity of a new file) or "bs*N+M"):
 *   file NAME                    create an empty regular file
 *   write NAME OFFSET LEN SEED   write LEN pattern bytes at OFFSET
 *   truncate NAME SIZE
 *   pack NAME | promote NAME
 *   symlink NAME LEN SEED        create a symlink with a LEN-byte target
 *   expect NAME inline|blocks|fast
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

#define MAX_FILES 64

struct model {
	char name[64];
	int symlink;
	unsigned char *data;
	size_t size;
};

struct driver {
	ext2_filsys fs;
	size_t cap;
	struct model files[MAX_FILES];
	int nfiles;
	int line;
};

static int fail(struct driver *d, const char *what, errcode_t err)
{
	fprintf(stderr, "inline_driver: line %d: %s: %s\n", d->line, what,
		err ? error_message(err) : "mismatch");
	return 1;
}

/* "123", "cap", "cap+4", "cap-1", "bs*3+100". */
static int number(const struct driver *d, const char *s, uint64_t *out)
{
	uint64_t base = 0, mul = 1;
	char *end;

	if (!strncmp(s, "cap", 3)) {
		base = d->cap;
		s += 3;
	} else if (!strncmp(s, "bs", 2)) {
		base = d->fs->blocksize;
		s += 2;
		if (*s == '*') {
			mul = strtoull(s + 1, &end, 10);
			s = end;
		}
	} else {
		base = strtoull(s, &end, 10);
		if (end == s)
			return -1;
		s = end;
	}
	base *= mul;
	if (*s == '+' || *s == '-') {
		uint64_t n = strtoull(s + 1, &end, 10);

		base = *s == '+' ? base + n : base - n;
		s = end;
	}
	*out = base;
	return *s ? -1 : 0;
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)((i * 131 + seed * 7) % 251 + 1);
}

static struct model *find(struct driver *d, const char *name)
{
	int i;

	for (i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i].name, name))
			return &d->files[i];
	return NULL;
}

static int resize(struct model *m, size_t size)
{
	unsigned char *p = realloc(m->data, size + 1);

	if (!p)
		return -1;
	if (size > m->size)
		memset(p + m->size, 0, size - m->size);
	m->data = p;
	m->size = size;
	return 0;
}

static errcode_t lookup(struct driver *d, const char *name, ext2_ino_t *ino)
{
	return ext2fs_lookup(d->fs, EXT2_ROOT_INO, name, strlen(name), NULL,
			     ino);
}

/* A new inode linked into the root directory. */
static errcode_t create(struct driver *d, const char *name, uint16_t mode,
			int ft, ext2_ino_t *ino)
{
	union {
		struct ext2_inode_large in;
		char raw[EXT2_MAX_BLOCK_SIZE];
	} ib;
	errcode_t err;

	err = e2x_inode_new(d->fs, EXT2_ROOT_INO, mode, &ib.in, ino);
	if (err)
		return err;
	err = ext2fs_link(d->fs, EXT2_ROOT_INO, name, *ino, ft);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(d->fs, EXT2_ROOT_INO);
		if (!err)
			err = ext2fs_link(d->fs, EXT2_ROOT_INO, name, *ino,
					  ft);
	}
	if (err)
		return err;
	return e2x_write_inode(d->fs, *ino, &ib.in);
}

/* How NAME stores its content: "inline", "blocks" or "fast". */
static errcode_t kind_of(ext2_filsys fs, const char *name, const char **is)
{
	union {
		struct ext2_inode_large in;
		char raw[EXT2_MAX_BLOCK_SIZE];
	} ib;
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL, &ino);
	if (!err)
		err = e2x_read_inode(fs, ino, &ib.in);
	if (err)
		return err;
	if (ib.in.i_flags & EXT4_INLINE_DATA_FL)
		*is = "inline";
	else if (ib.in.i_flags & EXT4_EXTENTS_FL)
		*is = "blocks";
	else
		*is = "fast";
	return 0;
}

static int check_kind(struct driver *d, const char *name, const char *kind)
{
	const char *is;
	errcode_t err;

	err = kind_of(d->fs, name, &is);
	if (err)
		return fail(d, name, err);
	if (strcmp(is, kind)) {
		fprintf(stderr, "inline_driver: line %d: %s is %s, not %s\n",
			d->line, name, is, kind);
		return 1;
	}
	return 0;
}

static int do_line(struct driver *d, char *line)
{
	char *argv[6];
	int argc = 0;
	uint64_t a = 0, b = 0, c = 0;
	struct model *m;
	ext2_ino_t ino = 0;
	errcode_t err = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok && argc < 6;
	     tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	if (argc == 0 || argv[0][0] == '#')
		return 0;
	if (argc < 2 || strlen(argv[1]) >= sizeof(m->name))
		return fail(d, "bad line", 0);
	if ((argc > 2 && number(d, argv[2], &a)) ||
	    (argc > 3 && number(d, argv[3], &b)) ||
	    (argc > 4 && number(d, argv[4], &c)))
		if (strcmp(argv[0], "expect"))
			return fail(d, "bad number", 0);
	m = find(d, argv[1]);
	if (!strcmp(argv[0], "file") || !strcmp(argv[0], "symlink")) {
		int link = argv[0][0] == 's';

		if (m || d->nfiles == MAX_FILES)
			return fail(d, "name taken or too many files", 0);
		m = &d->files[d->nfiles++];
		memset(m, 0, sizeof(*m));
		strcpy(m->name, argv[1]);
		m->symlink = link;
		err = create(d, argv[1],
			     link ? LINUX_S_IFLNK | 0777 : LINUX_S_IFREG | 0644,
			     link ? EXT2_FT_SYMLINK : EXT2_FT_REG_FILE, &ino);
		if (err)
			return fail(d, "create", err);
		if (!link)
			return resize(m, 0) ? fail(d, "memory", ENOMEM) : 0;
		if (argc < 4 || resize(m, a))
			return fail(d, "symlink args", 0);
		pattern(m->data, a, (unsigned int)b);
		m->data[0] = '/';
		err = e2x_symlink_write(d->fs, ino, (char *)m->data, a, 0);
		return err ? fail(d, "symlink", err) : 0;
	}
	if (!m)
		return fail(d, "unknown name", 0);
	err = lookup(d, argv[1], &ino);
	if (err)
		return fail(d, "lookup", err);
	if (!strcmp(argv[0], "write") && argc == 5) {
		if (a + b > m->size && resize(m, a + b))
			return fail(d, "memory", ENOMEM);
		pattern(m->data + a, b, (unsigned int)c);
		err = e2x_file_write(d->fs, ino, a, m->data + a, b, 0);
	} else if (!strcmp(argv[0], "truncate") && argc == 3) {
		if (resize(m, a))
			return fail(d, "memory", ENOMEM);
		err = e2x_file_truncate(d->fs, ino, a, 0);
	} else if (!strcmp(argv[0], "pack")) {
		err = e2x_file_pack(d->fs, ino, 0);
	} else if (!strcmp(argv[0], "promote")) {
		err = e2x_file_promote(d->fs, ino, 0);
	} else if (!strcmp(argv[0], "expect") && argc == 3) {
		return check_kind(d, argv[1], argv[2]);
	} else {
		return fail(d, "unknown command", 0);
	}
	return err ? fail(d, argv[0], err) : 0;
}

/* Capacity of a fresh inline file on this file system. */
static errcode_t probe_capacity(struct driver *d)
{
	union {
		struct ext2_inode_large in;
		char raw[EXT2_MAX_BLOCK_SIZE];
	} ib;
	ext2_ino_t ino;
	errcode_t err;

	err = e2x_inode_new(d->fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0644, &ib.in,
			    &ino);
	if (err)
		return err;
	ext2fs_inode_alloc_stats2(d->fs, ino, -1, 0);
	return e2x_inline_capacity(d->fs, ino, &ib.in, &d->cap);
}

static int write_expect(struct driver *d, const char *dir)
{
	char path[4096];
	FILE *f;
	int i;

	for (i = 0; i < d->nfiles; i++) {
		struct model *m = &d->files[i];

		snprintf(path, sizeof(path), "%s/%s%s", dir, m->name,
			 m->symlink ? ".link" : "");
		f = fopen(path, "wb");
		if (!f || fwrite(m->data, 1, m->size, f) != m->size ||
		    fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

static errcode_t open_fs(const char *image, ext2_filsys *fs)
{
	errcode_t err;

	err = ext2fs_open(image, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, fs);
	if (!err)
		err = ext2fs_read_bitmaps(*fs);
	return err;
}

static int cmd_run(const char *image, const char *dir)
{
	static struct driver d;
	char line[512];
	errcode_t err;
	int rc = 0, i;

	err = open_fs(image, &d.fs);
	if (!err)
		err = probe_capacity(&d);
	if (err) {
		fprintf(stderr, "inline_driver: %s: %s\n", image,
			error_message(err));
		return 1;
	}
	while (!rc && fgets(line, sizeof(line), stdin)) {
		d.line++;
		rc = do_line(&d, line);
	}
	err = ext2fs_close_free(&d.fs);
	if (err && !rc)
		rc = fail(&d, "close", err);
	if (!rc)
		rc = write_expect(&d, dir);
	for (i = 0; i < d.nfiles; i++)
		free(d.files[i].data);
	return rc;
}

static int cmd_cat(const char *image, const char *name)
{
	ext2_filsys fs = NULL;
	ext2_ino_t ino;
	char buf[65536];
	uint64_t off = 0;
	size_t got;
	errcode_t err;

	err = open_fs(image, &fs);
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL,
				    &ino);
	while (!err) {
		err = e2x_file_read(fs, ino, off, buf, sizeof(buf), &got);
		if (err || !got)
			break;
		fwrite(buf, 1, got, stdout);
		off += got;
	}
	if (fs)
		ext2fs_close_free(&fs);
	if (err)
		fprintf(stderr, "inline_driver: %s: %s\n", name,
			error_message(err));
	return err ? 1 : 0;
}

static int cmd_write(const char *image, const char *name, const char *offs,
		     const char *lens, const char *seeds)
{
	union {
		struct ext2_inode_large in;
		char raw[EXT2_MAX_BLOCK_SIZE];
	} ib;
	size_t len = strtoul(lens, NULL, 10);
	unsigned char *buf = malloc(len + 1);
	ext2_filsys fs = NULL;
	ext2_ino_t ino;
	errcode_t err;

	if (!buf)
		return 1;
	pattern(buf, len, (unsigned int)strtoul(seeds, NULL, 10));
	err = open_fs(image, &fs);
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL,
				    &ino);
	if (!err)
		err = e2x_read_inode(fs, ino, &ib.in);
	if (!err) {
		uint64_t off = EXT2_I_SIZE(&ib.in);

		if (strcmp(offs, "end"))
			off = strtoull(offs, NULL, 10);
		err = e2x_file_write(fs, ino, off, buf, len, 0);
	}
	if (fs) {
		errcode_t err2 = ext2fs_close_free(&fs);

		if (!err)
			err = err2;
	}
	if (err)
		fprintf(stderr, "inline_driver: write %s: %s\n", name,
			error_message(err));
	else
		fwrite(buf, 1, len, stdout);
	free(buf);
	return err ? 1 : 0;
}

static int cmd_kind(const char *image, const char *name)
{
	ext2_filsys fs = NULL;
	const char *is = NULL;
	errcode_t err;

	err = open_fs(image, &fs);
	if (!err)
		err = kind_of(fs, name, &is);
	if (fs)
		ext2fs_close_free(&fs);
	if (err) {
		fprintf(stderr, "inline_driver: %s: %s\n", name,
			error_message(err));
		return 1;
	}
	printf("%s\n", is);
	return 0;
}

static int cmd_packall(const char *image)
{
	ext2_filsys fs = NULL;
	unsigned long packed = 0;
	errcode_t err, err2;

	err = open_fs(image, &fs);
	if (err)
		goto out;
	err = e2x_file_pack_all(fs, 0, &packed);
	err2 = ext2fs_close_free(&fs);
	if (!err)
		err = err2;
out:
	if (err) {
		fprintf(stderr, "inline_driver: packall: %s\n",
			error_message(err));
		return 1;
	}
	printf("%lu\n", packed);
	return 0;
}

int main(int argc, char **argv)
{
	e2x_init_errors();
	if (argc == 4 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "cat"))
		return cmd_cat(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "packall"))
		return cmd_packall(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "kind"))
		return cmd_kind(argv[2], argv[3]);
	if (argc == 7 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3], argv[4], argv[5], argv[6]);
	fprintf(stderr, "usage: inline_driver run IMAGE EXPECTDIR < SCRIPT\n"
			"       inline_driver cat IMAGE NAME\n"
			"       inline_driver write IMAGE NAME OFFSET|end LEN "
			"SEED\n"
			"       inline_driver kind IMAGE NAME\n"
			"       inline_driver packall IMAGE\n");
	return 2;
}
