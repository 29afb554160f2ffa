#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# write.sh --- debugfs writing commands (write.cases).  Each case makes an
# image with our mke2fs, runs one scripted session (debugfs -w -f) that
# must succeed command by command, then:
#   1. the reference e2fsck -fn is clean (images without itree);
#   2. checks marked (img) ask debugfs about forms, itrees and blocks;
#   3. the kernel mounts it (read-only for itree, else read-write) and the
#      listing, contents, devices, links and attributes are as the session
#      made them; no EXT4-fs warning or error for our loop device;
#   4. read-write mounts: the kernel adds and removes a name in every
#      checked directory, and the reference e2fsck is still clean after.
# E2X_LONG=1 adds the larger rows of write_long.cases.  Needs root and
# loop devices (SKIP, 77, otherwise).

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
refdbg=/usr/sbin/debugfs
fsck=/usr/sbin/e2fsck

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }
[ -x "$fsck" ] && [ -x "$refdbg" ] || skip "no reference e2fsprogs"
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v getfattr >/dev/null || skip "no getfattr (attr package)"

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-write.XXXXXX") || exit 1
mnt=/tmp/mnt-e2x-d-write.$$
img=
. "$top_srcdir/tests/loop.sh"
cleanup() {
	loop_cleanup
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$mnt" || exit 1

fails=0
bad=
note() { bad="$bad; $*"; }

. "$here/session.sh"

flags_of() {
	"$refdbg" -R "stat $1" "$img" 2>/dev/null |
		sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p'
}

# One (img) check; the path is relative to the root.
check_img() {
	k=${1%%=*} v=${1#*=}
	p=${v%%:*} a=${v#*:}
	case $k in
	fl)
		fw=$(flags_of "/$p")
		case $a in
		^*) [ $((fw & ${a#^})) = 0 ] || note "$p flags $fw have $a" ;;
		*) [ $((fw & a)) != 0 ] || note "$p flags $fw lack $a" ;;
		esac ;;
	it)
		if "$dbg" -R "itree_dump /$p" "$img" >/dev/null 2>&1; then
			[ "$a" = yes ] || note "$p has an itree"
		else
			[ "$a" = no ] || note "$p has no itree"
		fi ;;
	dc)
		"$dbg" -R "dir_check /$p" "$img" > "$work/dc" 2>&1 &&
			grep -q ': 0 problems$' "$work/dc" ||
			note "dir_check $p: $(tr '\n' ' ' < "$work/dc")" ;;
	dcp)
		"$dbg" -R "dir_check /$p" "$img" > "$work/dc" 2>&1 &&
			note "dir_check $p: clean, want '$a'"
		grep -q "$a" "$work/dc" ||
			note "dir_check $p: $(tr '\n' ' ' < "$work/dc")" ;;
	ib)
		got=$("$refdbg" -R "stat /$p" "$img" 2>/dev/null |
			sed -n 's/.*Blockcount: \([0-9]*\).*/\1/p')
		[ "$got" = "$a" ] || note "$p: i_blocks $got, want $a" ;;
	*) return 1 ;;
	esac
	return 0
}

xattr_of() {
	getfattr -h --only-values -n "$2" "$mnt/$1" 2>/dev/null
}

# One check against the kernel's mount.
check_mnt() {
	k=${1%%=*} v=${1#*=}
	p=${v%%:*} a=${v#*:}
	m=$mnt/$p
	case $k in
	f)
		fn=${a%%:*} len=${a#*:}
		[ "$len" = "$a" ] && len=$(stat -c %s "$work/f$fn")
		{ [ -f "$m" ] && [ ! -L "$m" ] &&
			[ "$(stat -c %s "$m")" = "$len" ] &&
			head -c "$len" "$work/f$fn" | cmp -s - "$m"; } ||
			note "$p: not the first $len bytes of @F$fn" ;;
	z) [ -f "$m" ] && [ "$(stat -c %s "$m")" = "$a" ] ||
		note "$p: size $(stat -c %s "$m" 2>&1), want $a" ;;
	d) { [ -d "$m" ] && [ "$(ls -A "$m" | wc -l)" = "$a" ]; } ||
		note "$p: $(ls -A "$m" 2>&1 | wc -l) entries, want $a" ;;
	l) [ -L "$m" ] && [ "$(readlink "$m")" = "$a" ] ||
		note "$p: link to '$(readlink "$m" | cut -c1-20)...'" ;;
	p) [ -p "$m" ] || note "$p: not a fifo" ;;
	n) [ -e "$m" ] || [ -L "$m" ] && note "$p: still there" ;;
	c|b)
		t=$( [ "$k" = c ] && echo 'character special file' ||
			echo 'block special file')
		[ "$(stat -c '%F %t %T' "$m" 2>/dev/null)" = \
		  "$(printf '%s %x %x' "$t" "${a%,*}" "${a#*,}")" ] ||
			note "$p: $(stat -c '%F %t:%T' "$m" 2>&1), want $k $a" ;;
	h) [ "$(stat -c %i "$m")" = "$(stat -c %i "$mnt/$a")" ] ||
		note "$p and $a are not one inode" ;;
	x) [ "$(xattr_of "$p" "${a%%=*}")" = "${a#*=}" ] ||
		note "$p: ${a%%=*} = '$(xattr_of "$p" "${a%%=*}" | cut -c1-20)'" ;;
	nx) getfattr -h -n "$a" "$m" >/dev/null 2>&1 &&
		note "$p: $a still set" ;;
	*) note "unknown check $k" ;;
	esac
}

# Kernel changes to every directory a case checks (read-write mounts).
kernel_touch() {
	for c in $1; do
		case $c in
		d=*) p=${c#d=}; p=${p%%:*}
			: > "$mnt/$p/kernel-new" && rm "$mnt/$p/kernel-new" ||
				note "kernel cannot change $p" ;;
		esac
	done
}

[ -n "${E2X_LONG:-}" ] ||
	echo "note: E2X_LONG unset: the $(grep -vc '^#' "$here/write_long.cases")" \
		"larger rows of write_long.cases are not run"
{ cat "$here/write.cases"
  [ -n "${E2X_LONG:-}" ] && cat "$here/write_long.cases"; } |
	grep -v '^#' | grep . > "$work/cases"
n=0
while IFS='|' read -r name opts size cmds checks <&3; do
	n=$((n + 1))
	bad=
	img=$work/$name.img
	rm -f "$img"
	# shellcheck disable=SC2086
	"$mkfs" -q -F $opts "$img" "$size" > "$work/mkfs" 2>&1 ||
		{ echo "FAIL: $name: mke2fs: $(cat "$work/mkfs")"
		  fails=$((fails + 1)); continue; }
	session "$cmds" > "$work/cmds"
	checks=$(expand "$checks")
	"$dbg" -w -f "$work/cmds" "$img" > "$work/out" 2> "$work/err" ||
		note "session failed: $(head -3 "$work/err" | tr '\n' ' ')"
	[ -s "$work/err" ] && note "session said: $(head -3 "$work/err")"
	itree=
	"$dbg" -R features "$img" | grep -q ' itree' && itree=1
	if [ -z "$itree" ] && ! "$fsck" -fn "$img" > "$work/fsck" 2>&1; then
		note "e2fsck: $(grep -v '^Pass\|^e2fsck' "$work/fsck" |
			head -4 | tr '\n' ' ')"
	fi
	mnt_checks=
	for c in $checks; do
		check_img "$c" || mnt_checks="$mnt_checks $c"
	done
	if [ -n "$itree" ]; then mo="-o ro,noload"; else mo=; fi
	if loop_attach "$mo"; then
		for c in $mnt_checks; do
			check_mnt "$c"
		done
		[ -z "$itree" ] && kernel_touch "$mnt_checks"
		loop_detach || note "umount"
		klog_complaints "$loop_dev" && note "kernel warnings"
		if [ -z "$itree" ] && ! "$fsck" -fn "$img" > "$work/fsck" 2>&1
		then
			note "e2fsck after the kernel: $(grep -v '^Pass\|^e2fsck' \
				"$work/fsck" | head -4 | tr '\n' ' ')"
		fi
	else
		note "the kernel cannot mount it"
	fi
	if [ -n "$bad" ]; then
		echo "FAIL: $name${bad#;}"
		fails=$((fails + 1))
	else
		echo "ok: $name"
	fi
	rm -f "$img"
done 3< "$work/cases"

echo "$n cases, $fails failed"
[ "$fails" = 0 ]
