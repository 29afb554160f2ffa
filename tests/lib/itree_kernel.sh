#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# itree_kernel.sh --- the kernel as oracle for itree images.  For each case
# the kernel fills an htree directory, itreetool builds the itrees and then
# creates and unlinks entries through the directory engine (which keeps the
# itrees in step); an unmodified kernel must then mount the image
# read-only, list exactly the entries the itree holds, with the same
# inodes and types, refuse a read-write mount, and log no EXT4-fs warning
# or error.  A control case proves the log check bites: a
# root pointer squeezed into dx_root (info_length 16) draws kernel errors.
set -u

top_builddir=${top_builddir:-.}
tool=$top_builddir/tests/lib/itreetool
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
ref_fsck=/usr/sbin/e2fsck

# name | mke2fs options | files | hard links | subdirs | library creates
cases='
4k-csum|-b 4096 -I 256 -O metadata_csum|3000|200|40|3000
1k-csum|-b 1024 -I 256 -O metadata_csum|2000|100|20|1500
4k-nocsum|-b 4096 -I 256 -O ^metadata_csum|1500|50|10|1500
4k-bigalloc|-b 4096 -I 256 -C 16384 -O bigalloc,metadata_csum|2000|100|20|2000
'

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
[ -e /dev/loop-control ] || skip "no loop device support"
command -v losetup >/dev/null || skip "losetup missing"
[ -x "$tool" ] || skip "$tool not built"

work=$(mktemp -d /tmp/e2x-itree-kernel.XXXXXX)
mnt=/tmp/mnt-h5-itree.$$
mkdir -p "$mnt"
loop=
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

fail=0
bad() { echo "FAIL $tc: $*"; fail=1; }

attach() {
	loop=$(losetup -f --show "$1") || return 1
	lname=${loop##*/}	# other tests share the log: keep to our device
}
detach() { losetup -d "$loop"; loop=; }

# The kernel log is shared and its ring may be full: mark by timestamp.
log_mark() { dmesg | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
log_since() {
	dmesg | awk -v m="${1:-0}" '{ t = $0; sub(/^\[ */, "", t);
		sub(/\].*/, "", t); if (t + 0 > m + 0) print }'
}
# Kernel log lines since mark $1 that are ext4 complaints about our device.
log_complaints() {
	log_since "$1" | grep "EXT4-fs.*[( ]$lname[):]" |
		grep -Ei 'error|warn|corrupt|checksum|invalid' || true
}

# "name ino type" per entry of $1, type as an ext2 file type number.
list_dir() {
	find "$1" -mindepth 1 -maxdepth 1 -printf '%f %i %y\n' |
		awk '{ t["f"]=1; t["d"]=2; t["c"]=3; t["b"]=4; t["p"]=5;
		       t["s"]=6; t["l"]=7; print $1, $2, t[$3] }' | sort
}

populate() ( # dir files links subdirs
	set -e
	d=$1
	mkdir "$d"
	i=1; while [ $i -le "$2" ]; do : > "$d/file-$i"; i=$((i + 1)); done
	i=1; while [ $i -le "$3" ]; do
		ln "$d/file-$i" "$d/link-$i"; i=$((i + 1)); done
	i=1; while [ $i -le "$4" ]; do
		mkdir "$d/sub-$i"; ln -s "file-$i" "$d/sym-$i"; i=$((i + 1))
	done
	mkfifo "$d/fifo"
	rm -f "$d/file-7" "$d/file-70"	# holes in the inode sequence
)

run_case() {
	img=$work/$tc.img
	rm -f "$img"
	"$mkfs" -q -F -t ext4 $opts "$img" 128M </dev/null >/dev/null ||
		{ bad "mkfs $opts"; return; }
	attach "$img" || { bad "losetup"; return; }
	mount "$loop" "$mnt" || { bad "rw mount before itree"; detach; return; }
	if ! populate "$mnt/big" "$files" "$links" "$subdirs" ||
	   ! mkdir "$mnt/small" || ! : > "$mnt/small/one"; then
		bad "kernel workload failed"; umount "$mnt"; detach; return
	fi
	list_dir "$mnt/big" > "$work/expect"
	umount "$mnt"; detach

	"$tool" build "$img" 2>/dev/null || { bad "itreetool build"; return; }
	"$tool" verify "$img" 2>/dev/null || { bad "verify"; return; }
	"$tool" list "$img" big > "$work/itree" || { bad "list"; return; }
	sort "$work/itree" | cmp -s - "$work/expect" ||
		bad "itree entries differ from the kernel's listing"
	# library operations, then the itree must still match the directory
	"$tool" churn "$img" big "$churn" || { bad "churn"; return; }
	"$tool" verify "$img" 2>/dev/null || { bad "verify (churn)"; return; }
	"$tool" list "$img" big > "$work/itree" || { bad "list"; return; }
	sort "$work/itree" > "$work/expect"
	[ "$(wc -l < "$work/expect")" -gt "$files" ] ||
		bad "churn left too few entries"
	awk 'NR > 1 && $2 < last { bad = 1 } { last = $2 } END { exit bad }' \
		"$work/itree" || bad "itree order is not by inode number"

	attach "$img" || { bad "losetup"; return; }
	mark=$(log_mark)	# once the device is ours
	if mount -o ro "$loop" "$mnt"; then
		list_dir "$mnt/big" > "$work/got"
		cmp -s "$work/got" "$work/expect" ||
			bad "kernel lists other entries after the itree build"
		ls -lR "$mnt" > /dev/null || bad "kernel could not stat entries"
		# the root record is invisible to users (no system.* handler)
		if command -v getfattr >/dev/null &&
		   getfattr -d -m - "$mnt/big" 2>&1 | grep -q itree; then
			bad "system.itree visible through listxattr"
		fi
		umount "$mnt"
	else
		bad "read-only mount refused"
	fi
	c=$(log_complaints "$mark")
	[ -z "$c" ] || bad "kernel complained: $c"

	mark=$(log_mark)
	if mount "$loop" "$mnt" 2>/dev/null; then
		bad "read-write mount accepted"
		umount "$mnt"
	fi
	log_since "$mark" | grep "[( ]$lname[):]" |
		grep -q 'unsupported optional features (80000000)' ||
		bad "no kernel message refusing read-write"
	detach

	"$tool" drop "$img" 2>/dev/null || { bad "itreetool drop"; return; }
	E2FSCK_CONFIG=/dev/null "$ref_fsck" -fn "$img" >"$work/fsck" 2>&1 ||
		{ bad "reference e2fsck not clean after drop"
		  cat "$work/fsck"; }
	[ $fail = 0 ] && echo "PASS $tc"
}

# Control: the log check must see the kernel reject a dx_root whose info
# length was stretched to hold a pointer.
control() {
	tc=control-dx-root
	img=$work/4k-csum.img
	"$mkfs" -q -F -t ext4 -b 4096 -I 256 -O metadata_csum "$img" 64M \
		</dev/null >/dev/null || { bad "mkfs"; return; }
	attach "$img" || { bad "losetup"; return; }
	mount "$loop" "$mnt" && populate "$mnt/big" 600 0 0 && umount "$mnt"
	detach
	blk=$(debugfs -R "bmap /big 0" "$img" 2>/dev/null)
	[ -n "$blk" ] || { bad "no dx_root block"; return; }
	# byte 0x1d of block 0 is dx_root_info.info_length
	printf '\020' | dd of="$img" bs=1 seek=$((blk * 4096 + 29)) \
		conv=notrunc status=none
	attach "$img" || { bad "losetup"; return; }
	mark=$(log_mark)	# once the device is ours
	if mount -o ro "$loop" "$mnt"; then
		ls "$mnt/big" >/dev/null 2>&1
		umount "$mnt"
	fi
	detach
	c=$(log_complaints "$mark")
	[ -n "$c" ] || bad "kernel accepted a stretched dx_root silently"
	[ $fail = 0 ] && echo "PASS $tc (kernel: $(echo "$c" | head -1 |
		sed 's/.*EXT4-fs/EXT4-fs/'))"
}

echo "$cases" | while IFS='|' read -r tc opts files links subdirs churn; do
	[ -n "$tc" ] || continue
	run_case
	[ $fail = 0 ] || exit 1
done || fail=1
[ $fail = 0 ] && control
exit $fail
