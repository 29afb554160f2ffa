#!/bin/sh
# tests/m/kernel-c.sh --- the "c" rows of tests/m/kernel.tsv.
. "$(dirname "$0")/kernel.sh"
