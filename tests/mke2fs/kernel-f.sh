#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/kernel-f.sh --- the "f" rows of tests/mke2fs/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
