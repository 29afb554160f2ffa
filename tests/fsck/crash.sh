#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# crash.sh --- e2fsck after a crash, against the reference.  The kernel
# makes the images: a loop mount, writes, then EXT4_IOC_SHUTDOWN without
# flushing the log (xfs_io -x -c shutdown), so the journal holds committed
# transactions and the superblock's free totals are stale; the second
# image also has two open-but-unlinked files on the orphan list.
# For each: our -p states the same figures and the same "Clearing
# orphaned inode" lines as the reference's -p, and leaves totals the
# reference's -fn finds right; -n and -fn exit 0 (stale
# totals a replay leaves are no error) with those figures and leave the
# image unchanged; -fy exits 1 and a second -fn is clean; -fnv's "inodes
# used" and "blocks used" are the summary line's.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
ours=$top_builddir/e2fsck/e2fsck
ref=/usr/sbin/e2fsck
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop mounts"; exit 77; }
for t in "$ref" /usr/sbin/mke2fs; do
	[ -x "$t" ] || { echo "SKIP: no $t"; exit 77; }
done
command -v xfs_io >/dev/null || { echo "SKIP: no xfs_io for the shutdown"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-crash.XXXXXX")
mnt=$work/mnt
mkdir "$mnt"
. "$top_srcdir/tests/loop.sh"
trap 'exec 3<&- 4<&-; loop_cleanup; rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $name: $*"; fail=1; }

# make_crash NAME ORPHANS: a crashed image $work/NAME.img
make_crash() {
	img=$work/$1.img
	/usr/sbin/mke2fs -q -t ext4 -F "$img" 32M || return 1
	loop_attach || return 1
	mkdir "$mnt/d"
	echo small >"$mnt/small"
	dd if=/dev/urandom of="$mnt/big" bs=1k count=2000 status=none
	sync
	if [ "$2" = 1 ]; then
		exec 3<"$mnt/big" 4<"$mnt/small"
		rm "$mnt/big" "$mnt/small"
		sync
	fi
	i=0
	while [ $i -lt 60 ]; do echo "$i" >"$mnt/d/f$i"; i=$((i + 1)); done
	dd if=/dev/zero of="$mnt/z" bs=1k count=500 status=none
	xfs_io -x -c shutdown "$mnt" || return 1
	exec 3<&- 4<&-
	loop_detach
}

# figures FILE: "used/total files, used/total blocks" of the summary line
figures() {
	sed -n 's/^[^:]*: \(clean, \)\{0,1\}\([0-9]*\/[0-9]* files, [0-9]*\/[0-9]* blocks\).*/\2/p' "$1"
}
orphans() {
	sed -n 's/^\([^:]*: \)\{0,1\}\(Clearing orphaned inode [0-9]* ([^)]*)\).*/\2/p' "$1"
}

for name in stale orphans; do
	orph=0
	[ "$name" = orphans ] && orph=1
	make_crash "$name" $orph || { bad "cannot make the image"; continue; }
	img=$work/$name.img
	cp "$img" "$work/r.img"
	"$ref" -p "$work/r.img" >"$work/ref.out" 2>&1
	want=$(figures "$work/ref.out")
	wantorph=$(orphans "$work/ref.out")
	[ -n "$want" ] || { bad "no reference summary: $(cat "$work/ref.out")"; continue; }
	if [ $orph = 1 ] && [ -z "$wantorph" ]; then
		bad "the reference released no orphans; the image is not what this test needs"
	fi
	cp "$img" "$work/o.img"
	"$ours" -p "$work/o.img" >"$work/p.out" 2>&1; rc=$?
	[ $rc -eq 0 ] || bad "-p exit $rc"
	[ "$(figures "$work/p.out")" = "$want" ] ||
		bad "-p says '$(figures "$work/p.out")', the reference '$want'"
	[ "$(orphans "$work/p.out")" = "$wantorph" ] ||
		bad "-p orphan lines differ: $(orphans "$work/p.out") / $wantorph"
	# -p leaves the superblock totals right, as the reference's -p does
	"$ref" -fn "$work/o.img" >"$work/after-p.out" 2>&1 ||
		bad "the reference -fn after our -p: $(cat "$work/after-p.out")"
	grep -q "count wrong" "$work/after-p.out" &&
		bad "-p left stale totals: $(grep 'count wrong' "$work/after-p.out")"
	sum=$(sha256sum <"$img")
	for opt in -n -fn; do
		"$ours" $opt "$img" >"$work/n.out" 2>&1; rc=$?
		[ $rc -eq 0 ] || bad "$opt exit $rc: $(tail -3 "$work/n.out")"
		[ "$(figures "$work/n.out")" = "$want" ] ||
			bad "$opt says '$(figures "$work/n.out")', the reference '$want'"
		[ "$(orphans "$work/n.out")" = "$wantorph" ] ||
			bad "$opt orphan lines differ"
	done
	"$ours" -fnv "$img" >"$work/v.out" 2>&1
	used=$(sed -n 's/^ *\([0-9]*\) inodes used.*/\1/p' "$work/v.out")
	bused=$(sed -n 's/^ *\([0-9]*\) blocks used.*/\1/p' "$work/v.out")
	case "$want" in
	"$used"/*" files, $bused"/*" blocks") ;;
	*) bad "-fnv says $used inodes and $bused blocks used; summary '$want'" ;;
	esac
	[ "$(sha256sum <"$img")" = "$sum" ] || bad "-n changed the image"
	cp "$img" "$work/y.img"
	"$ours" -fy "$work/y.img" >"$work/y.out" 2>&1; rc=$?
	[ $rc -eq 1 ] || bad "-fy exit $rc"
	[ "$(figures "$work/y.out")" = "$want" ] ||
		bad "-fy says '$(figures "$work/y.out")', the reference '$want'"
	"$ours" -fn "$work/y.img" >"$work/y2.out" 2>&1 ||
		bad "not clean after -fy: $(cat "$work/y2.out")"
	[ $fail -eq 0 ] && echo "ok $name: $want"
done
exit $fail
