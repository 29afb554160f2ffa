/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problem.c --- the problem table of e2fsck and fix_problem(), the single
 * place where -n, -y, -p and interactive runs decide, count and print.
 */
#include "config.h"
#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "problem.h"

#define P PR_PREEN_OK
#define NR PR_NO_REPAIR

/* The rows of problem_list.h, in its order (by code; test_problem checks
 * order, uniqueness and wording). */
static const struct problem_row rows[] = {
#define PROBLEM(name, code, prompt, flags, msg) { name, prompt, flags, msg },
#include "problem_list.h"
#undef PROBLEM
};

static const char *const prompt_words[PROMPT_COUNT] = {
	[PROMPT_NONE] = "",
	[PROMPT_FIX] = "Fix",
	[PROMPT_CLEAR] = "Clear",
	[PROMPT_RELOCATE] = "Relocate",
	[PROMPT_ALLOCATE] = "Allocate",
	[PROMPT_EXPAND] = "Expand",
	[PROMPT_CONNECT] = "Connect to /lost+found",
	[PROMPT_CREATE] = "Create",
	[PROMPT_SALVAGE] = "Salvage",
	[PROMPT_TRUNCATE] = "Truncate",
	[PROMPT_CLEAR_INODE] = "Clear inode",
	[PROMPT_ABORT] = "Abort",
	[PROMPT_CLONE] = "Clone shared blocks",
	[PROMPT_REBUILD] = "Rebuild",
	[PROMPT_CLEAR_FLAG] = "Clear flag",
	[PROMPT_USE_BACKUP] = "Use the backup",
	[PROMPT_SET_FEATURE] = "Set feature",
};

const struct problem_row *problem_table(size_t *nrows)
{
	*nrows = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const char *problem_prompt_word(enum pr_prompt p)
{
	if (p < 0 || p >= PROMPT_COUNT)
		return "?";
	return prompt_words[p];
}

const struct problem_row *problem_find(problem_t code)
{
	size_t lo = 0, hi = sizeof(rows) / sizeof(rows[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].code == code)
			return &rows[mid];
		if (rows[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Print a name from disk: printable bytes as is, the rest as \ooo. */
static void print_name(FILE *out, const char *name, int len)
{
	int i;

	if (!name)
		return;
	if (len < 0)
		len = strlen(name);
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (isprint(c) && c != '\\')
			fputc(c, out);
		else
			fprintf(out, "\\%03o", c);
	}
}

struct parent_search {
	ext2_ino_t ino, dir;
};

static int match_entry(ext2_ino_t dir, int entry,
		       struct ext2_dir_entry *dirent, int offset,
		       int blocksize, char *buf, void *priv)
{
	struct parent_search *ps = priv;

	(void)entry, (void)offset, (void)blocksize, (void)buf;
	if (dirent->inode != ps->ino)
		return 0;
	ps->dir = dir;
	return DIRENT_ABORT;
}

/*
 * A directory holding a name for INO, found by reading the directory
 * blocks pass 2 listed; 0 when none is found.  Each search reads every
 * directory block, so a run makes at most PATH_SEARCHES of them.
 */
#define PATH_SEARCHES 16
static ext2_ino_t find_parent(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	struct parent_search ps = { ino, 0 };

	if (!ctx->dblist || ctx->path_searches >= PATH_SEARCHES)
		return 0;
	ctx->path_searches++;
	ext2fs_dblist_dir_iterate(ctx->dblist, 0, NULL, match_entry, &ps);
	return ps.dir;
}

/*
 * An inode as "PATH (N)" once pass 2 has read the directories, else as
 * "N": a directory's path is found through '..' (libext2fs), a pass 4
 * file with a wrong link count's through a directory that names it.
 * Pass 5 speaks of bitmap ranges: plain numbers there.
 */
static void print_inode(FILE *out, struct fsck_ctx *ctx, problem_t code,
			ext2_ino_t ino)
{
	char *path = NULL;
	unsigned int pass = PR_PASS(code);
	ext2_ino_t dir = 0;
	errcode_t err = EXT2_ET_NO_DIRECTORY;

	if (ctx && ctx->fs && ctx->inode_dir && pass >= 2 && pass <= 4 &&
	    ino >= EXT2_ROOT_INO && ino <= ctx->fs->super->s_inodes_count) {
		if (ext2fs_test_inode_bitmap2(ctx->inode_dir, ino))
			err = ext2fs_get_pathname(ctx->fs, ino, 0, &path);
		else if (code == PR_4_LINK_COUNT &&
			 (dir = find_parent(ctx, ino)))
			err = ext2fs_get_pathname(ctx->fs, dir, ino, &path);
	}
	if (!err && path && path[0] == '/') {
		print_name(out, path, -1);
		fprintf(out, " (%u)", ino);
	} else {
		fprintf(out, "%u", ino);
	}
	ext2fs_free_mem(&path);
}

static void print_field(FILE *out, struct fsck_ctx *ctx, problem_t code,
			const char *key, size_t klen,
			const struct problem_ctx *p)
{
#define KEY(s) (klen == sizeof(s) - 1 && !memcmp(key, s, klen))
	if (KEY("ino"))
		print_inode(out, ctx, code, p->ino);
	else if (KEY("ino2"))
		print_inode(out, ctx, code, p->ino2);
	else if (KEY("dir"))
		print_inode(out, ctx, code, p->dir);
	else if (KEY("blk"))
		fprintf(out, "%llu", (unsigned long long)p->blk);
	else if (KEY("blk2"))
		fprintf(out, "%llu", (unsigned long long)p->blk2);
	else if (KEY("num"))
		fprintf(out, "%" PRIu64, p->num);
	else if (KEY("mode"))	/* a file mode: num, in octal */
		fprintf(out, "%" PRIo64, p->num);
	else if (KEY("num2"))
		fprintf(out, "%" PRIu64, p->num2);
	else if (KEY("group"))
		fprintf(out, "%u", p->group);
	else if (KEY("str"))
		fputs(p->str ? p->str : "", out);
	else if (KEY("name"))
		print_name(out, p->name, p->name ? p->namelen : 0);
	else
		fprintf(out, "{%.*s}", (int)klen, key);
#undef KEY
}

void problem_format(FILE *out, struct fsck_ctx *ctx, problem_t code,
		    const struct problem_ctx *pctx)
{
	const struct problem_row *row = problem_find(code);
	const char *s, *end;

	if (!row) {
		fprintf(out, "Unknown problem 0x%06x", code);
		return;
	}
	for (s = row->msg; *s; s++) {
		if (*s == '{' && (end = strchr(s, '}'))) {
			print_field(out, ctx, code, s + 1, end - s - 1, pctx);
			s = end;
		} else {
			fputc(*s, out);
		}
	}
}

/*
 * One key from the terminal, without waiting for Enter and without echo;
 * -1 at end of input.  Falls back to whole lines when stdin is not a
 * terminal (then the first character of the line counts).
 */
static int read_key(void)
{
	struct termios old, raw;
	unsigned char c;
	ssize_t n;
	int cooked = tcgetattr(0, &old) != 0;

	if (!cooked) {
		raw = old;
		/* Ctrl-C arrives as a key: the terminal is set back before
		 * the run is cancelled */
		raw.c_lflag &= ~(ICANON | ECHO | ISIG);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		cooked = tcsetattr(0, TCSANOW, &raw) != 0;
	}
	do
		n = read(0, &c, 1);
	while (n < 0 && errno == EINTR);
	if (!cooked)
		tcsetattr(0, TCSANOW, &old);
	if (n != 1)
		return -1;
	if (cooked && c != '\n') {
		unsigned char rest;

		while (read(0, &rest, 1) == 1 && rest != '\n')
			;
	}
	return c;
}

/*
 * Ask on the terminal; returns 1 for yes.  y or Enter answer yes, n no,
 * a yes to this and every later question (the run goes on as -y).  End
 * of input, Ctrl-C or Ctrl-D cancels the run (exit 32).
 */
static int ask_user(struct fsck_ctx *ctx, const char *q)
{
	int c;

	printf("%s<y>? ", q);
	fflush(stdout);
	for (;;) {
		c = read_key();
		if (c < 0 || c == 3 || c == 4) {	/* end, Ctrl-C, Ctrl-D */
			printf("cancelled\n\n");
			ctx->exit_extra |= FSCK_CANCELED;
			ctx->abort = 1;
			return 0;
		}
		if (c == 'y' || c == 'Y' || c == '\n' || c == '\r') {
			printf("yes\n\n");
			return 1;
		}
		if (c == 'n' || c == 'N') {
			printf("no\n\n");
			return 0;
		}
		if (c == 'a' || c == 'A') {
			printf("yes to all\n\n");
			ctx->opt.mode = MODE_YES;
			return 1;
		}
	}
}

/* Decide the answer for the current mode; prints the question. */
static int decide(struct fsck_ctx *ctx, const struct problem_row *row)
{
	const char *q = problem_prompt_word(row->prompt);

	switch (ctx->opt.mode) {
	case MODE_NO:
		printf("  %s? no\n\n", q);
		return 0;
	case MODE_YES:
		printf("  %s? yes\n\n", q);
		return 1;
	case MODE_PREEN:
		if (row->flags & PR_PREEN_OK) {
			if (!(row->flags & PR_PREEN_NOMSG))
				printf(" (fixed)\n");
			return 1;
		}
		printf("\n\n%s: UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY.\n"
		       "\t(i.e., without -a or -p options)\n",
		       ctx->opt.device);
		ctx->preen_bailed = 1;
		ctx->abort = 1;
		return 0;
	default:
		putchar(' ');
		return ask_user(ctx, q);
	}
}

/* "Abort? yes": stop before anything more is written; exit code 8. */
static int abort_run(struct fsck_ctx *ctx)
{
	ctx->abort = 1;
	ctx->exit_extra |= FSCK_ERROR;
	printf("%s: aborted; nothing more is written\n", ctx->opt.device);
	return 1;
}

int fix_problem(struct fsck_ctx *ctx, problem_t code,
		struct problem_ctx *pctx)
{
	const struct problem_row *row = problem_find(code);
	int quiet, answer;

	if (!row) {
		fprintf(stderr, "%s: internal error: no problem 0x%06x\n",
			ctx->prog, code);
		ctx->problems_unfixed++;
		return 0;
	}
	quiet = ctx->opt.mode == MODE_PREEN && (row->flags & PR_PREEN_NOMSG) &&
		(row->flags & PR_PREEN_OK) && !(row->flags & PR_NO_REPAIR);
	if (!quiet) {
		fsck_progress_clear(ctx);
		if (ctx->opt.mode == MODE_PREEN)
			printf("%s: ", ctx->opt.device);
		problem_format(stdout, ctx, code, pctx);
		if (ctx->opt.debug)
			printf(" [0x%06x]", code);
	}
	if (row->flags & PR_INFO || row->prompt == PROMPT_NONE) {
		if (!quiet)
			printf(".\n");
		if (row->flags & PR_FATAL) {
			ctx->problems_unfixed++;
			ctx->abort = 1;
			ctx->exit_extra |= FSCK_ERROR;
		} else if (row->flags & PR_INFO) {
			ctx->problems_info++;
			if (row->flags & PR_CHANGED)
				ctx->modified = 1;
		} else {
			ctx->problems_unfixed++;
		}
		return 0;
	}
	if (!quiet)
		putchar('.');
	if (quiet)
		answer = 1;
	else
		answer = decide(ctx, row);
	if (answer && (row->flags & PR_NO_REPAIR) && !ctx->abort) {
		printf("  (this repair is not available yet; left as is)\n\n");
		answer = 0;
	}
	if (answer && ctx->hold_repairs) {
		printf("  (held back: earlier problems are still unrepaired)\n\n");
		answer = 0;
	}
	if (answer && row->prompt == PROMPT_ABORT)
		return abort_run(ctx);
	if (answer && !ctx->fs_rw)
		answer = 0;
	if (answer) {
		ctx->problems_fixed++;
		ctx->modified = 1;
	}
	else if (!(row->flags & PR_NO_OK))
		ctx->problems_unfixed++;
	else
		ctx->problems_info++;
	return answer;
}
