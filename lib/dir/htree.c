/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * htree.c --- hashed directory index (dx_root, dx_node, dx_entry, dx_tail):
 * probe, leaf split by hash with the continuation bit, node split, new
 * levels (a third with large_dir): the form's row of the table, and
 * writing an index over a collection of entries (dir_change.c decides when).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir/dir-int.h"

#define MAX_FRAMES 3

struct dx_frame {
	blk64_t lblk;
	char *buf;
	unsigned int cl_off;
	unsigned int at;	/* entry followed at this level */
};

struct dx_path {
	struct dx_frame f[MAX_FRAMES];
	unsigned int levels;	/* indirect levels: frames used = levels + 1 */
	int version;		/* hash version with unsigned applied */
	char *mem;
};

static struct e2x_dx_countlimit *cl_of(struct dx_frame *f)
{
	return (void *)(f->buf + f->cl_off);
}

static struct e2x_dx_entry *ents_of(struct dx_frame *f)
{
	return (void *)(f->buf + f->cl_off);
}

static struct e2x_dx_root_info *root_info(char *buf)
{
	return (void *)(buf + E2X_DX_ROOT_INFO_OFF);
}

static unsigned int max_levels(struct e2x_dirh *d)
{
	return ext2fs_has_feature_largedir(d->fs->super) ? 3 : 2;
}

static unsigned int limit_of(struct e2x_dirh *d, unsigned int cl_off)
{
	return cl_off == E2X_DX_ROOT_CL_OFF ? e2x_dx_root_limit(d->bs, d->csum) :
					       e2x_dx_node_limit(d->bs, d->csum);
}

static errcode_t path_alloc(struct e2x_dirh *d, struct dx_path *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->mem = malloc((size_t)d->bs * MAX_FRAMES);
	if (!p->mem)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < MAX_FRAMES; i++)
		p->f[i].buf = p->mem + (size_t)i * d->bs;
	return 0;
}

static void path_free(struct dx_path *p)
{
	free(p->mem);
	p->mem = NULL;
}

static errcode_t check_countlimit(struct e2x_dirh *d, struct dx_frame *f)
{
	struct e2x_dx_countlimit *cl = cl_of(f);
	struct e2x_dx_entry *e = ents_of(f);
	unsigned int i;

	if (cl->limit != limit_of(d, f->cl_off) || cl->count == 0 ||
	    cl->count > cl->limit)
		return E2X_ERR_CORRUPT;
	for (i = 0; i < cl->count; i++)
		if (e[i].block == 0 || e[i].block >= d->nblocks)
			return E2X_ERR_CORRUPT;
	return 0;
}

static errcode_t read_root(struct e2x_dirh *d, struct dx_frame *f,
			   unsigned int *levels, int *version)
{
	struct e2x_dx_root_info *ri;
	struct e2x_dirent *dot, *dotdot;
	errcode_t err;

	f->lblk = 0;
	f->cl_off = E2X_DX_ROOT_CL_OFF;
	f->at = 0;
	err = dirh_read(d, 0, f->buf);
	if (err)
		return err;
	dot = (void *)f->buf;
	dotdot = (void *)(f->buf + 12);
	ri = root_info(f->buf);
	err = dirh_check_dx(d, f->buf, f->cl_off);
	if (err)
		return err;
	if (e2x_dirent_rec_len(dot, d->bs) != 12 ||
	    e2x_dirent_rec_len(dotdot, d->bs) != d->bs - 12 ||
	    ri->reserved_zero || ri->info_length != 8 ||
	    ri->indirect_levels >= max_levels(d) ||
	    ri->hash_version > EXT2_HASH_TEA_UNSIGNED)
		return E2X_ERR_CORRUPT;
	*levels = ri->indirect_levels;
	*version = dirh_hash_version(d, ri->hash_version);
	return check_countlimit(d, f);
}

static errcode_t htree_root_version(struct e2x_dirh *d, int *version)
{
	struct e2x_dx_root_info *ri;
	errcode_t err;

	err = dirh_read(d, 0, d->blk2);
	if (err)
		return err;
	ri = root_info(d->blk2);
	if (ri->hash_version > EXT2_HASH_TEA_UNSIGNED)
		return E2X_ERR_CORRUPT;
	*version = ri->hash_version;
	return 0;
}

static errcode_t read_node(struct e2x_dirh *d, struct dx_frame *f, blk64_t lblk)
{
	struct e2x_dirent *fake = (void *)f->buf;
	errcode_t err;

	f->lblk = lblk;
	f->cl_off = E2X_DX_NODE_CL_OFF;
	f->at = 0;
	err = dirh_read(d, lblk, f->buf);
	if (err)
		return err;
	if (fake->inode || e2x_dirent_rec_len(fake, d->bs) != d->bs)
		return E2X_ERR_CORRUPT;
	err = dirh_check_dx(d, f->buf, f->cl_off);
	if (err)
		return err;
	return check_countlimit(d, f);
}

/* Last entry whose hash is <= HASH (entry 0 stands for hash 0). */
static unsigned int search_entries(struct dx_frame *f, uint32_t hash)
{
	struct e2x_dx_entry *e = ents_of(f);
	unsigned int lo = 1, hi = cl_of(f)->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (e[mid].hash > hash)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo - 1;
}

/* Walk from the root (read already) to the leaf that holds HASH. */
static errcode_t probe(struct e2x_dirh *d, struct dx_path *p, uint32_t hash)
{
	unsigned int i;
	errcode_t err;

	for (i = 0;; i++) {
		p->f[i].at = search_entries(&p->f[i], hash);
		if (i == p->levels)
			return 0;
		err = read_node(d, &p->f[i + 1],
				ents_of(&p->f[i])[p->f[i].at].block);
		if (err)
			return err;
	}
}

static blk64_t leaf_of(struct dx_path *p)
{
	struct dx_frame *f = &p->f[p->levels];

	return ents_of(f)[f->at].block;
}

/* Move to the next leaf when it continues HASH (same hash, split over two
 * blocks).  Returns 1 when moved, 0 when the search ends. */
static int next_leaf(struct e2x_dirh *d, struct dx_path *p, uint32_t hash,
		     errcode_t *err)
{
	int i = (int)p->levels;
	unsigned int j;
	uint32_t bhash;

	*err = 0;
	while (i >= 0 && p->f[i].at + 1 >= cl_of(&p->f[i])->count)
		i--;
	if (i < 0)
		return 0;
	p->f[i].at++;
	bhash = ents_of(&p->f[i])[p->f[i].at].hash;
	if ((bhash & ~1u) != hash)
		return 0;
	for (j = (unsigned int)i; j < p->levels; j++) {
		*err = read_node(d, &p->f[j + 1],
				 ents_of(&p->f[j])[p->f[j].at].block);
		if (*err)
			return 0;
	}
	return 1;
}

/* Find NAME: leaf in d->blk at *LBLK, record at *OFF after *PREV. */
static errcode_t dx_find(struct e2x_dirh *d, struct dx_path *p,
			 const char *name, unsigned int len, blk64_t *lblk,
			 int *off, int *prev)
{
	struct e2x_dirregion r;
	uint32_t hash;
	errcode_t err;

	err = read_root(d, &p->f[0], &p->levels, &p->version);
	if (err)
		return err;
	err = dirh_hash(d, p->version, name, len, &hash, NULL);
	if (err)
		return err;
	err = probe(d, p, hash);
	if (err)
		return err;
	do {
		*lblk = leaf_of(p);
		err = dirh_read(d, *lblk, d->blk);
		if (!err)
			err = dirh_check_leaf(d, d->blk);
		if (err)
			return err;
		dirh_leaf_region(d, d->blk, &r);
		err = e2x_dirregion_check(&r);
		if (err)
			return err;
		*off = e2x_dirregion_find(&r, name, len, prev);
		if (*off >= 0)
			return 0;
	} while (next_leaf(d, p, hash, &err));
	return err ? err : E2X_ERR_NOT_FOUND;
}

static errcode_t htree_lookup(struct e2x_dirh *d, const char *name,
			      unsigned int len, ext2_ino_t *ino,
			      unsigned int *type)
{
	struct dx_path p;
	struct e2x_dirent *de;
	blk64_t lblk;
	int off, prev;
	errcode_t err;

	err = path_alloc(d, &p);
	if (err)
		return err;
	err = dx_find(d, &p, name, len, &lblk, &off, &prev);
	if (!err) {
		de = (void *)(d->blk + off);
		if (ino)
			*ino = de->inode;
		if (type)
			*type = de->file_type;
	}
	path_free(&p);
	return err;
}

static errcode_t htree_remove(struct e2x_dirh *d, const char *name,
			      unsigned int len, ext2_ino_t *old_ino,
			      unsigned int *old_type)
{
	struct dx_path p;
	struct e2x_dirregion r;
	struct e2x_dirent *de;
	blk64_t lblk;
	int off, prev;
	errcode_t err;

	err = path_alloc(d, &p);
	if (err)
		return err;
	err = dx_find(d, &p, name, len, &lblk, &off, &prev);
	if (err)
		goto out;
	de = (void *)(d->blk + off);
	*old_ino = de->inode;
	*old_type = de->file_type;
	dirh_leaf_region(d, d->blk, &r);
	e2x_dirregion_remove(&r, off, prev);
	err = dirh_write_leaf(d, lblk, d->blk);
out:
	path_free(&p);
	return err;
}

static errcode_t write_frame(struct e2x_dirh *d, struct dx_frame *f)
{
	return dirh_write_dx(d, f->lblk, f->buf, f->cl_off);
}

/* Insert (HASH, BLOCK) after the followed entry of frame F (has room). */
static void frame_insert(struct dx_frame *f, uint32_t hash, uint32_t block)
{
	struct e2x_dx_countlimit *cl = cl_of(f);
	struct e2x_dx_entry *e = ents_of(f);
	unsigned int pos = f->at + 1;

	memmove(&e[pos + 1], &e[pos], (cl->count - pos) * sizeof(*e));
	e[pos].hash = hash;
	e[pos].block = block;
	cl->count++;
}

static void node_init(struct e2x_dirh *d, char *buf)
{
	struct e2x_dirent *fake = (void *)buf;
	struct e2x_dx_countlimit *cl = (void *)(buf + E2X_DX_NODE_CL_OFF);

	memset(buf, 0, d->bs);
	e2x_dirent_set_rec_len(fake, d->bs, d->bs);
	cl->limit = (uint16_t)e2x_dx_node_limit(d->bs, d->csum);
	cl->count = 0;
}

/* The root is full: move its entries into a new node one level down. */
static errcode_t grow_root(struct e2x_dirh *d, struct dx_path *p)
{
	struct dx_frame *root = &p->f[0];
	struct e2x_dx_countlimit *rcl = cl_of(root);
	struct dx_frame tmp;
	blk64_t nb;
	unsigned int i, count = rcl->count;
	errcode_t err;

	if (p->levels + 1 >= max_levels(d))
		return E2X_ERR_NO_SPACE;	/* directory index full */
	err = dirh_append_block(d, &nb);
	if (err)
		return err;
	/* shift frames down to make room for the new level */
	tmp = p->f[p->levels + 1];
	for (i = p->levels + 1; i > 1; i--)
		p->f[i] = p->f[i - 1];
	p->f[1] = tmp;
	node_init(d, p->f[1].buf);
	p->f[1].lblk = nb;
	p->f[1].cl_off = E2X_DX_NODE_CL_OFF;
	p->f[1].at = root->at;
	memcpy(ents_of(&p->f[1]) + 0, ents_of(root), count * 8);
	cl_of(&p->f[1])->limit = (uint16_t)e2x_dx_node_limit(d->bs, d->csum);
	cl_of(&p->f[1])->count = (uint16_t)count;
	rcl->count = 1;
	ents_of(root)[0].block = (uint32_t)nb;
	root->at = 0;
	p->levels++;
	root_info(root->buf)->indirect_levels = (uint8_t)p->levels;
	err = write_frame(d, &p->f[1]);
	if (!err)
		err = write_frame(d, root);
	return err;
}

/* Make room for one entry in frame LVL, splitting nodes (and growing the
 * root) as needed; the path keeps following the same child. */
static errcode_t make_room(struct e2x_dirh *d, struct dx_path *p,
			   unsigned int lvl)
{
	struct dx_frame *f = &p->f[lvl], *parent;
	struct e2x_dx_countlimit *cl = cl_of(f);
	struct e2x_dx_entry *e;
	unsigned int count, half, old_levels;
	uint32_t hash2;
	blk64_t nb;
	char *nbuf = d->blk2;
	errcode_t err;

	if (cl->count < cl->limit)
		return 0;
	if (lvl == 0)
		return grow_root(d, p);
	old_levels = p->levels;
	err = make_room(d, p, lvl - 1);
	if (err)
		return err;
	lvl += p->levels - old_levels;
	f = &p->f[lvl];
	cl = cl_of(f);
	if (cl->count < cl->limit)
		return 0;	/* the frame moved down a level and has room */
	parent = &p->f[lvl - 1];
	err = dirh_append_block(d, &nb);
	if (err)
		return err;
	count = cl->count;
	half = count / 2;
	e = ents_of(f);
	hash2 = e[half].hash;
	node_init(d, nbuf);
	memcpy(nbuf + E2X_DX_NODE_CL_OFF, &e[half], (count - half) * 8);
	((struct e2x_dx_countlimit *)(nbuf + E2X_DX_NODE_CL_OFF))->limit =
		cl->limit;
	((struct e2x_dx_countlimit *)(nbuf + E2X_DX_NODE_CL_OFF))->count =
		(uint16_t)(count - half);
	cl->count = (uint16_t)half;
	frame_insert(parent, hash2, (uint32_t)nb);
	err = write_frame(d, parent);
	if (!err)
		err = dirh_write_dx(d, nb, nbuf, E2X_DX_NODE_CL_OFF);
	if (!err)
		err = write_frame(d, f);
	if (err)
		return err;
	if (f->at >= half) {
		memcpy(f->buf, nbuf, d->bs);
		f->lblk = nb;
		f->at -= half;
		parent->at++;
	}
	return 0;
}

/* Leaf records with their hashes, for a split. */
struct leaf_rec {
	uint32_t hash, minor;
	unsigned int off, size;
};

static int cmp_leaf_rec(const void *pa, const void *pb)
{
	const struct leaf_rec *a = pa, *b = pb;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* Pack records REC[FROM..TO) of SRC compactly into leaf block DST. */
static void pack_leaf(struct e2x_dirh *d, const char *src, char *dst,
		      const struct leaf_rec *rec, unsigned int from,
		      unsigned int to)
{
	struct e2x_dirregion r;
	unsigned int i, off = 0;
	struct e2x_dirent *de = NULL;

	memset(dst, 0, d->bs);
	r.buf = dst;
	r.bs = d->bs;
	r.size = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	e2x_dirregion_init(&r);
	for (i = from; i < to; i++) {
		de = (void *)(dst + off);
		memcpy(de, src + rec[i].off, rec[i].size);
		e2x_dirent_set_rec_len(de, rec[i].size, d->bs);
		off += rec[i].size;
	}
	if (de)
		e2x_dirent_set_rec_len(de, r.size - (off - rec[to - 1].size),
				       d->bs);
	if (d->csum)
		e2x_dirblk_tail_init(dst, d->bs);
}

/*
 * Where to cut the N records (sorted by hash, TOTAL bytes) of a full leaf:
 * the cut with the most even halves among those leaving NEED bytes in the
 * half that the new entry (hash HASH) goes to; a cut by halves alone can
 * leave a long name no room on its side.  0 when no cut does.
 */
static unsigned int leaf_cut(const struct leaf_rec *rec, unsigned int n,
			     unsigned int total, unsigned int room,
			     uint32_t hash, unsigned int need)
{
	unsigned int s, acc = 0, best = 0, bestd = ~0u;

	for (s = 1; s < n; s++) {
		uint32_t h2 = rec[s].hash | (rec[s].hash == rec[s - 1].hash);
		unsigned int side, d;

		acc += rec[s - 1].size;
		side = hash >= h2 ? total - acc : acc;
		if (side + need > room)
			continue;
		d = 2 * acc > total ? 2 * acc - total : total - 2 * acc;
		if (d < bestd) {
			bestd = d;
			best = s;
		}
	}
	return best;
}

/* Split the full leaf in d->blk (block LBLK) to make room for NEED bytes
 * at HASH: the upper part by hash goes to a new block whose index entry
 * follows the current one. */
static errcode_t split_leaf(struct e2x_dirh *d, struct dx_path *p, blk64_t lblk,
			    uint32_t hash, unsigned int need, uint32_t *hash2,
			    blk64_t *nb)
{
	struct e2x_dirregion r;
	struct leaf_rec *rec = NULL;
	struct e2x_dirent *de;
	unsigned int n = 0, off = 0, len, total = 0, acc = 0, s;
	char *old = NULL;
	int continued;
	errcode_t err;

	dirh_leaf_region(d, d->blk, &r);
	rec = malloc((d->bs / 12 + 1) * sizeof(*rec));	/* records >= 12 */
	old = malloc(d->bs);
	err = EXT2_ET_NO_MEMORY;
	if (!rec || !old)
		goto out;
	memcpy(old, d->blk, d->bs);
	while (off < r.size) {
		de = (void *)(old + off);
		len = e2x_dirent_rec_len(de, d->bs);
		if (de->inode) {
			rec[n].off = off;
			rec[n].size = e2x_dirent_min_len(de->name_len);
			err = dirh_hash(d, p->version, de->name, de->name_len,
					&rec[n].hash, &rec[n].minor);
			if (err)
				goto out;
			total += rec[n].size;
			n++;
		}
		off += len;
	}
	err = E2X_ERR_CORRUPT;
	if (n < 2)
		goto out;
	qsort(rec, n, sizeof(*rec), cmp_leaf_rec);
	s = leaf_cut(rec, n, total, r.size, hash, need);
	if (!s) {	/* no cut makes room: halves by bytes */
		for (; s < n - 1 && acc + rec[s].size <= total / 2; s++)
			acc += rec[s].size;
		if (s == 0)
			s = 1;
	}
	continued = rec[s].hash == rec[s - 1].hash;
	*hash2 = rec[s].hash | (continued ? 1 : 0);
	err = make_room(d, p, p->levels);
	if (err)
		goto out;
	err = dirh_append_block(d, nb);
	if (err)
		goto out;
	pack_leaf(d, old, d->blk, rec, 0, s);
	pack_leaf(d, old, d->blk2, rec, s, n);
	err = dirh_write_leaf(d, *nb, d->blk2);
	if (!err)
		err = dirh_write_leaf(d, lblk, d->blk);
	if (err)
		goto out;
	frame_insert(&p->f[p->levels], *hash2, (uint32_t)*nb);
	err = write_frame(d, &p->f[p->levels]);
out:
	free(rec);
	free(old);
	return err;
}

static errcode_t htree_add(struct e2x_dirh *d, const char *name,
			   unsigned int len, ext2_ino_t ino, unsigned int type,
			   int grow)
{
	struct dx_path p;
	struct e2x_dirregion r;
	uint32_t hash, hash2;
	blk64_t lblk, nb;
	errcode_t err;

	(void)grow;	/* a full index grows new levels itself */
	err = path_alloc(d, &p);
	if (err)
		return err;
	err = read_root(d, &p.f[0], &p.levels, &p.version);
	if (!err)
		err = dirh_hash(d, p.version, name, len, &hash, NULL);
	if (!err)
		err = probe(d, &p, hash);
	if (err)
		goto out;
	lblk = leaf_of(&p);
	err = dirh_read(d, lblk, d->blk);
	if (!err)
		err = dirh_check_leaf(d, d->blk);
	if (err)
		goto out;
	dirh_leaf_region(d, d->blk, &r);
	err = e2x_dirregion_check(&r);
	if (err)
		goto out;
	err = e2x_dirregion_insert(&r, ino, name, len, type);
	if (!err) {
		err = dirh_write_leaf(d, lblk, d->blk);
		goto out;
	}
	if (err != E2X_ERR_NO_SPACE)
		goto out;
	err = split_leaf(d, &p, lblk, hash, e2x_dirent_min_len(len), &hash2,
			 &nb);
	if (err)
		goto out;
	if (hash >= hash2) {
		memcpy(d->blk, d->blk2, d->bs);
		lblk = nb;
	}
	dirh_leaf_region(d, d->blk, &r);
	err = e2x_dirregion_insert(&r, ino, name, len, type);
	if (!err)
		err = dirh_write_leaf(d, lblk, d->blk);
out:
	path_free(&p);
	return err;
}

/*
 * Building: entries sorted by hash are packed into leaves filled to about
 * three quarters (room to grow without an immediate split); index blocks
 * follow the leaves; block 0 becomes the root.  Blocks past the new end
 * are freed.
 */
struct build {
	struct dir_coll c;
	uint32_t *leaf_hash;	/* index hash of each leaf */
	size_t *leaf_first;	/* first record of each leaf */
	size_t nleaves;
};

static errcode_t plan_leaves(struct e2x_dirh *d, struct build *b)
{
	unsigned int usable = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	unsigned int target = d->pack_full ? usable : usable * 3 / 4;
	unsigned int fill = 0, sz;
	size_t i, cap = b->c.n + 1;

	b->leaf_hash = malloc(cap * sizeof(*b->leaf_hash));
	b->leaf_first = malloc((cap + 1) * sizeof(*b->leaf_first));
	if (!b->leaf_hash || !b->leaf_first)
		return EXT2_ET_NO_MEMORY;
	b->nleaves = 1;
	b->leaf_hash[0] = 0;
	b->leaf_first[0] = 0;
	for (i = 0; i < b->c.n; i++) {
		sz = e2x_dirent_min_len(b->c.v[i].name_len);
		if (fill && fill + sz > target) {
			uint32_t h = b->c.v[i].hash;

			b->leaf_hash[b->nleaves] =
				h | (h == b->c.v[i - 1].hash ? 1 : 0);
			b->leaf_first[b->nleaves] = i;
			b->nleaves++;
			fill = 0;
		}
		fill += sz;
	}
	b->leaf_first[b->nleaves] = b->c.n;
	return 0;
}

static void fill_leaf(struct e2x_dirh *d, struct build *b, size_t leaf,
		      char *buf)
{
	struct e2x_dirregion r;
	struct e2x_dirent *de = NULL;
	unsigned int off = 0, sz = 0;
	size_t i;

	memset(buf, 0, d->bs);
	r.buf = buf;
	r.bs = d->bs;
	r.size = d->bs - (d->csum ? E2X_DIRENT_TAIL_SIZE : 0);
	e2x_dirregion_init(&r);
	for (i = b->leaf_first[leaf]; i < b->leaf_first[leaf + 1]; i++) {
		struct dir_rec *rec = &b->c.v[i];

		de = (void *)(buf + off);
		sz = e2x_dirent_min_len(rec->name_len);
		e2x_dirent_fill(de, rec->ino, coll_name(&b->c, rec),
				rec->name_len, rec->file_type);
		e2x_dirent_set_rec_len(de, sz, d->bs);
		off += sz;
	}
	if (de)
		e2x_dirent_set_rec_len(de, r.size - (off - sz), d->bs);
	if (d->csum)
		e2x_dirblk_tail_init(buf, d->bs);
}

/* Make sure the directory has at least N blocks. */
static errcode_t ensure_blocks(struct e2x_dirh *d, uint64_t n)
{
	blk64_t lblk;
	errcode_t err;

	while (d->nblocks < n) {
		err = dirh_append_block(d, &lblk);
		if (err)
			return err;
	}
	return 0;
}

/* Write index level entries ENT[0..N) into nodes starting at block
 * FIRST_BLK; returns the entries of the level above in ENT (in place). */
static errcode_t write_nodes(struct e2x_dirh *d, struct e2x_dx_entry *ent,
			     size_t *n, blk64_t first_blk)
{
	unsigned int limit = e2x_dx_node_limit(d->bs, d->csum);
	size_t i, k, nodes = (*n + limit - 1) / limit;
	struct e2x_dx_countlimit *cl;
	char *buf = d->blk;
	errcode_t err;

	for (k = 0; k < nodes; k++) {
		size_t from = k * limit, to = from + limit;
		uint32_t first_hash = ent[from].hash;

		if (to > *n)
			to = *n;
		node_init(d, buf);
		memcpy(buf + E2X_DX_NODE_CL_OFF, &ent[from],
		       (to - from) * sizeof(*ent));
		cl = (void *)(buf + E2X_DX_NODE_CL_OFF);
		cl->limit = (uint16_t)limit;
		cl->count = (uint16_t)(to - from);
		err = dirh_write_dx(d, first_blk + k, buf, E2X_DX_NODE_CL_OFF);
		if (err)
			return err;
		ent[k].hash = first_hash;
		ent[k].block = (uint32_t)(first_blk + k);
	}
	for (i = nodes; i < *n; i++)
		memset(&ent[i], 0, sizeof(ent[i]));
	*n = nodes;
	return 0;
}

static errcode_t write_root(struct e2x_dirh *d, ext2_ino_t parent,
			    struct e2x_dx_entry *ent, size_t n,
			    unsigned int levels)
{
	char *buf = d->blk;
	struct e2x_dx_root_info *ri;
	struct e2x_dx_countlimit *cl;
	struct e2x_dirent *dot = (void *)buf, *dotdot = (void *)(buf + 12);

	memset(buf, 0, d->bs);
	e2x_dirent_fill(dot, d->ino, ".", 1, EXT2_FT_DIR);
	e2x_dirent_set_rec_len(dot, 12, d->bs);
	e2x_dirent_fill(dotdot, parent, "..", 2, EXT2_FT_DIR);
	e2x_dirent_set_rec_len(dotdot, d->bs - 12, d->bs);
	if (!ext2fs_has_feature_filetype(d->fs->super))
		dot->file_type = dotdot->file_type = 0;
	ri = root_info(buf);
	ri->hash_version = d->fs->super->s_def_hash_version;
	ri->info_length = 8;
	ri->indirect_levels = (uint8_t)levels;
	memcpy(buf + E2X_DX_ROOT_CL_OFF, ent, n * sizeof(*ent));
	cl = (void *)(buf + E2X_DX_ROOT_CL_OFF);
	cl->limit = (uint16_t)e2x_dx_root_limit(d->bs, d->csum);
	cl->count = (uint16_t)n;
	return dirh_write_dx(d, 0, buf, E2X_DX_ROOT_CL_OFF);
}

/* A rebuild writes into TOTAL new contiguous blocks, so that until the
 * inode switches to them the old directory stays whole on disk.  Without
 * extents, with bigalloc or for a run i_block cannot map, the build is in
 * place as for a growing directory. */
static errcode_t shadow_begin(struct e2x_dirh *d, uint64_t total)
{
	ext2_filsys fs = d->fs;
	blk64_t goal, start, len;
	errcode_t err;

	if (!ext2fs_has_feature_extents(fs->super) ||
	    ext2fs_has_feature_bigalloc(fs->super) ||
	    total > 4ULL * EXT_INIT_MAX_LEN) {
		d->shadow_build = 0;
		return ensure_blocks(d, total);
	}
	err = e2x_blocks_collect(fs, d->ino, &d->old);
	if (err)
		return err;
	goal = ext2fs_find_inode_goal(fs, d->ino,
				      (struct ext2_inode *)d->inode, 0);
	err = ext2fs_new_range(fs, EXT2_NEWRANGE_MIN_LENGTH, goal, total,
			       NULL, &start, &len);
	if (err)
		return err;
	ext2fs_block_alloc_stats_range(fs, start, total, +1);
	d->shadow = start;
	d->shadow_len = total;
	return 0;
}

/* The inode (in memory; dirh_close writes it) maps the new run only. */
static errcode_t shadow_switch(struct e2x_dirh *d, uint64_t total)
{
	errcode_t err;

	e2x_storage_forget(d->fs, d->inode);
	err = e2x_storage_map_range(d->fs, d->inode, d->shadow, total);
	d->shadow = 0;
	if (!err)
		dirh_set_size(d, total);
	return err;
}

static errcode_t build_write(struct e2x_dirh *d, struct build *b,
			     ext2_ino_t parent)
{
	unsigned int rlimit = e2x_dx_root_limit(d->bs, d->csum);
	unsigned int nlimit = e2x_dx_node_limit(d->bs, d->csum);
	size_t n = b->nleaves, l1 = 0, l2 = 0, i;
	unsigned int levels = 0;
	struct e2x_dx_entry *ent;
	uint64_t total;
	blk64_t next;
	errcode_t err;

	if (n > rlimit) {
		l1 = (n + nlimit - 1) / nlimit;
		levels = 1;
		if (l1 > rlimit) {
			l2 = (l1 + nlimit - 1) / nlimit;
			levels = 2;
		}
	}
	if (levels + 1 > max_levels(d) || l2 > rlimit)
		return E2X_ERR_NO_SPACE;
	total = 1 + n + l1 + l2;
	err = d->shadow_build ? shadow_begin(d, total) :
				ensure_blocks(d, total);
	if (err)
		return err;
	ent = calloc(n, sizeof(*ent));
	if (!ent)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < n; i++) {
		ent[i].hash = b->leaf_hash[i];
		ent[i].block = (uint32_t)(1 + i);
		fill_leaf(d, b, i, d->blk);
		err = dirh_write_leaf(d, 1 + i, d->blk);
		if (err)
			goto out;
	}
	next = 1 + n;
	if (levels >= 1) {
		err = write_nodes(d, ent, &n, next);
		next += l1;
	}
	if (!err && levels == 2)
		err = write_nodes(d, ent, &n, next);
	if (!err)
		err = write_root(d, parent, ent, n, levels);
	if (err)
		goto out;
	d->form = E2X_DIR_FORM_HTREE;
	d->inode->i_flags |= EXT2_INDEX_FL;
	d->changed = 1;
	if (d->shadow) {
		err = shadow_switch(d, total);
	} else if (d->nblocks > total) {
		err = e2x_free_file_blocks(d->fs, d->ino, d->inode, total);
		if (!err)
			dirh_set_size(d, total);
	}
out:
	if (err && d->shadow) {	/* the old directory stays as it was */
		ext2fs_block_alloc_stats_range(d->fs, d->shadow,
					       d->shadow_len, -1);
		d->shadow = 0;
	}
	free(ent);
	return err;
}

errcode_t htree_build_coll(struct e2x_dirh *d, ext2_ino_t parent,
			   struct dir_coll *c)
{
	struct build b;
	errcode_t err;

	memset(&b, 0, sizeof(b));
	if (d->fs->super->s_def_hash_version > EXT2_HASH_TEA)
		return E2X_ERR_UNSUPPORTED;
	b.c = *c;
	coll_sort_hash(&b.c);
	err = plan_leaves(d, &b);
	if (!err)
		err = build_write(d, &b, parent);
	*c = b.c;
	free(b.leaf_hash);
	free(b.leaf_first);
	return err;
}

const struct dir_form dir_form_htree = {
	.lookup = htree_lookup,
	.add = htree_add,
	.remove = htree_remove,
	.walk = blocks_walk,
	.parent = blocks_parent,
	.set_parent = blocks_set_parent,
	.version = htree_root_version,
};
