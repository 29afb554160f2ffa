/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * popdrv.c --- test driver: populate an existing image from a source
 * through libe2x (e2x_populate), optionally turning the itree feature on
 * first (for targets our mke2fs cannot ask for with -O yet).
 *
 * usage: popdrv [-i] IMAGE SOURCE
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "e2x.h"

int main(int argc, char **argv)
{
	struct e2x_pop_source *src = NULL;
	struct e2x_pop_summary sum;
	ext2_filsys fs = NULL;
	char why[512] = "";
	int itree = 0, c;
	errcode_t err, err2;

	e2x_init_errors();
	while ((c = getopt(argc, argv, "i")) != -1) {
		if (c != 'i')
			return 2;
		itree = 1;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: popdrv [-i] IMAGE SOURCE\n");
		return 2;
	}
	err = e2x_pop_source_open(argv[optind + 1], 0, &src, why,
				  sizeof(why));
	if (err) {
		fprintf(stderr, "popdrv: %s\n", why[0] ? why :
			error_message(err));
		return 1;
	}
	err = ext2fs_open2(argv[optind], NULL, EXT2_FLAG_RW |
			   EXT2_FLAG_64BITS | EXT2_FLAG_FORCE, 0, 0,
			   unix_io_manager, &fs);
	if (!err && itree) {
		fs->super->s_feature_ro_compat |= E2X_FEATURE_RO_COMPAT_ITREE;
		ext2fs_mark_super_dirty(fs);
	}
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (!err) {
		err = e2x_populate(fs, EXT2_ROOT_INO, src, NULL, &sum);
		if (err)
			fprintf(stderr, "popdrv: failed at %s\n",
				sum.fail_path ? sum.fail_path : "?");
		else
			printf("files %llu dirs %llu inlined %llu\n",
			       (unsigned long long)sum.files,
			       (unsigned long long)sum.dirs,
			       (unsigned long long)sum.inlined);
		e2x_pop_summary_free(&sum);
	}
	if (fs) {
		err2 = ext2fs_close_free(&fs);
		if (!err)
			err = err2;
	}
	e2x_pop_source_close(src);
	if (err) {
		fprintf(stderr, "popdrv: %s\n", error_message(err));
		return 1;
	}
	return 0;
}
