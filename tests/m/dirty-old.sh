#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/dirty-old.sh --- the "old" rows of tests/m/dirty.tsv.
. "$(dirname "$0")/dirty.sh"
