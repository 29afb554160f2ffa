/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mutate.h --- deterministic, structure-aware mutations of ext4 images
 * for the e2fsck fuzz drivers (mutate.c).
 */
#ifndef E2X_FUZZ_MUTATE_H
#define E2X_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/* Kinds of on-disk structure a mutation aims at. */
enum mut_kind {
	MK_SUPER, MK_GDESC, MK_INODE, MK_EXTENT, MK_DIRENT, MK_XATTR,
	MK_JOURNAL, MK_ITREE, MK_ANY, MK_NKINDS
};

/* A structure found in a seed image: KIND at OFF, LEN bytes. */
struct mut_region {
	enum mut_kind kind;
	size_t off, len;
};

/* Structures of one seed image, found once. */
struct mut_map {
	struct mut_region *r;
	size_t n, cap;
	size_t count[MK_NKINDS];
	unsigned int blocksize;
	uint64_t blocks;
	int csum;		/* metadata_csum: refresh sb checksum */
};

/* Find the structures of IMG (SIZE bytes).  Returns 0, -1 on ENOMEM. */
int mut_map_build(struct mut_map *m, const uint8_t *img, size_t size);
void mut_map_free(struct mut_map *m);

/* splitmix64: the only randomness, so a case is (seed, index). */
uint64_t mut_rand(uint64_t *state);

/* Apply 1-4 mutations chosen by STATE to IMG (a copy of the mapped seed).
 * Writes a one-line description of the first into WHAT (may be NULL). */
void mut_apply(const struct mut_map *m, uint8_t *img, size_t size,
	       uint64_t *state, char *what, size_t whatlen);

const char *mut_kind_name(enum mut_kind k);

#endif
