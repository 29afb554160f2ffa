/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xattr_ibody.c --- our parser and writer of the in-inode extended-attribute
 * area (the bytes after i_extra_isize), bounds-checked against the inode.
 *
 * Changes parse the area into a table, edit the table and lay the whole
 * area out again: entries from the front, values packed from the end in
 * entry order, 4-byte padding zeroed, e_hash 0 for values we write (the
 * kernel neither writes nor checks hashes of in-inode entries).
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

#define IBODY_HDR_SIZE	4	/* h_magic */
#define IBODY_END_MARK	4	/* zero u32 after the last entry */

/* One parsed attribute; name and value point into the inode buffer or, for
 * a value being set, into the caller's memory. */
struct xent {
	uint8_t index;
	uint8_t name_len;
	const char *name;
	uint32_t inum;
	uint32_t size;
	uint32_t hash;
	const unsigned char *value;	/* NULL for EA-inode or faulty values */
	size_t off;			/* entry offset from the first entry */
	size_t value_off;		/* value offset from the first entry */
	unsigned int faults;		/* E2X_XATTR_F_* */
};

struct xtable {
	struct xent *ents;
	size_t count;
	size_t max;
	size_t hdr_off;		/* the magic's offset in the inode; 0: no area */
	unsigned int faults;	/* every entry's, and E2X_XATTR_F_LIST_CUT */
};

/* Faults that make an area unusable for reading and editing. */
#define STRICT_FAULTS (E2X_XATTR_F_LIST_CUT | E2X_XATTR_F_EMPTY_NAME | \
		       E2X_XATTR_F_VALUE_OUTSIDE | E2X_XATTR_F_VALUE_SLACK | \
		       E2X_XATTR_F_NO_EA_INODE)
/* Faults after which a value's bytes are not to be read. */
#define VALUE_FAULTS (E2X_XATTR_F_LIST_CUT | E2X_XATTR_F_VALUE_OUTSIDE | \
		      E2X_XATTR_F_VALUE_SLACK)

static size_t inode_bytes(ext2_filsys fs)
{
	return EXT2_INODE_SIZE(fs->super);
}

/*
 * Locate the area: *hdr gets the magic, *size the bytes from the first
 * entry (after the magic) to the end of the inode, maybe too few for an
 * end mark.  Returns 0 with *hdr NULL when the inode has no room for a
 * magic, E2X_ERR_CORRUPT when i_extra_isize is impossible.
 */
static errcode_t ibody_locate(ext2_filsys fs,
			      const struct ext2_inode_large *inode,
			      const unsigned char **hdr, size_t *size)
{
	size_t isz = inode_bytes(fs);
	size_t start;

	*hdr = NULL;
	*size = 0;
	/* The kernel ignores the area of an inode with i_extra_isize 0. */
	if (isz <= EXT2_GOOD_OLD_INODE_SIZE || inode->i_extra_isize == 0)
		return 0;
	if (inode->i_extra_isize & 3)
		return E2X_ERR_CORRUPT;
	start = EXT2_GOOD_OLD_INODE_SIZE + inode->i_extra_isize;
	if (start > isz)
		return E2X_ERR_CORRUPT;
	if (start + IBODY_HDR_SIZE > isz)
		return 0;
	*hdr = (const unsigned char *)inode + start;
	*size = isz - start - IBODY_HDR_SIZE;
	return 0;
}

static uint32_t get_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ext2fs_le32_to_cpu(v);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	v = ext2fs_cpu_to_le32(v);
	memcpy(p, &v, 4);
}

static void table_free(struct xtable *t)
{
	ext2fs_free_mem(&t->ents);
	t->count = t->max = 0;
}

/* Offset of the end mark after the whole entries from the first; *cut
 * set when the list has no end mark inside the area. */
static size_t list_end(const unsigned char *first, size_t size, int *cut)
{
	size_t off = 0;

	while (off + IBODY_END_MARK <= size && get_le32(first + off) != 0) {
		size_t len = E2X_XATTR_ENTRY_LEN(first[off]); /* e_name_len */

		if (off + len > size) {
			*cut = 1;
			return off;
		}
		off += len;
	}
	*cut = off + IBODY_END_MARK > size;
	return off;
}

/* What is wrong with the value of E (entries end at END_ENTRIES, past the
 * end mark, in an area of SIZE bytes from the first entry). */
static unsigned int value_faults(ext2_filsys fs, const struct xent *e,
				 size_t end_entries, size_t size)
{
	uint64_t v0 = e->value_off;

	if (e->inum)
		return ext2fs_has_feature_ea_inode(fs->super) ?
			       0 : E2X_XATTR_F_NO_EA_INODE;
	if (e->size && (v0 < end_entries || v0 + e->size > size))
		return E2X_XATTR_F_VALUE_OUTSIDE;
	if (v0 > size || v0 + E2X_XATTR_VALUE_LEN(e->size) > size)
		return E2X_XATTR_F_VALUE_SLACK;
	return 0;
}

/* Read the whole entry at OFF of the area FIRST into E, judged. */
static void read_entry(ext2_filsys fs, const unsigned char *first,
		       size_t size, size_t off, size_t end_entries, int cut,
		       struct xent *e)
{
	struct e2x_xattr_entry raw;

	memcpy(&raw, first + off, sizeof(raw));
	e->index = raw.e_name_index;
	e->name_len = raw.e_name_len;
	e->name = (const char *)first + off + sizeof(raw);
	e->inum = ext2fs_le32_to_cpu(raw.e_value_inum);
	e->size = ext2fs_le32_to_cpu(raw.e_value_size);
	e->hash = ext2fs_le32_to_cpu(raw.e_hash);
	e->off = off;
	e->value_off = e->inum ? 0 : ext2fs_le16_to_cpu(raw.e_value_offs);
	e->faults = raw.e_name_len ? 0 : E2X_XATTR_F_EMPTY_NAME;
	/* a cut list has no known end: its values are not judged */
	if (cut)
		e->faults |= E2X_XATTR_F_LIST_CUT;
	else
		e->faults |= value_faults(fs, e, end_entries, size);
	e->value = e->inum || (e->faults & VALUE_FAULTS) ?
			   NULL : first + e->value_off;
}

/* Padded value bytes [a0, a1) of an in-area value, or 0 when none. */
static int value_span(const struct xent *e, uint64_t *a0, uint64_t *a1)
{
	if (e->inum || !e->size || (e->faults & E2X_XATTR_F_LIST_CUT))
		return 0;
	*a0 = e->value_off;
	*a1 = *a0 + E2X_XATTR_VALUE_LEN(e->size);
	return 1;
}

/* Mark values that use bytes of another entry's value (the kernel never
 * lays values out that way). */
static void mark_shared(struct xtable *t)
{
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		uint64_t a0, a1, b0, b1;

		if (!value_span(&t->ents[i], &a0, &a1))
			continue;
		for (j = i + 1; j < t->count; j++) {
			if (!value_span(&t->ents[j], &b0, &b1) || a1 <= b0 ||
			    b1 <= a0)
				continue;
			t->ents[i].faults |= E2X_XATTR_F_VALUE_SHARED;
			t->ents[j].faults |= E2X_XATTR_F_VALUE_SHARED;
		}
	}
}

/*
 * Read every whole entry of the area into T, each with its faults;
 * nothing is refused but an impossible i_extra_isize (E2X_ERR_CORRUPT).
 * T is empty when there is no area or no magic.
 */
static errcode_t table_read(ext2_filsys fs,
			    const struct ext2_inode_large *inode,
			    struct xtable *t)
{
	const unsigned char *hdr, *first;
	size_t size, end, off, i;
	int cut = 0;
	errcode_t err;

	memset(t, 0, sizeof(*t));
	err = ibody_locate(fs, inode, &hdr, &size);
	if (err || !hdr || get_le32(hdr) != E2X_XATTR_IBODY_MAGIC)
		return err;
	t->hdr_off = (size_t)(hdr - (const unsigned char *)inode);
	first = hdr + IBODY_HDR_SIZE;
	end = list_end(first, size, &cut);
	t->max = size / sizeof(struct e2x_xattr_entry) + 1;
	err = ext2fs_get_array(t->max, sizeof(*t->ents), &t->ents);
	if (err)
		return err;
	for (off = 0; off < end; off += E2X_XATTR_ENTRY_LEN(first[off]))
		read_entry(fs, first, size, off, end + IBODY_END_MARK, cut,
			   &t->ents[t->count++]);
	mark_shared(t);
	t->faults = cut ? E2X_XATTR_F_LIST_CUT : 0;
	for (i = 0; i < t->count; i++)
		t->faults |= t->ents[i].faults;
	return 0;
}

/* Parse the area into T for reading and editing: E2X_ERR_CORRUPT when
 * any length or offset is bad (values sharing bytes are tolerated). */
static errcode_t table_parse(ext2_filsys fs,
			     const struct ext2_inode_large *inode,
			     struct xtable *t)
{
	errcode_t err = table_read(fs, inode, t);

	if (!err && (t->faults & STRICT_FAULTS))
		err = E2X_ERR_CORRUPT;
	if (err)
		table_free(t);
	return err;
}

static int table_find(const struct xtable *t, int index, const char *name)
{
	size_t len = strlen(name);
	size_t i;

	for (i = 0; i < t->count; i++)
		if (t->ents[i].index == index && t->ents[i].name_len == len &&
		    !memcmp(t->ents[i].name, name, len))
			return (int)i;
	return -1;
}

/* Bytes the table needs in the area (entries, end mark, values). */
static size_t table_bytes(const struct xtable *t, int skip)
{
	size_t need = IBODY_END_MARK, i;

	for (i = 0; i < t->count; i++) {
		if ((int)i == skip)
			continue;
		need += E2X_XATTR_ENTRY_LEN(t->ents[i].name_len);
		if (t->ents[i].value)
			need += E2X_XATTR_VALUE_LEN(t->ents[i].size);
	}
	return need;
}

/*
 * Lay T out into the inode's area.  The image is built in a scratch buffer
 * first because values may point into the area being rewritten.
 */
static errcode_t table_store(ext2_filsys fs, struct ext2_inode_large *inode,
			     const struct xtable *t)
{
	const unsigned char *hdr;
	unsigned char *img = NULL, *first;
	size_t size, off = 0, vend, i;
	errcode_t err;

	err = ibody_locate(fs, inode, &hdr, &size);
	if (err)
		return err;
	if (!hdr || size < IBODY_END_MARK)
		return t->count ? E2X_ERR_NO_SPACE : 0;
	if (table_bytes(t, -1) > size)
		return E2X_ERR_NO_SPACE;
	err = ext2fs_get_memzero(size + IBODY_HDR_SIZE, &img);
	if (err)
		return err;
	first = img + IBODY_HDR_SIZE;
	vend = size;
	for (i = 0; i < t->count; i++) {
		const struct xent *e = &t->ents[i];
		struct e2x_xattr_entry raw;

		memset(&raw, 0, sizeof(raw));
		raw.e_name_len = e->name_len;
		raw.e_name_index = e->index;
		raw.e_value_inum = ext2fs_cpu_to_le32(e->inum);
		raw.e_value_size = ext2fs_cpu_to_le32(e->size);
		raw.e_hash = ext2fs_cpu_to_le32(e->hash);
		if (e->value && e->size) {
			vend -= E2X_XATTR_VALUE_LEN(e->size);
			memcpy(first + vend, e->value, e->size);
			raw.e_value_offs = ext2fs_cpu_to_le16((uint16_t)vend);
		}
		memcpy(first + off, &raw, sizeof(raw));
		memcpy(first + off + sizeof(raw), e->name, e->name_len);
		off += E2X_XATTR_ENTRY_LEN(e->name_len);
	}
	if (t->count)
		put_le32(img, E2X_XATTR_IBODY_MAGIC);
	memcpy((unsigned char *)hdr, img, size + IBODY_HDR_SIZE);
	ext2fs_free_mem(&img);
	return 0;
}

errcode_t e2x_xattr_ibody_check(ext2_filsys fs,
				const struct ext2_inode_large *inode)
{
	struct xtable t;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = table_parse(fs, inode, &t);
	table_free(&t);
	return err;
}

errcode_t e2x_xattr_ibody_get(ext2_filsys fs,
			      const struct ext2_inode_large *inode,
			      int name_index, const char *name, void *buf,
			      size_t bufsize, size_t *value_len)
{
	struct xtable t;
	errcode_t err;
	int i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = table_parse(fs, inode, &t);
	if (err)
		return err;
	i = table_find(&t, name_index, name);
	if (i < 0) {
		err = E2X_ERR_NOT_FOUND;
		goto out;
	}
	if (!t.ents[i].value) {		/* value in an EA inode */
		err = E2X_ERR_UNSUPPORTED;
		goto out;
	}
	if (value_len)
		*value_len = t.ents[i].size;
	if (buf)
		memcpy(buf, t.ents[i].value,
		       bufsize < t.ents[i].size ? bufsize : t.ents[i].size);
out:
	table_free(&t);
	return err;
}

errcode_t e2x_xattr_ibody_set(ext2_filsys fs, struct ext2_inode_large *inode,
			      int name_index, const char *name,
			      const void *value, size_t value_len)
{
	struct xtable t;
	struct xent *e;
	size_t name_len = strlen(name);
	errcode_t err;
	int i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (name_len == 0 || name_len > 255 || name_index < 0 ||
	    name_index > 255)
		return E2X_ERR_BAD_OPTION;
	if (value_len > UINT16_MAX)
		return E2X_ERR_NO_SPACE;
	err = table_parse(fs, inode, &t);
	if (err)
		return err;
	if (!t.ents) {		/* empty area: room for the new entry */
		err = ext2fs_get_array(1, sizeof(*t.ents), &t.ents);
		if (err)
			return err;
		t.max = 1;
	}
	i = table_find(&t, name_index, name);
	if (i < 0) {
		if (t.count == t.max) {
			err = ext2fs_resize_mem(t.max * sizeof(*t.ents),
						(t.max + 1) * sizeof(*t.ents),
						&t.ents);
			if (err)
				goto out;
			t.max++;
		}
		i = (int)t.count++;
	}
	e = &t.ents[i];
	e->index = (uint8_t)name_index;
	e->name_len = (uint8_t)name_len;
	e->name = name;
	e->inum = 0;
	e->size = (uint32_t)value_len;
	e->hash = 0;
	e->value = value_len ? value : (const unsigned char *)"";
	err = table_store(fs, inode, &t);
out:
	table_free(&t);
	return err;
}

errcode_t e2x_xattr_ibody_remove(ext2_filsys fs,
				 struct ext2_inode_large *inode,
				 int name_index, const char *name)
{
	struct xtable t;
	errcode_t err;
	int i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = table_parse(fs, inode, &t);
	if (err)
		return err;
	i = table_find(&t, name_index, name);
	if (i < 0) {
		err = E2X_ERR_NOT_FOUND;
		goto out;
	}
	memmove(&t.ents[i], &t.ents[i + 1],
		(t.count - (size_t)i - 1) * sizeof(*t.ents));
	t.count--;
	err = table_store(fs, inode, &t);
out:
	table_free(&t);
	return err;
}

errcode_t e2x_xattr_ibody_list(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       e2x_xattr_fn fn, void *priv)
{
	struct xtable t;
	struct e2x_xattr xa;
	errcode_t err;
	size_t i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	err = table_parse(fs, inode, &t);
	if (err)
		return err;
	for (i = 0; i < t.count && !err; i++) {
		xa.name_index = t.ents[i].index;
		xa.name = t.ents[i].name;
		xa.name_len = t.ents[i].name_len;
		xa.value = t.ents[i].value;
		xa.value_len = t.ents[i].size;
		xa.value_inum = t.ents[i].inum;
		err = fn(&xa, priv);
	}
	table_free(&t);
	return err;
}

errcode_t e2x_xattr_ibody_room(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       int name_index, const char *name,
			       size_t *max_value)
{
	const unsigned char *hdr;
	struct xtable t;
	size_t size, need;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*max_value = 0;
	err = ibody_locate(fs, inode, &hdr, &size);
	if (err)
		return err;
	if (!hdr)
		return E2X_ERR_NO_SPACE;
	err = table_parse(fs, inode, &t);
	if (err)
		return err;
	need = table_bytes(&t, table_find(&t, name_index, name)) +
	       E2X_XATTR_ENTRY_LEN(strlen(name));
	if (need > size)
		err = E2X_ERR_NO_SPACE;
	else
		*max_value = (size - need) & ~(size_t)3;
	table_free(&t);
	return err;
}

/* One parsed entry as the walk shows it, offsets in the inode buffer. */
static void walk_entry(const struct xtable *t, const struct xent *x,
		       struct e2x_xattr_ibody_entry *we)
{
	size_t first = t->hdr_off + IBODY_HDR_SIZE;

	memset(we, 0, sizeof(*we));
	we->xa.name_index = x->index;
	we->xa.name = x->name;
	we->xa.name_len = x->name_len;
	we->xa.value = x->value;
	we->xa.value_len = x->size;
	we->xa.value_inum = x->inum;
	we->entry_off = (unsigned int)(first + x->off);
	we->value_off = x->inum ? 0 : (unsigned int)(first + x->value_off);
	we->faults = x->faults;
}

errcode_t e2x_xattr_ibody_walk(ext2_filsys fs,
			       const struct ext2_inode_large *inode,
			       e2x_xattr_walk_fn fn, void *priv,
			       unsigned int *faults)
{
	struct e2x_xattr_ibody_entry we;
	struct xtable t;
	errcode_t err;
	size_t i;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (faults)
		*faults = 0;
	err = table_read(fs, inode, &t);
	if (err)
		return err;
	if (faults)
		*faults = t.faults;
	for (i = 0; fn && i < t.count && !err; i++) {
		walk_entry(&t, &t.ents[i], &we);
		err = fn(&we, priv);
	}
	table_free(&t);
	return err;
}
