#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# corpus.sh --- detection on real damage: for every image of the shared
# e2fsprogs corpus, our "e2fsck -fn" must not crash (exit < 128, no
# sanitizer report), must finish within 60 s, must leave the image
# byte-for-byte unchanged, and must exit non-zero wherever the MANIFEST
# says the reference found problems (ref_first_rc != 0), except on the
# images the reference only optimizes (corpus-optimize.txt), where it must
# exit 0 like the reference's own -fn.
# The corpus is $E2X_CORPUS or $top_srcdir/../shared/corpus/e2fsprogs;
# SKIP when absent.  Images are never copied into the tree.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=$top_builddir/e2fsck/e2fsck
corpus=${E2X_CORPUS:-$top_srcdir/../shared/corpus/e2fsprogs}
[ -d "$corpus" ] || corpus=/work/shared/corpus/e2fsprogs
manifest=$corpus/MANIFEST.tsv
if [ ! -f "$manifest" ]; then
	echo "SKIP: corpus not found (set E2X_CORPUS)"
	exit 77
fi
[ -x "$ours" ] || { echo "FAIL: $ours not built"; exit 1; }
command -v timeout >/dev/null || { echo "SKIP: no timeout(1)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
img=$work/img
# Damaged images not detected yet, one name per line: shrink this list as
# checks land, never grow it.
known=$top_srcdir/tests/fsck/corpus-missed.txt
optimize=$top_srcdir/tests/fsck/corpus-optimize.txt
total=0 damaged=0 detected=0 bad=0 optimized=0
while IFS='	' read -r name features bs rec special rc1 rc2; do
	[ "$name" = name ] && continue
	gz=$corpus/$name.img.gz
	[ -f "$gz" ] || continue
	gzip -dc "$gz" >"$img" || { echo "FAIL $name: cannot decompress"; bad=$((bad + 1)); continue; }
	before=$(sha256sum <"$img")
	E2FSCK_CONFIG=/dev/null timeout 60 "$ours" -fnd "$img" \
		>"$work/out" 2>&1 </dev/null
	rc=$?
	after=$(sha256sum <"$img")
	grep -o '\[0x[0-9a-f]*\]' "$work/out" >>"$work/codes"
	total=$((total + 1))
	verdict=
	if [ "$rc" = 124 ]; then
		verdict="timed out"
	elif [ "$rc" -ge 128 ]; then
		verdict="crashed (exit $rc)"
	elif grep -q 'Sanitizer\|runtime error:' "$work/out"; then
		verdict="sanitizer report"
	elif [ "$before" != "$after" ]; then
		verdict="-n changed the image"
	fi
	if grep -qx "$name" "$optimize"; then
		optimized=$((optimized + 1))
		[ "$rc" = 0 ] || [ -n "$verdict" ] ||
			verdict="exit $rc, the reference's -fn 0 (optimisable only)"
	elif [ "$rc1" != 0 ]; then
		damaged=$((damaged + 1))
		if [ "$rc" != 0 ]; then
			detected=$((detected + 1))
		elif grep -qx "$name" "$known"; then
			echo "missed (known, in corpus-missed.txt): $name"
		else
			echo "FAIL missed: $name (reference -fy exit $rc1, ours -fn 0)"
			bad=$((bad + 1))
		fi
	fi
	if [ -n "$verdict" ]; then
		echo "FAIL $name: $verdict"
		tail -5 "$work/out" | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done <"$manifest"
echo "corpus: $total images, detected $detected of $damaged damaged," \
	"$optimized only optimisable (left clean), $bad failures"
# Which problem codes the corpus reaches (informational).
all=$(grep -c '^#define PR_' "$top_srcdir/e2fsck/problem_codes.h")
seen=$(sort -u "$work/codes" 2>/dev/null | wc -l)
echo "problem codes reached by the corpus: $seen of $all"
[ "$bad" = 0 ]
