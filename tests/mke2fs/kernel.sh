#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/kernel.sh --- the kernel as oracle, one row of tests/mke2fs/kernel.tsv
# at a time: format a loop device with our mke2fs, e2fsck -fn it, mount it,
# run the workload, remount and verify, unmount, then e2fsck -fn again and
# check the kernel log.
# Run through the wrappers tests/mke2fs/kernel-GROUP.sh.

. "$(dirname "$0")/lib.sh"

# The kernel log is followed from the start of the test (dmesg -W) rather
# than read afterwards: other tests on this machine may clear the ring
# buffer.  Each row is bracketed by markers written to /dev/kmsg.

# start_klog --- begin capturing new kernel messages into $SCRATCH/klog.
start_klog()
{
	stdbuf -oL dmesg -W >"$SCRATCH/klog" 2>&1 &
	KLOG_PID=$!
	on_exit "kill $KLOG_PID"
	# dmesg -W shows only what arrives after it opened the log: mark
	# until a marker comes through
	for try in 1 2 3 4 5 6 7 8 9 10; do
		klog_mark "e2x-tests-m-capture-$$-$try" 10 && return 0
	done
	skip "cannot follow the kernel log with dmesg -W"
}

# klog_mark TEXT [TENTHS] --- write TEXT to the kernel log and wait (up to
# TENTHS tenths of a second, 10 s by default) until the capture holds it.
klog_mark()
{
	echo "$1" >/dev/kmsg
	i=0
	while [ $i -lt "${2:-100}" ]; do
		grep -q "$1" "$SCRATCH/klog" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# What the kernel says about every mount and unmount.
HARMLESS="mounted filesystem|unmounting filesystem|\
mounting ext[23] file system using the ext4 subsystem"
# A loop device over a file system without zero-range support (tmpfs) turns
# down the request to zero a range, which mke2fs (ours and the reference
# alike) then writes with zeros instead: the block layer logs the refusal.
NO_ZEROES="operation not supported error, dev DEV, sector [0-9]+ \
op 0x9:\(WRITE_ZEROES\)"

# kernel_news START END DEV --- captured kernel lines between the markers
# that concern DEV and are not the harmless mount/unmount notes.
kernel_news()
{
	d=$(basename "$3")
	if ! klog_mark "$2"; then
		echo "the kernel log capture lost the end marker $2"
		return
	fi
	sed -n "/$1/,/$2/p" "$SCRATCH/klog" |
		grep -E "[^a-z0-9]$d([^0-9p]|\$)" |
		grep -vE "EXT4-fs \($d\): ($HARMLESS)" |
		grep -vE "$d: detected capacity change" |
		grep -vE "$(echo "$NO_ZEROES" | sed "s/DEV/$d/")" || true
}

# mount_dev DEV DIR --- mount read-write through the ext4 driver.
mount_dev()
{
	mount -t ext4 "$1" "$2" 2>"$SCRATCH/mount.err" && return 0
	sed 's/^/    | /' "$SCRATCH/mount.err"
	return 1
}

# still_ours IMG DEV --- DEV is still the loop device of IMG.  On a shared
# machine another test may detach a device it once held and we now hold (a
# busy loop device then goes away at our unmount): the row is void, not
# failed, and runs again (see the loop at the end).
still_ours()
{
	[ "$(losetup -n -O NAME -j "$1" 2>/dev/null)" = "$2" ] && return 0
	echo "note: $2 was detached by another process"
	LOST_DEVICE=1
	return 1
}

# check_row NAME SIZE OPTIONS --- one case.
check_row()
{
	name=$1 size=$2 opts=$3
	[ "$opts" = - ] && opts=
	img=$SCRATCH/$name.img
	mnt=$SCRATCH/mnt-$name
	mkdir -p "$mnt"
	rm -f "$img"
	truncate -s "$size" "$img" || { fail "$name" "no backing file"; return; }
	dev=$(losetup -f --show "$img") ||
		{ fail "$name" "cannot attach a loop device"; return; }
	on_exit "detach_image $img"
	marker="e2x-tests-m-$name-$$-$(date +%s%N)"
	klog_mark "$marker-start" ||
		{ fail "$name" "kernel log capture stopped"; return; }
	# shellcheck disable=SC2086
	if ! "$E2X_MKE2FS" -q $opts "$dev" </dev/null >"$SCRATCH/mkfs.out" 2>&1
	then
		fail "$name" "our mke2fs failed on $dev:"
		sed 's/^/    | /' "$SCRATCH/mkfs.out"
		return
	fi
	if sanitized "$SCRATCH/mkfs.out"; then
		fail "$name" "sanitizer report from our mke2fs:"
		head -20 "$SCRATCH/mkfs.out" | sed 's/^/    | /'
	fi
	if ! "$REF_E2FSCK" -fn "$dev" </dev/null >"$SCRATCH/fsck.out" 2>&1; then
		fail "$name" "e2fsck -fn does not find the new file system clean:"
		head -40 "$SCRATCH/fsck.out" | sed 's/^/    | /'
	fi
	if ! mount_dev "$dev" "$mnt"; then
		fail "$name" "the kernel does not mount it"
		kernel_news "$marker-start" "$marker-end" "$dev" |
			sed 's/^/    | /'
		return
	fi
	on_exit "unmount_dir $mnt"
	python3 "$MDIR/workload.py" run "$mnt" "$SCRATCH/$name.json" \
		>"$SCRATCH/work.out" 2>&1
	wrc=$?
	sed 's/^/    | /' "$SCRATCH/work.out"
	[ "$wrc" = 0 ] || fail "$name" "the workload failed"
	if ! umount "$mnt"; then
		fail "$name" "cannot unmount"
		return
	fi
	still_ours "$img" "$dev" || return
	if [ "$wrc" = 0 ]; then
		if mount_dev "$dev" "$mnt"; then
			python3 "$MDIR/workload.py" verify "$mnt" \
				"$SCRATCH/$name.json" >"$SCRATCH/verify.out" 2>&1 ||
				fail "$name" "after a remount the tree differs:"
			sed 's/^/    | /' "$SCRATCH/verify.out"
			umount "$mnt" || { fail "$name" "cannot unmount"; return; }
			still_ours "$img" "$dev" || return
		else
			fail "$name" "the kernel does not mount it again"
		fi
	fi
	if ! "$REF_E2FSCK" -fn "$dev" </dev/null >"$SCRATCH/fsck.out" 2>&1; then
		fail "$name" "e2fsck -fn does not find it clean after the workload:"
		head -40 "$SCRATCH/fsck.out" | sed 's/^/    | /'
	fi
	kernel_news "$marker-start" "$marker-end" "$dev" >"$SCRATCH/news"
	if [ -s "$SCRATCH/news" ]; then
		fail "$name" "the kernel complained:"
		head -40 "$SCRATCH/news" | sed 's/^/    | /'
	fi
	detach_image "$img"
	rm -f "$img" "$SCRATCH/$name.json"
	echo "done $name ($size $opts)"
}

group=$(group_of_script)
need_ours
need_loop
need_programs "$REF_E2FSCK" python3 fallocate truncate stdbuf
make_scratch
start_klog
n=0
f0=0
tab=$(printf '\t')
rows "$MDIR/kernel.tsv" "$group" >"$SCRATCH/rows"
while IFS=$tab read -r _ name size opts; do
	n=$((n + 1))
	f0=$fails
	LOST_DEVICE=0
	check_row "$name" "$size" "$opts"
	if [ "$LOST_DEVICE" = 1 ]; then
		echo "running $name again: its loop device was taken away"
		fails=$f0
		LOST_DEVICE=0
		check_row "$name" "$size" "$opts"
		[ "$LOST_DEVICE" = 1 ] &&
			fail "$name" "loop device taken away twice by other tests"
	fi
	[ "$fails" = "$f0" ] && echo "ok $name"
done <"$SCRATCH/rows"
if [ "$n" = 0 ]; then
	echo "FAIL: no rows of group $group in kernel.tsv"
	exit 1
fi
finish
