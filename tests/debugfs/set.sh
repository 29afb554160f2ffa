#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# set.sh --- raw changes (set.cases): each case runs our debugfs -w on a
# fresh copy of an image holding one file (inode 12, written by the
# reference debugfs), then the reference debugfs must read the change
# back, the reference e2fsck -fn must be clean (or must object, for the
# changes that break consistency on purpose), and inode 12's i_version
# must have moved exactly once per set_inode_field (or not at all).
# Cases with a last column also check our own answer to the request.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
ref=/usr/sbin/debugfs
fsck=/usr/sbin/e2fsck
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$ref" ] && [ -x "$fsck" ] ||
	{ echo "SKIP: no reference e2fsprogs"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-set.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

/usr/sbin/mke2fs -q -F -t ext4 -b 1024 "$work/base.img" 8M >/dev/null || exit 1
head -c 5000 /dev/urandom > "$work/payload"
"$ref" -w -R "write $work/payload f" "$work/base.img" >/dev/null 2>&1
"$fsck" -fn "$work/base.img" >/dev/null 2>&1 ||
	{ echo "FAIL: base image not clean"; exit 1; }

version() {
	"$ref" -R 'stat <12>' "$1" 2>/dev/null |
		sed -n 's/.*Version: *\(0x[0-9a-f:]*\).*/\1/p'
}

fails=0
n=0
grep -v '^#' "$here/set.cases" > "$work/cases"
while IFS='|' read -r name cmds req want fsck_want ver ours <&3; do
	n=$((n + 1))
	img=$work/$name.img
	cp "$work/base.img" "$img"
	v0=$(version "$img")
	echo "$cmds" | tr ';' '\n' > "$work/cmds"
	bad=
	"$dbg" -w -f "$work/cmds" "$img" >"$work/out" 2>"$work/err" ||
		bad="our debugfs failed: $(cat "$work/err")"
	"$ref" -R "$req" "$img" 2>/dev/null | grep -Eq -- "$want" ||
		bad="$bad; reference '$req' does not show /$want/"
	if "$fsck" -fn "$img" >"$work/fsck" 2>&1; then
		[ "$fsck_want" = clean ] || bad="$bad; e2fsck found no problem"
	else
		[ "$fsck_want" = dirty ] ||
			bad="$bad; e2fsck: $(grep -v '^e2fsck\|^Pass' \
				"$work/fsck" | head -3 | tr '\n' ' ')"
	fi
	v1=$(version "$img")
	if [ "${name#sif-version}" = "$name" ]; then
		lo0=$((0x${v0##*:})) lo1=$((0x${v1##*:}))
		[ "$lo1" = $((lo0 + ver)) ] ||
			bad="$bad; i_version $v0 -> $v1, want $ver bumps"
	fi
	if [ -n "$ours" ]; then
		"$dbg" -R "$req" "$img" 2>&1 | grep -Eq -- "$ours" ||
			bad="$bad; our '$req' does not show /$ours/"
	fi
	if [ -n "$bad" ]; then
		echo "FAIL: $name: $bad"
		fails=$((fails + 1))
	fi
done 3< "$work/cases"
# freefrag and testb answer from the session's bitmaps: blocks marked in
# use earlier in the same session count, before anything is written.
img=$work/ff.img
cp "$work/base.img" "$img"
b=$("$dbg" -R 'ffb 1 1000' "$img" | sed -n 's/^Free blocks found: //p')
printf 'freefrag\nsetb %s 10\nfreefrag\ntestb %s\n' "$b" "$b" |
	"$dbg" -w -f - "$img" > "$work/ff.out" 2>&1
f1=$(sed -n 's/^Free clusters: \([0-9]*\).*/\1/p' "$work/ff.out" | sed -n 1p)
f2=$(sed -n 's/^Free clusters: \([0-9]*\).*/\1/p' "$work/ff.out" | sed -n 2p)
n=$((n + 1))
if [ -z "$b" ] || [ -z "$f1" ] || [ "$f2" != $((f1 - 10)) ] ||
	! grep -q "^Block $b marked in use" "$work/ff.out"; then
	echo "FAIL: session bitmaps: free $f1 -> $f2 after setb $b 10"
	fails=$((fails + 1))
fi

echo "$n cases, $fails failed"
[ "$fails" = 0 ]
