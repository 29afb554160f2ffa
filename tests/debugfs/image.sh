#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# image.sh --- debugfs -i (the image is an e2image file, metadata only) and
# -d data_source_device (the blocks the image lacks come from the device):
# on images filled by our mke2fs -d and imaged by the reference e2image,
# ls and cat through "-i -d" must print what the reference's debugfs
# prints on the device, byte for byte, and on 1 KiB blocks (ext4, ext2)
# what the reference prints with "-i -d" too (its data channel stays at
# 1 KiB, so larger blocks fail there); stat, ex and stats through "-i -d"
# print what ours prints on the device, and on extent files stat needs
# no -d (inodes come from the image); -d without -i and -i with -w are
# refused.

: "${top_srcdir:=.}" "${top_builddir:=.}"
dbg=$top_builddir/debugfs/debugfs
mkfs=$top_builddir/mke2fs/mke2fs
ref=/usr/sbin/debugfs
e2image=/usr/sbin/e2image
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }
for t in "$ref" "$e2image"; do
	[ -x "$t" ] || { echo "SKIP: no reference $t"; exit 77; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-image.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
export TZ=UTC
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A source tree: a small file, a multi-block file, a directory big
# enough for an index, a symlink, an empty file.
src=$work/src
mkdir -p "$src/d" "$src/many"
echo hello > "$src/f"
seq 1 40000 > "$src/d/big"
: > "$src/empty"
ln -s /f "$src/s"
for i in $(seq 1 300); do echo "$i" > "$src/many/name-$i"; done

# check NAME CMD WHAT EXPECTED-COMMAND...: ours with -i -d against the
# output of the given command
check() {
	name=$1 c=$2 what=$3
	shift 3
	"$@" > "$work/exp.out" 2>/dev/null
	"$dbg" -i -d "$dev" -R "$c" "$img" > "$work/our.out" 2>&1 ||
		fail "$name: '$c' failed: $(head -2 "$work/our.out" | tr '\n' ' ')"
	[ -s "$work/exp.out" ] || fail "$name: '$c': $what printed nothing"
	cmp -s "$work/exp.out" "$work/our.out" ||
		fail "$name: '$c' differs from $what: $(diff "$work/exp.out" \
			"$work/our.out" | head -3 | tr '\n' ' ')"
}

for geom in "4k:-b 4096 -t ext4" "1k:-b 1024 -t ext4" \
	"ext2:-b 1024 -t ext2"; do
	name=${geom%%:*}
	dev=$work/$name.img
	img=$work/$name.e2i
	# shellcheck disable=SC2086 # the options are words
	"$mkfs" -q -F ${geom#*:} -d "$src" "$dev" 32M >/dev/null 2>&1 ||
		{ fail "$name: mke2fs -d"; continue; }
	"$e2image" "$dev" "$img" >/dev/null 2>&1 ||
		{ fail "$name: reference e2image"; continue; }
	for c in "ls -l /" "ls -l /d" "ls /many" "cat /f" "cat /d/big" \
		"cat /many/name-299"; do
		check "$name" "$c" "the reference on the device" \
			"$ref" -R "$c" "$dev"
		[ "$name" = 4k ] || check "$name" "$c" "the reference's -i -d" \
			"$ref" -i -d "$dev" -R "$c" "$img"
	done
	"$dbg" -i -d "$dev" -R "cat /empty" "$img" > "$work/our.out" 2>&1 &&
		[ ! -s "$work/our.out" ] || fail "$name: cat /empty"
	ino=$("$dbg" -R "ls -l /d" "$dev" | awk '$NF == "big" { print $1 }')
	[ -n "$ino" ] || fail "$name: no inode for /d/big"
	for c in "stat <$ino>" "ex <$ino>" "stat /s" "stats -h"; do
		# ext2: libext2fs's block walk reads an image's indirect
		# blocks as zeros, in the reference's stat as in ours
		[ "$name" = ext2 ] && [ "$c" != "stats -h" ] && continue
		check "$name" "$c" "ours on the device" "$dbg" -R "$c" "$dev"
	done
	# without -d: inodes (and an extent root in the inode) come from
	# the image itself
	[ "$name" = ext2 ] && continue
	"$dbg" -R "stat <$ino>" "$dev" > "$work/exp.out" 2>&1
	"$dbg" -i -R "stat <$ino>" "$img" > "$work/our.out" 2>&1 ||
		fail "$name: -i 'stat <$ino>' failed"
	cmp -s "$work/exp.out" "$work/our.out" ||
		fail "$name: -i 'stat <$ino>' differs from the device"
done

# refusals: one line, exit 1
dev=$work/4k.img
img=$work/4k.e2i
"$dbg" -d "$dev" -R "ls" "$dev" > "$work/out" 2>&1 &&
	fail "-d without -i accepted"
grep -q "needs -i" "$work/out" || fail "-d without -i: $(cat "$work/out")"
"$dbg" -i -w -R "ls" "$img" > "$work/out" 2>&1 && fail "-i -w accepted"
grep -q "read-only" "$work/out" || fail "-i -w: $(cat "$work/out")"
"$dbg" -i -d "$work/nothere" -R "ls" "$img" > "$work/out" 2>&1 &&
	fail "-d with a missing device accepted"

[ "$fails" -eq 0 ] || { echo "image: $fails failures"; exit 1; }
echo "image: -i and -i -d read what the device holds on 3 geometries"
exit 0
