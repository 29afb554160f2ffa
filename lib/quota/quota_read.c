/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * quota_read.c --- the read-only quota file reader (e2x-quota.h): loads
 * a v2r1 quota file, walks its tree in id order (each data block once,
 * though several paths lead to it) and looks one id up.
 */
#include "config.h"
#include <string.h>
#include "e2x.h"

#define QF_BLOCK	1024
#define QF_DEPTH	4
#define QF_REFS		(QF_BLOCK / 4)
#define QF_DATA_HDR	16
#define QF_RECORD	72
#define QF_MAX_BLOCKS	(1U << 20)
#define QF_VERSION	1

static const uint32_t qf_magic[E2X_QUOTA_TYPES] = {
	0xd9c01f11, 0xd9c01927, 0xd9c03f14
};

struct e2x_quota_file {
	int type;
	uint64_t len;
	unsigned char *buf;
};

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

ext2_ino_t e2x_quota_inode(ext2_filsys fs, int type)
{
	struct ext2_super_block *sb = fs->super;

	switch (type) {
	case E2X_QUOTA_USER:
		return sb->s_usr_quota_inum;
	case E2X_QUOTA_GROUP:
		return sb->s_grp_quota_inum;
	case E2X_QUOTA_PROJECT:
		return sb->s_prj_quota_inum;
	}
	return 0;
}

errcode_t e2x_quota_open(ext2_filsys fs, int type,
			 struct e2x_quota_file **qfp)
{
	struct e2x_quota_file *qf;
	ext2_ino_t ino = e2x_quota_inode(fs, type);
	ext2_file_t f = NULL;
	unsigned int got;
	errcode_t err;

	*qfp = NULL;
	if (!ino || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	err = ext2fs_get_memzero(sizeof(*qf), &qf);
	if (err)
		return err;
	qf->type = type;
	err = ext2fs_file_open(fs, ino, 0, &f);
	if (err)
		goto fail;
	qf->len = ext2fs_file_get_size(f);
	if (qf->len > (uint64_t)QF_MAX_BLOCKS * QF_BLOCK ||
	    qf->len < 2 * QF_BLOCK) {
		err = E2X_ERR_CORRUPT;
		goto fail;
	}
	err = ext2fs_get_memzero(qf->len, &qf->buf);
	if (!err)
		err = ext2fs_file_read(f, qf->buf, qf->len, &got);
	if (!err && got != qf->len)
		err = E2X_ERR_CORRUPT;
	if (err)
		goto fail;
	ext2fs_file_close(f);
	*qfp = qf;
	return 0;
fail:
	if (f)
		ext2fs_file_close(f);
	e2x_quota_close(qf);
	return err;
}

void e2x_quota_close(struct e2x_quota_file *qf)
{
	if (!qf)
		return;
	ext2fs_free_mem(&qf->buf);
	ext2fs_free_mem(&qf);
}

void e2x_quota_file_info(const struct e2x_quota_file *qf,
			 struct e2x_quota_info *info)
{
	info->magic = get32(qf->buf);
	info->bgrace = get32(qf->buf + 8);
	info->igrace = get32(qf->buf + 12);
	info->flags = get32(qf->buf + 16);
}

static const unsigned char *qf_block(const struct e2x_quota_file *qf,
				     uint32_t blk)
{
	/* blk + 1 in 64 bits: 0xffffffff must not wrap to block 0 */
	if (!blk || ((uint64_t)blk + 1) * QF_BLOCK > qf->len)
		return NULL;
	return qf->buf + (uint64_t)blk * QF_BLOCK;
}

static int qf_header_ok(const struct e2x_quota_file *qf)
{
	return get32(qf->buf) == qf_magic[qf->type] &&
	       get32(qf->buf + 4) == QF_VERSION;
}

static int record_used(const unsigned char *r)
{
	int i;

	for (i = 0; i < QF_RECORD; i++)
		if (r[i])
			return 1;
	return 0;
}

static void record_decode(const unsigned char *r, struct e2x_dquot *dq)
{
	dq->id = get32(r);
	dq->ihardlimit = get64(r + 8);
	dq->isoftlimit = get64(r + 16);
	dq->curinodes = get64(r + 24);
	dq->bhardlimit = get64(r + 32);
	dq->bsoftlimit = get64(r + 40);
	dq->curspace = get64(r + 48);
	dq->btime = get64(r + 56);
	dq->itime = get64(r + 64);
}

struct qf_walk {
	int (*fn)(const struct e2x_dquot *dq, void *priv);
	void *priv;
	unsigned int visits;
	int stop;
	unsigned char *done;	/* data blocks already reported */
};

static errcode_t qf_walk(const struct e2x_quota_file *qf, uint32_t blk,
			 int depth, struct qf_walk *w)
{
	const unsigned char *b = qf_block(qf, blk);
	struct e2x_dquot dq;
	unsigned int off;
	errcode_t err;
	int i;

	if (!b || ++w->visits > QF_MAX_BLOCKS)
		return E2X_ERR_CORRUPT;
	if (depth < QF_DEPTH) {
		for (i = 0; i < QF_REFS && !w->stop; i++) {
			uint32_t ref = get32(b + 4 * i);

			if (!ref)
				continue;
			err = qf_walk(qf, ref, depth + 1, w);
			if (err)
				return err;
		}
		return 0;
	}
	/* a data block holds the records of several paths: report it once */
	if (w->done[blk / 8] & (1 << (blk % 8)))
		return 0;
	w->done[blk / 8] |= 1 << (blk % 8);
	for (off = QF_DATA_HDR; off + QF_RECORD <= QF_BLOCK && !w->stop;
	     off += QF_RECORD) {
		if (!record_used(b + off))
			continue;
		record_decode(b + off, &dq);
		w->stop = w->fn(&dq, w->priv);
	}
	return 0;
}

errcode_t e2x_quota_iterate(struct e2x_quota_file *qf,
			    int (*fn)(const struct e2x_dquot *dq, void *priv),
			    void *priv)
{
	struct qf_walk w = { fn, priv, 0, 0, NULL };
	errcode_t err;

	if (!qf_header_ok(qf))
		return E2X_ERR_CORRUPT;
	err = ext2fs_get_memzero(qf->len / QF_BLOCK / 8 + 1, &w.done);
	if (err)
		return err;
	err = qf_walk(qf, 1, 0, &w);
	ext2fs_free_mem(&w.done);
	return err;
}

errcode_t e2x_quota_get(struct e2x_quota_file *qf, uint32_t id,
			struct e2x_dquot *dq)
{
	const unsigned char *b;
	uint32_t blk = 1;
	unsigned int off;
	int depth;

	memset(dq, 0, sizeof(*dq));
	dq->id = id;
	if (!qf_header_ok(qf))
		return E2X_ERR_CORRUPT;
	for (depth = 0; depth < QF_DEPTH; depth++) {
		b = qf_block(qf, blk);
		if (!b)
			return E2X_ERR_CORRUPT;
		blk = get32(b + 4 * ((id >> (8 * (QF_DEPTH - 1 - depth))) &
				     0xff));
		if (!blk)
			return E2X_ERR_NOT_FOUND;
	}
	b = qf_block(qf, blk);
	if (!b)
		return E2X_ERR_CORRUPT;
	for (off = QF_DATA_HDR; off + QF_RECORD <= QF_BLOCK;
	     off += QF_RECORD) {
		if (record_used(b + off) && get32(b + off) == id) {
			record_decode(b + off, dq);
			return 0;
		}
	}
	return E2X_ERR_NOT_FOUND;
}
