/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_recover.c --- the end of recovery (empty the journal, clear
 * needs_recovery) and the one-call recovery used by e2fsck, writing to the
 * devices or, for a dry run, into overlays.
 */
#include "config.h"
#include <string.h>
#include <stddef.h>
#include "journal/journal-int.h"

/* Empty the log: s_start = 0, next tid, no error; fix the checksum. */
static errcode_t reset_jsb(struct e2x_journal *j, io_channel jsink,
			   uint32_t next_tid)
{
	struct e2x_jbd2_super *s = (struct e2x_jbd2_super *)j->buf;
	errcode_t err;

	err = io_channel_read_blk64(jsink, j->jsb_phys, 1, j->buf);
	if (err)
		return err;
	be32_put(&s->s_start, 0);
	be32_put(&s->s_sequence, next_tid);
	be32_put(&s->s_errno, 0);
	if (J_CSUM_V23(j))
		be32_put(&s->s_checksum, e2x_jbd2_super_csum(s));
	err = io_channel_write_blk64(jsink, j->jsb_phys, 1, j->buf);
	if (!err)
		memcpy(&j->jsb, s, sizeof(j->jsb));
	return err;
}

/*
 * Clear needs_recovery in the primary superblock as it is now on the
 * device (replay may have brought a newer copy).  An error recorded in
 * the journal (or a corrupt commit the kernel flags) becomes the fs error
 * state; a recovery that failed part-way clears the valid state.  Either
 * way e2fsck then runs a full check, as the reference does.
 */
static errcode_t clear_recover(struct e2x_journal *j, io_channel sink,
			       int set_error, int clear_valid)
{
	unsigned int sb_off = j->bs == 1024 ? 0 : 1024;
	blk64_t sb_blk = j->bs == 1024 ? 1 : 0;
	struct ext2_super_block *es;
	uint32_t incompat;
	uint16_t state;
	errcode_t err;

	err = io_channel_read_blk64(sink, sb_blk, 1, j->buf);
	if (err)
		return err;
	es = (struct ext2_super_block *)(j->buf + sb_off);
	if (ext2fs_le16_to_cpu(es->s_magic) != EXT2_SUPER_MAGIC)
		return EXT2_ET_BAD_MAGIC;
	incompat = ext2fs_le32_to_cpu(es->s_feature_incompat);
	es->s_feature_incompat =
		ext2fs_cpu_to_le32(incompat & ~EXT3_FEATURE_INCOMPAT_RECOVER);
	state = ext2fs_le16_to_cpu(es->s_state);
	if (set_error)
		state |= EXT2_ERROR_FS;
	if (clear_valid)
		state &= ~EXT2_VALID_FS;
	es->s_state = ext2fs_cpu_to_le16(state);
	if (ext2fs_le32_to_cpu(es->s_feature_ro_compat) &
	    EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		es->s_checksum = ext2fs_cpu_to_le32(ext2fs_crc32c_le(
			~0U, (unsigned char *)es,
			offsetof(struct ext2_super_block, s_checksum)));
	return io_channel_write_blk64(sink, sb_blk, 1, j->buf);
}

errcode_t e2x_journal_finish(struct e2x_journal *j, io_channel sink,
			     io_channel jsink,
			     const struct e2x_journal_result *res)
{
	/* a recovery that failed part-way flags no corrupt commit */
	int failed = res->bad_data_blocks ||
		     res->stop_reason == E2X_JSTOP_BLOCK_CSUM;
	errcode_t err = 0;

	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return E2X_ERR_MAGIC;
	if (!j->scanned)
		return E2X_ERR_JOURNAL;
	/* An empty log (needs_recovery left over) keeps its superblock. */
	if (j->start || res->journal_errno)
		err = reset_jsb(j, jsink, j->end_tid + 1);
	if (!err)
		err = clear_recover(j, sink,
				    res->journal_errno ||
				    (res->failed_commit && !failed),
				    failed);
	if (!err)
		err = io_channel_flush(sink);
	if (!err && jsink != sink)
		err = io_channel_flush(jsink);
	return err;
}

void e2x_journal_result_release(struct e2x_journal_result *res)
{
	if (!res)
		return;
	e2x_overlay_release(res->fs_overlay);
	e2x_overlay_release(res->journal_overlay);
	res->fs_overlay = res->journal_overlay = NULL;
}

/* Dry run: channels on fresh overlays of the fs and journal devices. */
static errcode_t open_overlays(struct e2x_journal *j,
			       struct e2x_journal_result *res,
			       io_channel *sink, io_channel *jsink)
{
	errcode_t err;

	err = e2x_overlay_create(j->fs->device_name, &res->fs_overlay);
	if (!err)
		err = e2x_overlay_channel(res->fs_overlay, sink);
	if (!err)
		err = io_channel_set_blksize(*sink, j->bs);
	if (err || !j->own_jio) {
		*jsink = *sink;
		return err;
	}
	err = e2x_overlay_create(j->jdev, &res->journal_overlay);
	if (!err)
		err = e2x_overlay_channel(res->journal_overlay, jsink);
	if (!err)
		err = io_channel_set_blksize(*jsink, j->bs);
	return err;
}

/*
 * Passes 2 and 3 and the final reset.  After a scan that failed on a
 * descriptor or revoke checksum the kernel replays nothing (it refuses
 * the mount) and e2fsck clears the journal and marks the fs in error:
 * do the same.
 */
static errcode_t replay_and_finish(struct e2x_journal *j, io_channel sink,
				   io_channel jsink,
				   struct e2x_journal_result *res)
{
	errcode_t err = 0;

	if (res->stop_reason == E2X_JSTOP_BLOCK_CSUM) {
		res->transactions = 0;
	} else {
		err = e2x_journal_revoke_pass(j, res);
		if (!err)
			err = e2x_journal_replay(j, sink, res);
	}
	if (!err)
		err = e2x_journal_finish(j, sink, jsink, res);
	return err;
}

/*
 * FS's superblock, descriptors and bitmaps in memory predate the replay:
 * make closing it write nothing (ext2fs_close would otherwise store the
 * stale superblock, needs_recovery included, when it accounts the bytes
 * written).  The caller reopens the fs.
 */
static void forget_stale_state(ext2_filsys fs)
{
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY | EXT2_FLAG_IB_DIRTY |
		       EXT2_FLAG_BB_DIRTY);
}

errcode_t e2x_journal_recover(ext2_filsys fs, const struct e2x_journal_opts *o,
			      struct e2x_journal_result *res)
{
	struct e2x_journal *j = NULL;
	io_channel sink = NULL, jsink = NULL;
	int dry = o && (o->flags & E2X_JOURNAL_DRY_RUN);
	errcode_t err, scan_err;

	memset(res, 0, sizeof(*res));
	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (!dry && !(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_RO_FILSYS;
	err = e2x_journal_load(fs, o, &j);
	if (err)
		goto out;
	res->external = j->own_jio;
	/* A checksum failure is reported at the end, after the journal is
	 * emptied; any other scan failure stops here, nothing written. */
	scan_err = e2x_journal_scan(j, res);
	if (scan_err && scan_err != E2X_ERR_JOURNAL_CSUM) {
		err = scan_err;
		goto out;
	}
	if (dry) {
		err = open_overlays(j, res, &sink, &jsink);
	} else {
		sink = fs->io;
		jsink = j->own_jio ? j->jio : fs->io;
		forget_stale_state(fs);
	}
	if (!err)
		err = replay_and_finish(j, sink, jsink, res);
	if (!err)
		err = scan_err;
	if (!err && res->bad_data_blocks)
		err = E2X_ERR_JOURNAL_CSUM;
out:
	if (dry && jsink && jsink != sink)
		io_channel_close(jsink);
	if (dry && sink)
		io_channel_close(sink);
	if (err && err != E2X_ERR_JOURNAL_CSUM)
		e2x_journal_result_release(res);
	e2x_journal_free(j);
	return err;
}
