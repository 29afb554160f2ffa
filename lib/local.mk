# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/local.mk --- libe2x, the shared library

lib_LTLIBRARIES += lib/libe2x.la
lib_libe2x_la_SOURCES = \
	lib/e2x.h \
	lib/e2x-geometry.h \
	lib/version.c \
	lib/clock.c \
	lib/fs_uuid.c \
	lib/crc32c.c \
	lib/open.c \
	lib/settle.c
nodist_lib_libe2x_la_SOURCES = lib/e2x_err.c lib/e2x_err.h
lib_libe2x_la_LIBADD = $(EXT2FS_LIBS) $(BLKID_LIBS) $(UUID_LIBS) -lpthread
lib_libe2x_la_LDFLAGS = -version-info 0:0:0 $(SAN_LDFLAGS)

e2xincludedir = $(includedir)/e2x
e2xinclude_HEADERS = lib/e2x.h lib/e2x-geometry.h lib/e2x-inline.h
nodist_e2xinclude_HEADERS = lib/e2x_err.h

BUILT_SOURCES += lib/e2x_err.h lib/e2x_err.c
CLEANFILES += lib/e2x_err.h lib/e2x_err.c
EXTRA_DIST += lib/e2x_err.et lib/e2x.pc.in

# compile_et writes its output into the current directory, and leaves
# outputs whose text did not change as they were: touch them, or a
# comment edited in the table would have them remade on every make.
lib/e2x_err.h: lib/e2x_err.et
	$(AM_V_GEN)$(MKDIR_P) lib && cd lib && \
		$(COMPILE_ET) $(abs_top_srcdir)/lib/e2x_err.et && \
		touch e2x_err.h e2x_err.c
lib/e2x_err.c: lib/e2x_err.h

# Directories (e2x-dir.h): entry format, inline/linear/htree forms, API.
lib_libe2x_la_SOURCES += \
	lib/e2x-dir.h \
	lib/dir-int.h \
	lib/dirent.c \
	lib/dir_name.c \
	lib/dir_io.c \
	lib/dir_coll.c \
	lib/dir_block.c \
	lib/dir_linear.c \
	lib/dir_inline.c \
	lib/htree.c \
	lib/dir.c \
	lib/dir_itree.c \
	lib/dir_change.c \
	lib/dir_fill.c \
	lib/dir_ops.c \
	lib/dir_edit.c \
	lib/dir_create.c \
	lib/dir_verify.c
e2xinclude_HEADERS += lib/e2x-dir.h

# Journal recovery, overlay channel, orphans (e2x-journal.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-journal.h \
	lib/journal-int.h \
	lib/u64map.h \
	lib/u64map.c \
	lib/journal_format.c \
	lib/journal_load.c \
	lib/journal_scan.c \
	lib/journal_walk.c \
	lib/journal_revoke.c \
	lib/journal_replay.c \
	lib/journal_recover.c \
	lib/journal_write.c \
	lib/journal_edit.c \
	lib/overlay_io.c \
	lib/orphan.c
e2xinclude_HEADERS += lib/e2x-journal.h

# One inode as a whole (e2x-inode.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-inode.h \
	lib/iversion.c \
	lib/inode_new.c \
	lib/inode_kill.c
e2xinclude_HEADERS += lib/e2x-inode.h

# Extended attributes, in the inode and by full name (e2x-xattr.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-xattr.h \
	lib/xattr_ibody.c \
	lib/xattr.c
e2xinclude_HEADERS += lib/e2x-xattr.h

# Inline data, file content, file block allocation (e2x-inline.h,
# e2x-file.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-inline.h \
	lib/e2x-file.h \
	lib/inline.c \
	lib/alloc.c \
	lib/file-int.h \
	lib/file.c \
	lib/file_indirect.c \
	lib/file_ranges.c \
	lib/extent_edit.c \
	lib/file_space.c \
	lib/storage_switch.c \
	lib/pack_all.c \
	lib/select-int.h \
	lib/select.c
e2xinclude_HEADERS += lib/e2x-file.h

# Whole-file-system conversions (e2x-convert.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-convert.h \
	lib/convert.c \
	lib/csum_convert.c
e2xinclude_HEADERS += lib/e2x-convert.h

# Metadata outside inodes: group bitmaps and tables, resize inode, MMP,
# raw block edits (e2x-meta.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-meta.h \
	lib/group_meta.c \
	lib/raw_edit.c
e2xinclude_HEADERS += lib/e2x-meta.h

# geometry and mkfs (mke2fs): e2x-geometry.h
lib_libe2x_la_SOURCES += \
	lib/profile.c \
	lib/features.c \
	lib/geometry.c \
	lib/nullio.c \
	lib/mkfs.c

# itree (e2x-itree.h): inode-ordered B+tree beside an indexed directory.
lib_libe2x_la_SOURCES += \
	lib/e2x-itree.h \
	lib/itree-int.h \
	lib/itree_node.c \
	lib/itree_inplace.c \
	lib/itree_root.c \
	lib/itree_alloc.c \
	lib/itree_insert.c \
	lib/itree_remove.c \
	lib/itree_build.c \
	lib/itree_claim.c \
	lib/itree_iterate.c \
	lib/itree_verify.c \
	lib/itree_stats.c \
	lib/itree_memo.c
e2xinclude_HEADERS += lib/e2x-itree.h

# Write-back block cache io_manager over unix_io (e2x-cache.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-cache.h \
	lib/cache_io.c \
	lib/guard_io.c
e2xinclude_HEADERS += lib/e2x-cache.h

# Quota files, read only (e2x-quota.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-quota.h \
	lib/quota_read.c
e2xinclude_HEADERS += lib/e2x-quota.h

# Repair primitives e2fsck builds its fixes from (e2x-repair.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-repair.h \
	lib/repair_dir.c \
	lib/repair_inode.c \
	lib/repair_extent.c \
	lib/repair_xattr.c \
	lib/repair_clone.c \
	lib/repair_journal.c \
	lib/repair_quota.c \
	lib/repair_super.c
e2xinclude_HEADERS += lib/e2x-repair.h

# populate (e2x-populate.h): mke2fs -d from a directory tree or an image.
lib_libe2x_la_SOURCES += \
	lib/e2x-populate.h \
	lib/populate.c \
	lib/populate_dirsrc.c \
	lib/populate_imgsrc.c
e2xinclude_HEADERS += lib/e2x-populate.h
