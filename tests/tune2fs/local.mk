# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tune2fs/local.mk --- tune2fs, e2label and dumpe2fs: superblock fields
# against the reference, refusals that leave the target untouched, and
# in-place conversions on kernel-filled file systems.

TESTS += tests/tune2fs/convert.sh
EXTRA_DIST += tests/tune2fs/convert.sh tests/tune2fs/convert.cases
TESTS += tests/tune2fs/fields.sh tests/tune2fs/refuse.sh
EXTRA_DIST += tests/tune2fs/fields.sh tests/tune2fs/fields.cases tests/tune2fs/refuse.sh \
	tests/tune2fs/refuse.cases
TESTS += tests/tune2fs/dumpe2fs.sh
EXTRA_DIST += tests/tune2fs/dumpe2fs.sh tests/tune2fs/dumpe2fs.cases

# The fault-injection sweep: faultconv runs a conversion over an io
# channel that stops writing after N writes (crash.sh picks the Ns).
check_PROGRAMS += tests/tune2fs/faultconv
tests_tune2fs_faultconv_SOURCES = tests/tune2fs/faultconv.c
tests_tune2fs_faultconv_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/tune2fs/crash.sh
EXTRA_DIST += tests/tune2fs/crash.sh tests/tune2fs/crash.cases tests/tune2fs/lib.sh
TESTS += tests/tune2fs/undo.sh
EXTRA_DIST += tests/tune2fs/undo.sh tests/tune2fs/undo.cases
