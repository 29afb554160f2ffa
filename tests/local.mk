# SPDX-License-Identifier: GPL-2.0-or-later
# tests/local.mk --- unit tests (Check).  Every tests/unit/test_NAME.c is a
# program of its own; add one with the UNIT_TEST pattern below.
# Integration tests (shell, data-driven) have fragments of their own; the
# loop-device helpers they share are tests/loop.sh.
EXTRA_DIST += tests/loop.sh tests/tty.sh

# Unit tests that need an image link tests/unit/fixture.c (see fixture.h).
UNIT_FIXTURE = tests/unit/fixture.h tests/unit/fixture.c
UNIT_LDADD = lib/libe2x.la $(CHECK_LIBS) $(EXT2FS_LIBS)
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_iversion
tests_unit_test_iversion_SOURCES = tests/unit/unit.h tests/unit/test_iversion.c \
	$(UNIT_FIXTURE)
tests_unit_test_iversion_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_iversion_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_iversion
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_dirent
tests_unit_test_dirent_SOURCES = tests/unit/unit.h tests/unit/test_dirent.c \
	$(UNIT_FIXTURE)
tests_unit_test_dirent_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dirent_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_dirent
endif

# Inline data, in-inode attributes, file content (lib/file/inline.c & co).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_xattr_ibody tests/unit/test_inline \
	tests/unit/test_file
tests_unit_test_xattr_ibody_SOURCES = tests/unit/unit.h \
	tests/unit/test_xattr_ibody.c $(UNIT_FIXTURE)
tests_unit_test_xattr_ibody_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_xattr_ibody_LDADD = $(UNIT_LDADD)
tests_unit_test_inline_SOURCES = tests/unit/unit.h tests/unit/test_inline.c \
	$(UNIT_FIXTURE)
tests_unit_test_inline_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_inline_LDADD = $(UNIT_LDADD)
tests_unit_test_file_SOURCES = tests/unit/unit.h tests/unit/test_file.c \
	$(UNIT_FIXTURE)
tests_unit_test_file_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_file_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_xattr_ibody tests/unit/test_inline \
	tests/unit/test_file
endif

# Indirect-mapped (ext2/ext3) file content and EA-inode attribute values.
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_file_indirect
tests_unit_test_file_indirect_SOURCES = tests/unit/unit.h \
	tests/unit/test_file_indirect.c $(UNIT_FIXTURE)
tests_unit_test_file_indirect_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_file_indirect_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_xattr_ea_inode
tests_unit_test_xattr_ea_inode_SOURCES = tests/unit/unit.h \
	tests/unit/test_xattr_ea_inode.c $(UNIT_FIXTURE)
tests_unit_test_xattr_ea_inode_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_xattr_ea_inode_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_file_indirect tests/unit/test_xattr_ea_inode
endif

# Single edits (lib/e2x-edit.h).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_edit
tests_unit_test_edit_SOURCES = tests/unit/unit.h tests/unit/test_edit.c \
	$(UNIT_FIXTURE)
tests_unit_test_edit_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_edit_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_edit
endif

# Mapped ranges of a file (lib/file/file_ranges.c), exact inode writes.
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_file_ranges
tests_unit_test_file_ranges_SOURCES = tests/unit/unit.h \
	tests/unit/test_file_ranges.c $(UNIT_FIXTURE)
tests_unit_test_file_ranges_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_file_ranges_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_file_ranges
endif

# The name policy (lib/dir/dir_name.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_dir_name
tests_unit_test_dir_name_SOURCES = tests/unit/unit.h \
	tests/unit/test_dir_name.c $(UNIT_FIXTURE)
tests_unit_test_dir_name_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dir_name_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_dir_name
endif

# Repair primitives (lib/e2x-repair.h).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_repair
tests_unit_test_repair_SOURCES = tests/unit/unit.h tests/unit/test_repair.c \
	$(UNIT_FIXTURE)
tests_unit_test_repair_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_repair_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_repair
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/test_dir
tests_unit_test_dir_SOURCES = tests/unit/unit.h tests/unit/test_dir.c \
	$(UNIT_FIXTURE)
tests_unit_test_dir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dir_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_dir
endif

# mke2fs geometry and the mke2fs.conf reader (lib/mkfs/geometry.c, profile.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_geometry tests/unit/test_profile
tests_unit_test_geometry_SOURCES = tests/unit/unit.h tests/unit/test_geometry.c
tests_unit_test_geometry_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_geometry_LDADD = $(UNIT_LDADD)
tests_unit_test_profile_SOURCES = tests/unit/unit.h tests/unit/test_profile.c
tests_unit_test_profile_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_profile_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_geometry tests/unit/test_profile
endif

# The e2fsck problem table (e2fsck/problem.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_problem
tests_unit_test_problem_SOURCES = tests/unit/unit.h tests/unit/test_problem.c \
	e2fsck/problem.c
tests_unit_test_problem_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/e2fsck
tests_unit_test_problem_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_problem_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_problem
endif

# jbd2 format, revoke table, recovery of reference-written logs.
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_journal_format
tests_unit_test_journal_format_SOURCES = tests/unit/unit.h \
	tests/unit/test_journal_format.c
tests_unit_test_journal_format_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_journal_format_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_journal_format
endif

# itree on-disk format (lib/itree_*.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_itree_format
tests_unit_test_itree_format_SOURCES = tests/unit/unit.h \
	tests/unit/test_itree_format.c $(UNIT_FIXTURE)
tests_unit_test_itree_format_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_itree_format_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_itree_format
endif

# itree shapes that broke insert/remove/verify (tests/unit/test_itree_shape.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_itree_shape
tests_unit_test_itree_shape_SOURCES = tests/unit/unit.h \
	tests/unit/test_itree_shape.c $(UNIT_FIXTURE)
tests_unit_test_itree_shape_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_itree_shape_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_itree_shape
endif

# The copy-on-write overlay channel (lib/journal/overlay_io.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_overlay_io
tests_unit_test_overlay_io_SOURCES = tests/unit/unit.h \
	tests/unit/test_overlay_io.c
tests_unit_test_overlay_io_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_overlay_io_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_overlay_io

check_PROGRAMS += tests/unit/test_cache_io
tests_unit_test_cache_io_SOURCES = tests/unit/unit.h \
	tests/unit/test_cache_io.c
tests_unit_test_cache_io_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_cache_io_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_cache_io

# The write guard and the group metadata move (lib/io/guard_io.c,
# lib/meta/group_meta.c).
check_PROGRAMS += tests/unit/test_guard_io
tests_unit_test_guard_io_SOURCES = tests/unit/unit.h \
	tests/unit/test_guard_io.c $(UNIT_FIXTURE)
tests_unit_test_guard_io_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_guard_io_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_guard_io
endif

# Inode repair primitives (lib/repair/repair_inode.c, repair_extent.c, ...).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_repair_inode
tests_unit_test_repair_inode_SOURCES = tests/unit/unit.h \
	tests/unit/test_repair_inode.c $(UNIT_FIXTURE)
tests_unit_test_repair_inode_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_repair_inode_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_repair_inode
endif

# The read-only quota file reader (lib/quota/quota_read.c).
if HAVE_CHECK
check_PROGRAMS += tests/unit/test_quota_read
tests_unit_test_quota_read_SOURCES = tests/unit/unit.h \
	tests/unit/test_quota_read.c $(UNIT_FIXTURE)
tests_unit_test_quota_read_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_quota_read_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_quota_read
endif
