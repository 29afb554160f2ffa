#!/bin/sh
# tests/m/compare-4k.sh --- the "4k" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
