/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * e2x-journal.h --- jbd2 journal recovery, the in-memory overlay channel
 * and orphan processing (lib/journal*.c, lib/journal/overlay_io.c, lib/journal/orphan.c).
 *
 * Typical use by e2fsck at startup, when the superblock has needs_recovery:
 *
 *   -y / -p (writing):
 *	struct e2x_journal_opts o = { .ext_journal = path_or_NULL };
 *	struct e2x_journal_result r;
 *	err = e2x_journal_recover(fs, &o, &r);
 *	ext2fs_close_free(&fs);		// writes nothing (see below)
 *	ext2fs_open2(name, ...);	// reopen: the replayed state
 *	err = e2x_orphans_process(fs, 0, report_fn, ctx, &orph);
 *	e2x_journal_result_release(&r);
 *
 *   -n (read-only): the same with o.flags = E2X_JOURNAL_DRY_RUN.  Nothing
 *	is written to any device; the replayed blocks live in r.fs_overlay.
 *	Reopen the file system over it with
 *	e2x_overlay_open_fs(r.fs_overlay, name, flags | EXT2_FLAG_RW, ...)
 *	(RW is allowed: writes land in the overlay, never on the device),
 *	run e2x_orphans_process() on that, then check it as usual.
 *
 * The fs passed to e2x_journal_recover() must not have unflushed changes.
 * Once a writing recovery has started, the in-memory fs (superblock,
 * descriptors, bitmaps) is stale: the function clears EXT2_FLAG_RW and the
 * dirty flags in fs->flags, so closing it writes nothing; reopen it.  A
 * dry run leaves the fs untouched.  Recovery follows the kernel's three
 * passes (scan, revoke, replay) and stops at the first transaction that
 * fails its sequence or checksum, exactly where the kernel would.
 */
#ifndef E2X_JOURNAL_H
#define E2X_JOURNAL_H

#include <stdint.h>
#include <ext2fs/ext2fs.h>

/* ---- jbd2 on-disk format (all fields big-endian) ---------------------- */

#define E2X_JBD2_MAGIC		0xC03B3998U

/* h_blocktype values */
#define E2X_JBD2_DESCRIPTOR	1
#define E2X_JBD2_COMMIT		2
#define E2X_JBD2_SB_V1		3
#define E2X_JBD2_SB_V2		4
#define E2X_JBD2_REVOKE		5

/* Feature bits of the journal superblock */
#define E2X_JBD2_COMPAT_CHECKSUM	0x00000001	/* csum v1 (crc32) */
#define E2X_JBD2_INCOMPAT_REVOKE	0x00000001
#define E2X_JBD2_INCOMPAT_64BIT		0x00000002
#define E2X_JBD2_INCOMPAT_ASYNC_COMMIT	0x00000004
#define E2X_JBD2_INCOMPAT_CSUM_V2	0x00000008
#define E2X_JBD2_INCOMPAT_CSUM_V3	0x00000010
#define E2X_JBD2_INCOMPAT_FAST_COMMIT	0x00000020
#define E2X_JBD2_KNOWN_INCOMPAT						\
	(E2X_JBD2_INCOMPAT_REVOKE | E2X_JBD2_INCOMPAT_64BIT |		\
	 E2X_JBD2_INCOMPAT_ASYNC_COMMIT | E2X_JBD2_INCOMPAT_CSUM_V2 |	\
	 E2X_JBD2_INCOMPAT_CSUM_V3)

/* Block tag flags (t_flags) */
#define E2X_JBD2_FLAG_ESCAPE	1	/* first 4 bytes were the magic */
#define E2X_JBD2_FLAG_SAME_UUID	2	/* no UUID after the tag */
#define E2X_JBD2_FLAG_DELETED	4
#define E2X_JBD2_FLAG_LAST_TAG	8

/* Commit block checksum types (checksum v1) */
#define E2X_JBD2_CRC32_CHKSUM		1
#define E2X_JBD2_CRC32_CHKSUM_SIZE	4
/* Journal superblock s_checksum_type for v2/v3 */
#define E2X_JBD2_CRC32C_CHKSUM		4

/* Every journal block starts with this header. */
struct e2x_jbd2_header {
	uint32_t h_magic;		/* 0x00 */
	uint32_t h_blocktype;		/* 0x04 */
	uint32_t h_sequence;		/* 0x08 transaction id */
};					/* 0x0C */

/* Journal superblock: the first block of the journal (1024 bytes used). */
struct e2x_jbd2_super {
	struct e2x_jbd2_header s_header;	/* 0x000 */
	uint32_t s_blocksize;		/* 0x00C */
	uint32_t s_maxlen;		/* 0x010 blocks in the journal */
	uint32_t s_first;		/* 0x014 first log block */
	uint32_t s_sequence;		/* 0x018 first tid in the log */
	uint32_t s_start;		/* 0x01C log start block, 0 = clean */
	int32_t s_errno;		/* 0x020 */
	uint32_t s_feature_compat;	/* 0x024 */
	uint32_t s_feature_incompat;	/* 0x028 */
	uint32_t s_feature_ro_compat;	/* 0x02C */
	uint8_t s_uuid[16];		/* 0x030 */
	uint32_t s_nr_users;		/* 0x040 */
	uint32_t s_dynsuper;		/* 0x044 */
	uint32_t s_max_transaction;	/* 0x048 */
	uint32_t s_max_trans_data;	/* 0x04C */
	uint8_t s_checksum_type;	/* 0x050 */
	uint8_t s_padding2[3];		/* 0x051 */
	uint32_t s_num_fc_blks;		/* 0x054 fast-commit blocks */
	uint32_t s_head;		/* 0x058 */
	uint32_t s_padding[40];		/* 0x05C */
	uint32_t s_checksum;		/* 0x0FC crc32c of this struct */
	uint8_t s_users[16 * 48];	/* 0x100 */
};					/* 0x400 */

/* Block tag, checksum v3: 16 bytes (12 without 64bit... see tag_bytes). */
struct e2x_jbd2_tag3 {
	uint32_t t_blocknr;		/* 0x00 */
	uint32_t t_flags;		/* 0x04 */
	uint32_t t_blocknr_high;	/* 0x08 */
	uint32_t t_checksum;		/* 0x0C crc32c(seed, tid, block) */
};					/* 0x10 */

/* Block tag without checksum v3 (12 bytes; the high word only with 64bit,
 * a 16-bit checksum only with csum v2). */
struct e2x_jbd2_tag {
	uint32_t t_blocknr;		/* 0x00 */
	uint16_t t_checksum;		/* 0x04 low 16 bits, csum v2 */
	uint16_t t_flags;		/* 0x06 */
	uint32_t t_blocknr_high;	/* 0x08 */
};					/* 0x0C */

/* Tail of descriptor and revoke blocks with csum v2/v3. */
struct e2x_jbd2_block_tail {
	uint32_t t_checksum;		/* crc32c(seed, block, tail 0) */
};

/* Revoke block header; r_count = bytes used, header included. */
struct e2x_jbd2_revoke_header {
	struct e2x_jbd2_header r_header;	/* 0x00 */
	uint32_t r_count;			/* 0x0C */
};						/* 0x10 */

/* Commit block. */
struct e2x_jbd2_commit {
	struct e2x_jbd2_header h_header;	/* 0x00 */
	uint8_t h_chksum_type;		/* 0x0C */
	uint8_t h_chksum_size;		/* 0x0D */
	uint8_t h_padding[2];		/* 0x0E */
	uint32_t h_chksum[8];		/* 0x10 [0]: crc32 or crc32c */
	uint64_t h_commit_sec;		/* 0x30 */
	uint32_t h_commit_nsec;		/* 0x38 */
} __attribute__((packed));		/* 0x3C */

/* Size in bytes of one block tag for the given incompat features. */
unsigned int e2x_jbd2_tag_bytes(uint32_t incompat);
/* Transaction id comparisons, correct across 32-bit wraparound. */
static inline int e2x_tid_gt(uint32_t x, uint32_t y)
{
	return (int32_t)(x - y) > 0;
}
static inline int e2x_tid_geq(uint32_t x, uint32_t y)
{
	return (int32_t)(x - y) >= 0;
}
/* Checksums (journal_format.c).  SEED is crc32c(~0, s_uuid, 16). */
uint32_t e2x_jbd2_csum_seed(const struct e2x_jbd2_super *jsb);
uint32_t e2x_jbd2_super_csum(const struct e2x_jbd2_super *jsb);
/* crc32c of a descriptor or revoke block with its tail zeroed. */
uint32_t e2x_jbd2_block_tail_csum(uint32_t seed, const void *block,
				  unsigned int blocksize);
/* crc32c of a commit block with h_chksum[0] zeroed. */
uint32_t e2x_jbd2_commit_csum(uint32_t seed, const void *block,
			      unsigned int blocksize);
/* Per-block tag checksum: crc32c(crc32c(seed, be32 tid), data). */
uint32_t e2x_jbd2_data_csum(uint32_t seed, uint32_t tid, const void *data,
			    unsigned int blocksize);

/* ---- the in-memory overlay io channel (overlay_io.c) ------------------ */

/*
 * An overlay is a copy-on-write layer over a device opened read-only:
 * reads come from the device patched with the blocks written into the
 * overlay, writes go into memory only.  It is addressed in bytes, so any
 * channel block size works.  Reference counted: each channel opened on it
 * holds a reference.
 */
struct e2x_overlay;

/* Open DEVICE read-only as the base of a new, empty overlay. */
errcode_t e2x_overlay_create(const char *device, struct e2x_overlay **ovp);
/* Drop the caller's reference (frees on the last one). */
void e2x_overlay_release(struct e2x_overlay *ov);
/* A new io_channel on the overlay (block size 1024 at first). */
errcode_t e2x_overlay_channel(struct e2x_overlay *ov, io_channel *chp);
/* ext2fs_open2 over the overlay; NAME is only recorded as device_name. */
errcode_t e2x_overlay_open_fs(struct e2x_overlay *ov, const char *name,
			      int flags, int superblock,
			      unsigned int block_size, ext2_filsys *fsp);
/* Number of distinct bytes held in memory (multiple of the unit size). */
uint64_t e2x_overlay_bytes(const struct e2x_overlay *ov);
/* The io_manager of overlay channels (open() is not usable by name). */
extern io_manager e2x_overlay_io_manager;

/* ---- journal recovery (journal_*.c) ----------------------------------- */

/* Options; zero-initialise and set what you need. */
struct e2x_journal_opts {
	/* Path of the external journal device; NULL: found by the fs's
	 * s_journal_uuid through blkid when the journal is external. */
	const char *ext_journal;
	unsigned int flags;		/* E2X_JOURNAL_* */
	unsigned int reserved[7];
};
/* Write nothing: replay into an overlay returned in the result. */
#define E2X_JOURNAL_DRY_RUN	0x0001

/* Why the scan ended (the log end is normal). */
enum e2x_journal_stop {
	E2X_JSTOP_CLEAN = 0,	/* s_start == 0: nothing to replay */
	E2X_JSTOP_END,		/* end of log: bad magic/sequence/type */
	E2X_JSTOP_COMMIT_CSUM,	/* commit block checksum failed */
	E2X_JSTOP_BLOCK_CSUM,	/* descriptor/revoke checksum failed and
				 * the commit time says it is not stale:
				 * the kernel refuses to mount then */
	E2X_JSTOP_STALE,	/* checksum failed on an older commit time:
				 * stale blocks, the log ends here */
	E2X_JSTOP_IO,		/* read error inside the log */
};

struct e2x_journal_result {
	uint32_t start_tid;		/* first transaction in the log */
	uint32_t end_tid;		/* first transaction NOT replayed */
	uint32_t transactions;		/* transactions replayed */
	uint32_t stop_reason;		/* enum e2x_journal_stop */
	uint64_t stop_log_block;	/* log block where the scan ended */
	uint64_t blocks_replayed;	/* data blocks written */
	uint64_t revoke_records;	/* revoke records read */
	uint64_t revoke_hits;		/* log blocks skipped as revoked */
	uint64_t bad_data_blocks;	/* tag checksum failures (skipped) */
	int32_t journal_errno;		/* s_errno of the journal */
	uint32_t external;		/* 1 for an external journal */
	/* tid of a corrupt commit the kernel flags (fs marked), or 0 */
	uint32_t failed_commit;
	uint32_t pad;
	/* Dry run only: the post-recovery view of the fs device (and of the
	 * external journal device).  Owned by the result, see release. */
	struct e2x_overlay *fs_overlay;
	struct e2x_overlay *journal_overlay;
	uint64_t reserved[5];
};
void e2x_journal_result_release(struct e2x_journal_result *res);

/* One loaded journal (superblock validated, block map built). */
struct e2x_journal;

/*
 * Find and load FS's journal: the internal journal inode (s_journal_inum,
 * extent or indirect mapped; when it cannot be used, the backup of its
 * map in s_jnl_blocks) or the external device (matched by UUID).
 * Validates the jbd2 superblock (v1/v2, block size, bounds, features,
 * superblock checksum).  Errors: E2X_ERR_NOT_FOUND (no journal),
 * E2X_ERR_JOURNAL (corrupt superblock or block map), E2X_ERR_UNSUPPORTED
 * (unknown incompat feature, or a fast-commit log to replay),
 * E2X_ERR_JOURNAL_DEV (external device missing or not matching).
 */
errcode_t e2x_journal_load(ext2_filsys fs, const struct e2x_journal_opts *o,
			   struct e2x_journal **jp);
void e2x_journal_free(struct e2x_journal *j);
/* 1 when the journal inode could not be used and its backup in the
 * superblock (s_jnl_blocks) mapped the log instead. */
int e2x_journal_used_backup(const struct e2x_journal *j);
/* The first 128 bytes of the journal inode as JNL (a copy of
 * s_jnl_blocks: block map or extent root, then size high and low) has
 * them: a regular file with one link, no times, i_blocks 0. */
void e2x_journal_backup_inode(ext2_filsys fs, const __u32 *jnl,
			      struct ext2_inode *inode);
/* Rewrite the journal inode from JNL (see above) with times NOW, its
 * i_blocks counted from the blocks it maps and one i_version bump. */
errcode_t e2x_journal_restore_inode(ext2_filsys fs, const __u32 *jnl,
				    uint32_t now);
/* The validated superblock (fields still big-endian). */
const struct e2x_jbd2_super *e2x_journal_super(const struct e2x_journal *j);
/* Pass 1: find the end of the valid log.  Fills the tid/stop fields of RES. */
errcode_t e2x_journal_scan(struct e2x_journal *j,
			   struct e2x_journal_result *res);
/* Pass 2: build the revoke table of transactions [start_tid, end_tid). */
errcode_t e2x_journal_revoke_pass(struct e2x_journal *j,
				  struct e2x_journal_result *res);
/* Pass 3: write every unrevoked logged block through SINK (a channel on
 * the fs device: fs->io, or an overlay channel). */
errcode_t e2x_journal_replay(struct e2x_journal *j, io_channel sink,
			     struct e2x_journal_result *res);
/*
 * Mark the journal empty (s_start = 0, s_sequence = end_tid + 1 so no old
 * block can pass for a new one, s_errno = 0, checksum) through JSINK (a
 * channel on the journal's device; an already empty log is left alone),
 * then clear needs_recovery in the primary fs superblock read back
 * through SINK (it may be a replayed, newer copy).
 */
errcode_t e2x_journal_finish(struct e2x_journal *j, io_channel sink,
			     io_channel jsink,
			     const struct e2x_journal_result *res);
/*
 * load + scan + revoke + replay + finish.  RES is always initialised.
 * Returns E2X_ERR_JOURNAL_CSUM (with RES filled, the journal emptied and
 * the fs marked not valid) when a checksum failed inside the log: a
 * descriptor/revoke block (nothing replayed, as the kernel) or data
 * blocks (those skipped).  A failed commit checksum is the normal end of
 * the log (stop_reason says so) and returns 0; when the kernel would flag
 * it (failed_commit) the fs gets the error state, as does a journal
 * s_errno.  Other errors: nothing was written.
 */
errcode_t e2x_journal_recover(ext2_filsys fs, const struct e2x_journal_opts *o,
			      struct e2x_journal_result *res);

/* ---- writing transactions (journal_write.c) --------------------------- */

/*
 * A jbd2 transaction writer, for tests and debugging (debugfs jo/jw/jc):
 * transactions are appended after the last committed one of the log (or
 * at its start when it is empty), in the kernel's format, so that the
 * next mount or e2fsck replays them.  FS must be open read-write; after
 * a commit the fs superblock gets needs_recovery (marked dirty, written
 * when FS is flushed).  Nothing is written to the journal superblock
 * until e2x_jwriter_close.
 */
struct e2x_jwriter;

/* Load FS's journal (O: the external device, may be NULL) and find the
 * end of its log; a log failing its checksums is refused as the scan
 * reports it (E2X_ERR_JOURNAL_CSUM).  A 64bit fs gets the journal's 64bit
 * feature (and the fs UUID when the journal has none) while the log is
 * empty. */
errcode_t e2x_jwriter_open(ext2_filsys fs, const struct e2x_journal_opts *o,
			   struct e2x_jwriter **wp);
/* Turn on checksums of VERSION 2 or 3 (metadata_csum file systems; others
 * get checksum v1).  Only on an empty log: E2X_ERR_JOURNAL_LIVE. */
errcode_t e2x_jwriter_enable_csum(struct e2x_jwriter *w, int version);

struct e2x_jwrite {
	const blk64_t *blocks;		/* fs blocks to log ... */
	size_t nblocks;
	const void *data;		/* ... their contents, in order */
	const blk64_t *revoke;		/* fs blocks to revoke */
	size_t nrevoke;
	unsigned int flags;		/* E2X_JWRITE_* */
	unsigned int reserved[7];
};
/* Write the blocks but no commit block: replay will ignore them. */
#define E2X_JWRITE_NO_COMMIT	0x0001

/* Write one transaction: descriptor blocks with their data (escaped when
 * they start with the jbd2 magic), revoke blocks, then the commit block.
 * Every block number is checked and the room in the log counted before
 * the first write (EXT2_ET_BAD_BLOCK_NUM, E2X_ERR_NO_SPACE). */
errcode_t e2x_jwriter_write(struct e2x_jwriter *w, const struct e2x_jwrite *t);
/* Write the journal superblock (log start, first sequence, features,
 * checksum), flush the journal device and free W. */
errcode_t e2x_jwriter_close(struct e2x_jwriter *w);

/* ---- orphan list and orphan file (orphan.c) --------------------------- */

enum e2x_orphan_action {
	E2X_ORPHAN_RELEASED = 1,	/* unlinked inode freed */
	E2X_ORPHAN_TRUNCATED,		/* linked inode cut to i_size */
	E2X_ORPHAN_BAD_INODE,		/* chain stopped: bad inode */
	E2X_ORPHAN_BAD_BLOCK,		/* orphan file block bad */
};
/* Called once per orphan (and per problem); return non-zero to stop.
 * BEFORE is the inode as it was before the release or truncation (NULL
 * for the BAD_ actions): its owner, mode and size, for reports. */
typedef int (*e2x_orphan_report_fn)(ext2_filsys fs, ext2_ino_t ino,
				    const struct ext2_inode_large *before,
				    enum e2x_orphan_action action,
				    void *data);
struct e2x_orphan_result {
	uint32_t released;
	uint32_t truncated;
	uint32_t bad;			/* bad entries skipped */
	uint32_t skipped;		/* 1: fs has errors, list dropped */
	uint32_t reserved[4];
};
/* Process the orphans even when the fs is marked with errors. */
#define E2X_ORPHANS_DESPITE_ERRORS	0x0001
/*
 * Process the orphan list (s_last_orphan chained through i_dtime) and the
 * orphan file: release inodes with no links (blocks, EA block, inode
 * bitmap, counters) and truncate linked ones to i_size (blocks past it
 * freed, the rest of the last block zeroed, as the kernel); then empty the
 * list and the orphan file and clear orphan_present.  Loads the bitmaps
 * if needed and marks them dirty; the caller flushes/closes FS.
 * On a fs marked with errors the list can't be trusted: like the kernel
 * and e2fsck, only drop it (res->skipped = 1; the full check that follows
 * sorts the inodes out) unless FLAGS has E2X_ORPHANS_DESPITE_ERRORS.
 * Quota usage is not adjusted (a quota check must follow).  FN may be
 * NULL.
 */
errcode_t e2x_orphans_process(ext2_filsys fs, unsigned int flags,
			      e2x_orphan_report_fn fn, void *data,
			      struct e2x_orphan_result *res);

/* journal_edit.c --- add an internal journal of MB megabytes (0: the
 * size mke2fs would choose), zeroed; or remove the journal (E2X_ERR_BUSY
 * while it needs recovery): the superblock forgets it, then its blocks
 * are freed and its inode cleared. */
errcode_t e2x_journal_add(ext2_filsys fs, unsigned long mb);
errcode_t e2x_journal_remove(ext2_filsys fs);

#endif /* E2X_JOURNAL_H */
