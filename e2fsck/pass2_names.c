/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pass2_names.c --- pass 2's check that a directory holds no name twice:
 * a 64-bit fingerprint per name, sorted once the directory is read (8
 * bytes a name); only when two fingerprints agree is the directory read
 * again to report the names themselves.
 */
#include "config.h"
#include <string.h>
#include <stdlib.h>
#include "pass2.h"

static uint64_t fingerprint(const char *s, int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

void p2_names_add(struct p2_dir *pd, const char *name, int len)
{
	if (pd->nnames == pd->names_cap) {
		size_t cap = pd->names_cap ? pd->names_cap * 2 : 64;
		uint64_t *v = realloc(pd->names, cap * sizeof(*v));

		if (!v) {
			pd->names_lost = 1;
			return;
		}
		pd->names = v;
		pd->names_cap = cap;
	}
	pd->names[pd->nnames++] = fingerprint(name, len);
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/* In place (qsort would take a second array as large as the first):
 * quicksort on the middle element, looping on the larger side. */
static void sort_u64(uint64_t *v, size_t n)
{
	while (n > 16) {
		uint64_t pivot = v[n / 2];
		size_t i = 0, j = n - 1;

		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap_u64(&v[i++], &v[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n) */
		if (j + 1 < n - j - 1) {
			sort_u64(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_u64(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t k = i;

		for (; k && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
}

/* Fingerprints given more than once, kept sorted and unique. */
struct dupset {
	uint64_t *fp;
	unsigned char *seen;
	size_t n;
};

static int dupset_find(const struct dupset *ds, uint64_t fp, size_t *at)
{
	size_t lo = 0, hi = ds->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ds->fp[mid] == fp) {
			*at = mid;
			return 1;
		}
		if (ds->fp[mid] < fp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Report every occurrence of a duplicated name after its first. */
static int report_dup(struct p2_dir *pd, const struct ext2_dir_entry *d,
		      void *priv)
{
	struct dupset *ds = priv;
	int len = ext2fs_dirent_name_len(d);
	size_t at;

	if (!dupset_find(ds, fingerprint(d->name, len), &at))
		return 0;
	if (ds->seen[at] &&
	    entry_problem(pd, PR_2_DUP_NAME, d->inode, d->name, len, 0, 0))
		p2_fix_dup_name(pd, (struct ext2_dir_entry *)d);
	ds->seen[at] = 1;
	return 0;
}

/* After the directory's entries were all added: find names given twice. */
void p2_names_check(struct p2_dir *pd)
{
	struct dupset ds = { 0 };
	size_t i;

	if (pd->nnames < 2 || pd->names_lost)
		return;
	sort_u64(pd->names, pd->nnames);
	/* compact the duplicated fingerprints to the front, once each */
	for (i = 1; i < pd->nnames; i++) {
		if (pd->names[i] != pd->names[i - 1])
			continue;
		if (!ds.n || pd->names[ds.n - 1] != pd->names[i])
			pd->names[ds.n++] = pd->names[i];
	}
	if (!ds.n)
		return;
	ds.fp = pd->names;
	ds.seen = calloc(ds.n, 1);
	if (!ds.seen)
		return;
	p2_each_entry(pd, report_dup, &ds);
	free(ds.seen);
}
