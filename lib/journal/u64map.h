/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * u64map.h --- a growable open-addressing hash map from 64-bit keys to
 * 64-bit values (internal to libe2x: revoke table, overlay index).
 */
#ifndef E2X_U64MAP_H
#define E2X_U64MAP_H

#include <stdint.h>
#include <ext2fs/ext2fs.h>

struct u64map {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap;		/* power of two, or 0 when empty */
	size_t count;
};

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);
/* Pointer to the value of KEY, or NULL. */
uint64_t *u64map_find(const struct u64map *m, uint64_t key);
/* Insert or overwrite; may grow (ENOMEM-style errcode on failure). */
errcode_t u64map_put(struct u64map *m, uint64_t key, uint64_t val);
/* Call FN for every entry (order unspecified). */
void u64map_each(const struct u64map *m,
		 void (*fn)(uint64_t key, uint64_t val, void *data),
		 void *data);

#endif
