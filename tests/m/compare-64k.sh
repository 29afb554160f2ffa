#!/bin/sh
# tests/m/compare-64k.sh --- the "64k" rows of tests/m/compare.tsv.
. "$(dirname "$0")/compare.sh"
