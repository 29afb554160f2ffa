#!/bin/sh
# tests/m/kernel-e.sh --- the "e" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
