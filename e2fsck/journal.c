/*
 * journal.c --- e2fsck start-up: what to do when the journal needs
 * recovery and when orphans wait to be released.  The replay itself is
 * libe2x's (lib/e2x-journal.h).
 */
#include "config.h"
#include "problem.h"
#include "journal.h"

int fsck_journal_startup(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct problem_ctx pctx;

	pctx_clear(&pctx);
	if (ext2fs_has_feature_journal_needs_recovery(sb)) {
		if (ctx->opt.mode != MODE_NO) {
			fprintf(stderr, "%s: %s: the journal needs recovery, "
				"which this e2fsck cannot do yet; run with -n "
				"or mount the file system once\n", ctx->prog,
				ctx->opt.device);
			return 1;
		}
		fix_problem(ctx, PR_0_JOURNAL_NOT_REPLAYED, &pctx);
	}
	if (sb->s_last_orphan || ext2fs_has_feature_orphan_present(sb)) {
		ctx->orphan_chain = 1;
		fix_problem(ctx, PR_0_ORPHANS_PRESENT, &pctx);
	}
	return 0;
}
