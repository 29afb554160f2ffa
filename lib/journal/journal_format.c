/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_format.c --- jbd2 format rules: tag sizes, the four checksums
 * (superblock, block tail, commit, data tag) and superblock validation.
 */
#include "config.h"
#include <string.h>
#include <stddef.h>
#include "journal/journal-int.h"

_Static_assert(sizeof(struct e2x_jbd2_header) == 12, "header");
_Static_assert(sizeof(struct e2x_jbd2_super) == 1024, "superblock");
_Static_assert(offsetof(struct e2x_jbd2_super, s_checksum) == 0xFC, "csum");
_Static_assert(sizeof(struct e2x_jbd2_tag3) == 16, "tag3");
_Static_assert(sizeof(struct e2x_jbd2_tag) == 12, "tag");
_Static_assert(sizeof(struct e2x_jbd2_commit) == 0x3C, "commit");
_Static_assert(sizeof(struct e2x_jbd2_revoke_header) == 16, "revoke");

unsigned int e2x_jbd2_tag_bytes(uint32_t incompat)
{
	unsigned int sz;

	if (incompat & E2X_JBD2_INCOMPAT_CSUM_V3)
		return sizeof(struct e2x_jbd2_tag3);
	sz = sizeof(struct e2x_jbd2_tag);
	if (incompat & E2X_JBD2_INCOMPAT_CSUM_V2)
		sz += 2;
	if (!(incompat & E2X_JBD2_INCOMPAT_64BIT))
		sz -= 4;
	return sz;
}

uint32_t e2x_jbd2_csum_seed(const struct e2x_jbd2_super *jsb)
{
	return ext2fs_crc32c_le(~0U, jsb->s_uuid, sizeof(jsb->s_uuid));
}

uint32_t e2x_jbd2_super_csum(const struct e2x_jbd2_super *jsb)
{
	struct e2x_jbd2_super copy = *jsb;

	copy.s_checksum = 0;
	return ext2fs_crc32c_le(~0U, (const unsigned char *)&copy,
				sizeof(copy));
}

/* crc32c of BLOCK with the 4 bytes at OFF taken as zero. */
static uint32_t csum_hole(uint32_t seed, const unsigned char *block,
			  unsigned int size, unsigned int off)
{
	static const unsigned char zero[4];
	uint32_t crc;

	crc = ext2fs_crc32c_le(seed, block, off);
	crc = ext2fs_crc32c_le(crc, zero, 4);
	return ext2fs_crc32c_le(crc, block + off + 4, size - off - 4);
}

uint32_t e2x_jbd2_block_tail_csum(uint32_t seed, const void *block,
				  unsigned int blocksize)
{
	return csum_hole(seed, block, blocksize, blocksize - 4);
}

uint32_t e2x_jbd2_commit_csum(uint32_t seed, const void *block,
			      unsigned int blocksize)
{
	return csum_hole(seed, block, blocksize,
			 offsetof(struct e2x_jbd2_commit, h_chksum));
}

uint32_t e2x_jbd2_data_csum(uint32_t seed, uint32_t tid, const void *data,
			    unsigned int blocksize)
{
	unsigned char seq[4];
	uint32_t crc;

	be32_put(seq, tid);
	crc = ext2fs_crc32c_le(seed, seq, 4);
	return ext2fs_crc32c_le(crc, data, blocksize);
}

bool e2x_jbd2_tail_ok(const struct e2x_journal *j, const void *block)
{
	const unsigned char *b = block;

	if (!J_CSUM_V23(j))
		return true;
	return be32_get(b + j->bs - 4) ==
	       e2x_jbd2_block_tail_csum(j->seed, b, j->bs);
}

unsigned int e2x_jbd2_count_tags(const struct e2x_journal *j,
				 const unsigned char *block)
{
	unsigned int off = sizeof(struct e2x_jbd2_header);
	unsigned int limit = j->bs - j->tail_bytes;
	unsigned int n = 0;
	uint16_t flags;

	while (off + j->tag_bytes <= limit) {
		/* t_flags' low 16 bits sit at byte 6 in both tag layouts */
		flags = be16_get(block + off + 6);
		n++;
		off += j->tag_bytes;
		if (!(flags & E2X_JBD2_FLAG_SAME_UUID))
			off += 16;
		if (flags & E2X_JBD2_FLAG_LAST_TAG)
			break;
	}
	return n;
}

/* Feature checks that only apply to a v2 superblock. */
static errcode_t check_features(struct e2x_journal *j)
{
	const struct e2x_jbd2_super *s = &j->jsb;
	uint32_t csum = E2X_JBD2_INCOMPAT_CSUM_V2 | E2X_JBD2_INCOMPAT_CSUM_V3;

	if (j->incompat & ~(E2X_JBD2_KNOWN_INCOMPAT |
			    E2X_JBD2_INCOMPAT_FAST_COMMIT))
		return E2X_ERR_UNSUPPORTED;
	if ((j->incompat & csum) == csum)
		return E2X_ERR_JOURNAL;
	if ((j->incompat & csum) && (j->compat & E2X_JBD2_COMPAT_CHECKSUM))
		return E2X_ERR_JOURNAL;
	if (j->incompat & csum) {
		if (s->s_checksum_type != E2X_JBD2_CRC32C_CHKSUM)
			return E2X_ERR_JOURNAL;
		if (be32_get(&s->s_checksum) != e2x_jbd2_super_csum(s))
			return E2X_ERR_JOURNAL;
	}
	return 0;
}

errcode_t e2x_jbd2_check_super(struct e2x_journal *j, uint64_t total_blocks)
{
	const struct e2x_jbd2_super *s = &j->jsb;
	uint32_t type = be32_get(&s->s_header.h_blocktype);
	errcode_t err;

	if (be32_get(&s->s_header.h_magic) != E2X_JBD2_MAGIC)
		return E2X_ERR_JOURNAL;
	if (type != E2X_JBD2_SB_V1 && type != E2X_JBD2_SB_V2)
		return E2X_ERR_JOURNAL;
	if (be32_get(&s->s_blocksize) != j->bs)
		return E2X_ERR_JOURNAL;
	j->maxlen = be32_get(&s->s_maxlen);
	j->first = be32_get(&s->s_first);
	j->start = be32_get(&s->s_start);
	j->sequence = be32_get(&s->s_sequence);
	if (j->maxlen > total_blocks || j->maxlen < 2)
		return E2X_ERR_JOURNAL;
	if (j->first == 0 || j->first >= j->maxlen)
		return E2X_ERR_JOURNAL;
	if (j->start && (j->start < j->first || j->start >= j->maxlen))
		return E2X_ERR_JOURNAL;
	j->compat = j->incompat = 0;
	if (type == E2X_JBD2_SB_V2) {
		j->compat = be32_get(&s->s_feature_compat);
		j->incompat = be32_get(&s->s_feature_incompat);
		err = check_features(j);
		if (err)
			return err;
	}
	/* Fast-commit blocks would need ext4-specific replay. */
	if (j->start && (j->incompat & E2X_JBD2_INCOMPAT_FAST_COMMIT))
		return E2X_ERR_UNSUPPORTED;
	j->tag_bytes = e2x_jbd2_tag_bytes(j->incompat);
	j->tail_bytes = J_CSUM_V23(j) ? 4 : 0;
	j->seed = e2x_jbd2_csum_seed(s);
	return 0;
}
