/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quota.c --- quota usage: pass 1 adds every inode's space and count to
 * its user, group and project; after pass 5 the quota files (format v2,
 * revision 1, read through libe2x's reader, e2x-quota.h) must say the
 * same.  The repair writes the file anew with the counted usage and the
 * limits it held (lib/repair/repair_quota.c).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"

static const char *const qname[FSCK_QUOTA_TYPES] = {
	"user", "group", "project"
};

struct qusage {
	uint32_t id;
	int used;		/* slot in use */
	int on_disk;		/* a record was found */
	uint64_t space, inodes;		/* counted */
	uint64_t dspace, dinodes;	/* on disk */
	uint64_t limits[4], btime, itime;	/* on disk: ih, is, bh, bs */
};

struct qmap {
	struct qusage *v;
	size_t n, cap;
};

static struct qusage *qmap_get(struct qmap *m, uint32_t id)
{
	size_t i;

	if (m->n * 2 >= m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64, j;
		struct qusage *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (j = 0; j < m->cap; j++) {
			if (!m->v[j].used)
				continue;
			i = (m->v[j].id * 2654435761U) & (cap - 1);
			while (v[i].used)
				i = (i + 1) & (cap - 1);
			v[i] = m->v[j];
		}
		free(m->v);
		m->v = v;
		m->cap = cap;
	}
	i = (id * 2654435761U) & (m->cap - 1);
	while (m->v[i].used && m->v[i].id != id)
		i = (i + 1) & (m->cap - 1);
	if (!m->v[i].used) {
		m->v[i].used = 1;
		m->v[i].id = id;
		m->n++;
	}
	return &m->v[i];
}

static ext2_ino_t quota_ino(ext2_filsys fs, int type)
{
	struct ext2_super_block *sb = fs->super;

	if (type == 0)
		return sb->s_usr_quota_inum;
	if (type == 1)
		return sb->s_grp_quota_inum;
	return sb->s_prj_quota_inum;
}

int fsck_quota_enabled(ext2_filsys fs)
{
	return ext2fs_has_feature_quota(fs->super);
}

void fsck_quota_add(struct fsck_ctx *ctx, ext2_ino_t ino,
		    const struct ext2_inode_large *in, unsigned int isize,
		    uint64_t bytes, uint64_t inodes)
{
	uint32_t ids[FSCK_QUOTA_TYPES];
	int t;

	if (!fsck_quota_enabled(ctx->fs) || !ctx->qmaps)
		return;
	if (ino != EXT2_ROOT_INO && ino < EXT2_FIRST_INODE(ctx->fs->super))
		return;
	if (in->i_flags & EXT4_EA_INODE_FL)
		return;
	for (t = 0; t < FSCK_QUOTA_TYPES; t++)
		if (ino == quota_ino(ctx->fs, t))
			return;
	ids[0] = inode_uid(*in);
	ids[1] = inode_gid(*in);
	ids[2] = 0;
	if (isize > EXT2_GOOD_OLD_INODE_SIZE &&
	    EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize >=
		    offsetof(struct ext2_inode_large, i_projid) + 4)
		ids[2] = in->i_projid;
	for (t = 0; t < FSCK_QUOTA_TYPES; t++) {
		struct qusage *q;

		if (!quota_ino(ctx->fs, t))
			continue;
		q = qmap_get(&ctx->qmaps[t], ids[t]);
		if (!q)
			continue;
		q->space += bytes;
		q->inodes += inodes;
	}
}

/* The counters are unsigned: adding the two's complement subtracts. */
void fsck_quota_take_back(struct fsck_ctx *ctx, ext2_ino_t ino,
			  const struct ext2_inode_large *in,
			  unsigned int isize, uint64_t bytes, uint64_t inodes)
{
	fsck_quota_add(ctx, ino, in, isize, -bytes, -inodes);
}

/* One record of the quota file: its figures go beside the counted ones,
 * its limits and grace times are kept for a rewrite. */
static int take_record(const struct e2x_dquot *dq, void *priv)
{
	struct qusage *q = qmap_get(priv, dq->id);

	if (q && !q->on_disk) {
		q->on_disk = 1;
		q->dinodes = dq->curinodes;
		q->dspace = dq->curspace;
		q->limits[0] = dq->ihardlimit;
		q->limits[1] = dq->isoftlimit;
		q->limits[2] = dq->bhardlimit;
		q->limits[3] = dq->bsoftlimit;
		q->btime = dq->btime;
		q->itime = dq->itime;
	}
	return 0;
}

/*
 * Write quota file T anew: every id that was on disk or owns something,
 * with the usage counted and the limits and grace times it had; ids with
 * neither usage nor limits go (id 0 stays).  INFO is the old file's
 * header.
 */
static errcode_t rewrite(ext2_filsys fs, int t,
			 const struct e2x_quota_info *info, struct qmap *m)
{
	struct e2x_dquot *recs;
	size_t i, n = 0;
	errcode_t err;

	recs = calloc(m->n ? m->n : 1, sizeof(*recs));
	if (!recs)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < m->cap; i++) {
		struct qusage *q = &m->v[i];
		struct e2x_dquot *r = &recs[n];

		if (!q->used)
			continue;
		if (q->id && !q->space && !q->inodes && !q->limits[0] &&
		    !q->limits[1] && !q->limits[2] && !q->limits[3])
			continue;
		r->id = q->id;
		r->ihardlimit = q->limits[0];
		r->isoftlimit = q->limits[1];
		r->bhardlimit = q->limits[2];
		r->bsoftlimit = q->limits[3];
		r->curinodes = q->inodes;
		r->curspace = q->space;
		r->btime = q->btime;
		r->itime = q->itime;
		n++;
	}
	err = e2x_repair_quota_write(fs, quota_ino(fs, t), info, recs, n);
	free(recs);
	return err;
}

static void check_type(struct fsck_ctx *ctx, int t)
{
	ext2_filsys fs = ctx->fs;
	struct qmap *m = &ctx->qmaps[t];
	struct problem_ctx pctx;
	struct e2x_quota_file *qf;
	struct e2x_quota_info info;
	unsigned int reports = 0, fixed = 0;
	char what[48];
	size_t i;

	if (e2x_quota_open(fs, t, &qf))
		return;		/* PR_0_QUOTA_INODE covers unusable files */
	pctx_clear(&pctx);
	pctx.str = qname[t];
	/* a tree that cannot be walked is written anew from the usage
	 * counted: ids read before the bad reference keep their limits, the
	 * rest have none; their usage is not compared one by one */
	if (e2x_quota_iterate(qf, take_record, m)) {
		pctx.ino = quota_ino(fs, t);
		fixed = fix_problem(ctx, PR_5_QUOTA_FILE, &pctx);
		if (!fixed)
			goto out;
		goto write;
	}
	for (i = 0; i < m->cap; i++) {
		struct qusage *q = &m->v[i];

		if (!q->used || (q->space == q->dspace && q->inodes == q->dinodes))
			continue;
		if (!q->on_disk && !q->space && !q->inodes)
			continue;
		if (++reports > 8)
			continue;
		snprintf(what, sizeof(what), "%s quota of id %u", qname[t],
			 (unsigned int)q->id);
		pctx.str = what;
		pctx.blk = q->dspace;
		pctx.blk2 = q->space;
		pctx.num = q->dinodes;
		pctx.num2 = q->inodes;
		fixed += fix_problem(ctx, PR_5_QUOTA_USAGE, &pctx);
	}
write:
	if (fixed) {
		blk64_t before = ext2fs_free_blocks_count(fs->super);

		e2x_quota_file_info(qf, &info);
		if (fsck_alloc_prepare(ctx) || rewrite(fs, t, &info, m)) {
			ctx->problems_fixed -= fixed;
			ctx->problems_unfixed += fixed;
		}
		/* blocks the file grew by leave pass 5's count */
		if (ext2fs_free_blocks_count(fs->super) < before)
			ctx->counted_free_blocks -=
				before - ext2fs_free_blocks_count(fs->super);
	}
out:
	e2x_quota_close(qf);
}

void fsck_quota_check(struct fsck_ctx *ctx)
{
	int t;

	if (ctx->abort || !fsck_quota_enabled(ctx->fs) || !ctx->qmaps)
		return;
	for (t = 0; t < FSCK_QUOTA_TYPES; t++) {
		ext2_ino_t ino = quota_ino(ctx->fs, t);

		if (ino && ino <= ctx->fs->super->s_inodes_count &&
		    (ino < EXT2_FIRST_INODE(ctx->fs->super) ||
		     ext2fs_test_inode_bitmap2(ctx->inode_used, ino)))
			check_type(ctx, t);
	}
}

errcode_t fsck_quota_init(struct fsck_ctx *ctx)
{
	if (!fsck_quota_enabled(ctx->fs))
		return 0;
	ctx->qmaps = calloc(FSCK_QUOTA_TYPES, sizeof(*ctx->qmaps));
	return ctx->qmaps ? 0 : EXT2_ET_NO_MEMORY;
}

void fsck_quota_free(struct fsck_ctx *ctx)
{
	int t;

	if (!ctx->qmaps)
		return;
	for (t = 0; t < FSCK_QUOTA_TYPES; t++)
		free(ctx->qmaps[t].v);
	free(ctx->qmaps);
	ctx->qmaps = NULL;
}
