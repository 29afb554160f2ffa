# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/local.mk --- the e2fsck fuzz target (a read-only check of an
# in-memory image): fsck-smoke, a deterministic driver make check runs on
# seed images of every feature set, and fsck-fuzzer, the libFuzzer build
# (only with a compiler that has -fsanitize=fuzzer; see tests/fuzz/README).

FUZZ_FSCK_SOURCES = tests/fuzz/fsck_target.h tests/fuzz/fsck_target.c \
	tests/fuzz/mutate.h tests/fuzz/mutate.c $(e2fsck_e2fsck_SOURCES)
FUZZ_FSCK_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/e2fsck -DE2FSCK_NO_MAIN

check_PROGRAMS += tests/fuzz/fsck-smoke
tests_fuzz_fsck_smoke_SOURCES = tests/fuzz/smoke.c $(FUZZ_FSCK_SOURCES)
tests_fuzz_fsck_smoke_CPPFLAGS = $(FUZZ_FSCK_CPPFLAGS)
tests_fuzz_fsck_smoke_LDADD = $(e2fsck_e2fsck_LDADD)

if HAVE_LIBFUZZER
# libe2x compiled in as well, so its branches guide the fuzzer too.
check_PROGRAMS += tests/fuzz/fsck-fuzzer
tests_fuzz_fsck_fuzzer_SOURCES = tests/fuzz/libfuzzer.c \
	$(FUZZ_FSCK_SOURCES) $(lib_libe2x_la_SOURCES)
nodist_tests_fuzz_fsck_fuzzer_SOURCES = lib/e2x_err.c lib/e2x_err.h
tests_fuzz_fsck_fuzzer_CPPFLAGS = $(FUZZ_FSCK_CPPFLAGS)
tests_fuzz_fsck_fuzzer_CFLAGS = $(AM_CFLAGS) $(FUZZER_CFLAGS)
tests_fuzz_fsck_fuzzer_LDFLAGS = $(FUZZER_CFLAGS)
tests_fuzz_fsck_fuzzer_LDADD = $(EXT2FS_LIBS) $(BLKID_LIBS) $(UUID_LIBS) \
	-lpthread
endif

TESTS += tests/fuzz/smoke.sh
EXTRA_DIST += tests/fuzz/smoke.sh tests/fuzz/seeds.tsv tests/fuzz/README \
	tests/fuzz/libfuzzer.c tests/fuzz/make-seeds.sh
