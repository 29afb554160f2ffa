#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/refuse-loop.sh --- the "loop" rows of tests/m/refuse.tsv.
. "$(dirname "$0")/refuse.sh"
