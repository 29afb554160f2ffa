#!/bin/sh
# tests/m/kernel-f.sh --- the "f" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
