/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture.h --- test images for the unit tests: format a fresh sparse image
 * file with a mke2fs and open it with libext2fs.
 */
#ifndef E2X_FIXTURE_H
#define E2X_FIXTURE_H

#include <ext2fs/ext2fs.h>

struct fixture {
	char path[256];		/* the image file, removed by fixture_drop */
	ext2_filsys fs;		/* open read-write, or NULL after close */
};

/*
 * Create an image of SIZE (mke2fs size syntax, e.g. "64M") formatted with
 * "mke2fs -q -F -t ext4 OPTS" and open it read-write.  The mke2fs used is
 * $E2X_TEST_MKE2FS when set, else ours from the build tree
 * ($top_builddir/mke2fs/mke2fs).  Aborts the test on failure.
 */
void fixture_mkfs(struct fixture *fx, const char *opts, const char *size);
/* Flush and close the fs (keeps the file); reopen read-write. */
void fixture_close(struct fixture *fx);
void fixture_reopen(struct fixture *fx);
/* Run the reference "/usr/sbin/e2fsck -fn" on the closed image; return its
 * exit status (0 = clean).  Its output goes to stderr of the test. */
int fixture_ref_fsck(struct fixture *fx);
/* Close if open and remove the file. */
void fixture_drop(struct fixture *fx);

/*
 * Can this machine mount an image at all?  Formats a small image with the
 * reference "mke2fs -t FSTYPE", attaches a loop device and mounts it as
 * FSTYPE.  Returns NULL when it can, else the reason to SKIP.  Call
 * it once while building the suite: once a reference-made image mounts, a
 * kernel that refuses one of ours is a failure, not a skip.
 */
const char *fixture_kernel_probe(const char *fstype);
/* fixture_mkfs, then the bitmaps read (for tests that allocate). */
void fixture_mkfs_bitmaps(struct fixture *fx, const char *opts,
			  const char *size);
/* Close, require the reference e2fsck -fn to find it clean, remove. */
void fixture_drop_clean(struct fixture *fx);
/* N fifos named "a-rather-long-entry-name-<i>" in DIR (an htree past a
 * block). */
void fixture_fill_dir(struct fixture *fx, ext2_ino_t dir, unsigned int n);

/* Number of problems e2x_dir_verify finds in DIR. */
size_t fixture_dir_problems(struct fixture *fx, ext2_ino_t dir);

/* Deterministic test content for SEED: LEN bytes, none of them zero. */
void fixture_fill(unsigned char *buf, size_t len, unsigned int seed);
/* Read inode INO into IN (a buffer of the full inode size) and return its
 * 64-bit i_version.  Aborts the test when the read fails. */
uint64_t fixture_version(struct fixture *fx, ext2_ino_t ino,
			 struct ext2_inode_large *in);
/* Run CALL, one libe2x operation on INO: it must return 0 and move INO's
 * i_version by exactly one.  IN is left holding INO as CALL left it. */
#define FIXTURE_OP(fx, ino, in, call)                                        \
	do {                                                                \
		uint64_t v0_ = fixture_version((fx), (ino), (in));          \
		ck_assert_int_eq((call), 0);                                \
		ck_assert_uint_eq(fixture_version((fx), (ino), (in)),       \
				  v0_ + 1);                                 \
	} while (0)

#endif
