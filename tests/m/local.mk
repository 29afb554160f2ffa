# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/local.mk --- mke2fs integration tests against the oracles: the
# reference mke2fs/e2fsck/dumpe2fs (compare-*), the kernel (kernel-*),
# refusals that must leave the target unchanged (refuse-*) and formatting
# over old data (dirty-*); harness.sh proves the drivers fail on broken
# stand-ins.  Each wrapper runs one group of rows of a table, so
# make -j check spreads them out.

M_TESTS = \
	tests/m/kernel-a.sh tests/m/kernel-b.sh tests/m/kernel-c.sh \
	tests/m/kernel-d.sh tests/m/kernel-e.sh tests/m/kernel-f.sh \
	tests/m/compare-big.sh tests/m/compare-4k.sh tests/m/compare-1k.sh \
	tests/m/compare-64k.sh \
	tests/m/refuse-loop.sh tests/m/refuse-plain.sh tests/m/dirty-old.sh \
	tests/m/harness.sh tests/m/notes.sh

TESTS += $(M_TESTS)
EXTRA_DIST += $(M_TESTS) \
	tests/m/lib.sh tests/m/compare.sh tests/m/kernel.sh tests/m/refuse.sh \
	tests/m/dirty.sh tests/m/workload.py tests/m/zeroed.py \
	tests/m/compare.tsv tests/m/kernel.tsv tests/m/refuse.tsv \
	tests/m/dirty.tsv
