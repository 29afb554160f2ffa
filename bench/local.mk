# SPDX-License-Identifier: GPL-2.0-or-later
# bench/local.mk --- benchmark scripts (run by hand, never in make check)

dist_noinst_SCRIPTS += bench/mkfs

# Adding N entries to one directory: libe2x against the reference debugfs.
dist_noinst_SCRIPTS += bench/dir_add
noinst_PROGRAMS += bench/diradd
bench_diradd_SOURCES = bench/diradd.c
bench_diradd_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

# The itree: create/delete rates with and without it, leaf fill, merges,
# inode-table locality of a walk (bench/itree runs bench/itreebench).
dist_noinst_SCRIPTS += bench/itree
noinst_PROGRAMS += bench/itreebench
bench_itreebench_SOURCES = bench/itreebench.c
bench_itreebench_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

# e2fsck -fn time against the reference (kernel-made and corpus images).
dist_noinst_SCRIPTS += bench/fsck bench/fsck_gentree.py

# debugfs "ls -l" over a 1,000,000-entry directory, inode vs hash order,
# against the reference debugfs.
dist_noinst_SCRIPTS += bench/debugfs

# mke2fs -d: ours against the reference on a generated tree (tests/populate/gentree.py).
dist_noinst_SCRIPTS += bench/populate

# tune2fs -O (inline_data, ^inline_data, itree) in place against the copy
# route mke2fs -d.
dist_noinst_SCRIPTS += bench/convert
