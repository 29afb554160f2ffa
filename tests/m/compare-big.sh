#!/bin/sh
# tests/m/compare-big.sh --- the "big" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
