/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jrecover.c --- test driver for libe2x journal recovery and orphan
 * processing: recover an image for real, or dry-run into an overlay and
 * optionally dump the overlay's view of the device to a file.
 *
 *   jrecover [-n] [-R] [-j extjournal] [-o dump] [-J jdump] [-S] image
 *	-n	dry run (nothing written to image or journal device)
 *	-R	replay only: no orphan processing
 *	-o F	with -n: write the post-recovery device image to F
 *	-J F	with -n and -j: the same for the external journal device
 *	-S	scan only: print what recovery would do, no replay
 * Prints one "key=value" line.  Exit 0 ok, 1 recovery error, 2 usage.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include "e2x.h"

static const char *stop_name[] = {
	"clean", "end", "commit_csum", "block_csum", "stale", "io",
};

static void print_result(const struct e2x_journal_result *r,
			 const struct e2x_orphan_result *o, int recovered)
{
	printf("recovered=%d start=%u end=%u transactions=%u replayed=%llu "
	       "revoke_records=%llu revoke_hits=%llu bad_blocks=%llu "
	       "stop=%s errno=%d external=%u released=%u truncated=%u "
	       "orphan_bad=%u orphan_skipped=%u\n",
	       recovered, r->start_tid, r->end_tid, r->transactions,
	       (unsigned long long)r->blocks_replayed,
	       (unsigned long long)r->revoke_records,
	       (unsigned long long)r->revoke_hits,
	       (unsigned long long)r->bad_data_blocks,
	       r->stop_reason < 6 ? stop_name[r->stop_reason] : "?",
	       r->journal_errno, r->external, o->released, o->truncated,
	       o->bad, o->skipped);
}

static errcode_t scan_only(ext2_filsys fs, struct e2x_journal_opts *o,
			   struct e2x_journal_result *r)
{
	struct e2x_journal *j;
	errcode_t err;

	memset(r, 0, sizeof(*r));
	err = e2x_journal_load(fs, o, &j);
	if (err)
		return err;
	err = e2x_journal_scan(j, r);
	if (!err || err == E2X_ERR_JOURNAL_CSUM)
		err = e2x_journal_revoke_pass(j, r) ? : err;
	e2x_journal_free(j);
	return err;
}

static int is_zero(const unsigned char *p, size_t n)
{
	return !p[0] && !memcmp(p, p + 1, n - 1);
}

/* Copy the overlay's view of the whole device into PATH. */
static errcode_t dump_overlay(struct e2x_overlay *ov, const char *dev,
			      const char *path)
{
	unsigned char buf[65536];
	io_channel ch = NULL;
	errcode_t err;
	blk64_t size = 0, i;
	int fd = -1;

	err = ext2fs_get_device_size2(dev, 1024, &size);
	if (!err)
		err = e2x_overlay_channel(ov, &ch);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	/* sparse: zero chunks become holes */
	for (i = 0; i < size && !err; i += 64) {
		int n = size - i < 64 ? (int)(size - i) : 64;

		err = io_channel_read_blk64(ch, i, n, buf);
		if (err || is_zero(buf, n * 1024))
			continue;
		if (pwrite(fd, buf, n * 1024, (off_t)i * 1024) != n * 1024)
			err = errno ? errno : EIO;
	}
	if (!err && ftruncate(fd, (off_t)size * 1024))
		err = errno;
out:
	if (fd >= 0 && close(fd) && !err)
		err = errno;
	io_channel_close(ch);
	return err;
}

int main(int argc, char **argv)
{
	struct e2x_journal_opts o;
	struct e2x_journal_result r;
	struct e2x_orphan_result orph;
	const char *dump = NULL, *jdump = NULL, *dev;
	int c, dry = 0, scan = 0, recovered = 0, replay_only = 0;
	int oflags = EXT2_FLAG_64BITS;
	ext2_filsys fs = NULL;
	errcode_t err, jerr = 0;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	memset(&orph, 0, sizeof(orph));
	e2x_init_errors();
	while ((c = getopt(argc, argv, "nRj:o:J:S")) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'R': replay_only = 1; break;
		case 'j': o.ext_journal = optarg; break;
		case 'o': dump = optarg; break;
		case 'J': jdump = optarg; break;
		case 'S': scan = dry = 1; break;
		default: return 2;
		}
	}
	if (optind != argc - 1)
		return 2;
	dev = argv[optind];
	if (dry)
		o.flags |= E2X_JOURNAL_DRY_RUN;
	err = ext2fs_open2(dev, NULL, oflags | (dry ? 0 : EXT2_FLAG_RW), 0, 0,
			   unix_io_manager, &fs);
	if (err)
		goto fail;
	if (scan) {
		err = scan_only(fs, &o, &r);
		ext2fs_close_free(&fs);
		if (err && err != E2X_ERR_JOURNAL_CSUM)
			goto fail;
		print_result(&r, &orph, 0);
		return err ? 1 : 0;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		jerr = e2x_journal_recover(fs, &o, &r);
		if (jerr && jerr != E2X_ERR_JOURNAL_CSUM) {
			err = jerr;
			goto fail;
		}
		recovered = 1;
	}
	/* The in-memory fs is stale now; closing it must write nothing. */
	err = ext2fs_close_free(&fs);
	if (err)
		goto fail;
	if (r.fs_overlay)
		err = e2x_overlay_open_fs(r.fs_overlay, dev,
					  oflags | EXT2_FLAG_RW, 0, 0, &fs);
	else if (!dry)
		err = ext2fs_open2(dev, NULL, oflags | EXT2_FLAG_RW, 0, 0,
				   unix_io_manager, &fs);
	if (err)
		goto fail;
	if (fs) {
		if (!replay_only)
			err = e2x_orphans_process(fs, 0, NULL, NULL, &orph);
		if (!err)
			err = ext2fs_close_free(&fs);
		if (err)
			goto fail;
	}
	if (dump && r.fs_overlay) {
		err = dump_overlay(r.fs_overlay, dev, dump);
		if (err)
			goto fail;
	}
	if (jdump && r.journal_overlay) {
		err = dump_overlay(r.journal_overlay, o.ext_journal, jdump);
		if (err)
			goto fail;
	}
	print_result(&r, &orph, recovered);
	e2x_journal_result_release(&r);
	if (jerr)
		fprintf(stderr, "jrecover: %s\n", error_message(jerr));
	return jerr ? 1 : 0;
fail:
	fprintf(stderr, "jrecover: %s: %s\n", dev, error_message(err));
	if (fs)
		ext2fs_free(fs);
	e2x_journal_result_release(&r);
	return 1;
}
