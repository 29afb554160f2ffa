#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dir_kernel.sh --- cross-check the libe2x directory engine with the kernel.
# For each geometry below our mke2fs makes an image and dir_driver builds
# directories through libe2x (inline, one block, an htree of ~20,000
# entries with hard links, subdirectories, removals and renames), then
#   1. the reference e2fsck -fn is clean (itree images: after the trees
#      are dropped),
#   2. the kernel mounts it (read-only with itree) and lists exactly the
#      expected names with the right inode numbers and types,
#   3. read-write mounts: the kernel creates, removes and renames entries
#      in our directories (its htree and inline code on our structures),
#   4. after umount the reference e2fsck -fn is clean again and libe2x
#      lists what the kernel left, every directory verifying clean,
#   5. dmesg shows no EXT4-fs warning or error for our loop device.
# Needs root and loop devices; SKIP (77) otherwise.

: "${top_srcdir:=.}" "${top_builddir:=.}"
LC_ALL=C; export LC_ALL	# names with bytes >= 0x80 sort and print as bytes
driver=$top_builddir/tests/lib/dir_driver
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
fsck=/usr/sbin/e2fsck

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
[ -x "$fsck" ] || skip "no reference e2fsck at $fsck"
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }
[ -x "$driver" ] || { echo "FAIL: no driver at $driver"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-dir-kernel.XXXXXX") || exit 1
mnt=/tmp/mnt-h4-dir.$$
. "$top_srcdir/tests/loop.sh"	# sets loop=; klog_mark, klog_complaints
cleanup() {
	if [ -n "$loop" ]; then
		umount "$mnt" 2>/dev/null
		losetup -d "$loop" 2>/dev/null
	fi
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$mnt" || exit 1

# name|mke2fs options|itree (1: set the feature, mount read-only)|deep
# (1: long names, the htree of "big" reaches a third level, large_dir)
# |unsigned (1: the unsigned name hash, file names with bytes >= 0x80)
geometries='4k-csum|-b 4096 -N 40000|0|0|0
1k-inline|-b 1024 -I 512 -O inline_data -N 40000|0|0|0
bigalloc|-b 4096 -O bigalloc -C 16384 -N 30000|0|0|0
4k-nocsum-inline|-b 4096 -O ^metadata_csum,inline_data -N 40000|0|0|0
itree|-b 4096 -N 40000|1|0|0
1k-unsigned-hash|-b 1024 -N 40000|0|0|1
1k-large_dir-3-levels|-b 1024 -O large_dir -N 16000|0|1|0'

fail() { echo "FAIL: $geo: $*"; echo "$geo" >> "$work/failures"; }

# "path inode type" for every entry under the mount, lost+found left out.
kernel_list() {
	python3 - "$mnt" <<'EOF'
import os, sys
def walk(d, prefix):
    for e in os.scandir(d):
        if not prefix and e.name == "lost+found":
            continue
        if e.is_dir(follow_symlinks=False):
            t = "d"
        elif e.is_file(follow_symlinks=False):
            t = "f"
        else:
            t = "o"
        print("%s%s %d %s" % (prefix, e.name, e.inode(), t))
        if t == "d":
            walk(e.path, prefix + e.name + "/")
walk(sys.argv[1], "")
EOF
}

# Work the kernel does on our directories (read-write mounts).
kernel_churn() {
	i=0
	while [ $i -lt 300 ]; do
		: > "$mnt/big/kernel-$i" || return 1
		i=$((i + 1))
	done
	# remove every 7th of our names in big, rename a few across
	grep '^big/file-' "$work/expected" | awk 'NR % 7 == 0 {print $1}' |
	while read -r p; do rm -f "$mnt/$p" || exit 1; done || return 1
	grep '^big/file-' "$work/expected" | awk 'NR % 50 == 1 {print $1}' |
	while read -r p; do
		[ -e "$mnt/$p" ] || continue
		mv "$mnt/$p" "$mnt/linear/k-${p##*/}" || exit 1
	done || return 1
	# the kernel's inline code: grow small until it is promoted
	i=0
	while [ $i -lt 40 ]; do
		: > "$mnt/small/kernel-small-file-$i" || return 1
		i=$((i + 1))
	done
	mkdir "$mnt/linear/kdir" || return 1
	sub=$(grep '^big/[^/]* [0-9]* d$' "$work/expected" | head -1 |
	      cut -d' ' -f1)
	[ -z "$sub" ] || mv "$mnt/$sub" "$mnt/linear/kdir/"
}

# New kernel log lines about our loop device that warn or report errors
# (since the mark set once the device was ours; tests/loop.sh).
dmesg_bad() {
	klog_complaints "${loop##*/}"
}

echo "$geometries" | while IFS='|' read -r geo opts itree deep uns; do
	img=$work/$geo.img
	rm -f "$img"
	if ! $mkfs -q -F -t ext4 $opts "$img" 512M >/dev/null 2>&1; then
		fail "mke2fs $opts"
		continue
	fi
	arg=
	[ "$itree" = 1 ] && arg=itree
	[ "$deep" = 1 ] && arg="$arg deep"
	[ "$uns" = 1 ] && arg="$arg unsigned"
	if ! "$driver" build "$img" $arg > "$work/expected.raw"; then
		fail "driver build"
		continue
	fi
	sort "$work/expected.raw" > "$work/expected"
	if [ "$itree" = 0 ] && ! $fsck -fn "$img" > "$work/fsck.out" 2>&1
	then
		fail "reference e2fsck after libe2x"
		head -20 "$work/fsck.out"
	fi
	loop=$(losetup -f --show "$img") || { fail "losetup"; continue; }
	klog_mark
	mopt=rw
	[ "$itree" = 1 ] && mopt=ro
	if ! mount -t ext4 -o "$mopt" "$loop" "$mnt"; then
		fail "mount -o $mopt"
		losetup -d "$loop"
		loop=
		continue
	fi
	kernel_list | sort > "$work/kernel"
	if ! cmp -s "$work/expected" "$work/kernel"; then
		fail "kernel listing differs from the expected names"
		diff "$work/expected" "$work/kernel" | head -10
	fi
	n=$(wc -l < "$work/kernel")
	after=$work/expected
	if [ "$mopt" = rw ]; then
		kernel_churn || fail "kernel operations on our directories"
		kernel_list | sort > "$work/kernel.after"
		after=$work/kernel.after
	fi
	umount "$mnt" || fail "umount"
	bad=$(dmesg_bad)
	[ -z "$bad" ] || { fail "kernel log:"; echo "$bad" | head -5; }
	losetup -d "$loop"
	loop=
	if [ "$itree" = 1 ]; then
		"$driver" list "$img" > "$work/lib.raw" ||
			fail "e2x_dir_verify problems (itree image)"
		"$driver" dropitree "$img" || fail "dropping itrees"
	fi
	if ! $fsck -fn "$img" > "$work/fsck.out" 2>&1; then
		fail "reference e2fsck after the kernel"
		head -20 "$work/fsck.out"
	fi
	if ! "$driver" list "$img" > "$work/lib.raw"; then
		fail "e2x_dir_verify problems after the kernel"
	fi
	sort "$work/lib.raw" > "$work/lib"
	if ! cmp -s "$after" "$work/lib"; then
		fail "libe2x listing differs from the kernel's"
		diff "$after" "$work/lib" | head -10
	fi
	echo "done: $geo: $n entries listed by the kernel ($mopt)"
done

[ ! -s "$work/failures" ] || {
	echo "FAIL: $(wc -l < "$work/failures") problem(s)"
	exit 1
}
exit 0
