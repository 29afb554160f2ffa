# man/local.mk --- manual pages
