# tests/j/local.mk --- journal recovery and orphan tests: the jrecover
# driver and the crash-image scripts (kernel shutdown mid-workload).

check_PROGRAMS += tests/j/jrecover
tests_j_jrecover_SOURCES = tests/j/jrecover.c
tests_j_jrecover_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

TESTS += \
	tests/j/crash.sh \
	tests/j/corrupt-commit.sh
EXTRA_DIST += tests/j/crash.sh tests/j/crash.tsv \
	tests/j/corrupt-commit.sh tests/j/corrupt.tsv \
	tests/j/lib.sh tests/j/workload.py tests/j/imgcmp.py
