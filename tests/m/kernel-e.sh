#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/m/kernel-e.sh --- the "e" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
