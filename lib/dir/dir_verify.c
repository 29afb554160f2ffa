/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir_verify.c --- every violated invariant of one directory (inline,
 * linear, htree, and its itree through the itree verifier), as a list of
 * problems with a code, a location and a short description.  No printing.
 */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

static const char *const problem_names[E2X_DIRP_MAX] = {
	[E2X_DIRP_NOT_DIR] = "not a directory",
	[E2X_DIRP_BAD_SIZE] = "size does not match the form",
	[E2X_DIRP_HOLE] = "hole in the directory",
	[E2X_DIRP_BAD_RECORD] = "malformed record",
	[E2X_DIRP_BAD_INODE] = "entry inode out of range",
	[E2X_DIRP_BAD_TYPE] = "entry file type wrong",
	[E2X_DIRP_BAD_NAME] = "invalid name",
	[E2X_DIRP_DUP_NAME] = "duplicate name",
	[E2X_DIRP_NO_DOT] = "'.' or '..' missing or wrong",
	[E2X_DIRP_NO_TAIL] = "checksum tail missing",
	[E2X_DIRP_BAD_CSUM] = "checksum mismatch",
	[E2X_DIRP_DX_ROOT] = "htree root invalid",
	[E2X_DIRP_DX_LIMIT] = "htree count or limit wrong",
	[E2X_DIRP_DX_ORDER] = "htree hashes out of order",
	[E2X_DIRP_DX_RANGE] = "entry outside its leaf's hash range",
	[E2X_DIRP_DX_REF] = "block referenced twice or never",
	[E2X_DIRP_DX_DEPTH] = "htree too deep",
	[E2X_DIRP_INLINE] = "inline data invalid",
	[E2X_DIRP_FLAGS] = "inode flags contradict the form",
	[E2X_DIRP_ITREE] = "itree problem",
};

const char *e2x_dir_problem_name(enum e2x_dir_problem_code code)
{
	if (code <= 0 || code >= E2X_DIRP_MAX || !problem_names[code])
		return "unknown problem";
	return problem_names[code];
}

void e2x_dir_problems_free(struct e2x_dir_problems *p)
{
	free(p->list);
	memset(p, 0, sizeof(*p));
}

struct vctx {
	struct e2x_dirh *d;
	struct e2x_dir_problems *out;
	int flags;
	int version;		/* hash version (unsigned applied) */
	struct dir_coll names;	/* every live entry, for duplicates */
	uint8_t *seen;		/* htree: blocks referenced */
	unsigned int levels;
	errcode_t err;		/* allocation failure while reporting */
};

__attribute__((format(printf, 5, 6)))
static void report(struct vctx *v, enum e2x_dir_problem_code code,
		   uint64_t lblk, unsigned int off, const char *fmt, ...)
{
	struct e2x_dir_problem *p;
	va_list ap;

	if (v->out->count == v->out->cap) {
		size_t cap = v->out->cap ? v->out->cap * 2 : 16;
		void *n = realloc(v->out->list, cap * sizeof(*p));

		if (!n) {
			v->err = EXT2_ET_NO_MEMORY;
			return;
		}
		v->out->list = n;
		v->out->cap = cap;
	}
	p = &v->out->list[v->out->count++];
	memset(p, 0, sizeof(*p));
	p->code = code;
	p->lblk = lblk;
	p->offset = off;
	va_start(ap, fmt);
	vsnprintf(p->desc, sizeof(p->desc), fmt, ap);
	va_end(ap);
}

static int valid_entry_ino(ext2_filsys fs, ext2_ino_t ino)
{
	if (ino == EXT2_ROOT_INO)
		return 1;
	return ino >= EXT2_FIRST_INODE(fs->super) &&
	       ino <= fs->super->s_inodes_count;
}

/* Checks of one live entry; its name goes to the duplicate list. */
static void check_entry(struct vctx *v, uint64_t lblk, unsigned int off,
			const struct e2x_dirent *de, uint32_t *hash)
{
	ext2_filsys fs = v->d->fs;
	struct ext2_inode in;
	errcode_t err;

	if (!valid_entry_ino(fs, de->inode))
		report(v, E2X_DIRP_BAD_INODE, lblk, off, "inode %u",
		       de->inode);
	if (!dirh_name_ok(de->name, de->name_len))
		report(v, E2X_DIRP_BAD_NAME, lblk, off, "name of inode %u",
		       de->inode);
	if (de->file_type >= EXT2_FT_MAX ||
	    (!ext2fs_has_feature_filetype(fs->super) && de->file_type))
		report(v, E2X_DIRP_BAD_TYPE, lblk, off, "type %u",
		       de->file_type);
	else if (!(v->flags & E2X_DIR_VERIFY_FAST) &&
		 valid_entry_ino(fs, de->inode) &&
		 ext2fs_has_feature_filetype(fs->super)) {
		err = ext2fs_read_inode(fs, de->inode, &in);
		if (!err && !in.i_links_count)
			report(v, E2X_DIRP_BAD_INODE, lblk, off,
			       "inode %u is free", de->inode);
		else if (!err && e2x_ftype_of_mode(in.i_mode) != de->file_type)
			report(v, E2X_DIRP_BAD_TYPE, lblk, off,
			       "inode %u: type %u, mode says %d", de->inode,
			       de->file_type, e2x_ftype_of_mode(in.i_mode));
	}
	if (coll_add(&v->names, de->inode, de->name, de->name_len,
		     de->file_type))
		v->err = EXT2_ET_NO_MEMORY;
	else if (hash)
		dirh_hash(v->d, v->version, de->name, de->name_len, hash,
			  NULL);
}

/* Records of a region; LO/HI bound the hashes in an htree leaf
 * (HI_INCL: entries may equal HI, the next leaf continues it). */
struct range {
	int on;
	uint32_t lo, hi;
	int hi_incl, hi_none;
};

static void check_region(struct vctx *v, uint64_t lblk, unsigned int base,
			 struct e2x_dirregion *r, unsigned int skip,
			 const struct range *rg)
{
	struct e2x_dirent *de;
	unsigned int off = 0, len, idx = 0;
	uint32_t h;

	if (e2x_dirregion_check(r)) {
		report(v, E2X_DIRP_BAD_RECORD, lblk, base,
		       "record chain broken");
		return;
	}
	for (; off < r->size; off += len, idx++) {
		de = (void *)(r->buf + off);
		len = e2x_dirent_rec_len(de, r->bs);
		if (idx < skip || !de->inode)
			continue;
		check_entry(v, lblk, base + off, de, rg && rg->on ? &h : NULL);
		if (!rg || !rg->on)
			continue;
		if (h < rg->lo || (!rg->hi_none && (rg->hi_incl ? h > rg->hi :
							      h >= rg->hi)))
			report(v, E2X_DIRP_DX_RANGE, lblk, base + off,
			       "hash %#x outside [%#x, %#x%s", h, rg->lo,
			       rg->hi, rg->hi_incl ? "]" : ")");
	}
}

/* A leaf block: tail and checksum, then its records. */
static void check_leaf(struct vctx *v, uint64_t lblk, char *buf,
		       unsigned int skip, const struct range *rg)
{
	struct e2x_dirregion r;

	if (v->d->csum) {
		if (!e2x_dirblk_has_tail(buf, v->d->bs)) {
			report(v, E2X_DIRP_NO_TAIL, lblk, 0, "no tail");
		} else if (((struct e2x_dirent_tail *)(buf + v->d->bs -
						       E2X_DIRENT_TAIL_SIZE))
				   ->det_checksum !=
			   e2x_dirblk_csum(v->d->seed, buf, v->d->bs)) {
			report(v, E2X_DIRP_BAD_CSUM, lblk, 0, "leaf checksum");
		}
	}
	dirh_leaf_region(v->d, buf, &r);
	check_region(v, lblk, 0, &r, skip, rg);
}

/* '.' then '..' at the start of block 0. */
static void check_dots(struct vctx *v, char *buf)
{
	struct e2x_dirent *dot = (void *)buf, *dotdot;
	unsigned int len = e2x_dirent_rec_len(dot, v->d->bs);

	if (dot->name_len != 1 || dot->name[0] != '.' ||
	    dot->inode != v->d->ino || len < 12 || len > v->d->bs - 12) {
		report(v, E2X_DIRP_NO_DOT, 0, 0, "'.' wrong");
		return;
	}
	dotdot = (void *)(buf + len);
	if (dotdot->name_len != 2 || memcmp(dotdot->name, "..", 2) ||
	    !valid_entry_ino(v->d->fs, dotdot->inode))
		report(v, E2X_DIRP_NO_DOT, 0, len, "'..' wrong");
}

static void verify_linear(struct vctx *v)
{
	uint64_t lblk;

	for (lblk = 0; lblk < v->d->nblocks && !v->err; lblk++) {
		if (dirh_read(v->d, lblk, v->d->blk)) {
			report(v, E2X_DIRP_HOLE, lblk, 0, "unreadable");
			continue;
		}
		if (lblk == 0)
			check_dots(v, v->d->blk);
		check_leaf(v, lblk, v->d->blk, lblk == 0 ? 2 : 0, NULL);
	}
}

/* One index block's count/limit, checksum and order; 0 when usable. */
static int check_index(struct vctx *v, uint64_t lblk, char *buf,
		       unsigned int cl_off, uint32_t lo)
{
	struct e2x_dx_countlimit *cl = (void *)(buf + cl_off);
	struct e2x_dx_entry *e = (void *)(buf + cl_off);
	unsigned int limit = cl_off == E2X_DX_ROOT_CL_OFF ?
				     e2x_dx_root_limit(v->d->bs, v->d->csum) :
				     e2x_dx_node_limit(v->d->bs, v->d->csum);
	struct e2x_dx_tail *t;
	unsigned int i;

	if (cl->limit != limit || cl->count == 0 || cl->count > cl->limit) {
		report(v, E2X_DIRP_DX_LIMIT, lblk, cl_off,
		       "count %u limit %u (want limit %u)", cl->count,
		       cl->limit, limit);
		return -1;
	}
	if (v->d->csum) {
		t = (void *)(buf + cl_off + limit * sizeof(*e));
		if (t->dt_checksum != e2x_dx_csum(v->d->seed, buf, cl_off))
			report(v, E2X_DIRP_BAD_CSUM, lblk, cl_off,
			       "index checksum");
	}
	for (i = 1; i < cl->count; i++) {
		if (e[i].hash < lo || (i > 1 && e[i].hash < e[i - 1].hash))
			report(v, E2X_DIRP_DX_ORDER, lblk, cl_off + 8 * i,
			       "entry %u hash %#x", i, e[i].hash);
	}
	for (i = 0; i < cl->count; i++) {
		if (e[i].block == 0 || e[i].block >= v->d->nblocks) {
			report(v, E2X_DIRP_DX_REF, lblk, cl_off + 8 * i,
			       "block %u out of range", e[i].block);
			return -1;
		}
	}
	return 0;
}

static void verify_dx_level(struct vctx *v, uint64_t lblk, char *buf,
			    unsigned int cl_off, unsigned int lvl,
			    struct range rg);

/* Child I of an index block: a node or a leaf with its hash range. */
static void verify_dx_child(struct vctx *v, struct e2x_dx_entry *e,
			    unsigned int i, unsigned int count,
			    unsigned int lvl, const struct range *parent)
{
	struct range rg = *parent;
	uint32_t blk = e[i].block;
	char *buf;

	if (i > 0)
		rg.lo = e[i].hash & ~1u;
	if (i + 1 < count) {
		rg.hi = e[i + 1].hash & ~1u;
		rg.hi_incl = e[i + 1].hash & 1;
		rg.hi_none = 0;
	}
	if (v->seen[blk]) {
		report(v, E2X_DIRP_DX_REF, blk, 0, "referenced twice");
		return;
	}
	v->seen[blk] = 1;
	buf = malloc(v->d->bs);
	if (!buf) {
		v->err = EXT2_ET_NO_MEMORY;
		return;
	}
	if (dirh_read(v->d, blk, buf)) {
		report(v, E2X_DIRP_HOLE, blk, 0, "unreadable");
	} else if (lvl == v->levels) {
		check_leaf(v, blk, buf, 0, &rg);
	} else {
		struct e2x_dirent *fake = (void *)buf;

		if (fake->inode || e2x_dirent_rec_len(fake, v->d->bs) !=
					   v->d->bs)
			report(v, E2X_DIRP_DX_REF, blk, 0,
			       "index node expected");
		else
			verify_dx_level(v, blk, buf, E2X_DX_NODE_CL_OFF,
					lvl + 1, rg);
	}
	free(buf);
}

static void verify_dx_level(struct vctx *v, uint64_t lblk, char *buf,
			    unsigned int cl_off, unsigned int lvl,
			    struct range rg)
{
	struct e2x_dx_countlimit *cl = (void *)(buf + cl_off);
	struct e2x_dx_entry *e = (void *)(buf + cl_off);
	unsigned int i;

	if (check_index(v, lblk, buf, cl_off, rg.lo))
		return;
	for (i = 0; i < cl->count && !v->err; i++)
		verify_dx_child(v, e, i, cl->count, lvl, &rg);
}

static void verify_htree(struct vctx *v)
{
	struct e2x_dx_root_info *ri;
	struct range rg = { 1, 0, 0, 0, 1 };
	unsigned int max = ext2fs_has_feature_largedir(v->d->fs->super) ? 3 :
									   2;
	char *buf = v->d->blk2;
	uint64_t b;

	if (dirh_read(v->d, 0, buf)) {
		report(v, E2X_DIRP_HOLE, 0, 0, "root unreadable");
		return;
	}
	check_dots(v, buf);
	if (e2x_dirent_rec_len((void *)buf, v->d->bs) != 12 ||
	    e2x_dirent_rec_len((void *)(buf + 12), v->d->bs) != v->d->bs - 12)
		report(v, E2X_DIRP_DX_ROOT, 0, 0, "'.'/'..' lengths");
	ri = (void *)(buf + E2X_DX_ROOT_INFO_OFF);
	if (ri->reserved_zero || ri->info_length != 8 ||
	    ri->hash_version > EXT2_HASH_TEA_UNSIGNED) {
		report(v, E2X_DIRP_DX_ROOT, 0, E2X_DX_ROOT_INFO_OFF,
		       "info: version %u length %u", ri->hash_version,
		       ri->info_length);
		return;
	}
	if (ri->indirect_levels >= max) {
		report(v, E2X_DIRP_DX_DEPTH, 0, E2X_DX_ROOT_INFO_OFF,
		       "%u indirect levels", ri->indirect_levels);
		return;
	}
	v->levels = ri->indirect_levels;
	v->version = dirh_hash_version(v->d, ri->hash_version);
	v->seen = calloc(v->d->nblocks, 1);
	if (!v->seen) {
		v->err = EXT2_ET_NO_MEMORY;
		return;
	}
	v->seen[0] = 1;
	verify_dx_level(v, 0, buf, E2X_DX_ROOT_CL_OFF, 0, rg);
	for (b = 1; b < v->d->nblocks && !v->err; b++)
		if (!v->seen[b])
			report(v, E2X_DIRP_DX_REF, b, 0, "not in the index");
}

static void verify_inline(struct vctx *v)
{
	size_t len = 0, cap = EXT2_INODE_SIZE(v->d->fs->super) + 60;
	struct e2x_dirregion r;
	ext2_ino_t parent;
	char *buf;

	if (!ext2fs_has_feature_inline_data(v->d->fs->super))
		report(v, E2X_DIRP_FLAGS, ~0ULL, 0, "inline without feature");
	if (v->d->inode->i_flags & (EXT2_INDEX_FL | EXT4_EXTENTS_FL))
		report(v, E2X_DIRP_FLAGS, ~0ULL, 0, "index/extents on inline");
	buf = calloc(1, cap);
	if (!buf) {
		v->err = EXT2_ET_NO_MEMORY;
		return;
	}
	if (e2x_inline_get(v->d->fs, v->d->ino, v->d->inode, buf, cap, &len) ||
	    len < 60 || len > cap) {
		report(v, E2X_DIRP_INLINE, ~0ULL, 0, "inline data unreadable");
		goto out;
	}
	if (EXT2_I_SIZE(v->d->inode) != len)
		report(v, E2X_DIRP_BAD_SIZE, ~0ULL, 0, "i_size %llu, inline %zu",
		       (unsigned long long)EXT2_I_SIZE(v->d->inode), len);
	memcpy(&parent, buf, 4);
	if (!valid_entry_ino(v->d->fs, parent))
		report(v, E2X_DIRP_NO_DOT, ~0ULL, 0, "parent %u", parent);
	r.buf = buf + 4;
	r.size = 56;
	r.bs = v->d->bs;
	check_region(v, ~0ULL, 4, &r, 0, NULL);
	if (len > 60) {
		r.buf = buf + 60;
		r.size = (unsigned int)(len - 60);
		check_region(v, ~0ULL, 60, &r, 0, NULL);
	}
out:
	free(buf);
}

static int itree_problem(const struct e2x_itree_problem *p, void *priv)
{
	struct vctx *v = priv;

	report(v, E2X_DIRP_ITREE, p->blk, p->index, "%s (node %llu, ino %u)",
	       e2x_itree_problem_name(p->code), (unsigned long long)p->blk,
	       p->ino);
	return v->err != 0;
}

static void verify_itree(struct vctx *v)
{
	errcode_t err;

	if (!dir_itree_present(v->d)) {
		if (dir_itree_wanted(v->d) && !e2x_itree_room(v->d->fs,
							      v->d->inode))
			report(v, E2X_DIRP_ITREE, ~0ULL, 0,
			       "indexed directory without its itree");
		return;
	}
	if (v->d->form != E2X_DIR_FORM_HTREE) {
		report(v, E2X_DIRP_ITREE, ~0ULL, 0, "itree on a %s directory",
		       v->d->form == E2X_DIR_FORM_INLINE ? "inline" : "linear");
		return;
	}
	err = dir_itree_verify(v->d, itree_problem, v, NULL);
	if (err && !v->err)
		report(v, E2X_DIRP_ITREE, ~0ULL, 0, "verifier failed: %ld",
		       (long)err);
}

static void check_duplicates(struct vctx *v)
{
	size_t i;
	const struct dir_rec *a, *b;

	coll_sort_name(&v->names);
	for (i = 1; i < v->names.n; i++) {
		a = &v->names.v[i - 1];
		b = &v->names.v[i];
		if (a->name_len == b->name_len &&
		    !memcmp(coll_name(&v->names, a), coll_name(&v->names, b),
			    a->name_len))
			report(v, E2X_DIRP_DUP_NAME, ~0ULL, 0, "%.*s",
			       (int)a->name_len, coll_name(&v->names, a));
	}
}

errcode_t e2x_dir_verify(ext2_filsys fs, ext2_ino_t dir, int flags,
			 struct e2x_dir_problems *out)
{
	struct e2x_dirh d;
	struct vctx v;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	memset(&v, 0, sizeof(v));
	v.d = &d;
	v.out = out;
	v.flags = flags;
	err = dirh_open(fs, dir, &d);
	if (err == E2X_ERR_NOT_DIR || err == E2X_ERR_CORRUPT) {
		report(&v, err == E2X_ERR_NOT_DIR ? E2X_DIRP_NOT_DIR :
						    E2X_DIRP_BAD_SIZE,
		       ~0ULL, 0, "cannot open: %s", error_message(err));
		return v.err;
	}
	if (err)
		return err;
	if ((d.inode->i_flags & EXT2_INDEX_FL) &&
	    d.form != E2X_DIR_FORM_HTREE && d.form != E2X_DIR_FORM_INLINE)
		report(&v, E2X_DIRP_FLAGS, ~0ULL, 0, "index flag without "
		       "dir_index");
	if (d.form != E2X_DIR_FORM_INLINE &&
	    EXT2_I_SIZE(d.inode) >= (1ULL << 31) &&
	    !ext2fs_has_feature_largedir(fs->super))
		report(&v, E2X_DIRP_BAD_SIZE, ~0ULL, 0, "over 2 GiB");
	if (d.form == E2X_DIR_FORM_INLINE)
		verify_inline(&v);
	else if (d.form == E2X_DIR_FORM_HTREE)
		verify_htree(&v);
	else
		verify_linear(&v);
	if (!v.err)
		check_duplicates(&v);
	if (!v.err)
		verify_itree(&v);
	coll_free(&v.names);
	free(v.seen);
	return dirh_close(&d, v.err);
}
