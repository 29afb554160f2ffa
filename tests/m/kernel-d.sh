#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/kernel-d.sh --- the "d" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
