/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dirmodel_seed.h --- the file system hash seed of a model test run,
 * derived from the run's seed so that one printed number reproduces it.
 */
#ifndef E2X_DIRMODEL_SEED_H
#define E2X_DIRMODEL_SEED_H

#include <stdint.h>
#include <stdio.h>
#include <ext2fs/ext2fs.h>

/* The file system's hash seed for run SEED, as mke2fs -E takes it. */
static inline void seed_uuid(uint64_t seed, char *out, size_t len)
{
	uint64_t w[2];
	int i;

	for (i = 0; i < 2; i++) {
		uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);

		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		w[i] = z ^ (z >> 31);
	}
	snprintf(out, len, "%08x-%04x-%04x-%04x-%012llx",
		 (unsigned int)(w[0] >> 32), (unsigned int)(w[0] >> 16) & 0xffff,
		 (unsigned int)w[0] & 0xffff, (unsigned int)(w[1] >> 48),
		 (unsigned long long)(w[1] & 0xffffffffffffULL) | 1);
}

/* The hash seed mke2fs stored, in the same form. */
static inline const char *seed_of(ext2_filsys fs, char *out, size_t len)
{
	const unsigned char *u = (const unsigned char *)fs->super->s_hash_seed;
	size_t i, at = 0;

	for (i = 0; i < 16 && at + 3 < len; i++)
		at += snprintf(out + at, len - at, "%s%02x",
			       i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
			       u[i]);
	return out;
}

#endif
