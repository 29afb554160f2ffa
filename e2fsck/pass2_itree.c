/*
 * pass2_itree.c --- pass 2's itree check: the entries pass 2 read from a
 * directory are handed to libe2x's e2x_itree_verify(), which checks the
 * tree's structure, key order and fullness bounds and that its entries
 * are exactly the directory's.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass2.h"

#define ITREE_MAX_REPORTS 8

void p2_itree_add(struct p2_dir *pd, const struct ext2_dir_entry *d)
{
	struct p2_ent *e;
	int len = ext2fs_dirent_name_len(d);
	ext2_dirhash_t hash = 0, minor;

	if (!pd->hash_ok) {
		pd->itree = 0;	/* no hash version: the tree cannot match */
		return;
	}
	if (pd->nents == pd->ents_cap) {
		size_t cap = pd->ents_cap ? pd->ents_cap * 2 : 256;

		e = realloc(pd->ents, cap * sizeof(*e));
		if (!e) {
			pd->itree = 0;
			return;
		}
		pd->ents = e;
		pd->ents_cap = cap;
	}
	if (ext2fs_dirhash2(pd->hash_version, d->name, len, NULL, 0,
			    pd->fs->super->s_hash_seed, &hash, &minor))
		return;
	e = &pd->ents[pd->nents++];
	e->ino = d->inode;
	e->hash = hash;
	e->name_len = len;
	e->file_type = ext2fs_dirent_file_type(d);
	memcpy(e->name, d->name, len);
}

static errcode_t walk_ents(ext2_filsys fs, ext2_ino_t dir, void *priv,
			   e2x_itree_entry_fn emit, void *emit_priv)
{
	struct p2_dir *pd = priv;
	size_t i;

	for (i = 0; i < pd->nents; i++) {
		struct e2x_itree_entry ent = {
			.ino = pd->ents[i].ino,
			.hash = pd->ents[i].hash,
			.name_len = pd->ents[i].name_len,
			.file_type = pd->ents[i].file_type,
			.name = pd->ents[i].name,
		};
		int rc = emit(&ent, emit_priv);

		if (rc)
			return rc == E2X_ITREE_STOP ? 0 : rc;
	}
	return 0;
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
	fix_problem(pd->ctx, PR_2_ITREE, &pctx);
	return ++pd->itree_reports >= ITREE_MAX_REPORTS;
}

void p2_itree_verify(struct p2_dir *pd)
{
	struct problem_ctx pctx;
	unsigned int n = 0;
	errcode_t err;

	err = e2x_itree_verify(pd->fs, pd->ino, pd->inode, walk_ents, pd,
			       report, pd, &n);
	if (!err || err == E2X_ERR_NOT_FOUND)
		return;
	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.str = error_message(err);
	fix_problem(pd->ctx, PR_2_ITREE, &pctx);
}
