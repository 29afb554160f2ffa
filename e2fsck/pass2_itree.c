/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2_itree.c --- pass 2's itree check: the entries pass 2 read from a
 * directory are handed (read again, not kept) to libe2x's
 * e2x_itree_verify(), which checks the tree's structure, key order and
 * fullness bounds and that its entries are exactly the directory's.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass2.h"

#define ITREE_MAX_REPORTS 8

struct emit_ctx {
	e2x_itree_entry_fn emit;
	void *emit_priv;
	int rc;
};

static int emit_entry(struct p2_dir *pd, const struct ext2_dir_entry *d,
		      void *priv)
{
	struct emit_ctx *ec = priv;
	int len = ext2fs_dirent_name_len(d);
	struct e2x_name_policy policy;
	uint32_t hash = 0;
	struct e2x_itree_entry ent;

	e2x_name_policy_init(pd->fs, pd->inode->i_flags, pd->hash_version,
			     &policy);
	if (e2x_name_hash(&policy, d->name, (unsigned int)len, &hash, NULL))
		return 0;
	ent = (struct e2x_itree_entry){
		.ino = d->inode,
		.hash = hash,
		.name_len = len,
		.file_type = ext2fs_dirent_file_type(d),
		.name = d->name,
	};
	ec->rc = ec->emit(&ent, ec->emit_priv);
	return ec->rc;
}

/* The producer e2x_itree_verify() calls: the directory read again, so
 * no entry is held in memory. */
static errcode_t walk_ents(ext2_filsys fs, ext2_ino_t dir, void *priv,
			   e2x_itree_entry_fn emit, void *emit_priv)
{
	struct p2_dir *pd = priv;
	struct emit_ctx ec = { emit, emit_priv, 0 };

	p2_each_entry(pd, emit_entry, &ec);
	return ec.rc == E2X_ITREE_STOP ? 0 : ec.rc;
}

static int any_entry(struct p2_dir *pd, const struct ext2_dir_entry *d,
		     void *priv)
{
	return 1;
}

static int report(const struct e2x_itree_problem *p, void *priv)
{
	struct p2_dir *pd = priv;
	struct problem_ctx pctx;
	char why[128];

	snprintf(why, sizeof(why), "%s%s%.0llu", e2x_itree_problem_name(p->code),
		 p->blk ? " at block " : "",
		 (unsigned long long)p->blk);
	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.str = why;
	if (fix_problem(pd->ctx, PR_2_ITREE, &pctx))
		pd->reindex = 1;
	return ++pd->itree_reports >= ITREE_MAX_REPORTS;
}

void p2_itree_verify(struct p2_dir *pd)
{
	struct problem_ctx pctx;
	unsigned int n = 0;
	errcode_t err;

	/* no hash version: the tree cannot match a directory with names */
	if (!pd->hash_ok && p2_each_entry(pd, any_entry, NULL))
		return;
	err = e2x_itree_verify(pd->fs, pd->ino, pd->inode, walk_ents, pd,
			       report, pd, &n);
	if (!err || err == E2X_ERR_NOT_FOUND)
		return;
	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.str = error_message(err);
	if (fix_problem(pd->ctx, PR_2_ITREE, &pctx))
		pd->reindex = 1;
}
