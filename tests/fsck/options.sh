#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# options.sh --- e2fsck's options and exit codes, one case per line of
# options-cases.tsv: clean, damaged and short images (made with the reference
# mke2fs and debugfs), a missing device, and a mounted loop device (root
# only; those cases are skipped otherwise).  -n must never change a byte.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=$top_builddir/e2fsck/e2fsck
here=$top_srcdir/tests/fsck
mkfs=/usr/sbin/mke2fs
debugfs=/usr/sbin/debugfs
[ -x "$mkfs" ] && [ -x "$debugfs" ] || { echo "SKIP: reference tools missing"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-opt.XXXXXX")
mnt=$work/mnt
loop=
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
img=$work/img

make_image() {	# kind
	rm -f "$img"
	truncate -s 160M "$img"
	"$mkfs" -q -F -t ext4 -b 4096 "$img" >/dev/null 2>&1 || return 1
	case $1 in
	journal_dev)	# an external journal, no file system
		"$mkfs" -q -F -O journal_dev -b 4096 "$img" >/dev/null 2>&1 ||
			return 1
		;;
	damaged)	# a wrong link count and a block marked free
		"$debugfs" -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
		;;
	short)	# damaged, and longer than its device
		"$debugfs" -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
		truncate -s 100M "$img"
		;;
	esac
	return 0
}

pass=0 fail=0 skipped=0
while IFS='	' read -r name kind args want keep says; do
	case $name in ''|'#'*) continue ;; esac
	target=$img
	case $kind in
	none) ;;
	mounted)
		if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
			skipped=$((skipped + 1)); continue
		fi
		make_image clean || { fail=$((fail + 1)); continue; }
		mkdir -p "$mnt"
		loop=$(losetup -f --show "$img") && mount "$loop" "$mnt" || {
			echo "note: $name: cannot mount; skipped"
			[ -n "$loop" ] && losetup -d "$loop"; loop=
			skipped=$((skipped + 1)); continue; }
		target=$loop
		;;
	*) make_image "$kind" || { echo "FAIL $name: mke2fs"; fail=$((fail + 1)); continue; } ;;
	esac
	[ "$kind" = none ] || sum=$(sha256sum <"$img")
	# shellcheck disable=SC2086
	set -- $args
	argv=
	for a in "$@"; do
		[ "$a" = IMG ] && a=$target
		argv="$argv $a"
	done
	# shellcheck disable=SC2086
	E2FSCK_CONFIG=/dev/null "$ours" $argv >"$work/out" 2>&1 </dev/null
	rc=$?
	if [ "$kind" = mounted ]; then
		umount "$mnt"; losetup -d "$loop"; loop=
	fi
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: e2fsck$argv exited $rc, want $want"
		sed 's/^/    /' "$work/out" | head -6
		fail=$((fail + 1)); continue
	fi
	case $says in
	'!'*) grep -q "${says#!}" "$work/out" && says_ok=no || says_ok=yes ;;
	?*) grep -q "$says" "$work/out" && says_ok=yes || says_ok=no ;;
	*) says_ok=yes ;;
	esac
	if [ $says_ok = no ]; then
		echo "FAIL $name: the output does not match '$says'"
		sed 's/^/    /' "$work/out" | head -6
		fail=$((fail + 1)); continue
	fi
	if [ "$keep" = same ] && [ "$(sha256sum <"$img")" != "$sum" ]; then
		echo "FAIL $name: the image changed"
		fail=$((fail + 1)); continue
	fi
	pass=$((pass + 1))
done <"$here/options-cases.tsv"
echo "options: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
