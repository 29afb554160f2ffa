#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# paths.sh --- problems name the path of an inode once pass 2 has read
# the directories: "/a/b (13)", not only the inode number.  The damage is
# made with the reference tools: wrong link counts on a directory two
# levels down, on the root and on a file.
: "${top_builddir:=.}"
ours=$top_builddir/e2fsck/e2fsck
for t in /usr/sbin/mke2fs /usr/sbin/debugfs; do
	[ -x "$t" ] || { echo "SKIP: no $t"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-paths.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree/a/b"
echo x >"$work/tree/a/b/f"
img=$work/img
/usr/sbin/mke2fs -q -F -t ext4 -d "$work/tree" "$img" 8M >/dev/null 2>&1 ||
	{ echo "FAIL: cannot make the image"; exit 1; }
/usr/sbin/debugfs -w -R "sif /a/b links_count 7" "$img" >/dev/null 2>&1
/usr/sbin/debugfs -w -R "sif / links_count 9" "$img" >/dev/null 2>&1
/usr/sbin/debugfs -w -R "sif /a/b/f links_count 3" "$img" >/dev/null 2>&1
ino=$(/usr/sbin/debugfs -R "stat /a/b" "$img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
fino=$(/usr/sbin/debugfs -R "stat /a/b/f" "$img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
"$ours" -fn "$img" >"$work/out" 2>&1
fail=0
for want in "Inode /a/b ($ino) has link count 7; counted 2 names" \
	"Inode / (2) has link count 9; counted " \
	"Inode /a/b/f ($fino) has link count 3; counted 1 names"; do
	grep -qF "$want" "$work/out" || { echo "FAIL: no '$want' in:"; cat "$work/out"; fail=1; }
done
[ $fail = 0 ] && echo "ok: paths named"
exit $fail
