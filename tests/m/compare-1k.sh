#!/bin/sh
# tests/m/compare-1k.sh --- the "1k" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
