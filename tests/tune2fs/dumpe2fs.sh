#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dumpe2fs.sh --- our dumpe2fs against the reference's, byte for byte on
# stdout (dumpe2fs.cases), and one line with exit 1 on bad input.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
dump=$top_builddir/dumpe2fs/dumpe2fs
tune=$top_builddir/tune2fs/tune2fs
refmkfs=/usr/sbin/mke2fs
refdump=/usr/sbin/dumpe2fs

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$refmkfs" ] && [ -x "$refdump" ] || skip "no reference e2fsprogs"
[ -x "$dump" ] || { echo "FAIL: no dumpe2fs at $dump"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-dump.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
img=$work/t.img
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

while IFS='|' read -r name size mkfs convert opts; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	convert=$(echo "$convert" | tr -d ' ')
	opts=$(echo "$opts" | sed 's/^ *//; s/ *$//')
	[ "$opts" = - ] && opts=
	rm -f "$img"
	truncate -s "$(echo "$size" | tr -d ' ')" "$img"
	# shellcheck disable=SC2086
	"$refmkfs" -q -F $mkfs "$img" >/dev/null 2>&1 ||
		{ fail "mke2fs $mkfs"; continue; }
	if [ "$convert" != - ]; then
		"$tune" -O "$convert" "$img" >/dev/null ||
			{ fail "tune2fs -O $convert"; continue; }
	fi
	# shellcheck disable=SC2086
	"$dump" $opts "$img" >"$work/our" 2>/dev/null ||
		{ fail "our dumpe2fs failed"; continue; }
	# shellcheck disable=SC2086
	"$refdump" $opts "$img" 2>/dev/null |
		sed 's/FEATURE_R31/itree/' >"$work/ref"
	cmp -s "$work/ref" "$work/our" ||
		{ fail "output differs (< reference, > ours):"
		  diff "$work/ref" "$work/our" | head -10; }
done <"$here/dumpe2fs.cases"

name=garbage
head -c 1048576 /dev/urandom >"$img"
"$dump" "$img" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 1 ] || fail "exit $rc"
[ "$(grep -vc '^dumpe2fs (e2x' "$work/err")" = 1 ] ||
	{ fail "not one line:"; cat "$work/err"; }

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: dumpe2fs prints what the reference prints"
