#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/compare-4k.sh --- the "4k" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
