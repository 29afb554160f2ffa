/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dir_cmds.c --- directory listing and navigation: ls (in disk, hash or
 * inode order, through the libe2x directory engine), cd, pwd, ncheck
 * (names of inodes) and dirsearch.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

/* One collected entry of a listing. */
struct ls_ent {
	ext2_ino_t ino;
	uint32_t hash, minor;
	uint8_t name_len, file_type;
	uint8_t deleted;
	uint32_t seq;		/* disk position, the final tie-break */
	char *name;
};

struct ls_list {
	struct ls_ent *v;
	size_t n, cap;
	int with_deleted;
	errcode_t err;
};

#define LS_LONG		0x1
#define LS_PARSE	0x2
#define LS_RAW		0x4
#define LS_DELETED	0x8

static int collect_entry(ext2_ino_t dir, int entry,
			 struct ext2_dir_entry *de, int offset,
			 int blocksize, char *buf, void *priv)
{
	struct ls_list *l = priv;
	struct ls_ent *e;
	int len = ext2fs_dirent_name_len(de);

	if (!de->inode && entry != DIRENT_DELETED_FILE)
		return 0;
	if (entry == DIRENT_DELETED_FILE && (!l->with_deleted || !len))
		return 0;
	if (offset + 8 + len > blocksize)	/* name runs off the block */
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
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->name = malloc(len + 1);
	if (!e->name) {
		l->err = EXT2_ET_NO_MEMORY;
		return DIRENT_ABORT;
	}
	memcpy(e->name, de->name, len);
	e->name[len] = 0;
	e->ino = de->inode;
	e->name_len = len;
	e->file_type = ext2fs_dirent_file_type(de);
	e->deleted = entry == DIRENT_DELETED_FILE;
	e->seq = l->n;
	l->n++;
	return 0;
}

static void free_list(struct ls_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
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

/* Read the directory's entries (dots included, in disk order). */
static int dbg_dir_collect(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t dir,
		    int deleted, struct ls_list *l)
{
	errcode_t err;

	memset(l, 0, sizeof(*l));
	l->with_deleted = deleted;
	err = ext2fs_dir_iterate2(ctx->fs, dir,
				  deleted ? DIRENT_FLAG_INCLUDE_REMOVED : 0,
				  NULL, collect_entry, l);
	if (!err)
		err = l->err;
	if (err) {
		dbg_error(ctx, cmd, err, "reading directory %u", dir);
		free_list(l);
		return 1;
	}
	return 0;
}

/* Put the list in the requested order. */
static int order_list(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t dir,
		      int order, struct ls_list *l)
{
	size_t i;
	int alg, flags;

	if (order == 'd')
		return 0;
	if (dbg_dir_hash_alg(ctx, dir, &alg, &flags)) {
		dbg_error(ctx, cmd, 0, "cannot tell the hash of directory %u",
			  dir);
		return 1;
	}
	for (i = 0; i < l->n; i++)
		dbg_name_hash(ctx, alg, flags, l->v[i].name, l->v[i].name_len,
			      &l->v[i].hash, &l->v[i].minor);
	qsort(l->v, l->n, sizeof(*l->v), order == 'h' ? cmp_hash : cmp_inode);
	return 0;
}

static void print_long(struct dbg_ctx *ctx, const struct ls_ent *e,
		       int flags)
{
	struct ext2_inode_large in;
	FILE *o = ctx->out;
	char tbuf[40];
	uint32_t ns;

	memset(&in, 0, sizeof(in));
	if (e->ino && e->ino <= ctx->fs->super->s_inodes_count)
		ext2fs_read_inode_full(ctx->fs, e->ino,
				       (struct ext2_inode *)&in, sizeof(in));
	dbg_format_time(dbg_decode_time(in.i_mtime, 0, 0, &ns), tbuf,
			sizeof(tbuf));
	fprintf(o, e->deleted ? "<%u>" : "%u", e->ino);
	fprintf(o, " %6o %5u %5u %5u %12llu %s ", in.i_mode,
		in.i_links_count, inode_uid(in), inode_gid(in),
		(unsigned long long)EXT2_I_SIZE(&in), tbuf);
	dbg_print_name(o, e->name, e->name_len, flags & LS_RAW);
	fputc('\n', o);
}

/* The parseable form: /ino/mode/uid/gid/name/size/ */
static void print_parse(struct dbg_ctx *ctx, const struct ls_ent *e,
			int flags)
{
	struct ext2_inode_large in;
	FILE *o = ctx->out;

	memset(&in, 0, sizeof(in));
	if (e->ino && e->ino <= ctx->fs->super->s_inodes_count)
		ext2fs_read_inode_full(ctx->fs, e->ino,
				       (struct ext2_inode *)&in, sizeof(in));
	fprintf(o, "/%u/%06o/%u/%u/", e->ino, in.i_mode, inode_uid(in),
		inode_gid(in));
	dbg_print_name(o, e->name, e->name_len, flags & LS_RAW);
	if (LINUX_S_ISDIR(in.i_mode))
		fputs("/", o);
	else
		fprintf(o, "/%llu", (unsigned long long)EXT2_I_SIZE(&in));
	fputs("/\n", o);
}

static void print_short(struct dbg_ctx *ctx, const struct ls_ent *e,
			int flags)
{
	FILE *o = ctx->out;

	fprintf(o, e->deleted ? "<%u>" : "%u", e->ino);
	fputc(' ', o);
	dbg_print_name(o, e->name, e->name_len, flags & LS_RAW);
	fputc('\n', o);
}

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

struct ls_stream {
	struct dbg_ctx *ctx;
	int flags;
	uint32_t seq;
};

static int print_lib_entry(const struct e2x_dir_entry *de, void *priv)
{
	struct ls_stream *st = priv;
	char name[E2X_NAME_MAX + 1];
	struct ls_ent e;

	memset(&e, 0, sizeof(e));
	memcpy(name, de->name, de->name_len);
	name[de->name_len] = 0;
	e.name = name;
	e.ino = de->ino;
	e.name_len = de->name_len;
	e.file_type = de->file_type;
	e.hash = de->hash;
	e.minor = de->minor_hash;
	e.seq = st->seq++;
	if (st->flags & LS_PARSE)
		print_parse(st->ctx, &e, st->flags);
	else if (st->flags & LS_LONG)
		print_long(st->ctx, &e, st->flags);
	else
		print_short(st->ctx, &e, st->flags);
	return 0;
}

/* Live entries in the order asked for, through the libe2x directory
 * engine (inline, linear, htree; inode order walks the itree). */
static int stream_list(struct dbg_ctx *ctx, const char *cmd, ext2_ino_t dir,
		       int order, int flags)
{
	enum e2x_dir_order o = order == 'h' ? E2X_DIR_ORDER_HASH :
			       order == 'i' ? E2X_DIR_ORDER_INODE :
			       E2X_DIR_ORDER_DISK;
	struct ls_stream st = { ctx, flags, 0 };
	errcode_t err;

	err = e2x_dir_iterate(ctx->fs, dir, o, E2X_DIR_ITER_DOTS,
			      print_lib_entry, &st);
	if (err) {
		dbg_error(ctx, cmd, err, "reading directory %u", dir);
		return 1;
	}
	return 0;
}

DBG_CMD(do_ls)
{
	struct ls_list l;
	const char *path = ".";
	ext2_ino_t dir;
	int c, flags = 0, order = 'd';
	size_t i;

	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "ldpro:c")) != -1) {
		switch (c) {
		case 'l':
			flags |= LS_LONG;
			break;
		case 'd':
			flags |= LS_DELETED;
			break;
		case 'p':
			flags |= LS_PARSE;
			break;
		case 'r':
			flags |= LS_RAW;
			break;
		case 'c':	/* checksums are always checked */
			break;
		case 'o':
			order = parse_order(optarg);
			if (order)
				break;
			/* fall through */
		default:
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
	if (!(flags & LS_DELETED)) {
		/* printed as the engine hands them over: a directory of
		 * millions of names is never held here */
		return stream_list(ctx, argv[0], dir, order, flags);
	} else {
		/* Deleted entries are only found by walking the records. */
		if (dbg_dir_collect(ctx, argv[0], dir, 1, &l))
			return 1;
		if (order_list(ctx, argv[0], dir, order, &l)) {
			free_list(&l);
			return 1;
		}
	}
	for (i = 0; i < l.n; i++) {
		if (flags & LS_PARSE)
			print_parse(ctx, &l.v[i], flags);
		else if (flags & LS_LONG)
			print_long(ctx, &l.v[i], flags);
		else
			print_short(ctx, &l.v[i], flags);
	}
	free_list(&l);
	return 0;
}

DBG_CMD(do_cd)
{
	ext2_ino_t dir;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[1], &dir))
		return 1;
	ctx->cwd = dir;
	return 0;
}

DBG_CMD(do_pwd)
{
	char *path = NULL;
	errcode_t err;

	if (argc != 1) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	err = ext2fs_get_pathname(ctx->fs, ctx->cwd, 0, &path);
	if (err) {
		dbg_error(ctx, argv[0], err, "name of inode %u", ctx->cwd);
		return 1;
	}
	fprintf(ctx->out, "%s\n", path);
	ext2fs_free_mem(&path);
	return 0;
}

/* ncheck: walk every directory once, reporting entries naming a wanted
 * inode. */
struct ncheck {
	struct dbg_ctx *ctx;
	ext2_ino_t *want;
	int *found;
	int nwant;
	int check_type;
	ext2_ino_t dir;
	char *dirpath;
};

static const unsigned char ft_of_mode[] = {
	[LINUX_S_IFREG >> 12] = EXT2_FT_REG_FILE,
	[LINUX_S_IFDIR >> 12] = EXT2_FT_DIR,
	[LINUX_S_IFCHR >> 12] = EXT2_FT_CHRDEV,
	[LINUX_S_IFBLK >> 12] = EXT2_FT_BLKDEV,
	[LINUX_S_IFIFO >> 12] = EXT2_FT_FIFO,
	[LINUX_S_IFSOCK >> 12] = EXT2_FT_SOCK,
	[LINUX_S_IFLNK >> 12] = EXT2_FT_SYMLINK,
};

static int ncheck_entry(const struct e2x_dir_entry *de, void *priv)
{
	struct ncheck *nc = priv;
	int len = de->name_len, i;

	for (i = 0; i < nc->nwant; i++) {
		FILE *o = nc->ctx->out;

		if (de->ino != nc->want[i])
			continue;
		nc->found[i] = 1;
		fprintf(o, "%u\t%s", de->ino,
			strcmp(nc->dirpath, "/") ? nc->dirpath : "");
		fputc('/', o);
		dbg_print_name(o, de->name, len, 0);
		if (nc->check_type) {
			struct ext2_inode in;
			int ft = de->file_type;

			if (!ext2fs_read_inode(nc->ctx->fs, de->ino, &in) &&
			    ft != ft_of_mode[(in.i_mode >> 12) & 15])
				fprintf(o, "  <--- file type %d does not "
					"match mode %06o", ft, in.i_mode);
		}
		fputc('\n', o);
	}
	return 0;
}

DBG_CMD(do_ncheck)
{
	struct ncheck nc;
	ext2_inode_scan scan = NULL;
	struct ext2_inode in;
	ext2_ino_t ino;
	errcode_t err;
	int c, i, n = 0, ret = 1;

	memset(&nc, 0, sizeof(nc));
	nc.ctx = ctx;
	dbg_reset_getopt();
	while ((c = getopt(argc, argv, "c")) != -1) {
		if (c != 'c') {
			dbg_usage(ctx, argv[0]);
			return 1;
		}
		nc.check_type = 1;
	}
	if (optind >= argc) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	nc.want = calloc(argc, sizeof(*nc.want));
	nc.found = calloc(argc, sizeof(*nc.found));
	if (!nc.want || !nc.found) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		goto out;
	}
	for (i = optind; i < argc; i++) {
		uint64_t v;
		int ok;

		if (dbg_parse_ino_spec(argv[i], ctx->fs->super->s_inodes_count,
				       &ino, &ok)) {
			v = ok ? ino : 0;
		} else if (dbg_parse_u64(argv[i],
					 ctx->fs->super->s_inodes_count,
					 &v)) {
			v = 0;
		}
		if (!v) {
			dbg_error(ctx, argv[0], 0, "%s: bad inode number",
				  argv[i]);
			goto out;
		}
		nc.want[n++] = v;
	}
	nc.nwant = n;
	err = ext2fs_open_inode_scan(ctx->fs, 0, &scan);
	if (err) {
		dbg_error(ctx, argv[0], err, "opening inode scan");
		goto out;
	}
	fputs("Inode\tPathname\n", ctx->out);
	while (!(err = ext2fs_get_next_inode(scan, &ino, &in)) && ino) {
		if (!LINUX_S_ISDIR(in.i_mode) || !in.i_links_count ||
		    in.i_dtime)
			continue;
		nc.dir = ino;
		if (ext2fs_get_pathname(ctx->fs, ino, 0, &nc.dirpath))
			continue;
		e2x_dir_iterate(ctx->fs, ino, E2X_DIR_ORDER_DISK, 0,
				ncheck_entry, &nc);
		ext2fs_free_mem(&nc.dirpath);
	}
	if (err) {
		dbg_error(ctx, argv[0], err, "scanning inodes");
		goto out;
	}
	ret = 0;
	for (i = 0; i < n; i++)
		if (!nc.found[i]) {
			dbg_error(ctx, argv[0], 0, "inode %u: no name found",
				  nc.want[i]);
			ret = 1;
		}
out:
	if (scan)
		ext2fs_close_inode_scan(scan);
	free(nc.want);
	free(nc.found);
	return ret;
}

/* dirsearch: walk the directory's blocks and report where NAME lives. */
struct dsearch {
	struct dbg_ctx *ctx;
	const char *name;
	size_t len;
	int found;
	char *buf;
};

static int search_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t lblk,
			blk64_t ref_blk, int ref_off, void *priv)
{
	struct dsearch *ds = priv;
	unsigned int off = 0, rec_len;

	if (lblk < 0)
		return 0;
	if (ext2fs_read_dir_block4(fs, *blocknr, ds->buf, 0, 0) &&
	    io_channel_read_blk64(fs->io, *blocknr, 1, ds->buf))
		return 0;
	while (off + 8 <= fs->blocksize) {
		struct ext2_dir_entry *de = (void *)(ds->buf + off);
		unsigned int len = ext2fs_dirent_name_len(de);

		if (ext2fs_get_rec_len(fs, de, &rec_len) || rec_len < 8 ||
		    (rec_len & 3) ||
		    off + rec_len > fs->blocksize)
			break;
		if (de->inode && len == ds->len &&
		    off + 8 + len <= fs->blocksize &&
		    !memcmp(de->name, ds->name, len)) {
			fprintf(ds->ctx->out, "Entry found at logical block "
				"%lld, physical block %llu, offset %u: "
				"inode %u\n", (long long)lblk,
				(unsigned long long)*blocknr, off, de->inode);
			ds->found = 1;
		}
		off += rec_len;
	}
	return 0;
}

DBG_CMD(do_dirsearch)
{
	struct dsearch ds;
	ext2_ino_t dir, ino;
	errcode_t err;
	struct ext2_inode in;

	if (argc != 3) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[1], &dir))
		return 1;
	memset(&ds, 0, sizeof(ds));
	ds.ctx = ctx;
	ds.name = argv[2];
	ds.len = strlen(argv[2]);
	err = ext2fs_read_inode(ctx->fs, dir, &in);
	if (!err && (in.i_flags & EXT4_INLINE_DATA_FL)) {
		err = e2x_dir_lookup(ctx->fs, dir, ds.name, ds.len, &ino,
				     NULL);
		if (!err) {
			fprintf(ctx->out, "Entry found in inline data: "
				"inode %u\n", ino);
			return 0;
		}
		if (err == E2X_ERR_NOT_FOUND)
			goto notfound;
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		return 1;
	}
	ds.buf = malloc(ctx->fs->blocksize);
	if (!ds.buf) {
		dbg_error(ctx, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return 1;
	}
	err = ext2fs_block_iterate3(ctx->fs, dir, BLOCK_FLAG_READ_ONLY, NULL,
				    search_block, &ds);
	free(ds.buf);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		return 1;
	}
	if (ds.found)
		return 0;
notfound:
	dbg_error(ctx, argv[0], 0, "%s: not found in %s", argv[2], argv[1]);
	return 1;
}
