# SPDX-License-Identifier: GPL-2.0-or-later
# debugfs/local.mk --- the debugfs program: an interactive and scripted
# ext4 debugger built on libe2x and libext2fs.

sbin_PROGRAMS += debugfs/debugfs
debugfs_debugfs_SOURCES = \
	debugfs/debugfs.h \
	debugfs/commands.h \
	debugfs/main.c \
	debugfs/shell.c \
	debugfs/cmds.c \
	debugfs/parse.c \
	debugfs/util.c \
	debugfs/session.c \
	debugfs/super_cmds.c \
	debugfs/inode_cmds.c \
	debugfs/dir_cmds.c \
	debugfs/ls_cmds.c \
	debugfs/misc_cmds.c \
	debugfs/zap_cmds.c \
	debugfs/mmp_cmds.c \
	debugfs/quota_cmds.c \
	debugfs/mi_cmds.c \
	debugfs/extent_cmds.c \
	debugfs/jrun_cmds.c \
	debugfs/jwrite_cmds.c \
	debugfs/htree_cmds.c \
	debugfs/dump_cmds.c \
	debugfs/block_cmds.c \
	debugfs/xattr_cmds.c \
	debugfs/fields.h \
	debugfs/fields.c \
	debugfs/set_cmds.c \
	debugfs/itree_cmds.c \
	debugfs/journal_cmds.c \
	debugfs/scan_cmds.c \
	debugfs/ns_cmds.c \
	debugfs/file_cmds.c \
	debugfs/xattr_set_cmds.c
debugfs_debugfs_CFLAGS = $(AM_CFLAGS) $(EDIT_CFLAGS) $(E2P_CFLAGS)
debugfs_debugfs_LDADD = lib/libe2x.la $(EXT2FS_LIBS) $(E2P_LIBS) \
	$(UUID_LIBS) $(EDIT_LIBS)
