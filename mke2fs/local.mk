# SPDX-License-Identifier: GPL-2.0-or-later
# mke2fs/local.mk --- the mke2fs program

sbin_PROGRAMS += mke2fs/mke2fs
mke2fs_mke2fs_SOURCES = \
	mke2fs/mke2fs.h \
	mke2fs/mke2fs.c \
	mke2fs/options.c \
	mke2fs/device.c \
	mke2fs/report.c \
	mke2fs/populate.c
mke2fs_mke2fs_LDADD = lib/libe2x.la $(EXT2FS_LIBS) $(BLKID_LIBS) $(UUID_LIBS)
