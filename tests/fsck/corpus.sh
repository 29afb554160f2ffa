#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# corpus.sh --- detection on real damage: for every image of the shared
# e2fsprogs corpus, our "e2fsck -fn" must not crash (exit < 128, no
# sanitizer report), must finish within 60 s, must leave the image
# byte-for-byte unchanged, and must exit non-zero wherever the MANIFEST
# says the reference found problems (ref_first_rc != 0), except on the
# images the reference only optimizes (corpus-optimize.txt), where it must
# exit 0 like the reference's own -fn; it must report every problem code
# corpus-codes.tsv lists for the image.  Then "e2fsck -fy" on the image:
# no crash, no timeout, and on the images of corpus-repaired.txt a repair
# (exit 0 or 1, then the reference's -fn and ours clean); images repaired
# but not listed are named so the list can grow.
# The corpus is $E2X_CORPUS or $top_srcdir/../shared/corpus/e2fsprogs;
# SKIP when absent, FAIL when some of its MANIFEST's images are missing.
# Images are never copied into the tree.
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
refck=/usr/sbin/e2fsck
[ -x "$refck" ] || { echo "SKIP: no reference e2fsck to judge repairs"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
img=$work/img

# repair NAME: -fy on the image ($img), judged as corpus-score judges it.
repair() {
	E2FSCK_CONFIG=/dev/null timeout 60 "$ours" -fy "$img" \
		>"$work/fy" 2>&1 </dev/null
	fy=$?
	if [ "$fy" = 124 ] || [ "$fy" -ge 128 ] ||
		grep -q 'Sanitizer\|runtime error:' "$work/fy"; then
		echo "FAIL $1: -fy timed out or crashed (exit $fy)"
		tail -5 "$work/fy" | sed 's/^/    /'
		bad=$((bad + 1)); return
	fi
	ok=
	: >"$work/ref"
	if [ "$fy" -le 1 ] &&
		E2FSCK_CONFIG=/dev/null timeout 60 "$refck" -fn "$img" \
			>"$work/ref" 2>&1 </dev/null &&
		E2FSCK_CONFIG=/dev/null timeout 60 "$ours" -fn "$img" \
			>"$work/fn" 2>&1 </dev/null; then
		ok=1 fixed=$((fixed + 1))
	fi
	if grep -qx "$1" "$repaired"; then
		[ -n "$ok" ] && return
		echo "FAIL $1: no longer repaired (-fy exit $fy; the" \
			"reference's -fn after it: $(grep -v '^Pass\|^e2fsck' \
			"$work/ref" | head -2 | tr '\n' ' ')"
		bad=$((bad + 1))
	elif [ -n "$ok" ]; then
		grown="$grown $1"
	fi
}

# Damaged images not detected yet, one name per line: shrink this list as
# checks land, never grow it.
known=$top_srcdir/tests/fsck/corpus-missed.txt
optimize=$top_srcdir/tests/fsck/corpus-optimize.txt
codes=$top_srcdir/tests/fsck/corpus-codes.tsv
repaired=$top_srcdir/tests/fsck/corpus-repaired.txt
total=0 damaged=0 detected=0 bad=0 optimized=0 rows=0 fixed=0 grown=
while IFS='	' read -r name features bs rec special rc1 rc2; do
	[ "$name" = name ] && continue
	rows=$((rows + 1))
	gz=$corpus/$name.img.gz
	if [ ! -f "$gz" ]; then
		echo "FAIL $name: in the MANIFEST, no $gz"
		bad=$((bad + 1)); continue
	fi
	gzip -dc "$gz" >"$img" || { echo "FAIL $name: cannot decompress"; bad=$((bad + 1)); continue; }
	before=$(sha256sum <"$img")
	E2FSCK_CONFIG=/dev/null timeout 60 "$ours" -fnd "$img" \
		>"$work/out" 2>&1 </dev/null
	rc=$?
	after=$(sha256sum <"$img")
	grep -o '\[0x[0-9a-f]*\]' "$work/out" | tr -d '[]' | sort -u >"$work/got"
	cat "$work/got" >>"$work/codes"
	total=$((total + 1))
	want=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$codes")
	if [ -z "$want" ]; then
		echo "FAIL $name: no row in corpus-codes.tsv (codes now:" \
			"$(tr '\n' ' ' <"$work/got"))"
		bad=$((bad + 1))
	fi
	for c in $want; do
		[ "$c" = - ] || grep -qx "$c" "$work/got" || {
			echo "FAIL $name: problem $c no longer reported" \
				"(codes now: $(tr '\n' ' ' <"$work/got"))"
			bad=$((bad + 1)); }
	done
	new=$(for c in $(cat "$work/got"); do
		case " $want " in *" $c "*) ;; *) printf ' %s' "$c" ;; esac
	done)
	[ -z "$new" ] || echo "note $name: codes not in corpus-codes.tsv:$new"
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
	repair "$name"
done <"$manifest"
echo "corpus: $total images, detected $detected of $damaged damaged," \
	"$optimized only optimisable (left clean), $fixed repaired, $bad failures"
[ -z "$grown" ] ||
	echo "repaired but not in corpus-repaired.txt yet (add them):$grown"
if [ "$total" -lt "$rows" ]; then
	echo "FAIL: $total images of the MANIFEST's $rows"
	bad=$((bad + 1))
fi
# Which problem codes the corpus reaches (informational).
all=$(grep -c '^PROBLEM(PR_' "$top_srcdir/e2fsck/problem_list.h")
seen=$(sort -u "$work/codes" 2>/dev/null | wc -l)
echo "problem codes reached by the corpus: $seen of $all"
[ "$bad" = 0 ]
