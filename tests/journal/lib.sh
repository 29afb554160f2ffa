# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh --- shared helpers of the tests/journal crash scripts (sourced).
# Needs: top_builddir, a writable $T (scratch dir) and $NAME (test name).

. "$top_srcdir/tests/loop.sh"	# klog_mark, klog_complaints

REF_FSCK=/usr/sbin/e2fsck
REF_MKE2FS=/usr/sbin/mke2fs
JRECOVER=$top_builddir/tests/journal/jrecover
LOOPS=
MNTS=

skip() {
	echo "SKIP: $*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	exit 1
}

need_root_loop() {
	[ "$(id -u)" = 0 ] || skip "needs root (loop mounts)"
	command -v losetup >/dev/null || skip "no losetup"
	command -v python3 >/dev/null || skip "no python3"
	[ -x "$REF_FSCK" ] || skip "no reference e2fsck in /usr/sbin"
	[ -x "$JRECOVER" ] || fail "driver $JRECOVER not built"
	local probe="$T/probe.img" dev
	truncate -s 1M "$probe"
	dev=$(losetup -f --show "$probe" 2>/dev/null) || skip "no loop devices"
	losetup -d "$dev"
	rm -f "$probe"
}

cleanup() {
	local m d
	for m in $MNTS; do
		mountpoint -q "$m" && umount "$m"
	done
	# only the loop devices this script attached and still holds
	for d in $LOOPS; do
		losetup "$d" 2>/dev/null | grep -qF "${T:-/nonexistent}/" &&
			losetup -d "$d" 2>/dev/null
	done
	[ -n "$T" ] && rm -rf "$T"
}

# mount_img IMAGE MNT [OPTIONS]: loop-mount; sets $DEV
mount_img() {
	DEV=$(losetup -f --show "$1") || fail "losetup $1"
	klog_mark	# lines about $DEV from now on are ours
	LOOPS="$LOOPS $DEV"
	mkdir -p "$2"
	MNTS="$MNTS $2"
	mount -t ext4 ${3:+-o "$3"} "$DEV" "$2" || fail "mount $1 ($3)"
}

# umount_img MNT: unmount and detach $DEV
umount_img() {
	umount "$1" || fail "umount $1"
	losetup -d "$DEV"
	local d rest=
	for d in $LOOPS; do
		[ "$d" = "$DEV" ] || rest="$rest $d"
	done
	LOOPS=$rest
}

# mkfs_img IMAGE SIZE OPTS: ours when it makes a clean fs, else reference
mkfs_img() {
	local ours=$top_builddir/mke2fs/mke2fs img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img"
	if [ -x "$ours" ] && "$ours" -q -F -t ext4 "$@" "$img" \
			>/dev/null 2>&1 &&
	   "$REF_FSCK" -fn "$img" >/dev/null 2>&1; then
		MKFS_USED=ours
		return 0
	fi
	MKFS_USED=reference
	"$REF_MKE2FS" -q -F -t ext4 "$@" "$img" || fail "mke2fs $*"
}

# journal_has IMAGE WORD...: the journal superblock has these features
journal_has() {
	local img=$1 f feats
	shift
	feats=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Journal features: *//p')
	for f in "$@"; do
		case " $feats " in *" $f "*) ;; *) return 1 ;; esac
	done
}

needs_recovery() {
	dumpe2fs -h "$1" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'
}

# ref_clean IMAGE: reference e2fsck -fn exits 0
ref_clean() {
	"$REF_FSCK" -fn "$1" >"$T/fsck.out" 2>&1 && return 0
	cat "$T/fsck.out"
	return 1
}

# listing MNT: one line per file: type, size, links, content hash, path
listing() {
	(cd "$1" && find . -mindepth 1 ! -name lost+found -printf '%y %s %n %p\n' |
		sort | while read -r y s n p; do
			if [ "$y" = f ]; then
				h=$(sha256sum < "$p" | cut -c1-16)
			else
				h=-
			fi
			echo "$y $s $n $h $p"
		done)
}

# check_manifest MNT MANIFEST: every fsync'ed file has its recorded hash
check_manifest() {
	(cd "$1" && sha256sum --quiet -c "$2") || return 1
}

# kernel_errors DEV: EXT4-fs errors and warnings for DEV logged since
# mount_img attached it (tests/loop.sh: the mark is a timestamp, as a full
# kernel ring's line count stops growing).
kernel_errors() {
	klog_complaints "${1#/dev/}"
}

# itable_args IMAGE: imgcmp.py arguments naming the inode tables
itable_args() {
	dumpe2fs "$1" 2>/dev/null | awk -v img="$1" '
		/^Block size:/ { bs = $3 }
		/^Inode size:/ { isz = $3 }
		/Inode table at/ {
			split($4, r, "-"); sub(/[^0-9].*/, "", r[2])
			printf "itable:%d:%d:%d:%d\n", bs, isz, r[1], r[2]
		}'
}

# ref_replay IMAGE: the reference's replay alone (debugfs journal_run: the
# e2fsprogs copy of the kernel's recovery code, no orphan processing)
ref_replay() {
	debugfs -w -n -R journal_run "$1" >/dev/null 2>&1
}

# same_replay OURS REF [range...]: our replay-only result (jrecover -R)
# equals ref_replay's byte for byte, but for stamps (s_lastcheck too:
# debugfs stores its own)
same_replay() {
	local a=$1 b=$2
	shift 2
	python3 "$top_srcdir/tests/journal/imgcmp.py" "$a" "$b" 1088:4 "$@"
}

# same_as_reference OURS REF IMAGE [range...]: our recovery (with orphans)
# equals the reference e2fsck -E journal_only result byte for byte, but
# for stamps (times, i_version, checksums over them)
same_as_reference() {
	local a=$1 b=$2 img=$3
	shift 3
	# shellcheck disable=SC2046
	python3 "$top_srcdir/tests/journal/imgcmp.py" "$a" "$b" \
		$(itable_args "$img") "$@"
}
