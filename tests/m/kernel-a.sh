#!/bin/sh
# tests/m/kernel-a.sh --- the "a" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
