# SPDX-License-Identifier: GPL-2.0-or-later
# tests/debugfs/local.mk --- debugfs tests: scripted sessions against the kernel
# and the reference debugfs, bad input, an interactive session in tmux, and
# the unit test of debugfs' pure helpers.

TESTS += tests/debugfs/errors.sh tests/debugfs/kernel.sh tests/debugfs/set.sh \
	tests/debugfs/interactive.sh tests/debugfs/itree.sh tests/debugfs/journal.sh \
	tests/debugfs/hash.sh tests/debugfs/write.sh tests/debugfs/write_rules.sh \
	tests/debugfs/parity.sh tests/debugfs/image.sh tests/debugfs/jwrite.sh
EXTRA_DIST += tests/debugfs/errors.sh tests/debugfs/errors.cases tests/debugfs/kernel.sh \
	tests/debugfs/kernel.geom tests/debugfs/tree.txt tests/debugfs/compare.py \
	tests/debugfs/set.sh tests/debugfs/set.cases tests/debugfs/interactive.sh \
	tests/debugfs/itree.sh tests/debugfs/journal.sh tests/debugfs/journal.cases \
	tests/debugfs/hash.sh tests/debugfs/hash.cases \
	tests/debugfs/write.sh tests/debugfs/write.cases tests/debugfs/write_rules.sh \
	tests/debugfs/write_rules.cases tests/debugfs/session.sh tests/debugfs/write_long.cases \
	tests/debugfs/parity.sh tests/debugfs/parity.missing tests/debugfs/image.sh \
	tests/debugfs/jwrite.sh

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_dbg_parse
tests_unit_test_dbg_parse_SOURCES = tests/unit/unit.h \
	tests/unit/test_dbg_parse.c debugfs/parse.c debugfs/fields.c \
	debugfs/fields.h debugfs/debugfs.h debugfs/commands.h
tests_unit_test_dbg_parse_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dbg_parse_LDADD = $(UNIT_LDADD) $(UUID_LIBS)
TESTS += tests/unit/test_dbg_parse
endif
