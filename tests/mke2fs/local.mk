# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/local.mk --- mke2fs integration tests against the oracles: the
# reference mke2fs/e2fsck/dumpe2fs (compare-*), the kernel (kernel-*),
# refusals that must leave the target unchanged (refuse-*) and formatting
# over old data (dirty-*); harness.sh proves the drivers fail on broken
# stand-ins.  Each wrapper runs one group of rows of a table, so
# make -j check spreads them out.

M_TESTS = \
	tests/mke2fs/kernel-a.sh tests/mke2fs/kernel-b.sh tests/mke2fs/kernel-c.sh \
	tests/mke2fs/kernel-d.sh tests/mke2fs/kernel-e.sh tests/mke2fs/kernel-f.sh \
	tests/mke2fs/compare-big.sh tests/mke2fs/compare-4k.sh tests/mke2fs/compare-1k.sh \
	tests/mke2fs/compare-64k.sh \
	tests/mke2fs/refuse-loop.sh tests/mke2fs/refuse-plain.sh tests/mke2fs/dirty-old.sh \
	tests/mke2fs/harness.sh tests/mke2fs/notes.sh

TESTS += $(M_TESTS)
EXTRA_DIST += $(M_TESTS) \
	tests/mke2fs/lib.sh tests/mke2fs/compare.sh tests/mke2fs/kernel.sh tests/mke2fs/refuse.sh \
	tests/mke2fs/dirty.sh tests/mke2fs/workload.py tests/mke2fs/zeroed.py \
	tests/mke2fs/compare.tsv tests/mke2fs/kernel.tsv tests/mke2fs/refuse.tsv \
	tests/mke2fs/dirty.tsv
