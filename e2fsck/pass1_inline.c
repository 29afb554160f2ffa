/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_inline.c --- pass 1's checks of the in-inode extended attribute
 * area and of inline data (system.data present and sane, sizes, only on
 * types that can hold data).  The area is read by libe2x's walk
 * (e2x_xattr_ibody_walk), which bounds-checks every length and reports
 * what is wrong per entry; pass 1 decides which faults to report.
 */
#include "config.h"
#include <string.h>
#include "pass1.h"

/* The reason pass 1 gives for an in-inode area with FAULTS (as
 * e2x_xattr_ibody_walk reports them), or NULL when it passes.  Empty
 * names, value padding and value inodes are not this check's business. */
static const char *ibody_reason(unsigned int faults)
{
	if (faults & E2X_XATTR_F_LIST_CUT)
		return "entries run past the end";
	if (faults & E2X_XATTR_F_VALUE_OUTSIDE)
		return "a value lies outside the attribute area";
	if (faults & E2X_XATTR_F_VALUE_SHARED)
		return "two values share bytes";
	return NULL;
}

struct ibody_find {
	int index;
	const char *name;
	size_t len;
	const struct e2x_xattr_ibody_entry *hit;
	struct e2x_xattr_ibody_entry last;
};

static int match_entry(const struct e2x_xattr_ibody_entry *e, void *priv)
{
	struct ibody_find *f = priv;

	if (e->xa.name_index == f->index && e->xa.name_len == f->len &&
	    !memcmp(e->xa.name, f->name, f->len)) {
		f->last = *e;
		f->hit = &f->last;
	}
	return 0;
}

errcode_t p1_ibody_find(ext2_filsys fs, const struct ext2_inode_large *inode,
			int index, const char *name, unsigned int *voff,
			unsigned int *vlen, uint32_t *vinum, const char **why)
{
	struct ibody_find f = { .index = index, .name = name,
				.len = strlen(name) };
	unsigned int faults;

	*why = NULL;
	/* an impossible i_extra_isize is check_extra_isize's to report */
	if (e2x_xattr_ibody_walk(fs, inode, match_entry, &f, &faults))
		return E2X_ERR_NOT_FOUND;
	*why = ibody_reason(faults);
	if (*why)
		return E2X_ERR_CORRUPT;
	if (!f.hit)
		return E2X_ERR_NOT_FOUND;
	*voff = f.hit->value_off;
	*vlen = f.hit->xa.value_len;
	*vinum = f.hit->xa.value_inum;
	return 0;
}

/* The walk's callback that keeps the first entry's offset and stops. */
static int first_entry(const struct e2x_xattr_ibody_entry *e, void *priv)
{
	*(unsigned int *)priv = e->entry_off;
	return 1;
}

/* One walk of the in-inode area: its faults and its first entry's offset
 * (*FIRST 0: no entry).  Returns 0 when the area could be read. */
static int ibody_scan(struct p1_inode *st, unsigned int *first,
		      unsigned int *faults)
{
	errcode_t err;

	*first = 0;
	err = e2x_xattr_ibody_walk(st->fs, st->inode, first_entry, first,
				   faults);
	return err && !*first;	/* the callback stops the walk with 1 */
}

/* The value-inode entries of the in-inode area from FIRST (values are
 * placed from the first entry on) judged by pass1_xattr.c with FLAGS. */
static void check_ibody_entries(struct p1_inode *st, unsigned int first,
				int flags)
{
	if (first)
		p1_check_ea_entries(st, (const char *)st->inode, first,
				    st->isize, first, 0, flags);
}

void p1_check_ibody_ea(struct p1_inode *st)
{
	struct problem_ctx pctx;
	unsigned int faults, first;

	if (ibody_scan(st, &first, &faults))
		return;
	if (ibody_reason(faults)) {
		pctx_clear(&pctx);
		pctx.ino = st->ino;
		pctx.str = ibody_reason(faults);
		p1_fix(st, PR_1_IBODY_EA_BAD, &pctx);
		return;
	}
	check_ibody_entries(st, first, 0);
}

/* An inline inode's attributes (p1_check_inline judged the area): the
 * value inodes they name count in i_blocks and are not orphans; they are
 * only counted, as dropping them would drop the data. */
void p1_note_ibody_ea_inodes(struct p1_inode *st)
{
	unsigned int faults, first;

	if (!ibody_scan(st, &first, &faults))
		check_ibody_entries(st, first, EA_NO_DROP);
}

/* Report; returns 1 when the problem was repaired. */
static int inline_problem(struct p1_inode *st, problem_t code,
			  struct problem_ctx *pctx)
{
	if (p1_fix(st, code, pctx))
		return 1;
	st->bad = 1;
	return 0;
}

/* I_BLOCK reads as an indirect block map: pointers inside the file
 * system or zero, at least one set. */
static int looks_like_map(ext2_filsys fs, const struct ext2_inode_large *in)
{
	int i, set = 0;

	for (i = 0; i < EXT2_N_BLOCKS; i++) {
		blk64_t b = in->i_block[i];

		if (!b)
			continue;
		if (b < fs->super->s_first_data_block ||
		    b >= ext2fs_blocks_count(fs->super))
			return 0;
		set = 1;
	}
	return set;
}

/*
 * Both the inline data and the extent flags: keep the one the inode's
 * contents agree with (an extent header in i_block, a system.data
 * attribute, a block map), clear the inode when none does.  Returns 1
 * when the inline checks go on (the extent flag went), 0 otherwise; a
 * flag dropped for a block area reruns pass 1, which walks it.
 */
static int both_flags(struct p1_inode *st, struct problem_ctx *pctx)
{
	struct ext2_inode_large *in = st->inode;
	const struct ext3_extent_header *eh = (const void *)in->i_block;
	unsigned int voff, vlen;
	uint32_t vinum;
	const char *why;
	problem_t code = PR_1_INLINE_AND_EXTENTS;

	if (ext2fs_le16_to_cpu(eh->eh_magic) == EXT3_EXT_MAGIC)
		code = PR_1_INLINE_AND_EXT_TREE;
	else if (!p1_ibody_find(st->fs, in, FSCK_XATTR_INDEX_SYSTEM,
				"data", &voff, &vlen, &vinum, &why))
		code = PR_1_INLINE_AND_EXT_DATA;
	else if (looks_like_map(st->fs, in))
		code = PR_1_INLINE_AND_EXT_MAP;
	if (!inline_problem(st, code, pctx))
		return 0;
	if (code == PR_1_INLINE_AND_EXT_DATA)
		return 1;
	if (code != PR_1_INLINE_AND_EXTENTS) {
		st->ctx->p1_restart = 1;
		st->bad = 1;	/* counts and sizes: once the map is walked */
	}
	return 0;
}

/* An inode with the inline data flag: returns with st->inline_cap set. */
void p1_check_inline(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	struct problem_ctx pctx;
	unsigned int voff, vlen;
	uint32_t vinum;
	const char *why;
	errcode_t err;
	uint64_t size = EXT2_I_SIZE(in);

	pctx_clear(&pctx);
	st->inline_cap = 0;
	if (!ext2fs_has_feature_inline_data(st->fs->super)) {
		if (!inline_problem(st, PR_1_INLINE_NO_FEATURE, &pctx))
			return;
	}
	if ((in->i_flags & EXT4_EXTENTS_FL) && !both_flags(st, &pctx))
		return;
	if (!LINUX_S_ISREG(in->i_mode) && !LINUX_S_ISDIR(in->i_mode) &&
	    !LINUX_S_ISLNK(in->i_mode)) {
		inline_problem(st, PR_1_INLINE_TYPE, &pctx);
		return;
	}
	err = p1_ibody_find(st->fs, in, FSCK_XATTR_INDEX_SYSTEM, "data",
			    &voff, &vlen, &vinum, &why);
	if (err == E2X_ERR_CORRUPT) {
		pctx.str = why;
		inline_problem(st, PR_1_INLINE_READ, &pctx);
		return;
	}
	if (err || vinum) {
		/* a regular file keeps the bytes i_block holds */
		if (LINUX_S_ISREG(in->i_mode)) {
			pctx.str = err ? "none found" :
					 "its value is in an attribute inode";
			if (inline_problem(st, PR_1_INLINE_DATA_LOST, &pctx) &&
			    (in->i_flags & EXT4_INLINE_DATA_FL))
				p1_check_inline(st);
			return;
		}
		if (err) {
			inline_problem(st, PR_1_INLINE_NO_DATA, &pctx);
			return;
		}
		pctx.str = "system.data stored in an attribute inode";
		inline_problem(st, PR_1_INLINE_READ, &pctx);
		return;
	}
	st->inline_cap = EXT4_MIN_INLINE_DATA_SIZE + vlen;
	/* a directory's and a symlink's size is all of the inline data */
	if (size > st->inline_cap ||
	    ((LINUX_S_ISDIR(in->i_mode) || LINUX_S_ISLNK(in->i_mode)) &&
	     size != st->inline_cap)) {
		pctx.num = size;
		pctx.num2 = st->inline_cap;
		if (!inline_problem(st, PR_1_INLINE_SIZE, &pctx))
			return;
	}
	if (LINUX_S_ISDIR(in->i_mode) && !st->quiet)
		ext2fs_add_dir_block2(st->ctx->dblist, st->ino, 0, 0);
}
