# SPDX-License-Identifier: GPL-2.0-or-later
# e2fsck/local.mk --- the e2fsck program: options and passes in e2fsck/,
# every on-disk change through libe2x or libext2fs.

sbin_PROGRAMS += e2fsck/e2fsck
e2fsck_e2fsck_SOURCES = \
	e2fsck/context.h \
	e2fsck/problem.h \
	e2fsck/problem_list.h \
	e2fsck/problem.c \
	e2fsck/journal.h \
	e2fsck/journal.c \
	e2fsck/state.c \
	e2fsck/ftype.c \
	e2fsck/encrypt.c \
	e2fsck/csum.h \
	e2fsck/csum.c \
	e2fsck/readahead.h \
	e2fsck/readahead.c \
	e2fsck/unix.c \
	e2fsck/super.c \
	e2fsck/super_trust.c e2fsck/table_find.c \
	e2fsck/file_claims.c \
	e2fsck/relocate.c \
	e2fsck/guard.c \
	e2fsck/pass1.h \
	e2fsck/pass1.c \
	e2fsck/pass1_blocks.c \
	e2fsck/pass1_inline.c \
	e2fsck/pass1_xattr.c \
	e2fsck/pass1_itree.c \
	e2fsck/pass1_nodes.c \
	e2fsck/pass1b.c \
	e2fsck/fix_inode.c \
	e2fsck/pass2.h \
	e2fsck/pass2.c \
	e2fsck/pass2_htree.c \
	e2fsck/pass2_names.c \
	e2fsck/pass2_rewalk.c \
	e2fsck/pass2_itree.c \
	e2fsck/pass3.c \
	e2fsck/pass4.c \
	e2fsck/pass5.c \
	e2fsck/fix_alloc.c \
	e2fsck/fix_dir.c \
	e2fsck/fix_connect.c \
	e2fsck/rehash.c \
	e2fsck/quota.c
e2fsck_e2fsck_LDADD = lib/libe2x.la $(EXT2FS_LIBS) $(BLKID_LIBS) $(UUID_LIBS)
