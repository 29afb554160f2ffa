/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * journal_load.c --- find a file system's journal (internal inode or
 * external device), validate its superblock and map its log blocks.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <blkid/blkid.h>
#include <uuid/uuid.h>
#include "journal/journal-int.h"

errcode_t e2x_journal_read(struct e2x_journal *j, uint32_t lblk, void *buf)
{
	blk64_t phys;

	if (lblk >= j->maxlen)
		return E2X_ERR_JOURNAL;
	phys = j->map ? j->map[lblk] : lblk;
	return io_channel_read_blk64(j->jio, phys, 1, buf);
}

struct map_walk {
	blk64_t *map;
	uint32_t len;
	blk64_t fs_blocks;
	int bad;
};

static int map_one(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		   blk64_t ref_blk, int ref_offset, void *priv)
{
	struct map_walk *w = priv;

	if (blockcnt < 0 || (uint64_t)blockcnt >= w->len)
		return 0;
	if (*blocknr == 0 || *blocknr >= w->fs_blocks) {
		w->bad = 1;
		return BLOCK_ABORT;
	}
	w->map[blockcnt] = *blocknr;
	return 0;
}

/* Build the log-block map of the journal inode; every block must exist. */
static errcode_t map_inode(struct e2x_journal *j, ext2_ino_t ino)
{
	struct map_walk w;
	errcode_t err;
	uint32_t i;

	w.len = j->maxlen;
	w.fs_blocks = ext2fs_blocks_count(j->fs->super);
	w.bad = 0;
	w.map = calloc(j->maxlen, sizeof(*w.map));
	if (!w.map)
		return EXT2_ET_NO_MEMORY;
	j->map = w.map;
	err = ext2fs_block_iterate3(j->fs, ino, BLOCK_FLAG_READ_ONLY |
				    BLOCK_FLAG_DATA_ONLY, NULL, map_one, &w);
	if (err)
		return err;
	if (w.bad)
		return E2X_ERR_JOURNAL;
	for (i = 0; i < j->maxlen; i++)
		if (!w.map[i])
			return E2X_ERR_JOURNAL;
	return 0;
}

/* The log-block map from INODE itself (the superblock's backup copy,
 * which is not on disk as an inode): every block must exist. */
static errcode_t map_backup(struct e2x_journal *j, ext2_ino_t ino,
			    struct ext2_inode *inode)
{
	blk64_t fs_blocks = ext2fs_blocks_count(j->fs->super), phys;
	errcode_t err;
	uint32_t i;

	j->map = calloc(j->maxlen, sizeof(*j->map));
	if (!j->map)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < j->maxlen; i++) {
		phys = 0;
		err = ext2fs_bmap2(j->fs, ino, inode, NULL, 0, i, NULL, &phys);
		if (err)
			return err;
		if (!phys || phys >= fs_blocks)
			return E2X_ERR_JOURNAL;
		j->map[i] = phys;
	}
	return 0;
}

/* Load the journal of inode INO as INODE says (BACKUP: INODE is the copy
 * in the superblock, not the inode on disk). */
static errcode_t load_inode(struct e2x_journal *j, ext2_ino_t ino,
			    struct ext2_inode *inode, int backup)
{
	ext2_filsys fs = j->fs;
	blk64_t phys = 0;
	uint64_t nblocks;
	errcode_t err;

	if (!LINUX_S_ISREG(inode->i_mode) || !inode->i_links_count)
		return E2X_ERR_JOURNAL;
	nblocks = EXT2_I_SIZE(inode) / j->bs;
	err = ext2fs_bmap2(fs, ino, inode, NULL, 0, 0, NULL, &phys);
	if (err)
		return err;
	if (!phys || phys >= ext2fs_blocks_count(fs->super))
		return E2X_ERR_JOURNAL;
	j->jio = fs->io;
	j->jsb_phys = phys;
	err = io_channel_read_blk64(fs->io, phys, -(int)sizeof(j->jsb),
				    &j->jsb);
	if (err)
		return err;
	err = e2x_jbd2_check_super(j, nblocks);
	if (err)
		return err;
	return backup ? map_backup(j, ino, inode) : map_inode(j, ino);
}

void e2x_journal_backup_inode(ext2_filsys fs, const __u32 *jnl,
			      struct ext2_inode *inode)
{
	struct ext3_extent_header *eh;

	memset(inode, 0, sizeof(*inode));
	memcpy(inode->i_block, jnl, sizeof(inode->i_block));
	inode->i_size_high = jnl[EXT2_N_BLOCKS];
	inode->i_size = jnl[EXT2_N_BLOCKS + 1];
	inode->i_links_count = 1;
	inode->i_mode = LINUX_S_IFREG | 0600;
	eh = (struct ext3_extent_header *)inode->i_block;
	if (ext2fs_has_feature_extents(fs->super) &&
	    ext2fs_le16_to_cpu(eh->eh_magic) == EXT3_EXT_MAGIC)
		inode->i_flags |= EXT4_EXTENTS_FL;
}

static int count_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
		       blk64_t ref, int off, void *priv)
{
	(void)fs;
	(void)blocknr;
	(void)cnt;
	(void)ref;
	(void)off;
	(*(blk64_t *)priv)++;
	return 0;
}

errcode_t e2x_journal_restore_inode(ext2_filsys fs, const __u32 *jnl,
				    uint32_t now)
{
	ext2_ino_t ino = fs->super->s_journal_inum;
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *big;
	struct ext2_inode *inode;
	blk64_t n = 0;
	errcode_t err;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	if (isize < sizeof(*big))
		isize = sizeof(*big);
	big = calloc(1, isize);
	if (!big)
		return EXT2_ET_NO_MEMORY;
	err = e2x_read_inode(fs, ino, big);
	if (err)
		goto out;
	inode = (struct ext2_inode *)big;
	e2x_journal_backup_inode(fs, jnl, inode);
	inode->i_mtime = inode->i_ctime = inode->i_atime = now;
	/* written once so libext2fs can walk (and count) its blocks, then
	 * with the count and the one i_version bump */
	err = ext2fs_write_inode_full(fs, ino, inode,
				      EXT2_INODE_SIZE(fs->super));
	if (!err)
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY,
					    NULL, count_block, &n);
	if (!err)
		err = ext2fs_iblk_set(fs, inode, n);
	if (!err)
		err = e2x_write_inode(fs, ino, big);
out:
	free(big);
	return err;
}

/* The journal inode as the superblock's backup has it; 0: no backup. */
static int backup_inode(ext2_filsys fs, struct ext2_inode *inode)
{
	if (fs->super->s_jnl_backup_type != EXT3_JNL_BACKUP_BLOCKS)
		return 0;
	e2x_journal_backup_inode(fs, fs->super->s_jnl_blocks, inode);
	return 1;
}

/*
 * The journal inode, or when it cannot be used (not a regular file, no
 * links, a block map that does not reach every log block, no journal
 * superblock at its start) the backup of its map in the superblock, as
 * the kernel and e2fsck do.
 */
static errcode_t load_internal(struct e2x_journal *j)
{
	ext2_filsys fs = j->fs;
	ext2_ino_t ino = fs->super->s_journal_inum;
	struct ext2_inode inode;
	errcode_t err;

	if (ino < 1 || ino > fs->super->s_inodes_count)
		return E2X_ERR_JOURNAL;
	err = ext2fs_read_inode(fs, ino, &inode);
	if (!err)
		err = load_inode(j, ino, &inode, 0);
	if (!err || err == EXT2_ET_NO_MEMORY || err == E2X_ERR_UNSUPPORTED ||
	    !backup_inode(fs, &inode))
		return err;
	free(j->map);
	j->map = NULL;
	if (load_inode(j, ino, &inode, 1))
		return err;
	j->used_backup = 1;
	return 0;
}

/* Path of the external journal: the option, else blkid by UUID. */
static errcode_t find_ext_path(struct e2x_journal *j, const char *opt)
{
	char uuid[40];
	char *dev;

	if (opt) {
		j->jdev = strdup(opt);
		return j->jdev ? 0 : EXT2_ET_NO_MEMORY;
	}
	uuid_unparse(j->fs->super->s_journal_uuid, uuid);
	dev = blkid_evaluate_tag("UUID", uuid, NULL);
	if (!dev)
		return E2X_ERR_JOURNAL_DEV;
	j->jdev = dev;
	return 0;
}

/* Check the ext2 superblock of a journal device against FS. */
static errcode_t check_jdev_super(struct e2x_journal *j,
				  const struct ext2_super_block *es,
				  uint64_t *nblocks)
{
	if (ext2fs_le16_to_cpu(es->s_magic) != EXT2_SUPER_MAGIC)
		return E2X_ERR_JOURNAL_DEV;
	if (!(ext2fs_le32_to_cpu(es->s_feature_incompat) &
	      EXT3_FEATURE_INCOMPAT_JOURNAL_DEV))
		return E2X_ERR_JOURNAL_DEV;
	if (ext2fs_le32_to_cpu(es->s_log_block_size) > 6 ||
	    (1024U << ext2fs_le32_to_cpu(es->s_log_block_size)) != j->bs)
		return E2X_ERR_JOURNAL_DEV;
	if (memcmp(es->s_uuid, j->fs->super->s_journal_uuid, 16))
		return E2X_ERR_JOURNAL_DEV;
	*nblocks = ext2fs_le32_to_cpu(es->s_blocks_count);
	if (ext2fs_le32_to_cpu(es->s_feature_incompat) &
	    EXT4_FEATURE_INCOMPAT_64BIT)
		*nblocks |= (uint64_t)ext2fs_le32_to_cpu(es->s_blocks_count_hi)
			    << 32;
	return 0;
}

static errcode_t load_external(struct e2x_journal *j, const char *opt,
			       int rw)
{
	struct ext2_super_block es;
	uint64_t nblocks = 0;
	errcode_t err;

	err = find_ext_path(j, opt);
	if (err)
		return err;
	err = unix_io_manager->open(j->jdev, rw ? IO_FLAG_RW : 0, &j->jio);
	if (err)
		return err;
	j->own_jio = 1;
	err = io_channel_set_blksize(j->jio, 1024);
	if (!err)
		err = io_channel_read_blk64(j->jio, 1, -(int)sizeof(es), &es);
	if (!err)
		err = check_jdev_super(j, &es, &nblocks);
	if (!err)
		err = io_channel_set_blksize(j->jio, j->bs);
	if (err)
		return err;
	j->jsb_phys = j->bs == 1024 ? 2 : 1;
	err = io_channel_read_blk64(j->jio, j->jsb_phys, -(int)sizeof(j->jsb),
				    &j->jsb);
	if (err)
		return err;
	return e2x_jbd2_check_super(j, nblocks);
}

errcode_t e2x_journal_load(ext2_filsys fs, const struct e2x_journal_opts *o,
			   struct e2x_journal **jp)
{
	struct e2x_journal *j;
	errcode_t err;
	int rw;

	EXT2_CHECK_MAGIC(fs, EXT2_ET_MAGIC_EXT2FS_FILSYS);
	*jp = NULL;
	if (!ext2fs_has_feature_journal(fs->super))
		return E2X_ERR_NOT_FOUND;
	j = calloc(1, sizeof(*j));
	if (!j)
		return EXT2_ET_NO_MEMORY;
	j->magic = E2X_JOURNAL_MAGIC;
	j->fs = fs;
	j->bs = fs->blocksize;
	u64map_init(&j->revoke);
	j->buf = malloc(2 * (size_t)j->bs);
	if (!j->buf) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	j->buf2 = j->buf + j->bs;
	rw = !(o && (o->flags & E2X_JOURNAL_DRY_RUN)) &&
	     (fs->flags & EXT2_FLAG_RW);
	if (fs->super->s_journal_inum)
		err = load_internal(j);
	else if (!uuid_is_null(fs->super->s_journal_uuid))
		err = load_external(j, o ? o->ext_journal : NULL, rw);
	else
		err = E2X_ERR_NOT_FOUND;
out:
	if (err) {
		e2x_journal_free(j);
		return err;
	}
	*jp = j;
	return 0;
}

void e2x_journal_free(struct e2x_journal *j)
{
	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return;
	if (j->own_jio && j->jio)
		io_channel_close(j->jio);
	free(j->jdev);
	free(j->map);
	free(j->buf);
	u64map_free(&j->revoke);
	j->magic = 0;
	free(j);
}

int e2x_journal_used_backup(const struct e2x_journal *j)
{
	return j && j->magic == E2X_JOURNAL_MAGIC && j->used_backup;
}

const struct e2x_jbd2_super *e2x_journal_super(const struct e2x_journal *j)
{
	if (!j || j->magic != E2X_JOURNAL_MAGIC)
		return NULL;
	return &j->jsb;
}
