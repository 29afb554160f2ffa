/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * u64map.c --- open-addressing (linear probing) hash map, u64 -> u64,
 * grown at half load.  No deletion: the users only add.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "journal/u64map.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	u64map_init(m);
}

uint64_t *u64map_find(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static void put_nogrow(struct u64map *m, uint64_t key, uint64_t val)
{
	size_t i = slot_of(key, m->cap);

	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->count++;
	}
	m->vals[i] = val;
}

static errcode_t grow(struct u64map *m)
{
	struct u64map n;
	size_t i;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.count = 0;
	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = malloc(n.cap * sizeof(*n.vals));
	n.used = calloc(n.cap, 1);
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys);
		free(n.vals);
		free(n.used);
		return EXT2_ET_NO_MEMORY;
	}
	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			put_nogrow(&n, m->keys[i], m->vals[i]);
	u64map_free(m);
	*m = n;
	return 0;
}

errcode_t u64map_put(struct u64map *m, uint64_t key, uint64_t val)
{
	errcode_t err;

	if ((m->count + 1) * 2 > m->cap) {
		err = grow(m);
		if (err)
			return err;
	}
	put_nogrow(m, key, val);
	return 0;
}

void u64map_each(const struct u64map *m,
		 void (*fn)(uint64_t key, uint64_t val, void *data),
		 void *data)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			fn(m->keys[i], m->vals[i], data);
}
