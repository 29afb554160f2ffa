# SPDX-License-Identifier: GPL-2.0-or-later
# tests/journal/local.mk --- journal recovery and orphan tests: the jrecover
# driver, crash images (kernel shutdown mid-workload), damaged logs, an
# external journal device, and orphan lists built with debugfs.

check_PROGRAMS += tests/journal/jrecover
tests_journal_jrecover_SOURCES = tests/journal/jrecover.c
tests_journal_jrecover_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

TESTS += \
	tests/journal/crash.sh \
	tests/journal/corrupt-commit.sh \
	tests/journal/external.sh \
	tests/journal/fuzz-log.sh \
	tests/journal/orphans.sh
EXTRA_DIST += tests/journal/crash.sh tests/journal/crash.tsv \
	tests/journal/corrupt-commit.sh tests/journal/corrupt.tsv \
	tests/journal/external.sh tests/journal/orphans.sh tests/journal/orphans.tsv \
	tests/journal/fuzz-log.sh tests/journal/damage.py \
	tests/journal/lib.sh tests/journal/workload.py tests/journal/imgcmp.py \
	scripts/soak-crash bench/journal_replay
