#!/bin/sh
# tests/m/refuse-loop.sh --- the "loop" rows of tests/m/refuse.tsv.
. "$(dirname "$0")/refuse.sh"
