/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dir_cmds.c --- directory navigation and lookups: cd, chroot, pwd,
 * ncheck (names of inodes) and dirsearch (ls has ls_cmds.c).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"

/* The one directory argument of cd and chroot into *WHERE. */
static int set_dir(struct dbg_ctx *ctx, int argc, char **argv,
		   ext2_ino_t *where)
{
	ext2_ino_t dir;

	if (argc != 2) {
		dbg_usage(ctx, argv[0]);
		return 1;
	}
	if (dbg_resolve_dir(ctx, argv[0], argv[1], &dir))
		return 1;
	*where = dir;
	return 0;
}

int do_cd(struct dbg_ctx *ctx, int argc, char **argv)
{
	return set_dir(ctx, argc, argv, &ctx->cwd);
}

int do_chroot(struct dbg_ctx *ctx, int argc, char **argv)
{
	return set_dir(ctx, argc, argv, &ctx->root);
}

int do_pwd(struct dbg_ctx *ctx, int argc, char **argv)
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
			    ft != (int)e2x_ftype_of_mode(in.i_mode))
				fprintf(o, "  <--- file type %d does not "
					"match mode %06o", ft, in.i_mode);
		}
		fputc('\n', o);
	}
	return 0;
}

int do_ncheck(struct dbg_ctx *ctx, int argc, char **argv)
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
	struct e2x_name_policy policy;
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
		if (de->inode && off + 8 + len <= fs->blocksize &&
		    e2x_name_equal(&ds->policy, de->name, len, ds->name,
				   ds->len)) {
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

int do_dirsearch(struct dbg_ctx *ctx, int argc, char **argv)
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
	if (!err)
		e2x_name_policy_init(ctx->fs, in.i_flags, 0, &ds.policy);
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
