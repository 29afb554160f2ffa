# SPDX-License-Identifier: GPL-2.0-or-later
# tests/d/local.mk --- debugfs tests: scripted sessions against the kernel
# and the reference debugfs, bad input, an interactive session in tmux, and
# the unit test of debugfs' pure helpers.

TESTS += tests/d/errors.sh tests/d/kernel.sh tests/d/set.sh \
	tests/d/interactive.sh tests/d/itree.sh tests/d/journal.sh \
	tests/d/hash.sh tests/d/write.sh tests/d/write_rules.sh \
	tests/d/parity.sh tests/d/image.sh tests/d/jwrite.sh
EXTRA_DIST += tests/d/errors.sh tests/d/errors.cases tests/d/kernel.sh \
	tests/d/kernel.geom tests/d/tree.txt tests/d/compare.py \
	tests/d/set.sh tests/d/set.cases tests/d/interactive.sh \
	tests/d/itree.sh tests/d/journal.sh tests/d/journal.cases \
	tests/d/hash.sh tests/d/hash.cases \
	tests/d/write.sh tests/d/write.cases tests/d/write_rules.sh \
	tests/d/write_rules.cases tests/d/session.sh tests/d/write_long.cases \
	tests/d/parity.sh tests/d/parity.missing tests/d/image.sh \
	tests/d/jwrite.sh

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_dbg_parse
tests_unit_test_dbg_parse_SOURCES = tests/unit/unit.h \
	tests/unit/test_dbg_parse.c debugfs/parse.c debugfs/fields.c \
	debugfs/fields.h debugfs/debugfs.h debugfs/commands.h
tests_unit_test_dbg_parse_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dbg_parse_LDADD = $(UNIT_LDADD) $(UUID_LIBS)
TESTS += tests/unit/test_dbg_parse
endif
