#!/bin/sh
# tests/m/dirty-old.sh --- the "old" rows of tests/m/dirty.tsv.
. "$(dirname "$0")/dirty.sh"
