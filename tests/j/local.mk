# SPDX-License-Identifier: GPL-2.0-or-later
# tests/j/local.mk --- journal recovery and orphan tests: the jrecover
# driver, crash images (kernel shutdown mid-workload), damaged logs, an
# external journal device, and orphan lists built with debugfs.

check_PROGRAMS += tests/j/jrecover
tests_j_jrecover_SOURCES = tests/j/jrecover.c
tests_j_jrecover_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

TESTS += \
	tests/j/crash.sh \
	tests/j/corrupt-commit.sh \
	tests/j/external.sh \
	tests/j/fuzz-log.sh \
	tests/j/orphans.sh
EXTRA_DIST += tests/j/crash.sh tests/j/crash.tsv \
	tests/j/corrupt-commit.sh tests/j/corrupt.tsv \
	tests/j/external.sh tests/j/orphans.sh tests/j/orphans.tsv \
	tests/j/fuzz-log.sh tests/j/damage.py \
	tests/j/lib.sh tests/j/workload.py tests/j/imgcmp.py \
	scripts/soak-crash bench/journal_replay
