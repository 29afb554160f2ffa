# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/local.mk --- library integration tests: shell scripts with the
# small C drivers they run.  Each area adds its block below.

# Inline data and file content against the kernel (inline_kernel.sh).
check_PROGRAMS += tests/lib/inline_driver
tests_lib_inline_driver_SOURCES = tests/lib/inline_driver.c
tests_lib_inline_driver_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/lib/inline_kernel.sh
EXTRA_DIST += tests/lib/inline_kernel.sh tests/lib/inline_kernel.script \
	tests/lib/inline_kernel.geom

# Directory engine: randomised model test (dirmodel.c) and the kernel
# cross-check (dir_kernel.sh with its driver).
if HAVE_CHECK
check_PROGRAMS += tests/lib/dirmodel
tests_lib_dirmodel_SOURCES = tests/lib/dirmodel.c $(UNIT_FIXTURE) \
	tests/unit/unit.h tests/lib/dirmodel_seed.h
tests_lib_dirmodel_CFLAGS = $(UNIT_CFLAGS) -I$(top_srcdir)/tests/unit
tests_lib_dirmodel_LDADD = $(UNIT_LDADD)
TESTS += tests/lib/dirmodel
endif
check_PROGRAMS += tests/lib/dir_driver
tests_lib_dir_driver_SOURCES = tests/lib/dir_driver.c
tests_lib_dir_driver_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/lib/dir_kernel.sh
EXTRA_DIST += tests/lib/dir_kernel.sh

# itree: randomised model test (itreemodel.c) and the kernel cross-check
# (itree_kernel.sh with its driver itreetool.c).
check_PROGRAMS += tests/lib/itreemodel tests/lib/itreetool
tests_lib_itreemodel_SOURCES = tests/lib/itreemodel.c tests/lib/dirmodel_seed.h
tests_lib_itreemodel_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
tests_lib_itreetool_SOURCES = tests/lib/itreetool.c
tests_lib_itreetool_LDADD = lib/libe2x.la $(EXT2FS_LIBS)
TESTS += tests/lib/itreemodel tests/lib/itree_kernel.sh
EXTRA_DIST += tests/lib/itree_kernel.sh

# Layering: no call cycle between the files of lib/, no form file calling
# another or the itree, no printing in lib/ (from nm of the objects).
TESTS += tests/lib/layers.sh
EXTRA_DIST += tests/lib/layers.sh
