# man/local.mk --- manual pages

# debugfs
dist_man_MANS += man/debugfs.8
