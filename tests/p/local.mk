# SPDX-License-Identifier: GPL-2.0-or-later
# tests/p/local.mk --- mke2fs -d (populate) tests: a directory source, an
# image source made by the kernel, bad input.  tests/p/popdrv populates
# through the library directly (itree targets).

check_PROGRAMS += tests/p/popdrv
tests_p_popdrv_SOURCES = tests/p/popdrv.c
tests_p_popdrv_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

P_TESTS = tests/p/dir.sh tests/p/image.sh tests/p/bad.sh tests/p/options.sh \
	tests/p/size.sh
TESTS += $(P_TESTS)
EXTRA_DIST += $(P_TESTS) tests/p/lib.sh tests/p/gentree.py \
	tests/p/compare.py tests/p/targets.tsv tests/p/bad.tsv \
	tests/p/options.tsv

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
