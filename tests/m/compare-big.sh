#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/compare-big.sh --- the "big" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
