/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_write.c --- a jbd2 transaction writer (debugfs jo/jw/jc): lays
 * out descriptor, data, revoke and commit blocks after the log's last
 * commit with the journal's tag format and checksums, and keeps the
 * journal superblock's log start and sequence for the replay to find.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "journal/journal-int.h"

#define E2X_JWRITER_MAGIC 0x4A575254L	/* "JWRT" */

struct e2x_jwriter {
	errcode_t magic;
	struct e2x_journal *j;
	uint32_t tail;		/* s_start to write; 0: the log is empty */
	uint32_t tail_tid;	/* s_sequence to write */
	uint32_t head;		/* first free log block */
	uint32_t next_tid;	/* tid of the next transaction */
	unsigned char *blk;	/* descriptor, revoke or commit block */
	unsigned char *data;	/* one logged data block */
};

/* Re-derive the handle's format fields after a superblock change. */
static void refresh_format(struct e2x_journal *j)
{
	j->compat = be32_get(&j->jsb.s_feature_compat);
	j->incompat = be32_get(&j->jsb.s_feature_incompat);
	j->tag_bytes = e2x_jbd2_tag_bytes(j->incompat);
	j->tail_bytes = J_CSUM_V23(j) ? 4 : 0;
	j->seed = e2x_jbd2_csum_seed(&j->jsb);
}

static void set_incompat(struct e2x_journal *j, uint32_t set, uint32_t clear)
{
	be32_put(&j->jsb.s_feature_incompat, (j->incompat & ~clear) | set);
	refresh_format(j);
}

static int log_is_live(const struct e2x_jwriter *w)
{
	return w->tail || ext2fs_has_feature_journal_needs_recovery(
				  w->j->fs->super);
}

static int is_v2_super(const struct e2x_journal *j)
{
	return be32_get(&j->jsb.s_header.h_blocktype) == E2X_JBD2_SB_V2;
}

/* A 64bit fs logs 64-bit block numbers: add the journal feature while
 * nothing in the log depends on the old tag size. */
static void match_64bit(struct e2x_jwriter *w)
{
	struct e2x_journal *j = w->j;
	static const uint8_t zero[16];

	if (!is_v2_super(j) || !ext2fs_has_feature_64bit(j->fs->super) ||
	    (j->incompat & E2X_JBD2_INCOMPAT_64BIT) || log_is_live(w))
		return;
	if (!memcmp(j->jsb.s_uuid, zero, sizeof(zero)))
		memcpy(j->jsb.s_uuid, j->fs->super->s_uuid, 16);
	set_incompat(j, E2X_JBD2_INCOMPAT_64BIT, 0);
}

errcode_t e2x_jwriter_open(ext2_filsys fs, const struct e2x_journal_opts *o,
			   struct e2x_jwriter **wp)
{
	struct e2x_journal_result res;
	struct e2x_jwriter *w;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*wp = NULL;
	if (!(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	w = calloc(1, sizeof(*w));
	if (!w)
		return EXT2_ET_NO_MEMORY;
	err = e2x_journal_load(fs, o, &w->j);
	if (!err) {
		memset(&res, 0, sizeof(res));
		err = e2x_journal_scan(w->j, &res);
	}
	if (!err && !(w->blk = malloc(2 * (size_t)fs->blocksize)))
		err = EXT2_ET_NO_MEMORY;
	if (err) {
		e2x_journal_free(w->j);
		free(w);
		return err;
	}
	w->magic = E2X_JWRITER_MAGIC;
	w->data = w->blk + fs->blocksize;
	w->tail = w->j->start;
	w->tail_tid = w->j->sequence;
	w->head = w->j->start ? w->j->head : w->j->first;
	w->next_tid = w->j->end_tid;
	match_64bit(w);
	*wp = w;
	return 0;
}

errcode_t e2x_jwriter_enable_csum(struct e2x_jwriter *w, int version)
{
	uint32_t v23 = E2X_JBD2_INCOMPAT_CSUM_V2 | E2X_JBD2_INCOMPAT_CSUM_V3;
	struct e2x_journal *j;
	uint32_t compat;

	if (!w || w->magic != E2X_JWRITER_MAGIC)
		return E2X_ERR_MAGIC;
	j = w->j;
	if (version != 2 && version != 3)
		return E2X_ERR_BAD_OPTION;
	if (!is_v2_super(j))
		return E2X_ERR_UNSUPPORTED;
	if (log_is_live(w))
		return E2X_ERR_JOURNAL_LIVE;
	compat = j->compat & ~E2X_JBD2_COMPAT_CHECKSUM;
	if (!ext2fs_has_feature_metadata_csum(j->fs->super)) {
		/* without metadata_csum the kernel knows only v1 */
		be32_put(&j->jsb.s_feature_compat,
			 compat | E2X_JBD2_COMPAT_CHECKSUM);
		set_incompat(j, 0, v23);
		return 0;
	}
	be32_put(&j->jsb.s_feature_compat, compat);
	j->jsb.s_checksum_type = E2X_JBD2_CRC32C_CHKSUM;
	set_incompat(j, version == 2 ? E2X_JBD2_INCOMPAT_CSUM_V2 :
				       E2X_JBD2_INCOMPAT_CSUM_V3, v23);
	return 0;
}

static errcode_t write_log(struct e2x_journal *j, uint32_t lblk,
			   const void *buf)
{
	blk64_t phys;

	if (lblk >= j->maxlen)
		return E2X_ERR_JOURNAL;
	phys = j->map ? j->map[lblk] : lblk;
	return io_channel_write_blk64(j->jio, phys, 1, buf);
}

/* Tags that fit one descriptor block (the first carries the UUID). */
static size_t tags_per_descriptor(const struct e2x_journal *j)
{
	unsigned int room = j->bs - sizeof(struct e2x_jbd2_header) -
			    j->tail_bytes - 16;

	return 1 + (room - j->tag_bytes) / j->tag_bytes;
}

static unsigned int revoke_record_bytes(const struct e2x_journal *j)
{
	return j->incompat & E2X_JBD2_INCOMPAT_64BIT ? 8 : 4;
}

static size_t revokes_per_block(const struct e2x_journal *j)
{
	return (j->bs - sizeof(struct e2x_jbd2_revoke_header) -
		j->tail_bytes) / revoke_record_bytes(j);
}

static size_t div_up(size_t n, size_t d)
{
	return (n + d - 1) / d;
}

/* Log blocks T needs, commit included. */
static uint64_t trans_blocks(const struct e2x_journal *j,
			     const struct e2x_jwrite *t)
{
	return div_up(t->nblocks, tags_per_descriptor(j)) + t->nblocks +
	       div_up(t->nrevoke, revokes_per_block(j)) +
	       !(t->flags & E2X_JWRITE_NO_COMMIT);
}

static errcode_t check_trans(struct e2x_jwriter *w, const struct e2x_jwrite *t)
{
	struct e2x_journal *j = w->j;
	blk64_t nblocks = ext2fs_blocks_count(j->fs->super);
	uint32_t size = j->maxlen - j->first, used = 0;
	size_t i;

	for (i = 0; i < t->nblocks; i++)
		if (t->blocks[i] >= nblocks)
			return EXT2_ET_BAD_BLOCK_NUM;
	for (i = 0; i < t->nrevoke; i++)
		if (t->revoke[i] >= nblocks)
			return EXT2_ET_BAD_BLOCK_NUM;
	if (t->nblocks && !t->data)
		return E2X_ERR_BAD_OPTION;
	if (w->tail)
		used = (w->head + size - w->tail) % size;
	/* one block stays free so a full log never looks empty */
	if (used + trans_blocks(j, t) >= size)
		return E2X_ERR_NO_SPACE;
	return 0;
}

static void put_header(unsigned char *b, uint32_t type, uint32_t tid)
{
	be32_put(b, E2X_JBD2_MAGIC);
	be32_put(b + 4, type);
	be32_put(b + 8, tid);
}

/* Checksum the tail of a descriptor or revoke block and write it. */
static errcode_t write_tailed(struct e2x_journal *j, uint32_t lblk,
			      unsigned char *b)
{
	if (J_CSUM_V23(j))
		be32_put(b + j->bs - 4,
			 e2x_jbd2_block_tail_csum(j->seed, b, j->bs));
	return write_log(j, lblk, b);
}

/* The tag of fs block FSBLK, whose data (as logged) is in DATA. */
static void put_tag(const struct e2x_journal *j, unsigned char *tag,
		    blk64_t fsblk, uint32_t flags, uint32_t tid,
		    const unsigned char *data)
{
	uint32_t csum = e2x_jbd2_data_csum(j->seed, tid, data, j->bs);

	memset(tag, 0, j->tag_bytes);
	be32_put(tag, (uint32_t)fsblk);
	if (j->incompat & E2X_JBD2_INCOMPAT_64BIT)
		be32_put(tag + 8, (uint32_t)(fsblk >> 32));
	if (j->incompat & E2X_JBD2_INCOMPAT_CSUM_V3) {
		be32_put(tag + 4, flags);
		be32_put(tag + 12, csum);
		return;
	}
	tag[6] = flags >> 8;
	tag[7] = flags;
	if (j->incompat & E2X_JBD2_INCOMPAT_CSUM_V2) {
		tag[4] = csum >> 8;
		tag[5] = csum;
	}
}

struct desc_state {
	uint32_t lblk;		/* where the open descriptor goes */
	unsigned int off;	/* next tag offset; 0: none open */
	unsigned int last;	/* offset of its last tag */
};

static errcode_t close_descriptor(struct e2x_jwriter *w, struct desc_state *d)
{
	struct e2x_journal *j = w->j;
	unsigned char *flags_lo = w->blk + d->last + 7;

	if (!d->off)
		return 0;
	*flags_lo |= E2X_JBD2_FLAG_LAST_TAG;
	d->off = 0;
	return write_tailed(j, d->lblk, w->blk);
}

/* Log data block I of T at *POS, opening a descriptor when needed. */
static errcode_t log_one(struct e2x_jwriter *w, const struct e2x_jwrite *t,
			 size_t i, uint32_t tid, struct desc_state *d,
			 uint32_t *pos)
{
	struct e2x_journal *j = w->j;
	unsigned int room = j->bs - j->tail_bytes;
	uint32_t flags = 0;
	errcode_t err;

	if (d->off && d->off + j->tag_bytes > room) {
		err = close_descriptor(w, d);
		if (err)
			return err;
	}
	if (!d->off) {
		memset(w->blk, 0, j->bs);
		put_header(w->blk, E2X_JBD2_DESCRIPTOR, tid);
		d->lblk = *pos;
		d->off = sizeof(struct e2x_jbd2_header);
		*pos = e2x_journal_next(j, *pos);
	} else {
		flags |= E2X_JBD2_FLAG_SAME_UUID;
	}
	memcpy(w->data, (const unsigned char *)t->data + i * j->bs, j->bs);
	if (be32_get(w->data) == E2X_JBD2_MAGIC) {
		memset(w->data, 0, 4);
		flags |= E2X_JBD2_FLAG_ESCAPE;
	}
	put_tag(j, w->blk + d->off, t->blocks[i], flags, tid, w->data);
	d->last = d->off;
	d->off += j->tag_bytes;
	if (!(flags & E2X_JBD2_FLAG_SAME_UUID)) {
		memcpy(w->blk + d->off, j->jsb.s_uuid, 16);
		d->off += 16;
	}
	err = write_log(j, *pos, w->data);
	*pos = e2x_journal_next(j, *pos);
	return err;
}

static errcode_t log_data(struct e2x_jwriter *w, const struct e2x_jwrite *t,
			  uint32_t tid, uint32_t *pos)
{
	struct desc_state d = { 0, 0, 0 };
	errcode_t err = 0;
	size_t i;

	for (i = 0; i < t->nblocks && !err; i++)
		err = log_one(w, t, i, tid, &d, pos);
	if (!err)
		err = close_descriptor(w, &d);
	return err;
}

static errcode_t log_revokes(struct e2x_jwriter *w, const struct e2x_jwrite *t,
			     uint32_t tid, uint32_t *pos)
{
	struct e2x_journal *j = w->j;
	unsigned int sz = revoke_record_bytes(j);
	size_t i = 0, n, per = revokes_per_block(j);
	unsigned int off;
	errcode_t err = 0;

	while (i < t->nrevoke && !err) {
		memset(w->blk, 0, j->bs);
		put_header(w->blk, E2X_JBD2_REVOKE, tid);
		off = sizeof(struct e2x_jbd2_revoke_header);
		for (n = 0; n < per && i < t->nrevoke; n++, i++, off += sz) {
			if (sz == 8)
				be32_put(w->blk + off, t->revoke[i] >> 32);
			be32_put(w->blk + off + sz - 4, (uint32_t)t->revoke[i]);
		}
		be32_put(w->blk + 12, off);
		err = write_tailed(j, *pos, w->blk);
		*pos = e2x_journal_next(j, *pos);
	}
	return err;
}

/* Checksum v1: crc32_be of the transaction's descriptor and data blocks
 * (revoke blocks are not part of it), read back from the log. */
static errcode_t crc_v1(struct e2x_jwriter *w, uint32_t from, uint32_t to,
			uint32_t *crc)
{
	struct e2x_journal *j = w->j;
	errcode_t err;

	*crc = ~0U;
	for (; from != to; from = e2x_journal_next(j, from)) {
		err = e2x_journal_read(j, from, w->data);
		if (err)
			return err;
		/* data blocks never start with the magic: they are escaped */
		if (be32_get(w->data) == E2X_JBD2_MAGIC &&
		    be32_get(w->data + 4) == E2X_JBD2_REVOKE)
			continue;
		*crc = ext2fs_crc32_be(*crc, w->data, j->bs);
	}
	return 0;
}

static errcode_t log_commit(struct e2x_jwriter *w, uint32_t start,
			    uint32_t tid, uint32_t pos)
{
	struct e2x_journal *j = w->j;
	struct e2x_jbd2_commit *c = (struct e2x_jbd2_commit *)w->blk;
	uint64_t now = (uint64_t)e2x_now(j->fs);
	uint32_t crc;
	errcode_t err;

	memset(w->blk, 0, j->bs);
	put_header(w->blk, E2X_JBD2_COMMIT, tid);
	be32_put(&c->h_commit_sec, now >> 32);
	be32_put((unsigned char *)&c->h_commit_sec + 4, (uint32_t)now);
	if (j->compat & E2X_JBD2_COMPAT_CHECKSUM) {
		err = crc_v1(w, start, pos, &crc);
		if (err)
			return err;
		c->h_chksum_type = E2X_JBD2_CRC32_CHKSUM;
		c->h_chksum_size = E2X_JBD2_CRC32_CHKSUM_SIZE;
		be32_put(&c->h_chksum[0], crc);
	} else if (J_CSUM_V23(j)) {
		be32_put(&c->h_chksum[0],
			 e2x_jbd2_commit_csum(j->seed, w->blk, j->bs));
	}
	return write_log(j, pos, w->blk);
}

/* A committed transaction joins the log the replay will read. */
static void log_committed(struct e2x_jwriter *w, uint32_t start,
			  uint32_t tid, uint32_t end)
{
	ext2_filsys fs = w->j->fs;

	if (!w->tail) {
		w->tail = start;
		w->tail_tid = tid;
	}
	w->head = end;
	w->next_tid = tid + 1;
	if (!ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		ext2fs_set_feature_journal_needs_recovery(fs->super);
		ext2fs_mark_super_dirty(fs);
	}
}

errcode_t e2x_jwriter_write(struct e2x_jwriter *w, const struct e2x_jwrite *t)
{
	uint32_t start, pos, tid;
	errcode_t err;

	if (!w || w->magic != E2X_JWRITER_MAGIC)
		return E2X_ERR_MAGIC;
	if (t->nrevoke && !(w->j->incompat & E2X_JBD2_INCOMPAT_REVOKE)) {
		if (!is_v2_super(w->j))
			return E2X_ERR_UNSUPPORTED;
		set_incompat(w->j, E2X_JBD2_INCOMPAT_REVOKE, 0);
	}
	err = check_trans(w, t);
	if (err)
		return err;
	start = pos = w->head;
	tid = w->next_tid;
	err = log_data(w, t, tid, &pos);
	if (!err)
		err = log_revokes(w, t, tid, &pos);
	if (err || (t->flags & E2X_JWRITE_NO_COMMIT))
		return err;
	err = log_commit(w, start, tid, pos);
	if (!err)
		log_committed(w, start, tid, e2x_journal_next(w->j, pos));
	return err;
}

static errcode_t write_super(struct e2x_jwriter *w)
{
	struct e2x_journal *j = w->j;
	struct e2x_jbd2_super *s = (struct e2x_jbd2_super *)w->blk;
	errcode_t err;

	err = io_channel_read_blk64(j->jio, j->jsb_phys, 1, w->blk);
	if (err)
		return err;
	memcpy(s, &j->jsb, sizeof(*s));
	be32_put(&s->s_start, w->tail);
	be32_put(&s->s_sequence, w->tail_tid);
	if (J_CSUM_V23(j))
		be32_put(&s->s_checksum, e2x_jbd2_super_csum(s));
	err = io_channel_write_blk64(j->jio, j->jsb_phys, 1, w->blk);
	if (!err)
		err = io_channel_flush(j->jio);
	return err;
}

errcode_t e2x_jwriter_close(struct e2x_jwriter *w)
{
	errcode_t err;

	if (!w || w->magic != E2X_JWRITER_MAGIC)
		return E2X_ERR_MAGIC;
	err = write_super(w);
	e2x_journal_free(w->j);
	free(w->blk);
	w->magic = 0;
	free(w);
	return err;
}
