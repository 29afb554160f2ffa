/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ls_cmds.c --- ls: a directory's entries in the reference debugfs'
 * layouts, which scripts parse (short with record lengths, -l long, -p
 * parseable), in disk order straight from the directory records; or in
 * hash or inode order (-o, ours) through the libe2x directory engine,
 * where a record length means nothing and a short line is "ino name"
 * (the name escaped as elsewhere in ours: UTF-8 kept, \ooo for control
 * bytes).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "debugfs.h"

#define LS_LONG		0x1
#define LS_PARSE	0x2
#define LS_RAW		0x4
#define LS_DELETED	0x8
#define LS_SORTED	0x10	/* -o hash or inode */

#define LS_WIDTH	80	/* short entries wrap before this column */

/* One entry as a layout needs it. */
struct ls_ent {
	ext2_ino_t ino;
	const char *name;
	unsigned int name_len;
	unsigned int rec_len;
	unsigned int file_type;
	int deleted;
	uint32_t hash, minor;	/* for sorting a collected list */
	uint32_t seq;		/* disk position, the final tie-break */
};

/* The printer: where it writes and the column of a short line. */
struct ls_out {
	struct dbg_ctx *ctx;
	int flags;
	unsigned int col;
	uint32_t seq;
};

/* A name as the reference shows it in the short and long layouts:
 * backslash, control and high bytes as \xNN, unless raw (-r, and always
 * in the parseable layout).  With O NULL only counts.  Returns the number
 * of columns. */
static unsigned int ls_name(FILE *o, const char *name, unsigned int len,
			    int raw)
{
	unsigned int i, cols = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (raw || (c >= 0x20 && c < 0x7f && c != '\\')) {
			if (o)
				fputc(c, o);
			cols++;
		} else {
			if (o)
				fprintf(o, "\\x%02x", c);
			cols += 4;
		}
	}
	return cols;
}

/* The entry's inode, or zeros for a deleted or empty record (the
 * reference shows those as inode 0). */
static ext2_ino_t ls_inode(struct ls_out *lo, const struct ls_ent *e,
			   struct ext2_inode_large *in)
{
	ext2_filsys fs = lo->ctx->fs;

	memset(in, 0, sizeof(*in));
	if (e->deleted || !e->ino || e->ino > fs->super->s_inodes_count)
		return 0;
	if (ext2fs_read_inode_full(fs, e->ino, (struct ext2_inode *)in,
				   sizeof(*in)))
		memset(in, 0, sizeof(*in));
	return e->ino;
}

/* "24-Nov-2026 23:31" in local time, or blanks when there is no inode. */
static void ls_date(const struct ext2_inode_large *in, ext2_ino_t ino,
		    char *buf, size_t len)
{
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr",
		"May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	time_t t = (time_t)in->i_mtime;
	struct tm tm;

	if (!ino || !localtime_r(&t, &tm)) {
		snprintf(buf, len, "%17s", "");
		return;
	}
	snprintf(buf, len, "%2d-%s-%4d %02d:%02d", tm.tm_mday,
		 mon[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min);
}

static void print_long(struct ls_out *lo, const struct ls_ent *e)
{
	struct ext2_inode_large in;
	FILE *o = lo->ctx->out;
	ext2_ino_t ino = ls_inode(lo, e, &in);
	char date[64];

	ls_date(&in, ino, date, sizeof(date));
	fprintf(o, "%c%6u%c %6o (%u)  %5u  %5u   %5llu %s ",
		e->deleted ? '<' : ' ', ino, e->deleted ? '>' : ' ',
		in.i_mode, e->file_type, inode_uid(in), inode_gid(in),
		(unsigned long long)EXT2_I_SIZE(&in), date);
	ls_name(o, e->name, e->name_len, lo->flags & LS_RAW);
	fputc('\n', o);
}

/* /ino/mode/uid/gid/name/size/ (no size for a directory). */
static void print_parse(struct ls_out *lo, const struct ls_ent *e)
{
	struct ext2_inode_large in;
	FILE *o = lo->ctx->out;
	ext2_ino_t ino = ls_inode(lo, e, &in);

	fprintf(o, "/%u/%06o/%u/%u/", ino, in.i_mode, inode_uid(in),
		inode_gid(in));
	ls_name(o, e->name, e->name_len, 1);
	if (LINUX_S_ISDIR(in.i_mode))
		fputs("//\n", o);
	else
		fprintf(o, "/%llu/\n", (unsigned long long)EXT2_I_SIZE(&in));
}

/* " ino  (rec_len) name   ", wrapped before column 80; in a sorted
 * order "ino name" on a line of its own. */
static void print_short(struct ls_out *lo, const struct ls_ent *e)
{
	FILE *o = lo->ctx->out;
	int raw = lo->flags & LS_RAW;
	char head[48];
	int n;

	if (lo->flags & LS_SORTED) {
		fprintf(o, e->deleted ? "<%u> " : "%u ", e->ino);
		dbg_print_name(o, e->name, (int)e->name_len, raw);
		fputc('\n', o);
		return;
	}
	n = snprintf(head, sizeof(head), "%c%u%c (%u) ",
		     e->deleted ? '<' : ' ', e->ino, e->deleted ? '>' : ' ',
		     e->rec_len);
	n += (int)ls_name(NULL, e->name, e->name_len, raw) + 3;
	if (lo->col + (unsigned int)n > LS_WIDTH) {
		fputc('\n', o);
		lo->col = 0;
	}
	fputs(head, o);
	ls_name(o, e->name, e->name_len, raw);
	fputs("   ", o);
	lo->col += (unsigned int)n;
}

static void print_entry(struct ls_out *lo, const struct ls_ent *e)
{
	if (lo->flags & LS_PARSE)
		print_parse(lo, e);
	else if (lo->flags & LS_LONG)
		print_long(lo, e);
	else
		print_short(lo, e);
}

/* ---- disk order: the records as they are ------------------------- */

static int disk_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		      int offset, int blocksize, char *buf, void *priv)
{
	struct ls_out *lo = priv;
	struct ls_ent e;
	unsigned int rec_len = 0;

	(void)dir;
	(void)buf;
	memset(&e, 0, sizeof(e));
	e.name_len = ext2fs_dirent_name_len(de);
	if ((unsigned int)offset + 8 + e.name_len > (unsigned int)blocksize)
		return 0;	/* a name that runs off the block */
	ext2fs_get_rec_len(lo->ctx->fs, de, &rec_len);
	e.ino = de->inode;
	e.name = de->name;
	e.rec_len = rec_len;
	e.file_type = ext2fs_dirent_file_type(de);
	e.deleted = entry == DIRENT_DELETED_FILE;
	print_entry(lo, &e);
	return 0;
}

static errcode_t list_disk(struct ls_out *lo, ext2_ino_t dir)
{
	int flags = DIRENT_FLAG_INCLUDE_EMPTY;

	if (lo->flags & LS_DELETED)
		flags |= DIRENT_FLAG_INCLUDE_REMOVED;
	return ext2fs_dir_iterate2(lo->ctx->fs, dir, flags, NULL, disk_entry,
				   lo);
}

/* ---- hash or inode order through the engine ------------------------ */

static int sorted_entry(const struct e2x_dir_entry *de, void *priv)
{
	struct ls_out *lo = priv;
	struct ls_ent e;

	memset(&e, 0, sizeof(e));
	e.ino = de->ino;
	e.name = de->name;
	e.name_len = de->name_len;
	e.file_type = de->file_type;
	print_entry(lo, &e);
	return 0;
}

/* ---- sorted with deleted entries: collected, then sorted ------------ */

struct ls_list {
	struct ls_ent *v;
	size_t n, cap;
	errcode_t err;
};

static int collect_entry(ext2_ino_t dir, int entry,
			 struct ext2_dir_entry *de, int offset,
			 int blocksize, char *buf, void *priv)
{
	struct ls_list *l = priv;
	struct ls_ent *e;
	unsigned int len = ext2fs_dirent_name_len(de);
	char *name;

	(void)dir;
	(void)buf;
	if (!de->inode && entry != DIRENT_DELETED_FILE)
		return 0;
	if (!len || (unsigned int)offset + 8 + len > (unsigned int)blocksize)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct ls_ent *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->err = EXT2_ET_NO_MEMORY;
			return DIRENT_ABORT;
		}
		l->v = v;
		l->cap = cap;
	}
	name = malloc(len);
	if (!name) {
		l->err = EXT2_ET_NO_MEMORY;
		return DIRENT_ABORT;
	}
	memcpy(name, de->name, len);
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->ino = de->inode;
	e->name_len = len;
	e->file_type = ext2fs_dirent_file_type(de);
	e->deleted = entry == DIRENT_DELETED_FILE;
	e->seq = (uint32_t)l->n++;
	return 0;
}

static void free_list(struct ls_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free((char *)l->v[i].name);
	free(l->v);
}

static int cmp_inode(const void *a, const void *b)
{
	const struct ls_ent *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_hash(const void *a, const void *b)
{
	const struct ls_ent *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static errcode_t list_collected(struct ls_out *lo, ext2_ino_t dir, int order)
{
	struct dbg_ctx *ctx = lo->ctx;
	struct ls_list l;
	int alg, hflags;
	size_t i;
	errcode_t err;

	memset(&l, 0, sizeof(l));
	err = ext2fs_dir_iterate2(ctx->fs, dir, DIRENT_FLAG_INCLUDE_REMOVED,
				  NULL, collect_entry, &l);
	if (!err)
		err = l.err;
	if (!err && dbg_dir_hash_alg(ctx, dir, &alg, &hflags))
		err = EXT2_ET_DIR_CORRUPTED;
	if (err)
		goto out;
	for (i = 0; i < l.n; i++)
		dbg_name_hash(ctx, alg, hflags, l.v[i].name, l.v[i].name_len,
			      &l.v[i].hash, &l.v[i].minor);
	qsort(l.v, l.n, sizeof(*l.v), order == 'h' ? cmp_hash : cmp_inode);
	for (i = 0; i < l.n; i++)
		print_entry(lo, &l.v[i]);
out:
	free_list(&l);
	return err;
}

/* ---- the command ---------------------------------------------------- */

static int parse_order(const char *s)
{
	if (!strcmp(s, "hash"))
		return 'h';
	if (!strcmp(s, "inode") || !strcmp(s, "itree"))
		return 'i';
	if (!strcmp(s, "disk"))
		return 'd';
	return 0;
}

static errcode_t list_dir(struct ls_out *lo, ext2_ino_t dir, int order)
{
	errcode_t err;

	if (order == 'd') {
		err = list_disk(lo, dir);
		/* the reference ends every disk-order listing with a newline */
		fputc('\n', lo->ctx->out);
		return err;
	}
	lo->flags |= LS_SORTED;
	if (lo->flags & LS_DELETED)	/* only the records know those */
		return list_collected(lo, dir, order);
	/* printed as the engine hands them over: a directory of millions
	 * of names is never held here */
	return e2x_dir_iterate(lo->ctx->fs, dir,
			       order == 'h' ? E2X_DIR_ORDER_HASH :
					      E2X_DIR_ORDER_INODE,
			       E2X_DIR_ITER_DOTS, sorted_entry, lo);
}

static int ls_option(int c, int *flags, int *order)
{
	switch (c) {
	case 'l':
		*flags |= LS_LONG;
		return 0;
	case 'd':
		*flags |= LS_DELETED;
		return 0;
	case 'p':
		*flags |= LS_PARSE;
		return 0;
	case 'r':
		*flags |= LS_RAW;
		return 0;
	case 'c':	/* checksums are always checked */
		return 0;
	case 'o':
		*order = parse_order(optarg);
		return !*order;
	}
	return 1;
}

int do_ls(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ls_out lo = { ctx, 0, 0, 0 };
	const char *path = ".";
	ext2_ino_t dir;
	int c, order = 'd';
	errcode_t err;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "ldpro:c")) != -1) {
		if (ls_option(c, &lo.flags, &order)) {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
	}
	if (optind < argc - 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (optind == argc - 1)
		path = argv[optind];
	if (dbg_resolve_dir(ctx, argv[0], path, &dir))
		return 1;
	err = list_dir(&lo, dir, order);
	if (err) {
		dbg_error(ctx, argv[0], err, "reading directory %u", dir);
		return 1;
	}
	return 0;
}
