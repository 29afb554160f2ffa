/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass1_inline.c --- pass 1's checks of the in-inode extended attribute
 * area and of inline data (system.data present and sane, sizes, only on
 * types that can hold data).  Every length read from the inode is
 * bounds-checked here; libext2fs' inline data helpers are not used.
 */
#include "config.h"
#include <string.h>
#include "pass1.h"
#include <ext2fs/ext2_ext_attr.h>

#define IBODY_MAGIC_LEN 4

/* Offsets of the in-inode xattr area: [start, end) in the inode buffer. */
static int ibody_area(const struct ext2_inode_large *inode,
		      unsigned int isize, unsigned int *start,
		      unsigned int *end)
{
	unsigned int extra;

	if (isize <= EXT2_GOOD_OLD_INODE_SIZE)
		return 0;
	extra = inode->i_extra_isize;
	if (extra > isize - EXT2_GOOD_OLD_INODE_SIZE || (extra & 3))
		return 0;
	*start = EXT2_GOOD_OLD_INODE_SIZE + extra;
	*end = isize;
	if (*start + IBODY_MAGIC_LEN > *end)
		return 0;
	return *(const uint32_t *)((const char *)inode + *start) ==
	       EXT2_EXT_ATTR_MAGIC;
}

/* Whether two entries' values (from FIRST, already known to lie inside
 * the region) use the same bytes; the kernel never makes that. */
static int values_overlap(const char *base, unsigned int first,
			  unsigned int value_base)
{
	const struct ext2_ext_attr_entry *a, *b;
	unsigned int i, j;

	for (i = first; !EXT2_EXT_IS_LAST_ENTRY(
		     a = (const void *)(base + i));
	     i += EXT2_EXT_ATTR_LEN(a->e_name_len)) {
		uint64_t a0 = (uint64_t)value_base + a->e_value_offs;
		uint64_t a1 = a0 + EXT2_EXT_ATTR_SIZE(a->e_value_size);

		if (a->e_value_inum || !a->e_value_size)
			continue;
		for (j = i + EXT2_EXT_ATTR_LEN(a->e_name_len);
		     !EXT2_EXT_IS_LAST_ENTRY(b = (const void *)(base + j));
		     j += EXT2_EXT_ATTR_LEN(b->e_name_len)) {
			uint64_t b0 = (uint64_t)value_base + b->e_value_offs;
			uint64_t b1 = b0 + EXT2_EXT_ATTR_SIZE(b->e_value_size);

			if (!b->e_value_inum && b->e_value_size && a0 < b1 &&
			    b0 < a1)
				return 1;
		}
	}
	return 0;
}

/*
 * Walk the entries of an xattr region: entries from FIRST, values at
 * VALUE_BASE + e_value_offs, everything inside [0, SIZE) of BASE.  Calls
 * nothing; returns NULL when sane or a reason.  When NAME is given, sets
 * *FOUND_AT to the matching entry's offset (or leaves it).
 */
static const char *walk_entries(const char *base, unsigned int first,
				unsigned int size, unsigned int value_base,
				int index, const char *name,
				unsigned int *found_at)
{
	unsigned int off = first, end_entries;
	size_t nlen = name ? strlen(name) : 0;

	for (;;) {
		const struct ext2_ext_attr_entry *e;

		if (off + 4 > size)
			return "entries run past the end";
		e = (const void *)(base + off);
		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		if (off + sizeof(*e) > size ||
		    off + EXT2_EXT_ATTR_LEN(e->e_name_len) > size)
			return "entries run past the end";
		/* an empty name is valid: system.posix_acl_* use one */
		if (name && e->e_name_index == index &&
		    e->e_name_len == nlen &&
		    !memcmp(EXT2_EXT_ATTR_NAME(e), name, nlen))
			*found_at = off;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
	}
	end_entries = off + 4;
	for (off = first;;) {
		const struct ext2_ext_attr_entry *e = (const void *)(base + off);
		uint64_t v0, v1;

		if (EXT2_EXT_IS_LAST_ENTRY(e))
			break;
		off += EXT2_EXT_ATTR_LEN(e->e_name_len);
		if (e->e_value_inum) {
			continue;
		}
		if (!e->e_value_size)
			continue;
		v0 = (uint64_t)value_base + e->e_value_offs;
		v1 = v0 + e->e_value_size;
		if (v0 < end_entries || v1 > size)
			return "a value lies outside the attribute area";
	}
	return values_overlap(base, first, value_base) ?
		       "two values share bytes" : NULL;
}

errcode_t p1_ibody_find(const struct ext2_inode_large *inode,
			unsigned int isize, int index, const char *name,
			unsigned int *voff, unsigned int *vlen,
			uint32_t *vinum, const char **why)
{
	const char *base = (const char *)inode;
	const struct ext2_ext_attr_entry *e;
	unsigned int start, end, at = 0;

	*why = NULL;
	if (!ibody_area(inode, isize, &start, &end))
		return E2X_ERR_NOT_FOUND;
	*why = walk_entries(base, start + IBODY_MAGIC_LEN, end,
			    start + IBODY_MAGIC_LEN, index, name, &at);
	if (*why)
		return E2X_ERR_CORRUPT;
	if (!at)
		return E2X_ERR_NOT_FOUND;
	e = (const void *)(base + at);
	*voff = start + IBODY_MAGIC_LEN + e->e_value_offs;
	*vlen = e->e_value_size;
	*vinum = e->e_value_inum;
	return 0;
}

void p1_check_ibody_ea(struct p1_inode *st)
{
	struct problem_ctx pctx;
	unsigned int start, end;
	const char *why;

	if (!ibody_area(st->inode, st->isize, &start, &end))
		return;
	why = walk_entries((const char *)st->inode, start + IBODY_MAGIC_LEN,
			   end, start + IBODY_MAGIC_LEN, 0, NULL, NULL);
	if (why) {
		pctx_clear(&pctx);
		pctx.ino = st->ino;
		pctx.str = why;
		p1_fix(st, PR_1_IBODY_EA_BAD, &pctx);
		return;
	}
	p1_check_ea_entries(st, (const char *)st->inode,
			    start + IBODY_MAGIC_LEN, end,
			    start + IBODY_MAGIC_LEN, 0, 0);
}

/* An inline inode's attributes (p1_check_inline judged the area): the
 * value inodes they name count in i_blocks and are not orphans. */
void p1_note_ibody_ea_inodes(struct p1_inode *st)
{
	unsigned int start, end;

	if (!ibody_area(st->inode, st->isize, &start, &end))
		return;
	p1_check_ea_entries(st, (const char *)st->inode,
			    start + IBODY_MAGIC_LEN, end,
			    start + IBODY_MAGIC_LEN, 0, 0);
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
	else if (!p1_ibody_find(in, st->isize, FSCK_XATTR_INDEX_SYSTEM,
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
	err = p1_ibody_find(in, st->isize, FSCK_XATTR_INDEX_SYSTEM, "data",
			    &voff, &vlen, &vinum, &why);
	if (err == E2X_ERR_CORRUPT) {
		pctx.str = why;
		inline_problem(st, PR_1_INLINE_READ, &pctx);
		return;
	}
	if (err) {
		inline_problem(st, PR_1_INLINE_NO_DATA, &pctx);
		return;
	}
	if (vinum) {
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
