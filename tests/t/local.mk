# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t/local.mk --- tune2fs, e2label and dumpe2fs: superblock fields
# against the reference, refusals that leave the target untouched, and
# in-place conversions on kernel-filled file systems.

TESTS += tests/t/convert.sh
EXTRA_DIST += tests/t/convert.sh tests/t/convert.cases
TESTS += tests/t/fields.sh tests/t/refuse.sh
EXTRA_DIST += tests/t/fields.sh tests/t/fields.cases tests/t/refuse.sh \
	tests/t/refuse.cases
TESTS += tests/t/dumpe2fs.sh
EXTRA_DIST += tests/t/dumpe2fs.sh tests/t/dumpe2fs.cases

# The fault-injection sweep: faultconv runs a conversion over an io
# channel that stops writing after N writes (crash.sh picks the Ns).
check_PROGRAMS += tests/t/faultconv
tests_t_faultconv_SOURCES = tests/t/faultconv.c
tests_t_faultconv_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/t/crash.sh
EXTRA_DIST += tests/t/crash.sh tests/t/crash.cases tests/t/lib.sh
TESTS += tests/t/undo.sh
EXTRA_DIST += tests/t/undo.sh tests/t/undo.cases
