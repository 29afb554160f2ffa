# tests/local.mk --- unit tests (Check) and data-driven integration tests

if HAVE_CHECK
check_PROGRAMS += tests/unit/run
tests_unit_run_SOURCES = tests/unit/unit.h tests/unit/run.c \
	tests/unit/test_iversion.c
tests_unit_run_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_run_LDADD = lib/libe2x.la $(CHECK_LIBS) $(EXT2FS_LIBS)
TESTS += tests/unit/run
endif
