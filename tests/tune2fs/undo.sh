#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# undo.sh --- -z on tune2fs, e2fsck and debugfs (undo.cases): the
# program changes the image, the reference e2undo restores it byte for
# byte.  Needs the reference mke2fs, debugfs and e2undo.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
refmkfs=/usr/sbin/mke2fs
refdbg=/usr/sbin/debugfs
e2undo=/usr/sbin/e2undo

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$refmkfs" ] && [ -x "$refdbg" ] && [ -x "$e2undo" ] ||
	skip "no reference e2fsprogs"

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-undo.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
img=$work/t.img
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

while IFS='|' read -r name mkfs damage cmd; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	damage=$(echo "$damage" | sed 's/^ *//; s/ *$//')
	rm -f "$img" "$work/undo"
	truncate -s 32M "$img"
	# shellcheck disable=SC2086
	"$refmkfs" -q -F $mkfs "$img" >/dev/null 2>&1 ||
		{ fail "mke2fs"; continue; }
	if [ "$damage" != - ]; then
		"$refdbg" -w -R "$damage" "$img" >/dev/null 2>&1 ||
			{ fail "damage"; continue; }
	fi
	cp "$img" "$work/orig.img"
	prog=$(echo "$cmd" | awk '{print $1}')
	args=$(echo "$cmd" | sed "s/^ *$prog//; s|UNDO|$work/undo|")
	eval "\"$top_builddir/$prog/$prog\" $args \"$img\"" \
		>"$work/out" 2>&1
	rc=$?
	[ "$rc" -lt 4 ] || { fail "$prog exit $rc:"; cat "$work/out"; continue; }
	cmp -s "$img" "$work/orig.img" && { fail "$prog changed nothing"
		continue; }
	"$e2undo" "$work/undo" "$img" >"$work/undo.out" 2>&1 ||
		{ fail "e2undo:"; cat "$work/undo.out"; continue; }
	cmp -s "$img" "$work/orig.img" || fail "e2undo did not restore"
done <"$here/undo.cases"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: every -z undo file restores the image"
