# bench/local.mk --- benchmark scripts (run by hand, never in make check)

dist_noinst_SCRIPTS += bench/mkfs

# Adding N entries to one directory: libe2x against the reference debugfs.
dist_noinst_SCRIPTS += bench/dir_add
noinst_PROGRAMS += bench/diradd
bench_diradd_SOURCES = bench/diradd.c
bench_diradd_LDADD = lib/libe2x.la $(EXT2FS_LIBS)

