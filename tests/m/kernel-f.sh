#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/kernel-f.sh --- the "f" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
