#!/bin/sh
# tests/m/kernel-b.sh --- the "b" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
