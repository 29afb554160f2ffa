#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# inline_kernel.sh --- cross-check libe2x inline data and file content with
# the kernel: for each geometry (inline_kernel.geom) our mke2fs makes an
# image, inline_driver runs inline_kernel.script through libe2x, then
#   1. the reference e2fsck -fn is clean,
#   2. the kernel mounts it read-write and every file and link reads back
#      byte for byte (sha256) as the driver's model says,
#   3. the kernel appends to / pokes into files we made inline (the append
#      promotes in the kernel) and creates one inline file of its own,
#   4. after umount the reference e2fsck -fn is clean again and libe2x
#      reads the kernel's changes back,
#   5. libe2x appends to the kernel's inline files (one carries a user
#      xattr beside system.data), staying inline or promoting, and writes
#      into a preallocated (unwritten) range, then packs every file that
#      fits (e2x_file_pack_all); the kernel reads everything back, the
#      xattr intact, and e2fsck -fn is clean,
#   6. all along dmesg has no EXT4-fs warning or error for our loop device.
# Needs root and loop devices; SKIP (77) otherwise.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/lib
driver=$top_builddir/tests/lib/inline_driver
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
fsck=/usr/sbin/e2fsck

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
[ -x "$fsck" ] || skip "no reference e2fsck at $fsck"
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }
[ -x "$driver" ] || { echo "FAIL: no driver at $driver"; exit 1; }
for f in inline_kernel.geom inline_kernel.script; do
	[ -r "$here/$f" ] || { echo "FAIL: no $here/$f"; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-inline-kernel.XXXXXX") || exit 1
mnt=/tmp/mnt-h3-inline.$$
loop=
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

fails=0
fail() { echo "FAIL: $geo: $*"; fails=$((fails + 1)); }

sum() { sha256sum < "$1" | cut -d' ' -f1; }

# Files the kernel changes in step 3: name|action|bytes
kernel_actions='kappend|append|5000
kpoke|poke|2
atcap|append|1
kfile|create|100
kx|xattr-create|30
kfal|fallocate|20000'
# Writes libe2x makes in step 5: name|offset or end|bytes|seed|storage
# afterwards (kx: 30 bytes inline beside user.note)
library_actions='kx|end|10|1|inline
kx|end|1000|2|blocks
kfile|end|28|3|inline
tiny|end|1000|4|blocks
kfal|5000|100|5|blocks
kfal|0|7000|6|blocks'
xattr_value=0123456789abcdef

# Every expected file against the mounted tree.
compare_tree() {
	for e in "$exp"/*; do
		n=${e##*/}
		case $n in
		*.link)
			readlink -n "$mnt/${n%.link}" > "$work/got" ||
				{ fail "readlink ${n%.link}"; continue; }
			;;
		*)
			cat "$mnt/$n" > "$work/got" ||
				{ fail "read $n"; continue; }
			;;
		esac
		[ "$(sum "$work/got")" = "$(sum "$e")" ] ||
			fail "$n differs after $1"
	done
}

kernel_writes() {
	echo "$kernel_actions" | while IFS='|' read -r n act bytes; do
		head -c "$bytes" /dev/urandom > "$work/new"
		case $act in
		fallocate)
			fallocate -l "$bytes" "$mnt/$n" &&
				head -c "$bytes" /dev/zero > "$exp/$n" ||
				echo "FAIL: $geo: kernel $act $n"
			;;
		xattr-create)
			: > "$mnt/$n" &&
				setfattr -n user.note -v "$xattr_value" \
					"$mnt/$n" &&
				cat "$work/new" >> "$mnt/$n" &&
				cat "$work/new" >> "$exp/$n" ||
				echo "FAIL: $geo: kernel $act $n"
			;;
		append|create)
			cat "$work/new" >> "$mnt/$n" &&
				cat "$work/new" >> "$exp/$n" ||
				echo "FAIL: $geo: kernel $act $n"
			;;
		poke)
			dd if="$work/new" of="$mnt/$n" bs=1 seek=3 \
				conv=notrunc status=none &&
				dd if="$work/new" of="$exp/$n" bs=1 seek=3 \
					conv=notrunc status=none ||
				echo "FAIL: $geo: kernel poke $n"
			;;
		esac
	done | grep FAIL && fails=$((fails + 1))
}

# Our library reads back what the kernel wrote.
library_reads() {
	echo "$kernel_actions" | while IFS='|' read -r n act bytes; do
		"$driver" cat "$img" "$n" > "$work/got" &&
			[ "$(sum "$work/got")" = "$(sum "$exp/$n")" ] ||
			echo "FAIL: $geo: libe2x reads $n wrongly"
	done | grep FAIL && fails=$((fails + 1))
}

# libe2x writes into files the kernel made or changed.
library_writes() {
	echo "$library_actions" |
	while IFS='|' read -r n off bytes seed kind; do
		"$driver" write "$img" "$n" "$off" "$bytes" "$seed" \
			> "$work/new" || echo "FAIL: $geo: libe2x write $n"
		if [ "$off" = end ]; then
			cat "$work/new" >> "$exp/$n"
		else
			dd if="$work/new" of="$exp/$n" bs=1 seek="$off" \
				conv=notrunc status=none
		fi
		is=$("$driver" kind "$img" "$n")
		[ "$is" = "$kind" ] ||
			echo "FAIL: $geo: $n is $is after write, not $kind"
	done | grep FAIL && fails=$((fails + 1))
}

mount_image() {
	loop=$(losetup -f --show "$img") || skip "no free loop device"
	# mark the log once the device is ours: earlier lines about it are
	# someone else's
	echo "$marker" > /dev/kmsg 2>/dev/null
	mount -t ext4 "$loop" "$mnt" && return 0
	fail "mount"
	losetup -d "$loop"
	loop=
	return 1
}

umount_image() {
	umount "$mnt" || fail "umount"
	if [ -n "$(kernel_complaints)" ]; then
		fail "kernel log:"
		kernel_complaints
	fi
	losetup -d "$loop"
	loop=
}

ref_fsck() {
	E2FSCK_CONFIG=/dev/null "$fsck" -fn "$img" > "$work/fsck.out" 2>&1 &&
		return 0
	fail "e2fsck after $1"
	cat "$work/fsck.out"
	return 1
}

kernel_complaints() {
	dev=${loop##*/}
	dmesg | sed -n "/$marker/,\$p" | grep -E \
	"EXT4-fs (error|warning) \(device $dev\)|"\
"EXT4-fs \($dev\):.*(error|warn|corrupt)"
}

grep -v '^#' "$here/inline_kernel.geom" > "$work/geoms"
while IFS='|' read -r geo opts size; do
	[ -n "$geo" ] || continue
	fails_before=$fails
	img=$work/$geo.img
	exp=$work/$geo.expect
	mkdir -p "$exp"
	# shellcheck disable=SC2086
	"$mkfs" -q -F -t ext4 $opts "$img" "$size" </dev/null >/dev/null ||
		{ fail "mke2fs $opts"; continue; }
	"$driver" run "$img" "$exp" < "$here/inline_kernel.script" ||
		{ fail "driver"; continue; }
	ref_fsck "libe2x" || continue

	marker="e2x-inline-kernel-$$-$geo"
	mount_image || continue
	compare_tree "mount"
	kernel_writes
	sync
	compare_tree "kernel writes"
	umount_image
	ref_fsck "kernel writes"
	library_reads
	library_writes
	# Of all block-mapped files only "forced" (100 bytes) fits inline.
	packed=$("$driver" packall "$img") || fail "packall"
	[ "$packed" = 1 ] || fail "packall packed $packed files, not 1"
	[ "$("$driver" kind "$img" forced)" = inline ] ||
		fail "forced not packed"
	ref_fsck "libe2x writes and packall"
	mount_image || continue
	compare_tree "libe2x writes and packall"
	[ "$(getfattr --only-values -n user.note "$mnt/kx" 2>/dev/null)" = \
		"$xattr_value" ] || fail "user.note of kx lost"
	umount_image
	rm -f "$img"
	[ "$fails" = "$fails_before" ] && echo "ok: $geo"
done < "$work/geoms"
[ "$fails" = 0 ]
