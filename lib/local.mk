# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/local.mk --- libe2x, the shared library

lib_LTLIBRARIES += lib/libe2x.la
lib_libe2x_la_SOURCES = \
	lib/e2x.h \
	lib/e2x-geometry.h \
	lib/fs/version.c \
	lib/fs/clock.c \
	lib/fs/fs_uuid.c \
	lib/fs/crc32c.c \
	lib/fs/open.c \
	lib/fs/settle.c
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
	lib/dir/dir-int.h \
	lib/dir/dirent.c \
	lib/dir/dir_name.c \
	lib/dir/dir_io.c \
	lib/dir/dir_coll.c \
	lib/dir/dir_block.c \
	lib/dir/dir_linear.c \
	lib/dir/dir_inline.c \
	lib/dir/htree.c \
	lib/dir/dir.c \
	lib/dir/dir_itree.c \
	lib/dir/dir_change.c \
	lib/dir/dir_fill.c \
	lib/dir/dir_ops.c \
	lib/dir/dir_edit.c \
	lib/dir/dir_create.c \
	lib/dir/dir_verify.c
e2xinclude_HEADERS += lib/e2x-dir.h

# Journal recovery, overlay channel, orphans (e2x-journal.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-journal.h \
	lib/journal/journal-int.h \
	lib/journal/u64map.h \
	lib/journal/u64map.c \
	lib/journal/journal_format.c \
	lib/journal/journal_load.c \
	lib/journal/journal_scan.c \
	lib/journal/journal_walk.c \
	lib/journal/journal_revoke.c \
	lib/journal/journal_replay.c \
	lib/journal/journal_recover.c \
	lib/journal/journal_write.c \
	lib/journal/journal_edit.c \
	lib/journal/overlay_io.c \
	lib/journal/orphan.c
e2xinclude_HEADERS += lib/e2x-journal.h

# One inode as a whole (e2x-inode.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-inode.h \
	lib/inode/iversion.c \
	lib/inode/inode_new.c \
	lib/inode/inode_kill.c
e2xinclude_HEADERS += lib/e2x-inode.h

# Extended attributes, in the inode and by full name (e2x-xattr.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-xattr.h \
	lib/xattr/xattr_ibody.c \
	lib/xattr/xattr.c
e2xinclude_HEADERS += lib/e2x-xattr.h

# Inline data, file content, file block allocation (e2x-inline.h,
# e2x-file.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-inline.h \
	lib/e2x-file.h \
	lib/file/inline.c \
	lib/file/alloc.c \
	lib/file/file-int.h \
	lib/file/file.c \
	lib/file/file_indirect.c \
	lib/file/file_ranges.c \
	lib/file/extent_edit.c \
	lib/file/file_space.c \
	lib/file/storage_switch.c \
	lib/file/pack_all.c \
	lib/file/select-int.h \
	lib/file/select.c
e2xinclude_HEADERS += lib/e2x-file.h

# Whole-file-system conversions (e2x-convert.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-convert.h \
	lib/convert/convert.c \
	lib/convert/csum_convert.c
e2xinclude_HEADERS += lib/e2x-convert.h

# Metadata outside inodes: group bitmaps and tables, resize inode, MMP,
# raw block edits (e2x-meta.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-meta.h \
	lib/meta/group_meta.c \
	lib/meta/raw_edit.c
e2xinclude_HEADERS += lib/e2x-meta.h

# geometry and mkfs (mke2fs): e2x-geometry.h
lib_libe2x_la_SOURCES += \
	lib/mkfs/profile.c \
	lib/mkfs/features.c \
	lib/mkfs/geometry.c \
	lib/mkfs/nullio.c \
	lib/mkfs/mkfs.c

# itree (e2x-itree.h): inode-ordered B+tree beside an indexed directory.
lib_libe2x_la_SOURCES += \
	lib/e2x-itree.h \
	lib/itree/itree-int.h \
	lib/itree/itree_node.c \
	lib/itree/itree_inplace.c \
	lib/itree/itree_root.c \
	lib/itree/itree_alloc.c \
	lib/itree/itree_insert.c \
	lib/itree/itree_remove.c \
	lib/itree/itree_build.c \
	lib/itree/itree_claim.c \
	lib/itree/itree_iterate.c \
	lib/itree/itree_verify.c \
	lib/itree/itree_stats.c \
	lib/itree/itree_memo.c
e2xinclude_HEADERS += lib/e2x-itree.h

# Write-back block cache io_manager over unix_io (e2x-cache.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-cache.h \
	lib/io/cache_io.c \
	lib/io/guard_io.c
e2xinclude_HEADERS += lib/e2x-cache.h

# Quota files, read only (e2x-quota.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-quota.h \
	lib/quota/quota_read.c
e2xinclude_HEADERS += lib/e2x-quota.h

# Repair primitives e2fsck builds its fixes from (e2x-repair.h).
lib_libe2x_la_SOURCES += \
	lib/e2x-repair.h \
	lib/repair/repair_dir.c \
	lib/repair/repair_inode.c \
	lib/repair/repair_extent.c \
	lib/repair/repair_xattr.c \
	lib/repair/repair_clone.c \
	lib/repair/repair_journal.c \
	lib/repair/repair_quota.c \
	lib/repair/repair_super.c
e2xinclude_HEADERS += lib/e2x-repair.h

# populate (e2x-populate.h): mke2fs -d from a directory tree or an image.
lib_libe2x_la_SOURCES += \
	lib/e2x-populate.h \
	lib/populate/populate.c \
	lib/populate/populate_dirsrc.c \
	lib/populate/populate_imgsrc.c
e2xinclude_HEADERS += lib/e2x-populate.h
