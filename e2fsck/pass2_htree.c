/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2_htree.c --- pass 2's hash index (htree) checks: the root and
 * interior nodes (header, count and limit, ascending hashes, checksums,
 * depth, every block referenced once) and the hash order of the entries
 * in each leaf.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass2.h"

#define DX_ROOT_INFO_OFF 24
#define DX_ROOT_ENTRIES_OFF 32
#define DX_NODE_ENTRIES_OFF 8

static void dx_problem(struct p2_dir *pd, problem_t code, uint64_t lblk,
		       const char *why)
{
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.num = lblk;
	pctx.str = why;
	if (fix_problem(pd->ctx, code, &pctx))
		pd->reindex = 1;
	pd->htree = 0;
}

static unsigned int dx_tail_size(ext2_filsys fs)
{
	return ext2fs_has_feature_metadata_csum(fs->super) ?
		       sizeof(struct ext2_dx_tail) :
		       0;
}

int p2_read_lblk(struct p2_dir *pd, uint64_t lblk, char *buf)
{
	size_t lo = 0, hi = pd->nblocks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pd->blocks[mid].lblk == lblk)
			return io_channel_read_blk64(pd->fs->io,
						     pd->blocks[mid].pblk, 1,
						     buf) ?
				       -1 :
				       0;
		if (pd->blocks[mid].lblk < lblk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Walk one index node's entries (at OFF in BUF); LEVELS below it. */
static int dx_walk(struct p2_dir *pd, char *buf, unsigned int off,
		   uint64_t lblk, int levels, uint32_t lo, uint64_t hi)
{
	ext2_filsys fs = pd->fs;
	struct ext2_dx_countlimit *cl = (void *)(buf + off);
	struct ext2_dx_entry *ent = (void *)(buf + off);
	unsigned int limit = (fs->blocksize - off - dx_tail_size(fs)) / 8;
	char *child = NULL;
	unsigned int i, rec_len;
	int rc = -1;

	if (cl->limit != limit || !cl->count || cl->count > cl->limit) {
		dx_problem(pd, lblk ? PR_2_HTREE_NODE : PR_2_HTREE_ROOT, lblk,
			   "count or limit wrong");
		return -1;
	}
	if (ext2fs_get_mem(fs->blocksize, &child))
		return -1;
	for (i = 0; i < cl->count; i++) {
		uint32_t c = ent[i].block & 0x0fffffff;
		uint32_t clo = i ? ent[i].hash : lo;
		uint64_t chi = i + 1 < cl->count ? ent[i + 1].hash : hi;

		if (i && (ent[i].hash < lo ||
			  (i > 1 && ent[i].hash < ent[i - 1].hash) ||
			  ent[i].hash > hi)) {
			dx_problem(pd, PR_2_HTREE_NODE, lblk,
				   "hashes not in ascending order");
			goto out;
		}
		if (c >= pd->ndx || !c) {
			dx_problem(pd, PR_2_HTREE_NODE, lblk,
				   "points outside the directory");
			goto out;
		}
		if (pd->dx[c].role != DX_NONE) {
			dx_problem(pd, PR_2_HTREE_NODE, lblk,
				   "points at a block twice");
			goto out;
		}
		if (!levels) {
			pd->dx[c] = (struct dx_block){ DX_LEAF, clo, chi };
			continue;
		}
		pd->dx[c].role = DX_INDEX;
		if (p2_read_lblk(pd, c, child)) {
			dx_problem(pd, PR_2_HTREE_NODE, c, "unreadable");
			goto out;
		}
		if (*(uint32_t *)child != 0 ||
		    ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)child,
				       &rec_len) ||
		    rec_len != fs->blocksize) {
			dx_problem(pd, PR_2_HTREE_NODE, c,
				   "not an index node");
			goto out;
		}
		if (ext2fs_has_feature_metadata_csum(fs->super) &&
		    !ext2fs_dir_block_csum_verify(fs, pd->ino,
						  (void *)child)) {
			struct problem_ctx pctx;

			pctx_clear(&pctx);
			pctx.ino = pd->ino;
			pctx.num = c;
			if (fix_problem(pd->ctx, PR_2_HTREE_CSUM, &pctx))
				pd->reindex = 1;
		}
		if (dx_walk(pd, child, DX_NODE_ENTRIES_OFF, c, levels - 1, clo,
			    chi))
			goto out;
	}
	rc = 0;
out:
	ext2fs_free_mem(&child);
	return rc;
}

static int dx_hash_version(struct p2_dir *pd, int v)
{
	if (v > EXT2_HASH_TEA && v != EXT2_HASH_SIPHASH)
		return -1;
	return e2x_name_hash_version(pd->fs, v);
}

void p2_htree_map(struct p2_dir *pd)
{
	ext2_filsys fs = pd->fs;
	struct ext2_dx_root_info *info;
	char *buf = pd->buf;
	int max_levels;
	size_t i;

	pd->htree = 0;
	pd->ndx = pd->nblocks ? pd->blocks[pd->nblocks - 1].lblk + 1 : 0;
	if (pd->ndx > (1ULL << 24) || !pd->ndx)
		return;
	pd->dx = calloc(pd->ndx, sizeof(*pd->dx));
	if (!pd->dx || p2_read_lblk(pd, 0, buf))
		return;
	info = (void *)(buf + DX_ROOT_INFO_OFF);
	pd->htree = 1;
	if (info->reserved_zero || info->info_length != 8) {
		dx_problem(pd, PR_2_HTREE_ROOT, 0, "bad root information");
		return;
	}
	if (info->unused_flags & 1) {
		dx_problem(pd, PR_2_HTREE_ROOT, 0, "incompatible root flag");
		return;
	}
	pd->hash_version = dx_hash_version(pd, info->hash_version);
	pd->hash_ok = pd->hash_version >= 0;
	if (pd->hash_version < 0) {
		dx_problem(pd, PR_2_HTREE_ROOT, 0, "unknown hash version");
		return;
	}
	max_levels = ext2fs_has_feature_largedir(fs->super) ? 3 : 2;
	if (info->indirect_levels >= max_levels) {
		struct problem_ctx pctx;

		pctx_clear(&pctx);
		pctx.ino = pd->ino;
		pctx.num = info->indirect_levels + 1;
		if (fix_problem(pd->ctx, PR_2_HTREE_DEPTH, &pctx))
			pd->reindex = 1;
		pd->htree = 0;
		return;
	}
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !ext2fs_dir_block_csum_verify(fs, pd->ino, (void *)buf)) {
		struct problem_ctx pctx;

		pctx_clear(&pctx);
		pctx.ino = pd->ino;
		if (fix_problem(pd->ctx, PR_2_HTREE_CSUM, &pctx))
			pd->reindex = 1;
	}
	pd->dx[0].role = DX_INDEX;
	if (dx_walk(pd, buf, DX_ROOT_ENTRIES_OFF, 0, info->indirect_levels, 0,
		    1ULL << 32))
		return;
	for (i = 0; i < pd->nblocks; i++) {
		if (pd->dx[pd->blocks[i].lblk].role == DX_NONE) {
			dx_problem(pd, PR_2_HTREE_NODE, pd->blocks[i].lblk,
				   "block not referenced by the index");
			return;
		}
	}
}

void p2_htree_check_entry(struct p2_dir *pd, uint64_t lblk, const char *name,
			  int len)
{
	struct dx_block *d;
	struct e2x_name_policy policy;
	uint32_t hash = 0, minor;
	struct problem_ctx pctx;

	if (!pd->htree || lblk >= pd->ndx || pd->encrypted)
		return;
	d = &pd->dx[lblk];
	if (d->role != DX_LEAF)
		return;
	e2x_name_policy_init(pd->fs, pd->inode->i_flags, pd->hash_version,
			     &policy);
	if (e2x_name_hash(&policy, name, (unsigned int)len, &hash, &minor))
		return;
	hash &= ~1U;
	if (hash >= (d->lo & ~1U) &&
	    ((uint64_t)hash < (d->hi & ~1ULL) ||
	     (hash == (d->hi & ~1ULL) && (d->hi & 1))))
		return;
	pctx_clear(&pctx);
	pctx.ino = pd->ino;
	pctx.num = lblk;
	pctx.name = name;
	pctx.namelen = len;
	if (fix_problem(pd->ctx, PR_2_HTREE_HASH, &pctx))
		pd->reindex = 1;
	pd->htree = 0;	/* one report per directory */
}
