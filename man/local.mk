# SPDX-License-Identifier: GPL-2.0-or-later
# man/local.mk --- manual pages.  Pages of programs and of mke2fs.conf
# follow the programs' names (--program-prefix=e2x- makes e2x-mke2fs.8,
# e2x-mke2fs.conf.5); the itree format page already carries the e2x- of
# its name and is installed as it is.

# debugfs
dist_man_MANS += man/debugfs.8

# mke2fs, and the defaults it reads
dist_man_MANS += man/mke2fs.8 man/mke2fs.conf.5

# e2fsck
dist_man_MANS += man/e2fsck.8

# the itree on-disk format
notrans_dist_man_MANS = man/e2x-itree.5

# tune2fs (e2label, its other name, is linked by E2X_LINKS), dumpe2fs
dist_man_MANS += man/tune2fs.8 man/dumpe2fs.8
