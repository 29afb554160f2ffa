#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/kernel-b.sh --- the "b" rows of tests/mke2fs/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
