#!/bin/sh
# tests/m/refuse-plain.sh --- the "plain" rows of tests/m/refuse.tsv.
. "$(dirname "$0")/refuse.sh"
