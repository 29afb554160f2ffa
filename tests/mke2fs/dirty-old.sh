#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/dirty-old.sh --- the "old" rows of tests/mke2fs/dirty.tsv.
. "$(dirname "$0")/dirty.sh"
