/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problem.h --- problem codes of e2fsck and the one function that decides
 * what to do about each (fix_problem, problem.c).
 *
 * A code carries its pass in bits 16-23 (0 = superblock and start-up,
 * 0x11 = pass 1b).  Every code is one row of problem_list.h, which gives
 * it a name, a message in our words, the question asked, and flags; the
 * enum below and the table in problem.c are both made from it.  Passes
 * never print problems themselves.
 */
#ifndef E2FSCK_PROBLEM_H
#define E2FSCK_PROBLEM_H

#include "context.h"

typedef uint32_t problem_t;

#define PR_PASS(code)	(((code) >> 16) & 0xff)

/* Values a message may refer to: {ino} {ino2} {dir} {blk} {blk2} {num}
 * {num2} {group} {str} {name}. */
struct problem_ctx {
	ext2_ino_t ino, ino2, dir;
	blk64_t blk, blk2;
	uint64_t num, num2;
	dgrp_t group;
	const char *str;
	const char *name;
	int namelen;
	errcode_t errcode;
};

/* Question kinds. */
enum pr_prompt {
	PROMPT_NONE = 0,	/* a note; nothing to answer */
	PROMPT_FIX,
	PROMPT_CLEAR,
	PROMPT_RELOCATE,
	PROMPT_ALLOCATE,
	PROMPT_EXPAND,
	PROMPT_CONNECT,
	PROMPT_CREATE,
	PROMPT_SALVAGE,
	PROMPT_TRUNCATE,
	PROMPT_CLEAR_INODE,
	PROMPT_ABORT,
	PROMPT_CLONE,
	PROMPT_REBUILD,
	PROMPT_CLEAR_FLAG,
	PROMPT_USE_BACKUP,
	PROMPT_SET_FEATURE,
	PROMPT_COUNT		/* number of kinds */
};

/* Row flags. */
#define PR_PREEN_OK	0x0001	/* -p may fix it without asking */
#define PR_NO_OK	0x0002	/* answering no leaves no error behind */
#define PR_INFO		0x0004	/* a note: never an error */
#define PR_FATAL	0x0008	/* the check cannot go on */
#define PR_NO_REPAIR	0x0010	/* detected; the repair is not written yet */
#define PR_PREEN_NOMSG	0x0020	/* -p fixes it silently */
#define PR_CHANGED	0x0040	/* a note that reports a write made */

struct problem_row {
	problem_t code;
	enum pr_prompt prompt;
	unsigned int flags;
	const char *msg;
};

/* The codes, one name each, from the single list (problem_list.h). */
enum problem_code {
#define PROBLEM(name, code, prompt, flags, msg) name = code,
#include "problem_list.h"
#undef PROBLEM
};

/*
 * Report problem CODE with the values in PCTX and decide: returns 1 when
 * the caller should repair it, 0 when not.  Counts the problem as fixed,
 * unfixed or a note, prints in the style of the mode (-n/-y/-p/ask).
 * An Abort question answered yes stops the run (ctx->abort, exit 8).
 */
int fix_problem(struct fsck_ctx *ctx, problem_t code,
		struct problem_ctx *pctx);
/* Print the message of CODE with PCTX substituted into OUT (tests). */
void problem_format(FILE *out, struct fsck_ctx *ctx, problem_t code,
		    const struct problem_ctx *pctx);
/* The table, for the unit test. */
const struct problem_row *problem_table(size_t *nrows);
const struct problem_row *problem_find(problem_t code);
const char *problem_prompt_word(enum pr_prompt p);

static inline void pctx_clear(struct problem_ctx *p)
{
	*p = (struct problem_ctx){ 0 };
}

#endif
