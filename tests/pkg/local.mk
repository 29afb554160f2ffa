# SPDX-License-Identifier: GPL-2.0-or-later
# tests/pkg/local.mk --- what a user or packager sees before any file
# system is involved: help and version of every program, the installed
# tree, and the SPDX line of every source file.
PKG_TESTS = tests/pkg/help.sh tests/pkg/install.sh tests/pkg/spdx.sh
TESTS += $(PKG_TESTS)
EXTRA_DIST += $(PKG_TESTS)
