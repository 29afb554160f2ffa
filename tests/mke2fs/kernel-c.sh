#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/kernel-c.sh --- the "c" rows of tests/mke2fs/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
