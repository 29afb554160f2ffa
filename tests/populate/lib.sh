# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/lib.sh --- helpers of the mke2fs -d tests: programs, scratch
# space, loop devices and mounts (always undone), kernel log checks.
# Sourced by the drivers in tests/populate/.

E2X_MKE2FS=${E2X_MKE2FS:-${top_builddir:?set top_builddir}/mke2fs/mke2fs}
REF_MKE2FS=/usr/sbin/mke2fs
REF_E2FSCK=/usr/sbin/e2fsck
PDIR=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/populate
export E2FSCK_CONFIG=/dev/null LC_ALL=C TZ=UTC
fails=0
LOOPS=
MOUNTS=

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }

need_root_loop()
{
	[ "$(id -u)" = 0 ] || skip "needs root (mknod, loop devices, mounts)"
	for p in losetup mount umount python3 setfattr chattr; do
		command -v $p >/dev/null 2>&1 || skip "$p is not installed"
	done
	losetup -f >/dev/null 2>&1 || skip "no free loop device"
	[ -w /dev/kmsg ] || skip "cannot write a marker to /dev/kmsg"
	[ -x "$E2X_MKE2FS" ] || { echo "FAIL: $E2X_MKE2FS not built"; exit 1; }
}

cleanup()
{
	for m in $MOUNTS; do
		mountpoint -q "$m" && umount "$m"
	done
	# Detach only devices still backed by our scratch files: a number we
	# detached earlier may belong to another test by now.
	for l in $LOOPS; do
		losetup "$l" 2>/dev/null | grep -qF "${SCRATCH:-/nonexistent}/" &&
			losetup -d "$l" 2>/dev/null
	done
	if [ -n "${SCRATCH:-}" ]; then
		chattr -R -i -a "$SCRATCH" 2>/dev/null
		rm -rf "$SCRATCH"
	fi
}

# unprivileged_copy PROG: set the array UNPRIV_CMD to a command that runs
# PROG and that the unprivileged user (uid 65534) can reach.  The build may sit where that
# user cannot go (a clone under /root, mode 0700), so the program - the
# real binary behind a libtool wrapper, with the build's shared libe2x -
# is copied to $SCRATCH/bin first; the copy is tried as that user.
unprivileged_copy()
{
	local prog=$1 dir=$SCRATCH/bin real
	real=$(dirname "$prog")/.libs/$(basename "$prog")
	mkdir -p "$dir" && chmod 755 "$SCRATCH" "$dir" || return 1
	if grep -q 'libtool' "$prog" 2>/dev/null && [ -x "$real" ]; then
		cp "$real" "$dir/" &&
			cp -P "${top_builddir:?}"/lib/.libs/libe2x.so* "$dir/" ||
			return 1
	else
		cp "$prog" "$dir/" || return 1
	fi
	chmod -R a+rX "$dir"
	UNPRIV_CMD=(env "LD_LIBRARY_PATH=$dir" "$dir/$(basename "$prog")")
	setpriv --reuid=65534 --regid=65534 --clear-groups "${UNPRIV_CMD[@]}" \
		-V >/dev/null 2>&1
}

make_scratch()
{
	# tmpfs when there is one: the trees are many small files
	local base=${P_SCRATCH:-/dev/shm}
	[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
	SCRATCH=$(mktemp -d "$base/e2x-p.XXXXXX") || exit 99
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
}

# mount_image IMG DIR OPTS --- attach IMG to a loop device we own and mount
# it on DIR; sets LOOP.  The kernel-log mark is set once the device is
# ours, so kmsg_check never sees lines a previous owner of it caused.
mount_image()
{
	LOOP=$(losetup -f --show "$1") || return 1
	kmsg_mark
	LOOPS="$LOOPS $LOOP"
	mkdir -p "$2"
	MOUNTS="$2 $MOUNTS"
	mount -t ext4 -o "$3" "$LOOP" "$2"
}

unmount_image()
{
	umount "$1" && losetup -d "$LOOP"
}

# Kernel log since a marker (mount_image sets it): EXT4-fs warnings or
# errors about LOOP.
kmsg_mark()
{
	MARK="e2x-p-$$-$RANDOM"
	echo "$MARK" > /dev/kmsg
}

kmsg_check()	# NAME LOOP
{
	local dev=${2#/dev/} bad
	bad=$(dmesg | sed -n "/$MARK/,\$p" |
	      grep -E "EXT4-fs (warning|error).*\\b$dev\\b|EXT4-fs \($dev\).*\\b(error|warning|corrupt|bad)\\b")
	[ -z "$bad" ] || fail "$1" "kernel: $bad"
}

ref_fsck_clean()	# NAME IMG
{
	local out
	out=$("$REF_E2FSCK" -fn "$2" 2>&1) || {
		fail "$1" "reference e2fsck -fn is not clean"
		echo "$out" | head -20
		return 1
	}
}

POPDRV=${top_builddir:-.}/tests/populate/popdrv

# make_target NAME IMG SOURCE OPTIONS SIZE ITREE --- the copy under test.
make_target()
{
	local out
	rm -f "$2"
	if [ "$6" = yes ]; then
		out=$("$E2X_MKE2FS" -q -F $4 "$2" "$5" 2>&1 &&
		      "$POPDRV" -i "$2" "$3" 2>&1)
	else
		out=$("$E2X_MKE2FS" -q -F $4 -d "$3" "$2" "$5" 2>&1)
	fi || { fail "$1" "making the copy failed: $out"; return 1; }
	if echo "$out" | grep -Eq 'Sanitizer|runtime error:'; then
		fail "$1" "sanitizer report: $out"
		return 1
	fi
}

# check_target NAME IMG SOURCE-TREE ITREE --- reference e2fsck (not with
# itree), kernel mount read-only and compare, the big directory indexed,
# then (not with itree) a read-write workload and e2fsck once more.
check_target()
{
	local name=$1 img=$2 tree=$3 itree=$4 mnt=$SCRATCH/mnt-$1
	if [ "$itree" != yes ]; then
		ref_fsck_clean "$name" "$img" || return 1
	fi
	mount_image "$img" "$mnt" ro ||
		{ fail "$name" "the kernel does not mount it"; return 1; }
	python3 "$PDIR/compare.py" "$tree" "$mnt" --skip lost+found \
		> "$SCRATCH/cmp-$name" 2>&1 ||
		{ fail "$name" "copy differs from the source:"
		  head -20 "$SCRATCH/cmp-$name"; }
	if [ -d "$tree/big" ]; then
		lsattr -d "$mnt/big" | grep -q '^[^ ]*I' ||
			fail "$name" "big directory is not indexed (htree)"
	fi
	kmsg_check "$name" "$LOOP"
	unmount_image "$mnt"
	[ "$itree" = yes ] && return 0
	mount_image "$img" "$mnt" rw ||
		{ fail "$name" "no read-write mount"; return 1; }
	(cd "$mnt/big" && for i in $(seq 1 300); do echo $i > new-$i; done &&
	 rm -f new-1* && mkdir -p "$mnt/sizes/newdir" &&
	 cp "$mnt/sizes/f4097" "$mnt/sizes/newdir/") ||
		fail "$name" "kernel workload on the copy failed"
	kmsg_check "$name" "$LOOP"
	unmount_image "$mnt"
	ref_fsck_clean "$name after the kernel wrote" "$img"
}
