#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# smoke.sh --- a short, fixed-seed run of the e2fsck fuzz target in every
# build: seed images of each feature set (make-seeds.sh, seeds.tsv), then
# N structure-aware mutations of each through fsck-smoke, each checked
# (-fn) and repaired (-fy, in a copy), 10 s limit per run.  Fails on a
# crash, a sanitizer report, a hang or a leak.
# E2X_FUZZ_CASES sets N (default 60); E2X_FUZZ_SEED the seed (default 1).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
smoke=$top_builddir/tests/fuzz/fsck-smoke
[ -x "$smoke" ] || { echo "FAIL: $smoke not built"; exit 1; }
command -v debugfs >/dev/null || { echo "SKIP: no reference debugfs"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/e2x-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

"$top_srcdir/tests/fuzz/make-seeds.sh" "$top_builddir" "$T/seeds" ||
	{ echo "FAIL: seed images"; exit 1; }
n=${E2X_FUZZ_CASES:-60}
seed=${E2X_FUZZ_SEED:-1}
"$smoke" -n "$n" -s "$seed" -t 10 "$T"/seeds/*.img >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
if [ $rc != 0 ] || grep -q 'Sanitizer\|runtime error:\|fsck-smoke:' "$T/err"
then
	echo "FAIL: fsck-smoke exit $rc; rerun one case with"
	echo "  tests/fuzz/fsck-smoke -s $seed -w SEED.img:CASE case.img"
	grep -m3 'failing case\|runtime error\|ERROR: \|SUMMARY' "$T/err"
	tail -20 "$T/err"
	exit 1
fi
exit 0
