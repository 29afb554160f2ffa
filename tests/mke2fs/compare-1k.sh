#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/compare-1k.sh --- the "1k" rows of tests/mke2fs/compare.tsv.
. "$(dirname "$0")/compare.sh"
