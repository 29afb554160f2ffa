#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# crash.sh --- crash safety of the in-place conversions (crash.cases).
# faultconv runs a conversion over an io channel that stops writing after
# N writes; for N spread over the whole conversion:
#   drop (power cut: later writes lost): our e2fsck -fy, then our e2fsck
#     -fn and (no itree) the reference e2fsck -fn are clean and every
#     file of the kernel-filled tree is intact (compare.py);
#   fail (later writes refused, undo file closed): the reference e2undo
#     restores the original image byte for byte.
# E2X_LONG=1 cuts after every write of every conversion.
# Needs root, loop devices, python3 and the reference e2fsprogs.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
conv=$top_builddir/tests/tune2fs/faultconv
ourfsck=$top_builddir/e2fsck/e2fsck
refmkfs=/usr/sbin/mke2fs
reffsck=/usr/sbin/e2fsck
e2undo=/usr/sbin/e2undo

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
[ -x "$reffsck" ] && [ -x "$refmkfs" ] && [ -x "$e2undo" ] ||
	skip "no reference e2fsprogs"
[ -x "$conv" ] || { echo "FAIL: no faultconv at $conv"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-crash.XXXXXX") || exit 1
mnt=$work/mnt
mnt2=$work/mnt2
img=
. "$top_srcdir/tests/loop.sh"
. "$here/lib.sh"
cleanup() {
	loop_cleanup
	umount "$mnt2" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$mnt" "$mnt2" || exit 1
fails=0
fail() { echo "FAIL: $name cut $cut: $*"; fails=$((fails + 1)); }

# Cut points for TOTAL writes and CUTS: "all" is every one; "K" the first
# writes, the last and K more evenly between; "K:L" adds every one of the
# first L and the last L writes (a conversion's short windows sit there).
cut_points() {
	awk -v w="$1" -v c="$2" 'BEGIN {
		if (c == "all") { for (i = 1; i < w; i++) print i; exit }
		n = split(c, p, ":"); k = p[1]; l = n > 1 ? p[2] : 0
		print 1; print 2; print w - 1
		for (i = 1; i <= k; i++) print int(w * i / (k + 1))
		for (i = 1; i <= l; i++) { print i; print w - i } }' |
		sort -un | awk '$1 > 0'
}

power_cut() {
	cp "$work/orig.img" "$img"
	"$conv" "$img" "$what" "$cut" drop >"$work/conv.out" 2>&1 ||
		{ fail "faultconv:"; cat "$work/conv.out"; return; }
	"$ourfsck" -fy "$img" >"$work/fsck1" 2>&1
	rc=$?
	[ "$rc" -lt 4 ] || { fail "e2fsck -fy exit $rc:"
		tail -5 "$work/fsck1"; return; }
	"$ourfsck" -fn "$img" >"$work/fsck2" 2>&1 ||
		{ fail "not clean after e2fsck -fy:"; tail -5 "$work/fsck2"; }
	if [ "$reffsck_ok" = yes ]; then
		"$reffsck" -fn "$img" >"$work/fsck3" 2>&1 ||
			{ fail "reference e2fsck:"; tail -5 "$work/fsck3"; }
	fi
	same_tree "$work/orig.img"
}

undo_cut() {
	cp "$work/orig.img" "$img"
	rm -f "$work/undo"
	# libext2fs's undo manager returns early from its close when the
	# device refuses writes, leaking its state: not ours to report
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	"$conv" "$img" "$what" "$cut" fail "$work/undo" >"$work/conv.out" \
		2>&1 || { fail "faultconv:"; cat "$work/conv.out"; return; }
	"$e2undo" "$work/undo" "$img" >"$work/undo.out" 2>&1 ||
		{ fail "e2undo:"; cat "$work/undo.out"; return; }
	cmp -s "$work/orig.img" "$img" || fail "e2undo did not restore"
}

while IFS='|' read -r name mkfs what cuts reffsck_ok; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	[ -z "${T_CASE:-}" ] || [ "$T_CASE" = "$name" ] || continue
	what=$(echo "$what" | tr -d ' ')
	cuts=$(echo "$cuts" | tr -d ' ')
	reffsck_ok=$(echo "$reffsck_ok" | tr -d ' ')
	cut=-
	img=$work/t.img
	filled_image "$mkfs" || continue
	cp "$img" "$work/orig.img"
	total=$("$conv" "$img" "$what" -1 drop | sed -n 's/^writes //p')
	[ "${total:-0}" -gt 3 ] || { fail "only ${total:-0} writes"; continue; }
	[ "${E2X_LONG:-0}" = 1 ] && cuts=all
	for cut in $(cut_points "$total" "$cuts"); do
		power_cut
		undo_cut
	done
	echo "ok: $name ($total writes)"
done <"$here/crash.cases"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: every cut leaves a repairable file system and a working undo"
