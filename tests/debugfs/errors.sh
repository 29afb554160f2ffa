#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# errors.sh --- bad input to debugfs (errors.cases): each case must end with
# the documented exit status, print exactly one line on stderr (none when it
# succeeds), and leave the image byte for byte unchanged.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
mkfs=/usr/sbin/mke2fs
[ -x "$mkfs" ] || { echo "SKIP: no reference mke2fs to make the image"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-errors.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT INT TERM

# The images: a good one, one whose superblock checksum is wrong, garbage,
# and a truncated copy.
"$mkfs" -q -F -t ext4 -b 1024 "$WORK/good.img" 8M >/dev/null || exit 1
cp "$WORK/good.img" "$WORK/sbcsum.img"
printf '\336\255' | dd of="$WORK/sbcsum.img" bs=1 seek=$((1024 + 1020)) \
	conv=notrunc 2>/dev/null
head -c 1048576 /dev/urandom > "$WORK/garbage.img"
# three groups (a backup superblock at 8193), and a copy whose primary
# superblock is wiped: only -b 1024 -s 8193 opens it
"$mkfs" -q -F -t ext4 -b 1024 "$WORK/groups.img" 20M >/dev/null || exit 1
cp "$WORK/groups.img" "$WORK/nosb.img"
dd if=/dev/zero of="$WORK/nosb.img" bs=1024 seek=1 count=1 conv=notrunc \
	2>/dev/null
head -c 3000 "$WORK/good.img" > "$WORK/short.img"
printf 'stats -h\nls -l /\n# a comment\n\npwd\n' > "$WORK/ok.cmds"
printf 'ls /\nbogus\nls /\n' > "$WORK/bad.cmds"
printf 'open -c %s\nparams\nclose\nopen -D %s\nstat <2>\nclose -a\nparams\n' \
	"$WORK/good.img" "$WORK/good.img" > "$WORK/open.cmds"
OK=$WORK/ok.cmds BAD=$WORK/bad.cmds OPEN=$WORK/open.cmds

fails=0
n=0
grep -v '^#' "$here/errors.cases" > "$WORK/cases"
while IFS='|' read -r name want_rc want_err image args <&3; do
	n=$((n + 1))
	case $image in
	none) IMG=$WORK/nonexistent.img ;;
	*) IMG=$WORK/$image.img ;;
	esac
	before=$( [ -f "$IMG" ] && sha256sum < "$IMG")
	eval "set -- $args"
	"$dbg" "$@" > "$WORK/out" 2> "$WORK/err" < /dev/null
	rc=$?
	lines=$(wc -l < "$WORK/err")
	bad=
	[ "$rc" = "$want_rc" ] || bad="exit $rc, want $want_rc"
	if [ -z "$want_err" ]; then
		[ "$lines" = 0 ] || bad="$bad; unexpected stderr"
	else
		[ "$lines" = 1 ] || bad="$bad; $lines lines on stderr"
		grep -Eq -- "$want_err" "$WORK/err" ||
			bad="$bad; stderr does not match /$want_err/"
	fi
	after=$( [ -f "$IMG" ] && sha256sum < "$IMG")
	[ "$before" = "$after" ] || bad="$bad; image changed"
	if [ -n "$bad" ]; then
		echo "FAIL: $name: $bad"
		sed 's/^/    stderr: /' "$WORK/err"
		fails=$((fails + 1))
	fi
done 3< "$WORK/cases"
echo "$n cases, $fails failed"
[ "$fails" = 0 ]
