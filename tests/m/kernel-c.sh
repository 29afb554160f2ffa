#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/kernel-c.sh --- the "c" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
