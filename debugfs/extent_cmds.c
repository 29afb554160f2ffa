/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extent_cmds.c --- extent_open and its sub-shell: while a file's extent
 * tree is open, the reference's commands of it run before the main table:
 * the moves (root, current, next, prev, up, down, the leaf and sibling
 * moves, goto), info and print_all read; insert_node, replace_node,
 * delete_node, split_node, fix_parents and set_bmap edit through the
 * library (e2x_extent_edit_apply); extent_close leaves.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"

static ext2_extent_handle_t hnd(struct dbg_ctx *ctx)
{
	return e2x_extent_edit_handle(ctx->extent);
}

static void print_extent(struct dbg_ctx *ctx, const struct ext2fs_extent *e)
{
	fprintf(ctx->out, "extent: lblk %llu--%llu, len %u, pblk %llu, "
		"flags: ", (unsigned long long)e->e_lblk,
		(unsigned long long)e->e_lblk + e->e_len - 1, e->e_len,
		(unsigned long long)e->e_pblk);
	if (e->e_flags & EXT2_EXTENT_FLAGS_LEAF)
		fputs("LEAF ", ctx->out);
	if (e->e_flags & EXT2_EXTENT_FLAGS_UNINIT)
		fputs("UNINIT ", ctx->out);
	if (e->e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
		fputs("2ND_VISIT ", ctx->out);
	if (!(e->e_flags & (EXT2_EXTENT_FLAGS_LEAF | EXT2_EXTENT_FLAGS_UNINIT |
			    EXT2_EXTENT_FLAGS_SECOND_VISIT)))
		fputs("(none)", ctx->out);
	fputc('\n', ctx->out);
}

/* Move by OP and show where the handle is. */
static int move(struct dbg_ctx *ctx, const char *cmd, int op)
{
	struct ext2fs_extent e;
	errcode_t err;

	err = ext2fs_extent_get(hnd(ctx), op, &e);
	if (err) {
		dbg_error(ctx, cmd, err, NULL);
		return 1;
	}
	print_extent(ctx, &e);
	return 0;
}

static int do_info(struct dbg_ctx *ctx, const char *cmd)
{
	struct ext2_extent_info in;
	errcode_t err;

	if (move(ctx, cmd, EXT2_EXTENT_CURRENT))
		return 1;
	err = ext2fs_extent_get_info(hnd(ctx), &in);
	if (err) {
		dbg_error(ctx, cmd, err, NULL);
		return 1;
	}
	fprintf(ctx->out, "Current handle location: %d/%d (max: %d, bytes %d), "
		"level %d/%d\n", in.curr_entry, in.num_entries,
		in.max_entries, in.bytes_avail, in.curr_level, in.max_depth);
	fprintf(ctx->out, "\tmax lblk: %llu, max pblk: %llu\n",
		(unsigned long long)in.max_lblk,
		(unsigned long long)in.max_pblk);
	fprintf(ctx->out, "\tmax_len: %u, max_uninit_len: %u\n",
		in.max_len, in.max_uninit_len);
	return 0;
}

/* print_all [--leaf-only|--reverse|--reverse-leaf] */
static int do_print_all(struct dbg_ctx *ctx, int argc, char **argv)
{
	int first = EXT2_EXTENT_ROOT, op = EXT2_EXTENT_NEXT;
	struct ext2fs_extent e;
	errcode_t err;

	if (argc > 2)
		goto usage;
	if (argc == 2) {
		if (!strcmp(argv[1], "--leaf-only")) {
			op = EXT2_EXTENT_NEXT_LEAF;
		} else if (!strcmp(argv[1], "--reverse")) {
			first = EXT2_EXTENT_LAST_LEAF;
			op = EXT2_EXTENT_PREV;
		} else if (!strcmp(argv[1], "--reverse-leaf")) {
			first = EXT2_EXTENT_LAST_LEAF;
			op = EXT2_EXTENT_PREV_LEAF;
		} else {
			goto usage;
		}
	}
	err = ext2fs_extent_get(hnd(ctx), first, &e);
	while (!err) {
		print_extent(ctx, &e);
		err = ext2fs_extent_get(hnd(ctx), op, &e);
	}
	if (err == EXT2_ET_EXTENT_NO_NEXT || err == EXT2_ET_EXTENT_NO_PREV)
		return 0;
	dbg_error(ctx, argv[0], err, NULL);
	return 1;
usage:
	dbg_error(ctx, NULL, 0, "usage: %s [--leaf-only|--reverse|"
		  "--reverse-leaf]", argv[0]);
	return 1;
}

static int do_goto(struct dbg_ctx *ctx, int argc, char **argv)
{
	uint64_t blk;
	errcode_t err;

	if (argc != 2 || dbg_parse_u64(argv[1], UINT32_MAX, &blk)) {
		dbg_error(ctx, NULL, 0, "usage: %s block", argv[0]);
		return 1;
	}
	err = ext2fs_extent_goto(hnd(ctx), blk);
	if (err) {
		dbg_error(ctx, argv[0], err, "block %llu",
			  (unsigned long long)blk);
		return 1;
	}
	return move(ctx, argv[0], EXT2_EXTENT_CURRENT);
}

void dbg_extent_drop(struct dbg_ctx *ctx)
{
	e2x_extent_edit_close(ctx->extent);
	ctx->extent = NULL;
	ctx->extent_ino = 0;
}

/* The moves of the sub-shell: names as the reference's, one op each. */
static const struct {
	const char *names;	/* space separated, framed by spaces */
	int op;
} moves[] = {
	{ " current_node current ", EXT2_EXTENT_CURRENT },
	{ " root_node root ", EXT2_EXTENT_ROOT },
	{ " last_leaf ", EXT2_EXTENT_LAST_LEAF },
	{ " first_sibling first_sib ", EXT2_EXTENT_FIRST_SIB },
	{ " last_sibling last_sib ", EXT2_EXTENT_LAST_SIB },
	{ " next_sibling next_sib ns ", EXT2_EXTENT_NEXT_SIB },
	{ " prev_sibling prev_sib ps ", EXT2_EXTENT_PREV_SIB },
	{ " next_leaf nl ", EXT2_EXTENT_NEXT_LEAF },
	{ " prev_leaf pl ", EXT2_EXTENT_PREV_LEAF },
	{ " next n ", EXT2_EXTENT_NEXT },
	{ " previous prev p ", EXT2_EXTENT_PREV },
	{ " up_node up u ", EXT2_EXTENT_UP },
	{ " down_node down d ", EXT2_EXTENT_DOWN },
};

static int named(const char *names, const char *name)
{
	const char *p = names;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if (p[-1] == ' ' && p[n] == ' ')
			return 1;
		p++;
	}
	return 0;
}

/* The edits of the sub-shell: names as the reference's; ARGS numbers
 * after the options (lblk len pblk, or lblk pblk for set_bmap). */
static const struct {
	const char *names;
	enum e2x_extent_op op;
	int args;
	const char *usage;
} edits[] = {
	{ " insert_node insert ", E2X_EXTENT_INSERT, 3,
	  "[--after] [--uninit] <lblk> <len> <pblk>" },
	{ " replace_node replace ", E2X_EXTENT_REPLACE, 3,
	  "[--uninit] <lblk> <len> <pblk>" },
	{ " delete_node delete ", E2X_EXTENT_DELETE, 0, "" },
	{ " split_node split ", E2X_EXTENT_SPLIT, 0, "" },
	{ " fix_parents fixp ", E2X_EXTENT_FIX_PARENTS, 0, "" },
	{ " set_bmap ", E2X_EXTENT_SET_BMAP, 2, "[--uninit] <lblk> <pblk>" },
};

/* The options and numbers of an edit into C; 0 when they parse.  As the
 * reference reads them: set_bmap's blocks are 32 bits, a length too. */
static int parse_change(int argc, char **argv, int args,
			struct e2x_extent_change *c)
{
	uint64_t v[3];
	int i;

	for (i = 1; i < argc - args; i++) {
		if (c->op == E2X_EXTENT_INSERT && !strcmp(argv[i], "--after"))
			c->flags |= E2X_EXTENT_AFTER;
		else if (args && !strcmp(argv[i], "--uninit"))
			c->flags |= E2X_EXTENT_UNINIT;
		else
			return 1;
	}
	if (argc - 1 < args)
		return 1;
	for (i = 0; i < args; i++)
		if (dbg_parse_u64(argv[argc - args + i], UINT64_MAX, &v[i]))
			return 1;
	if (args == 3) {
		c->lblk = v[0];
		c->len = (uint32_t)v[1];
		c->pblk = v[2];
	} else if (args == 2) {
		c->lblk = (uint32_t)v[0];
		c->pblk = (uint32_t)v[1];
	}
	return 0;
}

/* One edit, then (but after fix_parents) the entry under the cursor. */
static int run_edit(struct dbg_ctx *ctx, size_t k, int argc, char **argv)
{
	struct e2x_extent_change c = { .op = edits[k].op };
	struct ext2fs_extent e;
	errcode_t err;

	if (parse_change(argc, argv, edits[k].args, &c)) {
		dbg_error(ctx, NULL, 0, "usage: %s %s", argv[0],
			  edits[k].usage);
		return 1;
	}
	if (!ctx->open.rw) {
		dbg_error(ctx, argv[0], EXT2_ET_RO_FILSYS, NULL);
		return 1;
	}
	if (dbg_need_bitmaps(ctx, argv[0]))
		return 1;
	err = e2x_extent_edit_apply(ctx->extent, &c);
	if (err) {
		dbg_error(ctx, argv[0], err, NULL);
		return 1;
	}
	if (c.op != E2X_EXTENT_FIX_PARENTS &&
	    !ext2fs_extent_get(hnd(ctx), EXT2_EXTENT_CURRENT, &e))
		print_extent(ctx, &e);
	return 0;
}

int dbg_extent_command(struct dbg_ctx *ctx, int argc, char **argv)
{
	size_t i;

	for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++)
		if (named(edits[i].names, argv[0]))
			return run_edit(ctx, i, argc, argv);

	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		if (!named(moves[i].names, argv[0]))
			continue;
		if (argc != 1) {
			dbg_error(ctx, NULL, 0, "usage: %s", argv[0]);
			return 1;
		}
		return move(ctx, argv[0], moves[i].op);
	}
	if (named(" info ", argv[0]))
		return do_info(ctx, argv[0]);
	if (named(" print_all all ", argv[0]))
		return do_print_all(ctx, argc, argv);
	if (named(" goto_block goto ", argv[0]))
		return do_goto(ctx, argc, argv);
	if (named(" extent_close ec ", argv[0])) {
		dbg_extent_drop(ctx);
		return 0;
	}
	return -1;
}

/* extent_open file */
int do_extent_open(struct dbg_ctx *ctx, int argc, char **argv)
{
	struct ext2_inode_large *in;
	ext2_ino_t ino;
	errcode_t err;

	if (ctx->extent) {
		dbg_error(ctx, argv[0], 0,
			  "the extents of inode %u are open; extent_close first",
			  ctx->extent_ino);
		return 1;
	}
	in = dbg_file_arg_new(ctx, argc, argv, &ino);
	if (!in)
		return 1;
	free(in);
	err = e2x_extent_edit_open(ctx->fs, ino, 0, &ctx->extent);
	if (err) {
		dbg_error(ctx, argv[0], err, "%s", argv[1]);
		return 1;
	}
	ctx->extent_ino = ino;
	return 0;
}
