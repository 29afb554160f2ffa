#!/bin/sh
# tests/m/kernel-d.sh --- the "d" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
