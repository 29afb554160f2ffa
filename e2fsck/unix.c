/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unix.c --- e2fsck's main: options, the mounted-device check, opening the
 * file system (read-only for -n), the pass array, -t timings, -C progress
 * and the exit code.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <fcntl.h>
#include <unistd.h>
#include "problem.h"
#include "journal.h"

/* The command line (the fuzz harness in tests/fuzz builds without it). */
#ifndef E2FSCK_NO_MAIN
/* Only the options that do something are listed. */
static void usage(const char *prog, FILE *out, int code)
{
	fprintf(out,
		"Usage: %s [-panyfvtDV] [-b superblock] [-B blocksize]\n"
		"\t\t[-C fd] [-j external_journal] [-E extended-options]\n"
		"\t\t[-z undo_file] device\n"
		"\n"
		"  -p   fix whatever is safe without asking (also -a)\n"
		"  -n   open read-only and answer no to every question\n"
		"  -y   answer yes to every question\n"
		"  -f   check even when the file system looks clean\n"
		"  -v   verbose\n"
		"  -t   print timings (-tt: per pass)\n"
		"  -D   optimise every directory (rebuild indexes, pack inline)\n"
		"  -V   print the version and exit\n"
		"  -b   use this superblock\n"
		"  -B   block size to look for the superblock with\n"
		"  -j   external journal device\n"
		"  -C   write progress to file descriptor fd (0: a bar)\n"
		"  -E   extended options: journal_only, fixes_only\n"
		"  -z   save what the run overwrites in undo_file (e2undo)\n"
		"  -h, --help   show this help and exit\n",
		prog);
	exit(code);
}

static void print_version(const char *prog)
{
	char text[256];

	e2x_version_text(prog, text, sizeof(text));
	fputs(text, stdout);
	exit(FSCK_OK);
}

static int set_mode(struct fsck_options *o, enum fsck_mode m)
{
	if (o->mode != MODE_INTERACTIVE && o->mode != m)
		return -1;
	o->mode = m;
	return 0;
}

/* -E: known options are accepted; unknown ones are a usage error. */
static int parse_extended(struct fsck_options *o, char *arg)
{
	static const char *const ignored[] = {
		"ea_ver", "readahead_kb", "fragcheck", "discard", "nodiscard",
		"optimize_extents", "no_optimize_extents", "inode_count_fullmap",
		"no_inode_count_fullmap", "bmap2extent", "unshare_blocks",
		"check_encoding", "no_check_encoding", NULL
	};
	char *tok, *save = NULL;
	int i, ok;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		size_t n = eq ? (size_t)(eq - tok) : strlen(tok);

		if (n == 12 && !strncmp(tok, "journal_only", n)) {
			o->journal_only = 1;
			continue;
		}
		if (n == 10 && !strncmp(tok, "fixes_only", n)) {
			o->fixes_only = 1;
			continue;
		}
		ok = 0;
		for (i = 0; ignored[i]; i++)
			if (strlen(ignored[i]) == n &&
			    !strncmp(tok, ignored[i], n))
				ok = 1;
		if (!ok) {
			fprintf(stderr, "Unknown extended option: %s\n", tok);
			return -1;
		}
	}
	return 0;
}

static unsigned long parse_num(const char *prog, const char *s,
			       const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "%s: invalid %s: %s\n", prog, what, s);
		exit(FSCK_USAGE);
	}
	return v;
}

static void parse_args(struct fsck_ctx *ctx, int argc, char **argv)
{
	struct fsck_options *o = &ctx->opt;
	int c, bad = 0;

	o->progress_fd = -1;
	switch (e2x_std_arg(argc, argv)) {
	case E2X_ARG_HELP:
		usage(ctx->prog, stdout, FSCK_OK);
		break;
	case E2X_ARG_VERSION:
		print_version(ctx->prog);
		break;
	}
	while ((c = getopt(argc, argv, "hpanyrcC:B:dE:fvtFVb:j:l:L:kz:D")) !=
	       EOF) {
		switch (c) {
		case 'p':
		case 'a':
			bad |= set_mode(o, MODE_PREEN);
			break;
		case 'n':
			bad |= set_mode(o, MODE_NO);
			break;
		case 'y':
			bad |= set_mode(o, MODE_YES);
			break;
		case 'f':
			o->force = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 't':
			o->timing++;
			break;
		case 'd':
			o->debug = 1;
			break;
		case 'b':
			o->superblock = parse_num(ctx->prog, optarg,
						  "superblock");
			break;
		case 'B':
			o->blocksize = parse_num(ctx->prog, optarg,
						 "block size");
			break;
		case 'j':
			o->journal_path = optarg;
			break;
		case 'C':
			o->progress_fd = parse_num(ctx->prog, optarg,
						   "progress fd");
			break;
		case 'E':
			if (parse_extended(o, optarg))
				usage(ctx->prog, stderr, FSCK_USAGE);
			break;
		case 'V':
			print_version(ctx->prog);
			break;
		case 'h':
			usage(ctx->prog, stdout, FSCK_OK);
			break;
		case 'r':	/* historical no-op */
		case 'k':
		case 'F':
			break;
		case 'D':
			o->optimize_dirs = 1;
			break;
		case 'z':
			o->undo_file = optarg;
			break;
		case 'c':
		case 'l':
		case 'L':
			fprintf(stderr, "%s: option -%c is not supported\n",
				ctx->prog, c);
			exit(FSCK_USAGE);
		default:
			usage(ctx->prog, stderr, FSCK_USAGE);
		}
	}
	if (bad) {
		fprintf(stderr, "%s: only one of -p/-a, -n or -y may be "
			"given\n", ctx->prog);
		exit(FSCK_USAGE);
	}
	if (o->optimize_dirs && o->mode == MODE_NO) {
		fprintf(stderr, "%s: -D rewrites directories; it cannot go "
			"with -n\n", ctx->prog);
		exit(FSCK_USAGE);
	}
	if (optind != argc - 1)
		usage(ctx->prog, stderr, FSCK_USAGE);
	o->device = argv[optind];
	if (o->mode == MODE_INTERACTIVE && !isatty(0)) {
		fprintf(stderr, "%s: need a terminal for interactive repairs; "
			"use -n, -y or -p\n", ctx->prog);
		exit(FSCK_ERROR);
	}
}

/* -z: every write goes through libext2fs's undo manager into the file
 * e2undo replays (nothing to undo with -n). */
static void setup_undo(struct fsck_ctx *ctx)
{
	errcode_t err;

	io_manager io = unix_io_manager;

	if (!ctx->opt.undo_file || ctx->opt.mode == MODE_NO)
		return;
	err = e2x_undo_manager(ctx->opt.undo_file, &io);
	if (err) {
		fprintf(stderr, "%s: undo file %s: %s\n", ctx->prog,
			ctx->opt.undo_file, error_message(err));
		exit(FSCK_ERROR);
	}
	/* the guard's allowed writes go on through the undo manager */
	e2x_guard_backing(io);
}

/* Refuse a writing check of a mounted file system. */
static void check_mount(struct fsck_ctx *ctx)
{
	int mflags = 0;
	errcode_t err;

	err = ext2fs_check_if_mounted(ctx->opt.device, &mflags);
	if (err) {
		fprintf(stderr, "%s: cannot tell whether %s is mounted: %s\n",
			ctx->prog, ctx->opt.device, error_message(err));
		if (ctx->opt.mode != MODE_NO)
			exit(FSCK_ERROR);
		return;
	}
	if (!(mflags & EXT2_MF_MOUNTED))
		return;
	if (ctx->opt.mode == MODE_NO) {
		fprintf(stderr, "Warning: %s is mounted; a read-only check of a "
			"live file system may report false problems.\n",
			ctx->opt.device);
		return;
	}
	fprintf(stderr, "%s: %s is mounted; refusing to check it "
		"read-write.\n", ctx->prog, ctx->opt.device);
	exit(FSCK_ERROR);
}

/* A read-only check of what DONE left (its output discarded): its exit
 * code, 0 when clean. */
/* A new run over what DONE left: its options, forced, from the primary
 * superblock (DONE wrote it). */
static void rerun_ctx(const struct fsck_ctx *done, struct fsck_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->prog = done->prog;
	c->now = done->now;
	c->opt = done->opt;
	c->opt.force = 1;
	c->opt.superblock = 0;
	c->opt.blocksize = 0;
}

static int check_quietly(const struct fsck_ctx *done)
{
	struct fsck_ctx v;
	int saved, null, vrc;

	rerun_ctx(done, &v);
	v.opt.mode = MODE_NO;
	v.opt.progress_fd = -1;
	v.opt.timing = 0;
	v.opt.verbose = 0;
	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0) {
		if (saved >= 0)
			close(saved);
		if (null >= 0)
			close(null);
		return 0;
	}
	dup2(null, 1);
	close(null);
	vrc = fsck_run(&v);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return vrc;
}

/* Repair rounds after the first when a check still finds problems. */
#define FSCK_MAX_ROUNDS 2

/* Another round may help: -y (or -p after a clean preen) and nothing
 * worse than errors left; not with an undo file, which records one run. */
static int may_repair_again(const struct fsck_ctx *done, int rc)
{
	if (done->opt.undo_file || (rc & ~(FSCK_NONDESTRUCT | FSCK_REBOOT |
					   FSCK_UNCORRECTED)))
		return 0;
	if (done->opt.mode == MODE_YES)
		return 1;
	return done->opt.mode == MODE_PREEN && !(rc & FSCK_UNCORRECTED);
}

/*
 * "Fixed" means fixed, and one run suffices: after a run that repaired
 * what it found, check the file system again read-only.  If problems are
 * left, repair again (a repair can uncover what the damage hid), at most
 * FSCK_MAX_ROUNDS more times; the exit code says errors are left when
 * the last check still finds some.
 */
static int verify_repairs(const struct fsck_ctx *done, int rc)
{
	int round;

	if (done->opt.mode == MODE_NO || done->opt.journal_only ||
	    !(rc & FSCK_NONDESTRUCT))
		return rc;
	for (round = 0;; round++) {
		struct fsck_ctx again;
		int rrc;

		if (!check_quietly(done))
			return rc & ~FSCK_UNCORRECTED;
		if (round == FSCK_MAX_ROUNDS || !may_repair_again(done, rc))
			break;
		printf("\n%s: a check after the repairs still finds problems; "
		       "repairing again\n\n", done->opt.device);
		rerun_ctx(done, &again);
		rrc = fsck_run(&again);
		rc |= rrc & ~FSCK_UNCORRECTED;
		if (!(rrc & FSCK_NONDESTRUCT))
			break;	/* nothing more it can change */
	}
	printf("\n%s: a check after the repairs still finds problems: not "
	       "everything was fixed (run e2fsck -fn to see what)\n",
	       done->opt.device);
	return rc | FSCK_UNCORRECTED;
}

int main(int argc, char **argv)
{
	struct fsck_ctx ctx = { 0 };

	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx.prog = "e2fsck";
	ctx.now = time(NULL);
	e2x_init_errors();
	parse_args(&ctx, argc, argv);
	check_mount(&ctx);
	setup_undo(&ctx);
	return verify_repairs(&ctx, fsck_run(&ctx));
}
#endif

/*
 * EXT2_FLAG_FORCE: libext2fs does not know itree (read-only compatible)
 * and would refuse a writing open; check_features() below refuses every
 * feature we do not know ourselves, before anything is written.
 */
static errcode_t try_open(struct fsck_ctx *ctx, blk64_t sb, unsigned int bs,
			  ext2_filsys *fsp)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS |
		    EXT2_FLAG_SKIP_MMP | EXT2_FLAG_FORCE;

	if (ctx->opt.mode != MODE_NO)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	if (sb)
		flags |= EXT2_FLAG_MASTER_SB_ONLY;
	return ext2fs_open2(ctx->opt.device, NULL, flags, sb, bs,
			    (flags & EXT2_FLAG_RW) ? e2x_guard_io_manager :
						     unix_io_manager,
			    fsp);
}

/*
 * The cases open_tolerant() handles, judged from the raw superblock
 * before libext2fs allocates descriptors for it: an inode count other
 * than groups times a sane inodes per group, or meta_bg with
 * s_first_meta_bg beyond the descriptor blocks, which fit on the device
 * (a garbage group count would have it allocate gigabytes).
 */
static int tolerable_super(struct fsck_ctx *ctx)
{
	struct ext2_super_block sb;
	unsigned long long groups, dblocks;
	blk64_t dev = 0;
	unsigned int bs, dsz = EXT2_MIN_DESC_SIZE;
	io_channel io;
	int ok = 0;

	if (unix_io_manager->open(ctx->opt.device, 0, &io))
		return 0;
	if (io_channel_set_blksize(io, SUPERBLOCK_OFFSET) ||
	    io_channel_read_blk(io, 1, -(int)sizeof(sb), &sb))
		goto out;
	if (sb.s_log_block_size > 6 || !sb.s_blocks_per_group ||
	    sb.s_first_data_block >= ext2fs_blocks_count(&sb))
		goto out;
	bs = EXT2_BLOCK_SIZE(&sb);
	if (ext2fs_has_feature_64bit(&sb) && sb.s_desc_size > dsz)
		dsz = sb.s_desc_size;
	groups = (ext2fs_blocks_count(&sb) - sb.s_first_data_block +
		  sb.s_blocks_per_group - 1) / sb.s_blocks_per_group;
	/* an inode count other than groups times inodes per group */
	if (sb.s_inodes_per_group && sb.s_inodes_per_group <= bs * 8ULL &&
	    groups * sb.s_inodes_per_group <= ~0U &&
	    groups * sb.s_inodes_per_group != sb.s_inodes_count) {
		ok = 1;
		goto out;
	}
	if (!ext2fs_has_feature_meta_bg(&sb))
		goto out;
	dblocks = (groups * dsz + bs - 1) / bs;
	if (ext2fs_get_device_size2(ctx->opt.device, bs, &dev) ||
	    dblocks > dev)
		goto out;
	ok = sb.s_first_meta_bg > dblocks;
out:
	io_channel_close(io);
	return ok;
}

/*
 * A superblock libext2fs calls corrupt may still be checkable: reopen
 * tolerating superblock errors, and report what is wrong (s_first_meta_bg
 * beyond the descriptor blocks; with LAST, when no backup was found, a
 * wrong inode count too).  Returns 0 when the file system is open.
 */
static int open_tolerant(struct fsck_ctx *ctx, int last)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS |
		    EXT2_FLAG_SKIP_MMP | EXT2_FLAG_IGNORE_SB_ERRORS |
		    EXT2_FLAG_FORCE;
	struct problem_ctx pctx;
	struct ext2_super_block *sb;

	if (!tolerable_super(ctx))
		return -1;
	if (ctx->opt.mode != MODE_NO)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	if (ext2fs_open2(ctx->opt.device, NULL, flags, 0, 0, e2x_guard_io_manager,
			 &ctx->fs))
		return -1;
	sb = ctx->fs->super;
	if (ext2fs_has_feature_meta_bg(sb) &&
	    sb->s_first_meta_bg > ctx->fs->desc_blocks) {
		pctx_clear(&pctx);
		pctx.num = sb->s_first_meta_bg;
		pctx.num2 = ctx->fs->desc_blocks;
		ctx->fs_rw = !!(ctx->fs->flags & EXT2_FLAG_RW);
		if (fix_problem(ctx, PR_0_META_BG_FIRST, &pctx)) {
			sb->s_first_meta_bg = ctx->fs->desc_blocks;
			ext2fs_mark_super_dirty(ctx->fs);
		}
		return 0;
	}
	/* a wrong inode count: only when no backup superblock stands in
	 * (LAST), since a wrong inodes per group looks the same */
	ctx->fs_rw = !!(ctx->fs->flags & EXT2_FLAG_RW);
	if (last &&
	    ctx->fs->group_desc_count * (uint64_t)sb->s_inodes_per_group !=
	    sb->s_inodes_count && !fsck_inodes_count(ctx))
		return 0;
	/* nothing we can name: treat it as unusable */
	ext2fs_close_free(&ctx->fs);
	return -1;
}

/*
 * A 64bit superblock with a descriptor size of 0 (the field lost: mke2fs
 * writes 64) cannot be opened by libext2fs: the primary is repaired in
 * place first, through the write guard, and opened again.  Returns 0 when
 * the file system is open.
 */
static int open_desc_size_unset(struct fsck_ctx *ctx)
{
	struct ext2_super_block sb;
	struct problem_ctx pctx;
	io_channel io;
	int unset;

	if (unix_io_manager->open(ctx->opt.device, 0, &io))
		return -1;
	unset = !io_channel_set_blksize(io, SUPERBLOCK_OFFSET) &&
		!io_channel_read_blk(io, 1, -(int)sizeof(sb), &sb) &&
		sb.s_magic == EXT2_SUPER_MAGIC &&
		ext2fs_has_feature_64bit(&sb) && !sb.s_desc_size;
	io_channel_close(io);
	if (!unset)
		return -1;
	pctx_clear(&pctx);
	ctx->fs_rw = ctx->opt.mode != MODE_NO;
	if (!fix_problem(ctx, PR_0_DESC_SIZE_UNSET, &pctx))
		return -1;
	if (e2x_repair_desc_size_unset(ctx->opt.device, e2x_guard_io_manager,
				       0) ||
	    try_open(ctx, 0, 0, &ctx->fs)) {
		ctx->problems_fixed--;
		ctx->problems_unfixed++;
		return -1;
	}
	return 0;
}

/* With -b: probe block sizes when -B is not given. */
static errcode_t open_at(struct fsck_ctx *ctx, blk64_t sb, unsigned int bs,
			 ext2_filsys *fsp)
{
	errcode_t err = EXT2_ET_BAD_MAGIC;
	unsigned int b;

	if (bs)
		return try_open(ctx, sb, bs, fsp);
	for (b = 1024; b <= 65536; b <<= 1) {
		err = try_open(ctx, sb, b, fsp);
		if (!err)
			return 0;
	}
	return err;
}

/* Clusters of a block each bigalloc backup search tries, up to this. */
#define MAX_CLUSTER_RATIO 256

/* Errors that a backup superblock cannot help with. */
static int fatal_open_error(errcode_t err)
{
	return err == ENOENT || err == EACCES || err == EBUSY ||
	       err == EROFS || err == EXT2_ET_UNSUPP_FEATURE ||
	       err == EXT2_ET_RO_UNSUPP_FEATURE || err == ENOMEM;
}

/*
 * A backup superblock opened at block SB with block size BS is one when
 * it says so itself: that block size, group 1's first block there, and
 * (dynamic revision) group number 1.  Copies of the primary elsewhere (a
 * journal block logging it, a file holding an image) are not.
 */
static int real_backup(ext2_filsys fs, blk64_t sb, unsigned int bs)
{
	return fs->blocksize == bs && fs->group_desc_count > 1 &&
	       ext2fs_group_first_block2(fs, 1) == sb &&
	       (fs->super->s_rev_level == EXT2_GOOD_OLD_REV ||
		fs->super->s_block_group_nr == 1) &&
	       !fsck_super_contradiction(fs->super) && !ext2fs_check_desc(fs);
}

/*
 * The field the open primary has wrong by the backup superblock of group
 * 1, when that backup is one (its magic, its group number) and does not
 * contradict itself; NULL when they agree or there is no such backup.
 */
static const char *backup_disagrees(ext2_filsys fs)
{
	struct ext2_super_block *b;
	const char *why = NULL;
	char *buf;

	if (fs->group_desc_count < 2 || ext2fs_get_mem(SUPERBLOCK_SIZE, &buf))
		return NULL;
	b = (struct ext2_super_block *)buf;
	if (!io_channel_read_blk64(fs->io, ext2fs_group_first_block2(fs, 1),
				   -SUPERBLOCK_SIZE, buf) &&
	    b->s_magic == EXT2_SUPER_MAGIC &&
	    (b->s_rev_level == EXT2_GOOD_OLD_REV || b->s_block_group_nr == 1) &&
	    !fsck_super_contradiction(b))
		why = fsck_super_disagrees(fs->super, b);
	ext2fs_free_mem(&buf);
	return why;
}

/* Why the open primary superblock or its descriptors cannot be trusted
 * while a backup may stand in for them, or NULL. */
static const char *primary_distrust(ext2_filsys fs)
{
	const char *why = fsck_super_contradiction(fs->super);
	errcode_t err;

	if (why)
		return why;
	why = backup_disagrees(fs);
	if (why)
		return why;
	err = ext2fs_check_desc(fs);
	if (err && err != EXT2_ET_NO_MEMORY)
		return error_message(err);
	return NULL;
}

/*
 * The kernel never marks a backup superblock as needing recovery: with
 * one, whether the internal journal holds a log to replay is the
 * journal's own superblock to say (its log start is not 0).
 */
static int log_holds_data(ext2_filsys fs)
{
	struct e2x_journal_opts o = { 0 };
	struct e2x_journal *j = NULL;
	int live;

	if (!ext2fs_has_feature_journal(fs->super) ||
	    ext2fs_has_feature_journal_dev(fs->super) ||
	    e2x_journal_load(fs, &o, &j))
		return 0;
	live = e2x_journal_super(j)->s_start != 0;
	e2x_journal_free(j);
	return live;
}

/*
 * Group 1's first block at block size BS by the primary superblock's own
 * group size, when that is smaller than a bitmap block's bits (mke2fs
 * -g): the backups are not where the default size puts them.  0 when
 * the primary has no such size to offer.
 */
static blk64_t primary_group_one(struct fsck_ctx *ctx, unsigned int bs)
{
	struct ext2_super_block sb;
	io_channel io;
	blk64_t at = 0;

	if (unix_io_manager->open(ctx->opt.device, 0, &io))
		return 0;
	if (!io_channel_set_blksize(io, SUPERBLOCK_OFFSET) &&
	    !io_channel_read_blk(io, 1, -(int)sizeof(sb), &sb) &&
	    sb.s_magic == EXT2_SUPER_MAGIC && sb.s_log_block_size <= 6 &&
	    EXT2_BLOCK_SIZE(&sb) == bs &&
	    !ext2fs_has_feature_bigalloc(&sb) &&
	    sb.s_blocks_per_group >= 8 && sb.s_blocks_per_group < bs * 8 &&
	    sb.s_first_data_block <= 1)
		at = (blk64_t)sb.s_first_data_block + sb.s_blocks_per_group;
	io_channel_close(io);
	return at;
}

/*
 * Group 1's first block at block size BS when it holds a backup that
 * says so (real_backup), left open in ctx->fs; 0 when none does.  With
 * bigalloc a group spans a bitmap block's clusters, so each cluster
 * size is tried: the primary's word on it is what is in doubt.
 */
static blk64_t backup_at(struct fsck_ctx *ctx, unsigned int bs)
{
	blk64_t ratio, sb, own = primary_group_one(ctx, bs);

	if (own) {
		if (!try_open(ctx, own, bs, &ctx->fs)) {
			if (real_backup(ctx->fs, own, bs))
				return own;
			ext2fs_free(ctx->fs);
			ctx->fs = NULL;
		}
	}
	for (ratio = 1; ratio <= MAX_CLUSTER_RATIO; ratio <<= 1) {
		sb = (blk64_t)bs * 8 * ratio + (bs == 1024 && ratio == 1);
		if (sb == own)
			continue;
		if (try_open(ctx, sb, bs, &ctx->fs))
			continue;
		if (real_backup(ctx->fs, sb, bs))
			return sb;
		ext2fs_free(ctx->fs);
		ctx->fs = NULL;
	}
	return 0;
}

/*
 * The primary could not be used (WHY): check with the backup in group 1
 * instead, for each block size it may have.  0 when one is open.
 */
static int open_backup(struct fsck_ctx *ctx, const char *why)
{
	struct problem_ctx pctx;
	unsigned int bs;

	for (bs = ctx->opt.blocksize ? ctx->opt.blocksize : 1024;
	     bs <= 65536; bs <<= 1) {
		blk64_t sb = backup_at(ctx, bs);

		if (sb) {
			pctx_clear(&pctx);
			pctx.str = why;
			pctx.blk = sb;
			ctx->used_backup_sb = 1;
			ctx->sb_blk = sb;
			if (log_holds_data(ctx->fs))
				ext2fs_set_feature_journal_needs_recovery(
					ctx->fs->super);
			ctx->fs_rw = !!(ctx->fs->flags & EXT2_FLAG_RW);
			if (!fix_problem(ctx, PR_0_OPEN_BACKUP, &pctx) &&
			    ctx->fs_rw) {
				ext2fs_close_free(&ctx->fs);
				return -1;
			}
			return 0;
		}
		if (ctx->opt.blocksize)
			break;
	}
	return -1;
}

/*
 * A primary with no backup whose one contradiction is its checksum type:
 * metadata_csum has only crc32c, so the field is set to it (0), when the
 * answer is yes.  -1 leaves it as it is.
 */
static int fix_csum_type(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct ext2_super_block fixed = *sb;
	struct problem_ctx pctx;

	fixed.s_checksum_type = EXT2_CRC32C_CHKSUM;
	if (sb->s_checksum_type == EXT2_CRC32C_CHKSUM ||
	    fsck_super_contradiction(&fixed))
		return -1;
	pctx_clear(&pctx);
	pctx.num = sb->s_checksum_type;
	ctx->fs_rw = !!(ctx->fs->flags & EXT2_FLAG_RW);
	if (!fix_problem(ctx, PR_0_CSUM_TYPE, &pctx))
		return -1;
	sb->s_checksum_type = EXT2_CRC32C_CHKSUM;
	ext2fs_mark_super_dirty(ctx->fs);
	return 0;
}

/* Returns 0 with ctx->fs open, -1 (reported) when nothing can be opened. */
static int open_fs(struct fsck_ctx *ctx)
{
	struct problem_ctx pctx;
	const char *why;
	errcode_t err, first;

	if (ctx->opt.superblock) {
		err = open_at(ctx, ctx->opt.superblock, ctx->opt.blocksize,
			      &ctx->fs);
		if (err)
			goto fail;
		ctx->used_backup_sb = 1;
		ctx->sb_blk = ctx->opt.superblock;
		goto done;
	}
	first = try_open(ctx, 0, 0, &ctx->fs);
	if (!first) {
		/* a primary that contradicts itself or places group
		 * metadata impossibly is used only when no backup can
		 * stand in for it */
		why = primary_distrust(ctx->fs);
		if (!why)
			goto done;
		ext2fs_free(ctx->fs);
		ctx->fs = NULL;
		if (!open_backup(ctx, why))
			goto done;
		ctx->used_backup_sb = 0;
		ctx->sb_blk = 0;
		err = try_open(ctx, 0, 0, &ctx->fs);
		if (err)
			goto fail;
		if (!fsck_super_contradiction(ctx->fs->super))
			goto done;	/* the descriptor checks report it */
		if (!fix_csum_type(ctx))
			goto done;
		/* checked as it is, but nothing is written on its word */
		ctx->fs_rw = 0;
		pctx_clear(&pctx);
		pctx.str = why;
		fix_problem(ctx, PR_0_SB_CONTRADICTS, &pctx);
		return 0;
	}
	if (first == EXT2_ET_CORRUPT_SUPERBLOCK && !open_tolerant(ctx, 0))
		goto done;
	if (first == EXT2_ET_BAD_DESC_SIZE && !open_desc_size_unset(ctx))
		goto done;
	err = first;
	if (fatal_open_error(first))
		goto fail;
	if (!open_backup(ctx, error_message(first)))
		goto done;
	if (first == EXT2_ET_CORRUPT_SUPERBLOCK && !ctx->used_backup_sb &&
	    !open_tolerant(ctx, 1))
		goto done;
fail:
	fprintf(stderr, "%s: cannot open %s as an ext2/3/4 file system: %s\n",
		ctx->prog, ctx->opt.device, error_message(err));
	return -1;
done:
	ctx->fs_rw = !!(ctx->fs->flags & EXT2_FLAG_RW);
	return 0;
}

/* Unknown features make a check meaningless: refuse (-1, fs closed). */
static int check_features(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	/* libext2fs is built with MMP; its header says so only under
	 * CONFIG_MMP */
	if ((sb->s_feature_incompat & ~(EXT2_LIB_FEATURE_INCOMPAT_SUPP |
					EXT4_FEATURE_INCOMPAT_MMP)) ||
	    (sb->s_feature_ro_compat & ~EXT2_LIB_FEATURE_RO_COMPAT_SUPP &
	     ~E2X_FEATURE_RO_COMPAT_ITREE)) {
		fprintf(stderr, "%s: %s has features this e2fsck does not "
			"know; not checking it\n", ctx->prog, ctx->opt.device);
		ext2fs_close_free(&ctx->fs);
		return -1;
	}
	/* an external journal holds a log, no inodes or directories */
	if (ext2fs_has_feature_journal_dev(sb)) {
		fprintf(stderr, "%s: %s is an external journal device, not a "
			"file system; check the file system that uses it\n",
			ctx->prog, ctx->opt.device);
		ext2fs_close_free(&ctx->fs);
		return -1;
	}
	return 0;
}

static double now_seconds(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* Where each pass starts on the -C 0 bar, in per mille of the whole check
 * (pass 1 reads every inode and dominates). */
static const unsigned short pass_start[] = { 0, 0, 600, 850, 880, 950, 1000 };
#define BAR_INTERVAL 0.1	/* seconds between redraws at most */

/* -C 0 on a terminal: one bar with one overall percentage. */
static void draw_bar(struct fsck_ctx *ctx, int pass, unsigned long cur,
		     unsigned long max)
{
	static const char bar[] = "========================================";
	int width = sizeof(bar) - 1, fill;
	unsigned int permille;
	double t = now_seconds();

	if (pass < 1 || pass > 5)
		return;
	if (ctx->progress_drawn && t - ctx->progress_drawn < BAR_INTERVAL)
		return;
	ctx->progress_drawn = t;
	ctx->progress_shown = 1;
	permille = pass_start[pass] + (uint64_t)(pass_start[pass + 1] -
					  pass_start[pass]) * cur / max;
	fill = permille * width / 1000;
	printf("\r%s: |%.*s%*s| %5.1f%%", ctx->opt.device, fill, bar,
	       width - fill, "", permille / 10.0);
	fflush(stdout);
}

void fsck_progress_clear(struct fsck_ctx *ctx)
{
	if (!ctx->progress_shown)
		return;
	printf("\r%*s\r", (int)strlen(ctx->opt.device) + 52, "");
	fflush(stdout);
	ctx->progress_shown = 0;
}

void fsck_progress(struct fsck_ctx *ctx, int pass, unsigned long cur,
		   unsigned long max)
{
	int fd = ctx->opt.progress_fd;
	int pct;

	if (fd < 0 || !max || cur > max)
		return;
	if (fd == 0) {
		if (isatty(1))
			draw_bar(ctx, pass, cur, max);
		return;
	}
	pct = (int)((uint64_t)cur * 100 / max);
	if (cur != max && pass == ctx->progress_pass && pct % 2 &&
	    cur != 0)
		return;
	ctx->progress_pass = pass;
	dprintf(fd, "%d %lu %lu %s\n", pass, cur, max, ctx->opt.device);
}

struct pass_entry {
	const char *name;
	void (*run)(struct fsck_ctx *ctx);
	int quiet;		/* no heading (steps the reference does not name) */
};

static const struct pass_entry passes[] = {
	{ "Superblock and group descriptors", check_super },
	{ "Pass 1: inodes, blocks and sizes", pass1 },
	{ "Pass 1b: blocks claimed twice", pass1b, 1 },
	{ "Relocating group metadata", fsck_relocate, 1 },
	{ "Pass 2: directory structure", pass2 },
	{ "Pass 3: directory connectivity", pass3 },
	{ "Pass 4: reference counts", pass4 },
	{ "Pass 5: bitmaps and free counts", pass5 },
	{ "Rebuilding the resize inode", fsck_resize_rebuild, 1 },
	{ "Rebuilding the orphan file", fsck_orphan_file_rebuild, 1 },
};

/* Times a repair may send the check back to pass 1 in one run. */
#define FSCK_MAX_RESTARTS 3

static void run_passes(struct fsck_ctx *ctx)
{
	unsigned long unfixed = ctx->problems_unfixed;
	int restarts = 0;
	size_t i;

	for (i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
		if (ctx->restart) {
			if (restarts++ == FSCK_MAX_RESTARTS)
				break;
			/* what the passes found so far is found again */
			fsck_alloc_done(ctx);
			fsck_state_reset(ctx);
			ctx->problems_unfixed = unfixed;
			i = 1;
		}
		double t0 = now_seconds();

		if (ctx->abort)
			break;
		if (ctx->opt.mode != MODE_PREEN && !passes[i].quiet) {
			fsck_progress_clear(ctx);
			printf("%s\n", passes[i].name);
		}
		passes[i].run(ctx);
		if (ctx->ntimes < FSCK_MAX_PASSES) {
			ctx->times[ctx->ntimes].name = passes[i].name;
			ctx->times[ctx->ntimes].seconds = now_seconds() - t0;
			ctx->ntimes++;
		}
	}
	fsck_alloc_done(ctx);
}

/* Clean and recently checked: nothing to do without -f. */
static int can_skip(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	if (ctx->opt.force || ctx->used_backup_sb)
		return 0;
	if (!(sb->s_state & EXT2_VALID_FS) || (sb->s_state & EXT2_ERROR_FS))
		return 0;
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		return 0;
	if (sb->s_max_mnt_count > 0 &&
	    sb->s_mnt_count >= (unsigned int)sb->s_max_mnt_count)
		return 0;
	if (sb->s_checkinterval &&
	    (time_t)(sb->s_lastcheck + sb->s_checkinterval) <= ctx->now)
		return 0;
	return 1;
}

/*
 * The figures of the summary line: what pass 5 counted when it ran, else
 * the group descriptors' sums (the superblock totals are left stale by
 * the kernel and by a journal replay; the descriptors are journalled).
 */
struct fsck_totals {
	unsigned long long inodes, used_inodes, blocks, used_blocks;
};

static void final_totals(struct fsck_ctx *ctx, struct fsck_totals *t)
{
	ext2_filsys fs = ctx->fs;
	uint64_t free_b, free_i;

	if (ctx->have_counted) {
		free_b = ctx->counted_free_blocks;
		free_i = ctx->counted_free_inodes;
	} else {
		free_b = groups_free(fs, 1);
		free_i = groups_free(fs, 0);
	}
	t->inodes = fs->super->s_inodes_count;
	t->blocks = ext2fs_blocks_count(fs->super);
	t->used_inodes = t->inodes - free_i;
	t->used_blocks = t->blocks - free_b;
}

/*
 * A check skipped as clean still leaves the superblock's free totals as
 * the descriptors count them (after a crash and a replay they are stale),
 * as the kernel would at the next mount.
 */
static void sync_totals(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	uint64_t free_b = groups_free(ctx->fs, 1);
	uint64_t free_i = groups_free(ctx->fs, 0);

	if (!ctx->fs_rw || (ext2fs_free_blocks_count(sb) == free_b &&
			    sb->s_free_inodes_count == free_i))
		return;
	ext2fs_free_blocks_count_set(sb, free_b);
	sb->s_free_inodes_count = free_i;
	ext2fs_mark_super_dirty(ctx->fs);
}

static double percent(unsigned long long part, unsigned long long whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void print_summary(struct fsck_ctx *ctx, const char *clean)
{
	struct fsck_totals t;

	final_totals(ctx, &t);
	printf("%s: %s%llu/%llu files, %llu/%llu blocks\n", ctx->opt.device,
	       clean, t.used_inodes, t.inodes, t.used_blocks, t.blocks);
	if (!ctx->opt.verbose || *clean)
		return;
	printf("\n%12llu inodes used (%.2f%%, out of %llu)\n"
	       "%12llu blocks used (%.2f%%, out of %llu)\n",
	       t.used_inodes, percent(t.used_inodes, t.inodes), t.inodes,
	       t.used_blocks, percent(t.used_blocks, t.blocks), t.blocks);
	printf("\n%12lu regular files\n"
	       "%12lu directories\n%12lu character/block devices\n"
	       "%12lu fifos\n%12lu sockets\n%12lu symbolic links "
	       "(%lu fast)\n%12lu files with inline data\n"
	       "%12lu extent-mapped files\n%12lu block-mapped files\n"
	       "------------\n%12lu files\n",
	       ctx->n_regular, ctx->n_dirs, ctx->n_devices,
	       ctx->n_fifos, ctx->n_sockets, ctx->n_symlinks,
	       ctx->n_fast_symlinks, ctx->n_inline, ctx->n_extent,
	       ctx->n_ind, ctx->n_files);
}

static void print_times(struct fsck_ctx *ctx, double total)
{
	int i;

	if (ctx->opt.timing > 1 || ctx->opt.verbose)
		for (i = 0; i < ctx->ntimes; i++)
			printf("  %-36s %8.3f s\n", ctx->times[i].name,
			       ctx->times[i].seconds);
	printf("Time: %.3f s elapsed\n", total);
}

/* A check with nothing left wrong marks the superblock clean. */
static void finish_rw(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	if (!ctx->fs_rw || ctx->abort)
		return;
	if (!ctx->problems_unfixed) {
		sb->s_state = EXT2_VALID_FS;
		sb->s_mnt_count = 0;
		sb->s_lastcheck = ctx->now;
	} else {
		/* errors remain: the next boot must check again */
		sb->s_state &= ~EXT2_VALID_FS;
	}
	ext2fs_mark_super_dirty(ctx->fs);
}

/* A run that wrote something says so before its summary (not -p). */
static void say_modified(struct fsck_ctx *ctx)
{
	if (ctx->opt.mode == MODE_PREEN || ctx->abort || !ctx->fs_rw)
		return;
	if (ctx->modified || (ctx->exit_extra & FSCK_NONDESTRUCT))
		printf("\n%s: ***** FILE SYSTEM WAS MODIFIED *****\n",
		       ctx->opt.device);
}

/*
 * Everything after the options: open, recover, check, close.  Never
 * exits (the fuzz harness in tests/fuzz calls it once per input); returns
 * the exit code.
 */
int fsck_run(struct fsck_ctx *ctx)
{
	double t0 = now_seconds();
	errcode_t err;
	int rc;

	fsck_guard_start(ctx);
	if (open_fs(ctx) || check_features(ctx)) {
		fsck_guard_stop(ctx);
		return FSCK_ERROR;
	}

	if (fsck_journal_startup(ctx)) {
		if (ctx->fs)
			ext2fs_close_free(&ctx->fs);
		fsck_journal_release(ctx);
		fsck_guard_stop(ctx);
		return FSCK_ERROR | ctx->exit_extra;
	}
	if (ctx->opt.journal_only)
		goto close;
	if (can_skip(ctx)) {
		sync_totals(ctx);
		print_summary(ctx, "clean, ");
		goto close;
	}
	run_passes(ctx);
	fsck_journal_recreate(ctx);
	rehash_dirs(ctx);
	fsck_progress_clear(ctx);
	finish_rw(ctx);
	say_modified(ctx);
	if (!ctx->preen_bailed && !(ctx->abort && ctx->exit_extra & FSCK_ERROR))
		print_summary(ctx, "");
close:
	fsck_state_free(ctx);
	fsck_relocate_free(ctx);
	err = ext2fs_close_free(&ctx->fs);
	if (err) {
		fprintf(stderr, "%s: writing the file system failed: %s\n",
			ctx->prog, error_message(err));
		ctx->exit_extra |= FSCK_ERROR;
	}
	fsck_journal_release(ctx);
	fsck_guard_stop(ctx);
	if (ctx->opt.timing)
		print_times(ctx, now_seconds() - t0);
	rc = ctx->exit_extra;
	if (ctx->problems_unfixed || ctx->preen_bailed)
		rc |= FSCK_UNCORRECTED;
	if (ctx->problems_fixed)
		rc |= FSCK_NONDESTRUCT;
	if (rc & FSCK_UNCORRECTED && ctx->opt.mode != MODE_PREEN)
		printf("\n%s: ********** WARNING: the file system still has "
		       "errors **********\n", ctx->opt.device);
	return rc;
}
