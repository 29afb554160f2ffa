#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# notes.sh --- mke2fs -O itree says once, on stderr, that the kernel
# mounts the result read-only and e2fsprogs refuses it (and that is
# true: the reference e2fsck refuses the image); -q says nothing; without
# itree there is no such note.
: "${top_builddir:=.}"
mk=$top_builddir/mke2fs/mke2fs
work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-notes.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
"$mk" -O itree "$work/a.img" 16M >"$work/out" 2>"$work/err" ||
	{ echo "FAIL: exit $?: $(cat "$work/err")"; exit 1; }
n=$(grep -c "itree.*read-only.*refuse" "$work/err")
[ "$n" = 1 ] || { echo "FAIL: $n itree notes: $(cat "$work/err")"; fail=1; }
grep -q "itree.*read-only" "$work/out" && { echo "FAIL: the note is on stdout"; fail=1; }
if [ -x /usr/sbin/e2fsck ] && /usr/sbin/e2fsck -fn "$work/a.img" >/dev/null 2>&1; then
	echo "FAIL: the reference e2fsck accepts itree: the note is wrong"; fail=1
fi
"$mk" -q -F -O itree "$work/a.img" 16M >"$work/out" 2>&1
[ -s "$work/out" ] && { echo "FAIL: -q printed: $(cat "$work/out")"; fail=1; }
"$mk" -F "$work/a.img" 16M >"$work/out" 2>&1
grep -q "read-only" "$work/out" && { echo "FAIL: itree note without itree"; fail=1; }
[ $fail = 0 ] && echo "ok: one itree note"
exit $fail
