# tests/lib/local.mk --- library integration tests: shell scripts with the
# small C drivers they run.  Each area adds its block below.

# Inline data and file content against the kernel (inline_kernel.sh).
check_PROGRAMS += tests/lib/inline_driver
tests_lib_inline_driver_SOURCES = tests/lib/inline_driver.c
tests_lib_inline_driver_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/lib/inline_kernel.sh
EXTRA_DIST += tests/lib/inline_kernel.sh tests/lib/inline_kernel.script \
	tests/lib/inline_kernel.geom
