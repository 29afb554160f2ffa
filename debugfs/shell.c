/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shell.c --- reading debugfs commands: the interactive shell (libedit line
 * editing, a history file kept across sessions, completion of command names
 * and of paths inside the image) and the command-file reader (-f).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfs.h"
#ifdef HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#define PROMPT "debugfs: "

/* The interactive prompt: the reference's, naming the inode whose extent
 * tree extent_open holds. */
static const char *prompt(struct dbg_ctx *ctx)
{
	static char buf[48];

	if (!ctx->extent)
		return PROMPT;
	snprintf(buf, sizeof(buf), "debugfs (extent ino %u): ",
		 ctx->extent_ino);
	return buf;
}
#define HISTORY_LINES 1000

/* Strip the trailing newline; returns the line. */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* Run every line of F; ECHO prints each command after the prompt first, so
 * the output of a script reads like a session. */
int dbg_run_file(struct dbg_ctx *ctx, FILE *f, int echo)
{
	char *line = NULL;
	size_t cap = 0;

	while (!ctx->quit && getline(&line, &cap, f) != -1) {
		chomp(line);
		if (echo) {
			fprintf(ctx->out, PROMPT "%s\n", line);
			fflush(ctx->out);
		}
		dbg_execute_line(ctx, line);
	}
	free(line);
	return ctx->failed ? 1 : 0;
}

#ifdef HAVE_LIBEDIT
/* Completion callbacks of libedit take no context argument. */
static struct dbg_ctx *complete_ctx;

/* The history file: $DEBUGFS_HISTORY, else ~/.e2x_debugfs_history; NULL
 * (no history kept) when neither is known. */
static char *history_path(void)
{
	const char *env = getenv("DEBUGFS_HISTORY");
	const char *home = getenv("HOME");
	char *p = NULL;

	if (env)
		return *env ? strdup(env) : NULL;
	if (!home || !*home)
		return NULL;
	if (asprintf(&p, "%s/.e2x_debugfs_history", home) < 0)
		return NULL;
	return p;
}

static char *complete_command(const char *text, int state)
{
	static unsigned int it;
	const char *name;
	size_t n = strlen(text);

	if (!state)
		it = 0;
	while ((name = dbg_command_name_next(&it)))
		if (!strncmp(name, text, n))
			return strdup(name);
	return NULL;
}

/* Matches of one path completion, built at state 0. */
struct path_matches {
	char **v;
	size_t n, cap, next;
	const char *dirpart;
	size_t dirlen;
	const char *prefix;
	size_t plen;
	int last_is_dir;
};

static struct path_matches pm;

static void pm_reset(void)
{
	size_t i;

	for (i = pm.next; i < pm.n; i++)
		free(pm.v[i]);
	free(pm.v);
	memset(&pm, 0, sizeof(pm));
}

static int add_match(const struct e2x_dir_entry *de, void *priv)
{
	struct dbg_ctx *ctx = priv;
	int len = de->name_len;
	char *m;

	if (len < (int)pm.plen || strncmp(de->name, pm.prefix, pm.plen))
		return 0;
	if (pm.n == pm.cap) {
		size_t cap = pm.cap ? pm.cap * 2 : 16;
		char **v = realloc(pm.v, cap * sizeof(char *));

		if (!v)
			return EXT2_ET_NO_MEMORY;
		pm.v = v;
		pm.cap = cap;
	}
	m = malloc(pm.dirlen + len + 2);
	if (!m)
		return EXT2_ET_NO_MEMORY;
	memcpy(m, pm.dirpart, pm.dirlen);
	memcpy(m + pm.dirlen, de->name, len);
	m[pm.dirlen + len] = 0;
	if (de->file_type == EXT2_FT_DIR ||
	    (!ext2fs_has_feature_filetype(ctx->fs->super) &&
	     !ext2fs_check_directory(ctx->fs, de->ino)))
		pm.last_is_dir = 1;
	else
		pm.last_is_dir = 0;
	pm.v[pm.n++] = m;
	return 0;
}

/* Collect the names in the image matching TEXT (a partial path). */
static void collect_paths(const char *text)
{
	struct dbg_ctx *ctx = complete_ctx;
	const char *slash = strrchr(text, '/');
	ext2_ino_t dir = ctx->cwd;
	char *dpath;

	pm_reset();
	pm.dirpart = text;
	pm.dirlen = slash ? (size_t)(slash - text + 1) : 0;
	pm.prefix = text + pm.dirlen;
	pm.plen = strlen(pm.prefix);
	if (pm.dirlen) {
		dpath = strndup(text, pm.dirlen);
		if (!dpath || ext2fs_namei(ctx->fs, ctx->root, ctx->cwd, dpath,
					   &dir)) {
			free(dpath);
			return;
		}
		free(dpath);
	}
	/* '.' and '..' are left out: completing them helps nobody */
	e2x_dir_iterate(ctx->fs, dir, E2X_DIR_ORDER_DISK, 0, add_match, ctx);
}

static char *complete_path(const char *text, int state)
{
	if (!state) {
		collect_paths(text);
		/* A single directory: go on into it instead of a space. */
		if (pm.n == 1 && pm.last_is_dir) {
			size_t l = strlen(pm.v[0]);

			pm.v[0][l] = '/';
			pm.v[0][l + 1] = 0;
			rl_completion_append_character = 0;
		}
	}
	if (pm.next < pm.n)
		return pm.v[pm.next++];	/* libedit frees it */
	return NULL;
}

/* Does the command at the start of LINE take paths inside the image? */
static int takes_paths(const char *line)
{
	const struct dbg_cmd *c;
	char word[64];
	size_t n;

	line += strspn(line, " \t");
	n = strcspn(line, " \t");
	if (n >= sizeof(word))
		return 0;
	memcpy(word, line, n);
	word[n] = 0;
	c = dbg_find_command(word);
	return c && (c->flags & DBG_WANTS_PATH);
}

static char **complete(const char *text, int start, int end)
{
	rl_attempted_completion_over = 1;
	rl_completion_append_character = ' ';
	if (start == 0)
		return rl_completion_matches(text, complete_command);
	if (!complete_ctx->fs || !takes_paths(rl_line_buffer))
		return NULL;
	return rl_completion_matches(text, complete_path);
}

int dbg_run_interactive(struct dbg_ctx *ctx)
{
	char *hist = history_path();
	char *line;

	ctx->interactive = 1;
	complete_ctx = ctx;
	rl_readline_name = "debugfs";
	rl_attempted_completion_function = complete;
	rl_basic_word_break_characters = " \t\n\"'";
	using_history();
	stifle_history(HISTORY_LINES);
	if (hist)
		read_history(hist);
	while (!ctx->quit && (line = readline(prompt(ctx)))) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p) {
			add_history(line);
			if (hist)
				write_history(hist);
		}
		dbg_execute_line(ctx, line);
		free(line);
	}
	if (!ctx->quit)
		fputc('\n', ctx->out);
	if (hist) {
		write_history(hist);
		history_truncate_file(hist, HISTORY_LINES);
	}
	pm_reset();
	free(hist);
	return 0;
}
#else
/* No libedit: a plain prompt, no history or completion. */
int dbg_run_interactive(struct dbg_ctx *ctx)
{
	char *line = NULL;
	size_t cap = 0;

	ctx->interactive = 1;
	while (!ctx->quit) {
		fputs(prompt(ctx), ctx->out);
		fflush(ctx->out);
		if (getline(&line, &cap, stdin) == -1)
			break;
		dbg_execute_line(ctx, chomp(line));
	}
	free(line);
	return 0;
}
#endif
