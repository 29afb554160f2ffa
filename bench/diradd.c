/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diradd.c --- benchmark helper: create N fifos named f0..fN-1 in a new
 * directory "d" of IMAGE through libe2x (e2x_dir_mkdir + e2x_dir_mknod),
 * the same work as "mkdir d" and N "mknod d/fI p" in the reference
 * debugfs.  Run by bench/dir_add, never by make check.
 *
 *   diradd IMAGE N
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2x.h"

int main(int argc, char **argv)
{
	ext2_filsys fs;
	ext2_ino_t dir;
	unsigned long i, n;
	char name[32];
	errcode_t err;

	if (argc != 3) {
		fprintf(stderr, "usage: diradd IMAGE N\n");
		return 2;
	}
	e2x_init_errors();
	n = strtoul(argv[2], NULL, 10);
	err = ext2fs_open(argv[1], EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, &fs);
	if (!err)
		err = ext2fs_read_bitmaps(fs);
	if (!err)
		err = e2x_dir_mkdir(fs, EXT2_ROOT_INO, "d", 1, 0755, 0, &dir);
	for (i = 0; !err && i < n; i++) {
		snprintf(name, sizeof(name), "f%lu", i);
		err = e2x_dir_mknod(fs, dir, name, strlen(name),
				    LINUX_S_IFIFO | 0644, 0, NULL);
	}
	if (!err)
		err = ext2fs_close_free(&fs);
	if (err) {
		fprintf(stderr, "diradd: %s\n", error_message(err));
		return 1;
	}
	return 0;
}
