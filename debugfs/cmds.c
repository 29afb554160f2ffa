/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmds.c --- the debugfs command table and the dispatcher that checks a
 * command's needs (open fs, read-write, bitmaps) before running it.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "debugfs.h"

#define FS DBG_NEEDS_FS
#define RW (DBG_NEEDS_FS | DBG_NEEDS_RW)
#define BM (DBG_NEEDS_FS | DBG_NEEDS_BMAPS)
#define PATH DBG_WANTS_PATH

/* The table, built from commands.h. */
const struct dbg_cmd dbg_commands[] = {
#define DBG_COMMAND(fn_, name_, aliases_, flags_, usage_, help_) \
	{ name_, aliases_, fn_, flags_, usage_, help_ },
#include "commands.h"
#undef DBG_COMMAND
	{ NULL, NULL, NULL, 0, NULL, NULL }
};

/* True if WORD is one of the space separated names in LIST. */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (list && *list) {
		const char *sp = strchr(list, ' ');
		size_t len = sp ? (size_t)(sp - list) : strlen(list);

		if (len == n && !strncmp(list, word, n))
			return 1;
		list = sp ? sp + 1 : NULL;
	}
	return 0;
}

const struct dbg_cmd *dbg_find_command(const char *name)
{
	const struct dbg_cmd *c;

	for (c = dbg_commands; c->name; c++)
		if (!strcmp(c->name, name) || in_list(c->aliases, name))
			return c;
	return NULL;
}

/* Names first, then each alias word, for tab completion. */
const char *dbg_command_name_next(unsigned int *state)
{
	static char word[64];
	unsigned int ci = *state >> 8, wi = *state & 0xff;

	for (; dbg_commands[ci].name; ci++, wi = 0) {
		const char *list = dbg_commands[ci].aliases;
		unsigned int k;

		if (wi == 0) {
			*state = (ci << 8) | 1;
			return dbg_commands[ci].name;
		}
		for (k = 1; list && *list; k++) {
			const char *sp = strchr(list, ' ');
			size_t len = sp ? (size_t)(sp - list) : strlen(list);

			if (k == wi && len < sizeof(word)) {
				memcpy(word, list, len);
				word[len] = 0;
				*state = (ci << 8) | (wi + 1);
				return word;
			}
			list = sp ? sp + 1 : NULL;
		}
	}
	*state = ci << 8;
	return NULL;
}

static int check_needs(struct dbg_ctx *ctx, const struct dbg_cmd *c,
		       const char *name)
{
	if ((c->flags & DBG_NEEDS_FS) && !ctx->fs) {
		dbg_error(ctx, name, 0, "no file system open (use open)");
		return 1;
	}
	if ((c->flags & DBG_NEEDS_RW) && !ctx->open.rw) {
		dbg_error(ctx, name, 0,
			  "file system is open read-only (open it with -w)");
		return 1;
	}
	if ((c->flags & DBG_NEEDS_BMAPS) && dbg_need_bitmaps(ctx, name))
		return 1;
	return 0;
}

int dbg_execute_line(struct dbg_ctx *ctx, const char *line)
{
	const struct dbg_cmd *c;
	char **argv;
	int argc, ret;

	argc = dbg_split_line(line, &argv);
	if (argc < 0) {
		dbg_error(ctx, NULL, 0, "unterminated quote");
		ctx->failed++;
		return 1;
	}
	if (argc == 0) {
		free(argv);
		return 0;
	}
	ret = -1;
	if (ctx->extent && ctx->fs)
		ret = dbg_extent_command(ctx, argc, argv);
	c = ret < 0 ? dbg_find_command(argv[0]) : NULL;
	if (ret >= 0) {
		/* a command of the extent_open sub-shell ran */
	} else if (!c) {
		dbg_error(ctx, NULL, 0,
			  "%s: unknown command (try help)", argv[0]);
		ret = 1;
	} else {
		ret = check_needs(ctx, c, argv[0]);
		if (!ret)
			ret = c->fn(ctx, argc, argv);
	}
	fflush(ctx->out);
	if (ret)
		ctx->failed++;
	free(argv);
	return ret;
}

static void help_one(struct dbg_ctx *ctx, const struct dbg_cmd *c)
{
	fprintf(ctx->out, "%s %s\n    %s\n", c->name, c->usage, c->help);
	if (c->aliases)
		fprintf(ctx->out, "    aliases: %s\n", c->aliases);
}

int do_help(struct dbg_ctx *ctx, int argc, char **argv)
{
	const struct dbg_cmd *c;
	int i, ret = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			c = dbg_find_command(argv[i]);
			if (c) {
				help_one(ctx, c);
			} else {
				dbg_error(ctx, argv[0], 0,
					  "%s: unknown command", argv[i]);
				ret = 1;
			}
		}
		return ret;
	}
	for (c = dbg_commands; c->name; c++)
		fprintf(ctx->out, "%-18s %s%s\n", c->name, c->help,
			(c->flags & DBG_NEEDS_RW) ? " [-w]" : "");
	return 0;
}

int do_quit(struct dbg_ctx *ctx, int argc, char **argv)
{
	ctx->quit = 1;
	return 0;
}
