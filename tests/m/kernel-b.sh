#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/kernel-b.sh --- the "b" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
