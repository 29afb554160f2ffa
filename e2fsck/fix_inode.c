/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix_inode.c --- the repairs of pass 1: what a "yes" to each pass-1
 * problem changes in the inode being checked.
 *
 * One table says, for each problem, which repair it gets.  Repairs change
 * the inode in memory (p1_inode.dirty); check_one writes it once at the
 * end.  A repair that takes back blocks pass 1 has already claimed (a
 * cleared inode, a repaired map, a dropped attribute block) asks for pass
 * 1 to run again (ctx->p1_restart), so the maps it hands on stay true.
 */
#include "config.h"
#include <stddef.h>
#include <string.h>
#include "pass1.h"
#include "e2x-xattr.h"

enum p1_repair {
	RP_CLEAR_INODE,		/* mark the inode deleted */
	RP_CLEAR_FLAG,		/* clear i_flags bits ARG */
	RP_SET_FLAG,		/* set i_flags bits ARG */
	RP_SPECIAL_NODATA,	/* device, fifo, socket: no data, no map */
	RP_SET_FEATURE,		/* set incompat feature ARG */
	RP_DTIME_ZERO,
	RP_DTIME_NOW,
	RP_FADDR_ZERO,
	RP_HURD_FRAG_ZERO,	/* the Hurd's fragment number and size */
	RP_INLINE_TO_EXTENTS,	/* inline flag off, extent flag on */
	RP_INLINE_NEW_DATA,	/* a new empty system.data; i_block stays */
	RP_ACL_HI_ZERO,
	RP_BLOCKS_HI_ZERO,	/* i_blocks_hi := 0 */
	RP_EXTRA_ISIZE,
	RP_EXTRA_TIME,
	RP_REWRITE,		/* write as is: the checksum is recomputed */
	RP_I_BLOCKS,		/* i_blocks := num2 sectors */
	RP_SIZE,		/* i_size := num2 */
	RP_EA_DROP,		/* forget the attribute block */
	RP_MODE_ZERO,		/* reserved inode: no file mode */
	RP_MODE_DIR,		/* the type becomes directory */
	RP_ZERO_BASE,		/* the 128-byte base inode becomes zeros */
	RP_MAP,			/* repair the block map after the walk */
	RP_EA_REWRITE,		/* attribute block: hashes and checksum */
	RP_IBODY_CLEAR,		/* forget the in-inode attributes */
	RP_DTIME_ORPHAN,	/* orphan link: none if in use, else now */
	RP_EA_VALUE_DROP,	/* a bad value-inode entry: its block (blk)
				 * or the in-inode attributes go */
	RP_TO_EXTENTS,		/* block map -> extents (bigalloc) */
	RP_EXT_REBUILD,		/* extent tree too deep: rebuild it */
	RP_CLOSE_GAPS,		/* directory extents moved down to 0 on */
};

struct p1_repair_row {
	problem_t code;
	enum p1_repair repair;
	uint32_t arg;
};

static const struct p1_repair_row repairs[] = {
	{ PR_1_INODE_CSUM, RP_REWRITE, 0 },
	{ PR_1_BAD_MODE, RP_CLEAR_INODE, 0 },
	{ PR_1_ROOT_NOT_DIR, RP_CLEAR_INODE, 0 },
	{ PR_1_RESERVED_MODE, RP_MODE_ZERO, 0 },
	{ PR_1_RESERVED_JUNK, RP_ZERO_BASE, 0 },
	{ PR_1_DTIME_SET, RP_DTIME_ZERO, 0 },
	{ PR_1_ZERO_DTIME, RP_DTIME_NOW, 0 },
	{ PR_1_EXTENTS_NO_FEATURE, RP_SET_FEATURE,
	  EXT3_FEATURE_INCOMPAT_EXTENTS },
	{ PR_1_INLINE_NO_FEATURE, RP_SET_FEATURE,
	  EXT4_FEATURE_INCOMPAT_INLINE_DATA },
	{ PR_1_INLINE_AND_EXTENTS, RP_CLEAR_INODE, 0 },
	{ PR_1_INLINE_AND_EXT_TREE, RP_CLEAR_FLAG, EXT4_INLINE_DATA_FL },
	{ PR_1_INLINE_AND_EXT_DATA, RP_CLEAR_FLAG, EXT4_EXTENTS_FL },
	{ PR_1_INLINE_AND_EXT_MAP, RP_CLEAR_FLAG,
	  EXT4_INLINE_DATA_FL | EXT4_EXTENTS_FL },
	{ PR_1_EXTENT_FLAG_MISSING, RP_SET_FLAG, EXT4_EXTENTS_FL },
	{ PR_1_INLINE_IS_EXTENTS, RP_INLINE_TO_EXTENTS, 0 },
	{ PR_1_INDEX_NOT_DIR, RP_CLEAR_FLAG, EXT2_INDEX_FL },
	{ PR_1_INDEX_NO_FEATURE, RP_CLEAR_FLAG, EXT2_INDEX_FL },
	{ PR_1_HUGE_NO_FEATURE, RP_CLEAR_FLAG, EXT4_HUGE_FILE_FL },
	{ PR_1_DEVICE_BAD, RP_CLEAR_INODE, 0 },
	{ PR_1_DEVICE_SIZE, RP_SIZE, 0 },
	{ PR_1_SPECIAL_IS_DIR, RP_MODE_DIR, 0 },
	{ PR_1_FAST_SYMLINK_BAD, RP_CLEAR_INODE, 0 },
	{ PR_1_SYMLINK_BAD, RP_CLEAR_INODE, 0 },
	{ PR_1_INLINE_TYPE, RP_SPECIAL_NODATA, 0 },
	{ PR_1_INLINE_NO_DATA, RP_CLEAR_INODE, 0 },
	{ PR_1_INLINE_SIZE, RP_SIZE, 0 },
	{ PR_1_IBODY_EA_BAD, RP_IBODY_CLEAR, 0 },
	{ PR_1_EXTRA_ISIZE, RP_EXTRA_ISIZE, 0 },
	{ PR_1_EXTENT_HEADER, RP_MAP, 0 },
	{ PR_1_EXTENT_MAGIC, RP_MAP, 0 },
	{ PR_1_EXTENT_CSUM, RP_MAP, 0 },
	{ PR_1_EXTENT_BOUNDS, RP_MAP, 0 },
	{ PR_1_EXTENT_ORDER, RP_MAP, 0 },
	{ PR_1_EXTENT_PAST_NODE, RP_MAP, 0 },
	{ PR_1_EXTENT_INDEX_START, RP_MAP, 0 },
	{ PR_1_EXTENT_LEN_ZERO, RP_MAP, 0 },
	{ PR_1_EXTENT_END, RP_MAP, 0 },
	{ PR_1_EXTENT_DEPTH, RP_EXT_REBUILD, 0 },
	{ PR_1_DIR_FIRST_SHIFTED, RP_CLOSE_GAPS, 0 },
	{ PR_1_BIGALLOC_BLOCKMAP, RP_TO_EXTENTS, 0 },
	{ PR_1_BLOCK_RANGE, RP_MAP, 0 },
	{ PR_1_IND_BLOCK_RANGE, RP_MAP, 0 },
	{ PR_1_SIZE, RP_SIZE, 0 },
	{ PR_1_DIR_SIZE, RP_SIZE, 0 },
	{ PR_1_I_BLOCKS, RP_I_BLOCKS, 0 },
	{ PR_1_EA_BLOCK_RANGE, RP_EA_DROP, 0 },
	{ PR_1_EA_BLOCK_HEADER, RP_EA_DROP, 0 },
	{ PR_1_EA_ENTRY, RP_EA_DROP, 0 },
	{ PR_1_EA_BLOCK_CSUM, RP_EA_REWRITE, 0 },
	{ PR_1_EA_HASH, RP_EA_REWRITE, 0 },
	{ PR_1_EA_NO_FEATURE, RP_EA_DROP, 0 },
	{ PR_1_DIR_UNINIT_EXTENT, RP_MAP, 0 },
	{ PR_1_IMAGIC, RP_CLEAR_FLAG, EXT2_IMAGIC_FL },
	{ PR_1_ENCRYPT_NO_FEATURE, RP_CLEAR_FLAG, EXT4_ENCRYPT_FL },
	{ PR_1_CASEFOLD_NO_FEATURE, RP_CLEAR_FLAG, EXT4_CASEFOLD_FL },
	{ PR_1_CASEFOLD_NOT_DIR, RP_CLEAR_FLAG, EXT4_CASEFOLD_FL },
	{ PR_1_BAD_INO_FLAGS, RP_ZERO_BASE, 0 },
	{ PR_1_EXTENT_ROOT, RP_CLEAR_INODE, 0 },
	{ PR_1_IND_BLOCK_READ, RP_MAP, 0 },
	{ PR_1_EXTENT_READ, RP_MAP, 0 },
	{ PR_1_EA_BLOCK_READ, RP_EA_DROP, 0 },
	{ PR_1_INLINE_READ, RP_CLEAR_INODE, 0 },
	{ PR_1_DIR_NO_BLOCKS, RP_CLEAR_INODE, 0 },
	{ PR_1_ENCRYPT_NO_POLICY, RP_CLEAR_FLAG, EXT4_ENCRYPT_FL },
	{ PR_1_ENCRYPT_BAD_POLICY, RP_CLEAR_INODE, 0 },
	{ PR_1_FILE_ACL_HI, RP_ACL_HI_ZERO, 0 },
	{ PR_1_BLOCKS_HI, RP_BLOCKS_HI_ZERO, 0 },
	{ PR_1_FADDR, RP_FADDR_ZERO, 0 },
	{ PR_1_HURD_FRAG, RP_HURD_FRAG_ZERO, 0 },
	{ PR_1_INLINE_DATA_LOST, RP_INLINE_NEW_DATA, 0 },
	{ PR_1_SPECIAL_IMMUTABLE, RP_CLEAR_FLAG,
	  EXT2_IMMUTABLE_FL | EXT2_APPEND_FL },
	{ PR_1_EXTRA_TIME, RP_EXTRA_TIME, 0 },
	{ PR_1_MAP_LOOP, RP_CLEAR_INODE, 0 },
	{ PR_1_TOO_MANY_BAD, RP_CLEAR_INODE, 0 },
	{ PR_1_LOW_DTIME, RP_DTIME_ORPHAN, 0 },
	{ PR_1_EA_INODE_REF, RP_EA_VALUE_DROP, 0 },
	{ PR_1_EA_INODE_HASH, RP_EA_VALUE_DROP, 0 },
};

static const struct p1_repair_row *repair_of(problem_t code)
{
	size_t i;

	for (i = 0; i < sizeof(repairs) / sizeof(repairs[0]); i++)
		if (repairs[i].code == code)
			return &repairs[i];
	return NULL;
}

/* The extra space of a large inode, as the kernel makes it. */
static uint16_t default_extra_isize(unsigned int isize)
{
	unsigned int want = sizeof(struct ext2_inode_large) -
			    EXT2_GOOD_OLD_INODE_SIZE;

	if (isize - EXT2_GOOD_OLD_INODE_SIZE < want)
		want = (isize - EXT2_GOOD_OLD_INODE_SIZE) & ~3U;
	return want;
}

/* Times written with both epoch bits set (pre-1970 on old kernels) lose
 * their epoch bits. */
static void fix_extra_times(struct ext2_inode_large *in, unsigned int isize)
{
	static const size_t off[] = {
		offsetof(struct ext2_inode_large, i_ctime_extra),
		offsetof(struct ext2_inode_large, i_mtime_extra),
		offsetof(struct ext2_inode_large, i_atime_extra),
		offsetof(struct ext2_inode_large, i_crtime_extra),
	};
	const uint32_t secs[] = { in->i_ctime, in->i_mtime, in->i_atime,
				  in->i_crtime };
	unsigned int have = EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize;
	size_t i;

	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		uint32_t extra;

		if (off[i] + 4 > have || have > isize)
			continue;
		memcpy(&extra, (char *)in + off[i], 4);
		if ((secs[i] & (1U << 31)) &&
		    (extra & EXT4_EPOCH_MASK) == EXT4_EPOCH_MASK) {
			extra &= ~EXT4_EPOCH_MASK;
			memcpy((char *)in + off[i], &extra, 4);
		}
	}
}

static void set_feature(struct p1_inode *st, uint32_t incompat)
{
	st->fs->super->s_feature_incompat |= incompat;
	ext2fs_mark_super_dirty(st->fs);
}

void p1_clear_inode(struct p1_inode *st)
{
	e2x_repair_clear_inode(st->inode, st->ctx->now);
	st->dirty = 1;
	if (st->claims)
		st->ctx->p1_restart = 1;
}

/* A directory's blocks may not reach past 4 GiB without largedir. */
static int dir_too_big(struct p1_inode *st, uint64_t size)
{
	return st->is_dir && size > (1ULL << 32) &&
	       !ext2fs_has_feature_largedir(st->fs->super);
}

/* Drop the extents past the limit; the next round checks the rest. */
static void trim_dir(struct p1_inode *st)
{
	uint64_t dropped;
	errcode_t err;

	if (st->inode->i_flags & EXT4_EXTENTS_FL)
		err = e2x_repair_extent_tree(st->fs, st->ino, st->inode,
					     E2X_REPAIR_EXT_DIR |
						     E2X_REPAIR_EXT_DIR_LIMIT,
					     &dropped);
	else
		err = e2x_repair_ind_map(st->fs, st->inode,
					 (1ULL << 32) / st->fs->blocksize,
					 &dropped);
	if (err) {
		st->clear = 1;
		return;
	}
	st->fix_map = 1;	/* sizes and counts: next round */
	st->dirty = 1;
	st->ctx->p1_restart = 1;
}

/*
 * A regular file whose system.data attribute is missing or unusable: the
 * first 60 bytes are in i_block still.  An empty attribute is written in
 * place of any old one and the size cut to what i_block holds; with no
 * room for it the file becomes empty (flag and block area cleared), as
 * the reference leaves it.
 */
static void inline_new_data(ext2_filsys fs, unsigned int isize,
			    struct ext2_inode_large *in)
{
	uint64_t size = EXT2_I_SIZE(in);

	if (isize > EXT2_GOOD_OLD_INODE_SIZE) {
		e2x_xattr_ibody_remove(fs, in, FSCK_XATTR_INDEX_SYSTEM, "data");
		if (!e2x_xattr_ibody_set(fs, in, FSCK_XATTR_INDEX_SYSTEM,
					 "data", "", 0)) {
			if (size > EXT4_MIN_INLINE_DATA_SIZE)
				size = EXT4_MIN_INLINE_DATA_SIZE;
			in->i_size = size;
			in->i_size_high = 0;
			return;
		}
	}
	in->i_flags &= ~EXT4_INLINE_DATA_FL;
	memset(in->i_block, 0, sizeof(in->i_block));
	in->i_size = in->i_size_high = 0;
}

static void apply(struct p1_inode *st, const struct p1_repair_row *r,
		  const struct problem_ctx *pctx)
{
	struct ext2_inode_large *in = st->inode;
	ext2_filsys fs = st->fs;

	switch (r->repair) {
	case RP_CLEAR_INODE:
		st->clear = 1;
		return;
	case RP_CLEAR_FLAG:
		in->i_flags &= ~r->arg;
		break;
	case RP_SET_FLAG:
		in->i_flags |= r->arg;
		break;
	case RP_INLINE_TO_EXTENTS:
		in->i_flags = (in->i_flags & ~EXT4_INLINE_DATA_FL) |
			      EXT4_EXTENTS_FL;
		break;
	case RP_SPECIAL_NODATA:
		/* i_block held the inline data, not a device number */
		in->i_flags &= ~(EXT4_INLINE_DATA_FL | EXT4_EXTENTS_FL);
		memset(in->i_block, 0, sizeof(in->i_block));
		in->i_size = in->i_size_high = 0;
		break;
	case RP_SET_FEATURE:
		set_feature(st, r->arg);
		return;
	case RP_DTIME_ZERO:
		in->i_dtime = 0;
		break;
	case RP_DTIME_NOW:
		in->i_dtime = st->ctx->now ? st->ctx->now : 1;
		break;
	case RP_FADDR_ZERO:
		in->i_faddr = 0;
		break;
	case RP_INLINE_NEW_DATA:
		inline_new_data(fs, st->isize, in);
		break;
	case RP_HURD_FRAG_ZERO:
		in->osd2.hurd2.h_i_frag = 0;
		in->osd2.hurd2.h_i_fsize = 0;
		break;
	case RP_BLOCKS_HI_ZERO:
		in->osd2.linux2.l_i_blocks_hi = 0;
		break;
	case RP_ACL_HI_ZERO:
		in->osd2.linux2.l_i_file_acl_high = 0;
		break;
	case RP_EXTRA_ISIZE:
		in->i_extra_isize = default_extra_isize(st->isize);
		break;
	case RP_EXTRA_TIME:
		fix_extra_times(in, st->isize);
		break;
	case RP_REWRITE:
		break;
	case RP_I_BLOCKS:
		/* num2 is in 512-byte sectors; libext2fs takes clusters */
		ext2fs_iblk_set(fs, (struct ext2_inode *)in,
				pctx->num2 / (EXT2FS_CLUSTER_RATIO(fs) *
					      (fs->blocksize / 512)));
		break;
	case RP_SIZE:
		if (dir_too_big(st, pctx->num2)) {
			trim_dir(st);
			return;
		}
		ext2fs_inode_size_set(fs, (struct ext2_inode *)in,
				      pctx->num2);
		break;
	case RP_EA_DROP:
		ext2fs_file_acl_block_set(fs, (struct ext2_inode *)in, 0);
		st->ctx->p1_restart = 1;
		break;
	case RP_MODE_ZERO:
		in->i_mode = 0;
		break;
	case RP_ZERO_BASE:
		memset(in, 0, EXT2_GOOD_OLD_INODE_SIZE);
		break;
	case RP_MODE_DIR:
		in->i_mode = (in->i_mode & ~LINUX_S_IFMT) | LINUX_S_IFDIR;
		break;
	case RP_MAP:
		st->fix_map = 1;
		return;
	case RP_EXT_REBUILD:
		st->rebuild_ext = 1;
		st->fix_map = 1;
		return;
	case RP_CLOSE_GAPS:
		st->close_gaps = 1;
		st->fix_map = 1;
		return;
	case RP_DTIME_ORPHAN:
		in->i_dtime = in->i_links_count ? 0 :
			      (st->ctx->now ? st->ctx->now : 1);
		break;
	case RP_TO_EXTENTS:
		if (e2x_repair_map_to_extents(fs, in)) {
			st->clear = 1;
			return;
		}
		break;
	case RP_IBODY_CLEAR:
		e2x_repair_clear_ibody_xattrs(in, st->isize);
		break;
	case RP_EA_VALUE_DROP:
		if (pctx->blk) {
			ext2fs_file_acl_block_set(fs, (struct ext2_inode *)in,
						  0);
			st->ctx->p1_restart = 1;
		} else {
			e2x_repair_clear_ibody_xattrs(in, st->isize);
		}
		break;
	case RP_EA_REWRITE:
		p1_report_write(st->ctx, pctx->ino, e2x_repair_xattr_block(
					fs, st->ino, pctx->blk));
		return;
	}
	st->dirty = 1;
}

int p1_fix(struct p1_inode *st, problem_t code, struct problem_ctx *pctx)
{
	const struct p1_repair_row *r;

	if (!pctx->ino)
		pctx->ino = st->ino;
	if (!fix_problem(st->ctx, code, pctx))
		return 0;
	r = repair_of(code);
	if (r)
		apply(st, r, pctx);
	return 1;
}

/* After the walk: put the map right; the next round of pass 1 rechecks
 * sizes and counts against the repaired map. */
void p1_fix_map(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	uint64_t dropped = 0;
	int flags = (st->is_dir ? E2X_REPAIR_EXT_DIR : 0) |
		    (st->close_gaps ? E2X_REPAIR_EXT_CLOSE_GAPS : 0);
	errcode_t err;

	if ((in->i_flags & EXT4_EXTENTS_FL) && st->rebuild_ext)
		err = e2x_repair_extent_rebuild(st->fs, st->ino, in, flags,
						&dropped);
	else if (in->i_flags & EXT4_EXTENTS_FL)
		err = e2x_repair_extent_tree(st->fs, st->ino, in, flags,
					     &dropped);
	else
		err = e2x_repair_ind_map(st->fs, in, 0, &dropped);
	if (err) {
		st->clear = 1;
		return;
	}
	st->dirty = 1;
	st->ctx->p1_restart = 1;
}

/* A repair's write failed: say so (nothing when ERR is 0). */
void p1_report_write(struct fsck_ctx *ctx, ext2_ino_t ino, errcode_t err)
{
	struct problem_ctx pctx;

	if (!err)
		return;
	pctx_clear(&pctx);
	pctx.ino = ino;
	pctx.str = error_message(err);
	fix_problem(ctx, PR_1_WRITE_FAILED, &pctx);
}

/* Write the inode once with everything its repairs changed. */
void p1_write_fixed(struct p1_inode *st)
{
	if (!st->dirty)
		return;
	st->dirty = 0;
	p1_report_write(st->ctx, st->ino,
			e2x_write_inode(st->fs, st->ino, st->inode));
}

/*
 * A symlink whose target is inline and that also has an attribute block:
 * the kernel reads both, but e2fsck 1.47 and older skip such a symlink
 * entirely, so they neither claim its attribute block nor count its
 * reference.  Moving the target to a block makes it an ordinary symlink
 * every checker reads alike; nothing of it is lost.
 */
void p1_check_inline_symlink_ea(struct p1_inode *st)
{
	struct ext2_inode_large *in = st->inode;
	struct problem_ctx pctx;

	if (st->quiet || st->bad || st->clear || !st->inline_cap ||
	    !LINUX_S_ISLNK(in->i_mode) ||
	    !(in->i_flags & EXT4_INLINE_DATA_FL) ||
	    !ext2fs_file_acl_block(st->fs, (struct ext2_inode *)in))
		return;
	pctx_clear(&pctx);
	pctx.ino = st->ino;
	if (!fix_problem(st->ctx, PR_1_INLINE_SYMLINK_EA, &pctx))
		return;
	if (!st->ctx->lnk_promote &&
	    ext2fs_allocate_inode_bitmap(st->fs, "symlinks to promote",
					 &st->ctx->lnk_promote))
		return;
	ext2fs_mark_inode_bitmap2(st->ctx->lnk_promote, st->ino);
}

/* The block a promoted symlink took counts toward its owner's quota. */
static void quota_add_block(struct fsck_ctx *ctx, ext2_ino_t ino)
{
	unsigned int isize = EXT2_INODE_SIZE(ctx->fs->super);
	struct ext2_inode_large *in = NULL;

	if (!fsck_quota_enabled(ctx->fs) ||
	    ext2fs_get_memzero(e2x_inode_buf_size(ctx->fs), &in))
		return;
	if (!e2x_read_inode(ctx->fs, ino, in))
		fsck_quota_add(ctx, ino, in, isize,
			       EXT2_CLUSTER_SIZE(ctx->fs->super), 0);
	ext2fs_free_mem(&in);
}

void p1_promote_symlinks(struct fsck_ctx *ctx)
{
	ext2_ino_t ino = 0, last = ctx->fs->super->s_inodes_count;
	errcode_t err;

	if (!ctx->lnk_promote)
		return;
	while (ino < last &&
	       !ext2fs_find_first_set_inode_bitmap2(ctx->lnk_promote, ino + 1,
						    last, &ino)) {
		err = fsck_alloc_prepare(ctx) ? EXT2_ET_BLOCK_ALLOC_FAIL :
			e2x_file_promote(ctx->fs, ino, E2X_KEEP_TIMES);
		p1_report_write(ctx, ino, err);
		if (!err)
			quota_add_block(ctx, ino);
	}
}
