# SPDX-License-Identifier: GPL-2.0-or-later
# loop.sh --- sourced by the kernel tests: mount an image through a loop
# device and read the kernel log about it.  Other tests attach and detach
# loop devices at the same time, so a device is only ever detached while it
# is still backed by our image, and a mount that races with someone else's
# detach is retried on a fresh device.
#
# The caller sets img (image path), mnt (mount point, existing) and work
# (scratch directory); loop holds the attached device ("" when none).

loop=

# Detach $loop if it still maps $img; forget it either way.
loop_release() {
	if [ -n "$loop" ] &&
		losetup "$loop" 2>/dev/null | grep -qF "($img"; then
		losetup -d "$loop" 2>/dev/null
	fi
	loop=
}

# loop_attach [MOUNT-OPTIONS]: attach $img and mount it on $mnt.  The
# options word is split ("-o ro,noload").  On failure the mount error is
# on stderr and nothing stays attached.  Sets the kernel-log mark (below)
# once the device is ours: a mark taken earlier would let lines about the
# device from its previous owner count against us.
loop_attach() {
	for try in 1 2 3; do
		loop=$(losetup -f --show "$img") || return 1
		klog_mark	# from here on, lines about $loop are ours
		# shellcheck disable=SC2086
		mount ${1:-} "$loop" "$mnt" 2>"$work/mount.err" && return 0
		loop_release
		sleep 1
	done
	cat "$work/mount.err" >&2
	return 1
}

# Unmount $mnt and detach; $loop_dev keeps the device's name (loopN) for
# the kernel-log check that follows.
loop_detach() {
	loop_dev=${loop#/dev/}
	umount "$mnt" || return 1
	loop_release
}

# For an EXIT trap: undo whatever is still mounted or attached.
loop_cleanup() {
	if [ -n "$loop" ]; then
		umount "$mnt" 2>/dev/null
		loop_release
	fi
}

# klog_complaints DEV: print the EXT4-fs warnings and errors about device
# DEV (e.g. loop3) logged since loop_attach's mark, in both forms the
# kernel uses ("EXT4-fs error (device loop3): ..." and "EXT4-fs (loop3):
# warning: ..."); exit status 0 when there was at least one.  The mark is
# a timestamp, not a line count: a full ring's line count stops growing.
klog_mark() {
	klog_time=$(dmesg | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p')
}

klog_complaints() {
	[ -n "$1" ] || { echo "klog_complaints: no device" >&2; return 0; }
	dmesg | awk -v m="${klog_time:-0}" '{ t = $0; sub(/^\[ */, "", t);
		sub(/\].*/, "", t); if (t + 0 > m + 0) print }' |
		grep -E "EXT4-fs.*[( ]$1[):]" | grep -Ei "error|warning|corrupt"
}

# loop_scratch NAME: a scratch directory (work) and a mount point (mnt)
# for test NAME, both removed at exit with whatever is still mounted or
# attached; img starts empty.
loop_scratch() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-$1.XXXXXX") || exit 1
	mnt=/tmp/mnt-e2x-$1.$$
	img=
	trap loop_scratch_cleanup EXIT INT TERM
	mkdir -p "$mnt" || exit 1
}

loop_scratch_cleanup() {
	loop_cleanup
	rmdir "$mnt" 2>/dev/null
	rm -rf "$work"
}
