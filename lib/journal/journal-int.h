/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal-int.h --- the loaded-journal handle shared by the journal_*.c
 * files (internal to libe2x).
 */
#ifndef E2X_JOURNAL_INT_H
#define E2X_JOURNAL_INT_H

#include <stdbool.h>
#include "e2x.h"
#include "journal/u64map.h"

#define E2X_JOURNAL_MAGIC 0x4A524E4CL	/* "JRNL" */

struct e2x_journal {
	errcode_t magic;
	ext2_filsys fs;
	io_channel jio;		/* the journal device: fs->io or ours */
	int own_jio;		/* jio is an external device we opened */
	char *jdev;		/* external journal path (owned) */
	struct e2x_jbd2_super jsb;	/* as on disk (big-endian) */
	blk64_t jsb_phys;	/* block of the superblock on jio */
	blk64_t *map;		/* log block -> jio block; NULL: same */
	unsigned int bs;
	uint32_t maxlen, first, start, sequence;
	uint32_t compat, incompat;
	unsigned int tag_bytes;
	unsigned int tail_bytes;	/* 4 with csum v2/v3, else 0 */
	uint32_t seed;		/* crc32c seed from the journal UUID */
	uint32_t end_tid;	/* from the scan */
	uint32_t head;		/* from the scan: log block after the last
				 * good commit (start when none) */
	bool scanned;
	bool used_backup;	/* mapped from the superblock's s_jnl_blocks */
	struct u64map revoke;	/* fs block -> highest revoking tid */
	unsigned char *buf;	/* two blocks of scratch */
	unsigned char *buf2;
};

#define J_CSUM_V23(j)                                                   \
	((j)->incompat &                                                \
	 (E2X_JBD2_INCOMPAT_CSUM_V2 | E2X_JBD2_INCOMPAT_CSUM_V3))

static inline uint32_t be32_get(const void *p)
{
	const unsigned char *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static inline uint16_t be16_get(const void *p)
{
	const unsigned char *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline void be32_put(void *p, uint32_t v)
{
	unsigned char *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline uint64_t be64_get(const void *p)
{
	return (uint64_t)be32_get(p) << 32 | be32_get((const char *)p + 4);
}

/* journal_load.c: read log block LBLK into BUF (bounds-checked). */
errcode_t e2x_journal_read(struct e2x_journal *j, uint32_t lblk, void *buf);
/* Next log block after LBLK, wrapping from maxlen to first. */
static inline uint32_t e2x_journal_next(const struct e2x_journal *j,
					uint32_t lblk)
{
	lblk++;
	return lblk >= j->maxlen ? j->first : lblk;
}

/* journal_format.c */
/* Number of tags in descriptor BLOCK (kernel count, bounded by size). */
unsigned int e2x_jbd2_count_tags(const struct e2x_journal *j,
				 const unsigned char *block);
bool e2x_jbd2_tail_ok(const struct e2x_journal *j, const void *block);
/* Validate the superblock of J (fields copied out to J). */
errcode_t e2x_jbd2_check_super(struct e2x_journal *j, uint64_t total_blocks);

/* journal_walk.c: visit the descriptor (or revoke) blocks of the
 * transactions [sequence, end_tid) in log order; FN gets the block in
 * j->buf (FN must leave it intact; j->buf2 is free), its tid, and the log
 * block right after it. */
typedef errcode_t (*e2x_jwalk_fn)(struct e2x_journal *j, uint32_t tid,
				  uint32_t next_blk, void *data);
errcode_t e2x_journal_walk(struct e2x_journal *j, uint32_t type,
			   e2x_jwalk_fn fn, void *data);

/* journal_revoke.c */
errcode_t e2x_revoke_set(struct e2x_journal *j, uint64_t blk, uint32_t tid);
bool e2x_revoke_test(const struct e2x_journal *j, uint64_t blk,
		     uint32_t tid);

#endif
