# SPDX-License-Identifier: GPL-2.0-or-later
# tune2fs/local.mk --- the tune2fs program (also e2label, by name)

sbin_PROGRAMS += tune2fs/tune2fs
tune2fs_tune2fs_SOURCES = \
	tune2fs/tune2fs.h \
	tune2fs/tune2fs.c \
	tune2fs/options.c \
	tune2fs/features.c \
	tune2fs/list.c
tune2fs_tune2fs_CFLAGS = $(AM_CFLAGS) $(E2P_CFLAGS)
tune2fs_tune2fs_LDADD = lib/libe2x.la $(EXT2FS_LIBS) $(E2P_LIBS) \
	$(UUID_LIBS)

# e2label is tune2fs under another name, as in e2fsprogs: see E2X_LINKS
# in Makefile.am.
