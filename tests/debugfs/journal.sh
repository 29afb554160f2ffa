#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# journal.sh --- logdump against the reference: for each case of
# journal.cases the reference debugfs writes transactions into the journal
# (jo / jw / jc), then our logdump must report the same walk (sequence,
# block type and position of every block, every logged FS block with its
# journal block and flags, every revoke record) as the reference
# "logdump -a", and leave the image unchanged.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
ref=/usr/sbin/debugfs
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$ref" ] || { echo "SKIP: no reference debugfs"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-journal.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
F=$work/data
head -c 16384 /dev/urandom > "$F"

# The lines both tools print, with the block type words dropped.
walk() {
	grep -E '^(Found|No magic|Journal starts)|^  (FS block|Revoke FS block)' |
		sed 's/ (\([a-z ]*\)) at block/ at block/'
}

fails=0
n=0
grep -v '^#' "$here/journal.cases" > "$work/cases"
while IFS='|' read -r name opts cmds <&3; do
	n=$((n + 1))
	img=$work/$name.img
	# shellcheck disable=SC2086
	/usr/sbin/mke2fs -q -F $opts "$img" 16M >/dev/null 2>&1 ||
		{ echo "FAIL: $name: mke2fs"; fails=$((fails + 1)); continue; }
	if [ -n "$cmds" ]; then
		echo "$cmds" | tr ';' '\n' | sed "s|\\\$F|$F|g" > "$work/j.cmds"
		"$ref" -w -f "$work/j.cmds" "$img" >/dev/null 2>&1
	fi
	"$ref" -R 'logdump -a' "$img" 2>/dev/null | walk > "$work/want"
	sum=$(sha256sum < "$img")
	"$dbg" -R 'logdump' "$img" > "$work/out" 2> "$work/err" ||
		{ echo "FAIL: $name: logdump failed: $(cat "$work/err")"
		  fails=$((fails + 1)); continue; }
	walk < "$work/out" > "$work/got"
	if [ -n "$cmds" ] && ! grep -q 'FS block' "$work/want"; then
		echo "FAIL: $name: the reference logged nothing"
		fails=$((fails + 1))
	elif ! cmp -s "$work/want" "$work/got"; then
		echo "FAIL: $name: walk differs from the reference"
		diff "$work/want" "$work/got" | head -10
		fails=$((fails + 1))
	fi
	[ "$(sha256sum < "$img")" = "$sum" ] ||
		{ echo "FAIL: $name: logdump changed the image"; fails=$((fails + 1)); }
done 3< "$work/cases"
echo "$n cases, $fails failed"
[ $fails = 0 ]
