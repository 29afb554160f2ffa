# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/local.mk --- mke2fs -d (populate) tests: a directory source, an
# image source made by the kernel, bad input.  tests/populate/popdrv populates
# through the library directly (itree targets).

check_PROGRAMS += tests/populate/popdrv
tests_populate_popdrv_SOURCES = tests/populate/popdrv.c
tests_populate_popdrv_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

P_TESTS = tests/populate/dir.sh tests/populate/image.sh tests/populate/bad.sh tests/populate/options.sh \
	tests/populate/size.sh
TESTS += $(P_TESTS)
EXTRA_DIST += $(P_TESTS) tests/populate/lib.sh tests/populate/gentree.py \
	tests/populate/compare.py tests/populate/targets.tsv tests/populate/bad.tsv \
	tests/populate/options.tsv

# The engine over an in-memory source (names too long, read errors, full
# leaves of a grown directory).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_populate
tests_unit_test_populate_SOURCES = tests/unit/unit.h \
	tests/unit/test_populate.c $(UNIT_FIXTURE)
tests_unit_test_populate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_populate_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_populate
endif
