#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# itree.sh --- debugfs on directories with an itree (built by libe2x via
# tests/lib/dir_driver):
#   1. ls -o inode lists what the driver says each directory holds, in
#      inode order; itree_dump walks every node, its entry total equals the
#      directory's and its node count the root record's; dir_check finds
#      no problem;
#   2. mounted read-only by the kernel (itree is read-only compatible),
#      compare.py checks ls / stat / dump / rdump against the kernel;
#   3. a leaf node with a broken magic: itree_dump and dir_check both fail
#      with one line on stderr, dir_check names the problem, and neither
#      changes the image.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
driver=$top_builddir/tests/lib/dir_driver
mkfs=/usr/sbin/mke2fs
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$driver" ] || { echo "SKIP: no $driver"; exit 77; }
[ -x "$mkfs" ] || { echo "SKIP: no reference mke2fs"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-itree.XXXXXX") || exit 1
mnt=/tmp/mnt-e2x-d-itree.$$
img=
. "$top_srcdir/tests/loop.sh"
cleanup() {
	loop_cleanup
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

img=$work/i.img
"$mkfs" -q -F -t ext4 -b 4096 -N 40000 "$img" 256M >/dev/null || exit 1
"$driver" build "$img" itree > "$work/expect" || { fail "driver build"; exit 1; }
"$dbg" -R 'features' "$img" | grep -q ' itree' ||
	{ fail "no itree feature after the build"; exit 1; }

# 1. listings, node walk, verifier
dirs=$(awk '$3 == "d" { print $1 }' "$work/expect")
for d in / $dirs; do
	"$dbg" -R "ls -o inode $d" "$img" > "$work/ls" 2> "$work/err" ||
		{ fail "ls -o inode $d: $(cat "$work/err")"; continue; }
	grep -Ev ' \.\.?$' "$work/ls" | awk '{ print $1 }' > "$work/inos"
	sort -n -c "$work/inos" 2>/dev/null || fail "ls -o inode $d: not in inode order"
	# the driver names paths without the leading /
	pfx=${d#/}
	[ -n "$pfx" ] && pfx=$pfx/
	awk -v p="$pfx" 'index($1, p) == 1 && substr($1, length(p) + 1) !~ /\// {
		print substr($1, length(p) + 1), $2 }' "$work/expect" |
		sort > "$work/want"
	grep -Ev ' \.\.?$' "$work/ls" | grep -v ' lost+found$' |
		awk '{ print $2, $1 }' | sort > "$work/got"
	cmp -s "$work/want" "$work/got" || fail "ls -o inode $d differs from the driver"
	if "$dbg" -R "itree_dump $d" "$img" > "$work/dump" 2>/dev/null; then
		total=$(sed -n 's/^\([0-9]*\) nodes, \([0-9]*\) entries$/\2/p' "$work/dump")
		nodes=$(sed -n 's/^\([0-9]*\) nodes, .*/\1/p' "$work/dump")
		rnodes=$(sed -n 's/.* nodes \([0-9]*\),.*/\1/p' "$work/dump")
		[ "$total" = "$(wc -l < "$work/got")" ] ||
			fail "itree_dump $d: $total entries, directory has $(wc -l < "$work/got")"
		[ "$nodes" = "$rnodes" ] ||
			fail "itree_dump $d: walked $nodes nodes, root says $rnodes"
		echo "$d: itree with $nodes nodes, $total entries"
		echo "$d" >> "$work/with-itree"
	fi
	"$dbg" -R "dir_check $d" "$img" > "$work/chk" 2>&1 ||
		fail "dir_check $d: $(cat "$work/chk")"
done

[ -s "$work/with-itree" ] || fail "itree_dump found no itree at all"

# 2. the kernel's view (read-only mount)
if [ "$(id -u)" != 0 ] || ! command -v python3 >/dev/null ||
	! command -v losetup >/dev/null; then
	echo "NOTE: kernel comparison skipped (needs root, losetup, python3)"
elif mkdir -p "$mnt" && loop_attach "-o ro,noload"; then
	mkdir -p "$work/cmp"
	python3 "$here/compare.py" "$dbg" /usr/sbin/debugfs "$img" "$mnt" \
		"$work/cmp" > "$work/cmp.log" 2>&1 ||
		{ fail "debugfs and the kernel disagree"; tail -20 "$work/cmp.log"; }
	loop_detach || fail "umount"
	klog_complaints "$loop_dev" && fail "kernel warnings"
else
	fail "the kernel cannot mount the itree image read-only"
fi

# read-write opens: itree is known to us (libext2fs alone refuses it), any
# other unknown read-only-compatible feature is still refused
cp "$img" "$work/rw.img"
"$dbg" -w -R 'ssv mnt_count 3' "$work/rw.img" 2>"$work/err" ||
	fail "-w refused on an itree image: $(cat "$work/err")"
"$dbg" -R 'stats -h' "$work/rw.img" | grep -q '^Mount count: *3$' ||
	fail "ssv on the itree image not written"
"$dbg" -w -R 'ssv feature_ro_compat 0xc000046b' "$work/rw.img" ||
	fail "setting an unknown feature bit"
sum=$(sha256sum < "$work/rw.img")
"$dbg" -w -R 'ssv mnt_count 4' "$work/rw.img" 2>"$work/err" &&
	fail "-w accepted an unknown read-only-compatible feature"
grep -q 'unsupported read-only feature' "$work/err" ||
	fail "unknown feature: $(cat "$work/err")"
[ "$(sha256sum < "$work/rw.img")" = "$sum" ] || fail "refused open changed the image"

# 3. a damaged leaf
big=$(for d in $dirs; do
	"$dbg" -R "itree_dump $d" "$img" 2>/dev/null | grep -q 'level 0' &&
		echo "$d" && break; done)
[ -n "$big" ] || { fail "no directory with an itree leaf"; exit 1; }
leaf=$("$dbg" -R "itree_dump $big" "$img" |
	sed -n 's/^ *Node \([0-9]*\): level 0,.*/\1/p' | head -1)
printf 'XXXX' | dd of="$img" bs=1 seek=$((leaf * 4096)) conv=notrunc 2>/dev/null
sum=$(sha256sum < "$img")
"$dbg" -R "itree_dump $big" "$img" > /dev/null 2> "$work/err" &&
	fail "itree_dump accepted a broken leaf"
[ "$(wc -l < "$work/err")" = 1 ] || fail "itree_dump: not one stderr line"
"$dbg" -R "dir_check $big" "$img" > "$work/chk" 2> "$work/err" &&
	fail "dir_check accepted a broken leaf"
[ "$(wc -l < "$work/err")" = 1 ] || fail "dir_check: not one stderr line"
grep -q "block $leaf .*magic" "$work/chk" ||
	fail "dir_check did not name the broken node: $(head -3 "$work/chk")"
[ "$(sha256sum < "$img")" = "$sum" ] || fail "reading changed the image"
[ $fails = 0 ]
