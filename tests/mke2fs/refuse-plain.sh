#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/refuse-plain.sh --- the "plain" rows of tests/mke2fs/refuse.tsv.
. "$(dirname "$0")/refuse.sh"
