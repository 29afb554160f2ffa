#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# false-alarm.sh --- e2fsck must never cry wolf: format images (with our
# mke2fs and the reference's) for every feature set in feature-sets.tsv,
# run a seeded random workload on a kernel loop mount, unmount, and
# require our "e2fsck -fn" to exit 0 wherever the reference's does.
# E2X_LONG=1 runs more seeds; E2X_SEEDS="a b c" picks them.
# Needs root and loop devices (SKIP otherwise).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=$top_builddir/e2fsck/e2fsck
our_mkfs=$top_builddir/mke2fs/mke2fs
ref=/usr/sbin/e2fsck
ref_mkfs=/usr/sbin/mke2fs
here=$top_srcdir/tests/fsck

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
[ -x "$ref" ] && [ -x "$ref_mkfs" ] || skip "reference e2fsprogs missing"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
[ -x "$ours" ] || { echo "FAIL: $ours not built"; exit 1; }

if [ -n "${E2X_SEEDS:-}" ]; then
	seeds=$E2X_SEEDS
elif [ -n "${E2X_LONG:-}" ]; then
	seeds=$(seq 1 12)
else
	seeds="1 2"
fi
ops=${E2X_OPS:-300}

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-fa.XXXXXX")
mnt=$work/mnt
mkdir -p "$mnt"
loop=
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# Probe: can we attach a loop device at all?
truncate -s 1M "$work/probe"
loop=$(losetup -f --show "$work/probe" 2>/dev/null) || skip "no loop devices"
losetup -d "$loop"; loop=

# Every row is formatted by both mke2fs; nothing is passed over: a row
# that either refuses, the kernel will not mount or the workload cannot
# finish is a failure (the reference 1.47 formats every row).
[ -x "$our_mkfs" ] || { echo "FAIL: $our_mkfs not built"; exit 1; }
mkfs_list="ours ref"

runs=0 fails=0 refbad=0
one() {	# name size opts mkfs seed
	name=$1 size=$2 opts=$3 which=$4 seed=$5
	img=$work/img
	rm -f "$img"
	truncate -s "$size" "$img"
	if [ "$which" = ours ]; then mk=$our_mkfs; else mk=$ref_mkfs; fi
	# shellcheck disable=SC2086
	if ! "$mk" -q -F $opts "$img" >"$work/mkfs.log" 2>&1; then
		echo "FAIL $name/$which: mke2fs refused: $(head -1 "$work/mkfs.log")"
		fails=$((fails + 1))
		return
	fi
	if ! loop=$(losetup -f --show "$img"); then
		echo "FAIL $name/$which: no loop device"
		fails=$((fails + 1)); loop=
		return
	fi
	if ! mount "$loop" "$mnt" 2>"$work/mount.log"; then
		echo "FAIL $name/$which: the kernel will not mount it: $(head -1 "$work/mount.log")"
		fails=$((fails + 1))
		losetup -d "$loop"; loop=
		return
	fi
	if ! python3 "$here/workload.py" "$mnt" "$seed" "$ops" >"$work/wl.log" 2>&1; then
		echo "FAIL $name/$which seed $seed: workload failed:"
		tail -3 "$work/wl.log" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
	umount "$mnt"
	losetup -d "$loop"; loop=
	"$ref" -fn "$img" >"$work/ref.log" 2>&1; rrc=$?
	"$ours" -fn "$img" >"$work/ours.log" 2>&1; orc=$?
	runs=$((runs + 1))
	if [ "$rrc" != 0 ]; then
		refbad=$((refbad + 1))
		echo "  $name/$which seed $seed: the reference finds problems (rc $rrc), ours rc $orc"
		return
	fi
	if [ "$orc" != 0 ]; then
		fails=$((fails + 1))
		echo "FAIL $name/$which seed $seed: reference clean, ours rc $orc"
		grep -v '^Pass \|^Superblock and' "$work/ours.log" | head -20 | sed 's/^/    /'
		cp "$img" "${TMPDIR:-/tmp}/e2x-false-alarm-$name-$which-$seed.img" 2>/dev/null &&
			echo "    image kept: ${TMPDIR:-/tmp}/e2x-false-alarm-$name-$which-$seed.img"
	fi
}

# Each feature set gets seeds of its own (offset by 1000 per row), so
# the default run already covers a few dozen distinct workloads.
row=0
while IFS='	' read -r name size opts; do
	case $name in ''|'#'*) continue ;; esac
	row=$((row + 1))
	for which in $mkfs_list; do
		for seed in $seeds; do
			one "$name" "$size" "$opts" "$which" $((seed + row * 1000))
		done
	done
done <"$here/feature-sets.tsv"

echo "false-alarm: $runs runs, $fails failures, $refbad where the reference itself complained"
[ "$runs" -gt 0 ] || { echo "FAIL: nothing ran"; exit 1; }
[ "$fails" = 0 ]
