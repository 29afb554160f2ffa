#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel.sh --- debugfs read commands against the kernel.  For each image
# variant (kernel.geom) an image is made, the kernel writes the tree of
# tree.txt into it, and after umount:
#   1. the reference e2fsck -fn is clean (the image is sound),
#   2. with the image mounted read-only again, compare.py runs one scripted
#      debugfs session (ls -p / -o inode / -o hash, stat, ea_list, dump,
#      rdump) and checks each answer against the kernel's view (scandir,
#      lstat, getxattr, sha256, diff -r) and ncheck / icheck / testb
#      against the reference debugfs,
#   3. the image is byte for byte unchanged (we opened it read-only), and
#      dmesg has no EXT4-fs warning or error for our loop device.
# Needs root, loop devices and python3; SKIP (77) otherwise.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
ourmkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
[ -x "$ourmkfs" ] || { echo "FAIL: no mke2fs at $ourmkfs"; exit 1; }
refdbg=/usr/sbin/debugfs
fsck=/usr/sbin/e2fsck

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
[ -x "$fsck" ] && [ -x "$refdbg" ] || skip "no reference e2fsprogs"
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-kernel.XXXXXX") || exit 1
mnt=/tmp/mnt-e2x-d-kernel.$$
img=
. "$top_srcdir/tests/loop.sh"
cleanup() {
	loop_cleanup
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$mnt" || exit 1

fails=0
fail() { echo "FAIL: $geo: $*"; fails=$((fails + 1)); }

# Make the image with our mke2fs (its failure, or an image the reference
# e2fsck does not find clean, fails the variant).
make_image() {
	rm -f "$img"
	truncate -s "$size" "$img" || return 1
	# shellcheck disable=SC2086
	"$ourmkfs" -q -F $opts "$img" >"$work/mkfs.log" 2>&1 ||
		{ cat "$work/mkfs.log"; return 1; }
	"$fsck" -fn "$img" >"$work/mkfs.fsck" 2>&1 ||
		{ echo "our mke2fs made an unclean image:"
		  tail -5 "$work/mkfs.fsck"; return 1; }
}

# The kernel writes tree.txt.
populate() {
	grep -v '^#' "$here/tree.txt" | while IFS='|' read -r kind path arg
	do
		p=$mnt/$path
		case $kind in
		dir) mkdir -p "$p" ;;
		file) mkdir -p "${p%/*}" && head -c "$arg" /dev/urandom > "$p" ;;
		sparse) head -c 4096 /dev/urandom |
			dd of="$p" bs=4096 seek=$((arg / 4096)) 2>/dev/null ;;
		symlink)
			case $arg in
			*[!0-9]*) ln -s "$arg" "$p" ;;
			*) ln -s "$(printf "%0${arg}d" 0 | tr 0 x)" "$p" ;;
			esac ;;
		hardlink) ln "$mnt/$arg" "$p" ;;
		xattr)
			name=${arg%%=*} val=${arg#*=}
			case $val in
			*[!0-9]*) ;;
			*) val=$(printf "%0${val}d" 0 | tr 0 v) ;;
			esac
			setfattr -n "$name" -v "$val" "$p" ;;
		fifo) mkfifo "$p" ;;
		chown) chown -h "$arg" "$p" ;;
		chmod) chmod "$arg" "$p" ;;
		mtime) touch -m -d "$arg" "$p" ;;
		bigdir)
			mkdir -p "$p" && (cd "$p" && i=0 &&
				while [ $i -lt "$arg" ]; do
					# odd names carry bytes >= 0x80: they
					# hash differently signed/unsigned
					if [ $((i % 2)) = 0 ]; then
						: > "entry-$i"
					else
						: > "$(printf 'caf\303\251')-$i"
					fi
					i=$((i + 1))
				done) ;;
		*) echo "bad tree.txt kind $kind"; return 1 ;;
		esac || return 1
	done
}

grep -v '^#' "$here/kernel.geom" > "$work/geom"
while IFS='|' read -r geo size opts <&3; do
	img=$work/$geo.img
	make_image || { fail "cannot make the image"; continue; }
	loop_attach || { fail "kernel cannot mount it"; continue; }
	populate || fail "populating"
	loop_detach || { fail "umount"; continue; }
	"$fsck" -fn "$img" >"$work/fsck.log" 2>&1 ||
		{ fail "reference e2fsck after the kernel"; cat "$work/fsck.log"; }
	before=$(sha256sum < "$img")
	loop_attach "-o ro,noload" || { fail "read-only mount"; continue; }
	mkdir -p "$work/$geo"
	python3 "$here/compare.py" "$dbg" "$refdbg" "$img" "$mnt" \
		"$work/$geo" || fail "debugfs and the kernel disagree"
	loop_detach
	[ "$(sha256sum < "$img")" = "$before" ] ||
		fail "read-only session changed the image"
	klog_complaints "$loop_dev" && fail "kernel warnings"
	rm -rf "$work/$geo" "$img"
	echo "done: $geo"
done 3< "$work/geom"
[ $fails = 0 ]
