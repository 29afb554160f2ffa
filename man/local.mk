# man/local.mk --- manual pages

# debugfs
dist_man_MANS += man/debugfs.8

# mke2fs
dist_man_MANS += man/mke2fs.8

# e2fsck
dist_man_MANS += man/e2fsck.8

# the itree on-disk format
dist_man_MANS += man/e2x-itree.5

# tune2fs (e2label is the same program under another name), dumpe2fs
dist_man_MANS += man/tune2fs.8 man/e2label.8 man/dumpe2fs.8
