# tests/p/local.mk --- mke2fs -d (populate) tests: a directory source, an
# image source made by the kernel, bad input.  tests/p/popdrv populates
# through the library directly (itree targets).

check_PROGRAMS += tests/p/popdrv
tests_p_popdrv_SOURCES = tests/p/popdrv.c
tests_p_popdrv_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

P_TESTS = tests/p/dir.sh tests/p/image.sh tests/p/bad.sh tests/p/options.sh
TESTS += $(P_TESTS)
EXTRA_DIST += $(P_TESTS) tests/p/lib.sh tests/p/gentree.py \
	tests/p/compare.py tests/p/targets.tsv tests/p/bad.tsv \
	tests/p/options.tsv
