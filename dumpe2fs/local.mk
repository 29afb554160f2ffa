# SPDX-License-Identifier: GPL-2.0-or-later
# dumpe2fs/local.mk --- the dumpe2fs program (shares tune2fs' superblock
# listing)

sbin_PROGRAMS += dumpe2fs/dumpe2fs
dumpe2fs_dumpe2fs_SOURCES = \
	dumpe2fs/dumpe2fs.c \
	tune2fs/tune2fs.h \
	tune2fs/list.c
dumpe2fs_dumpe2fs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
dumpe2fs_dumpe2fs_CFLAGS = $(AM_CFLAGS) $(E2P_CFLAGS)
dumpe2fs_dumpe2fs_LDADD = lib/libe2x.la $(EXT2FS_LIBS) $(E2P_LIBS)
