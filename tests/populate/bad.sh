#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/bad.sh --- mke2fs -d refusals and failures (tests/populate/bad.tsv):
# the exit status, one clear message, and the target's state: byte for
# byte unchanged when refused before writing, else marked as having
# errors (the reference dumpe2fs says so) and never reported as made.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/populate/lib.sh"
need_root_loop
command -v setpriv >/dev/null || skip "setpriv is not installed"
make_scratch
chmod 755 "$SCRATCH"
ok_tree=$SCRATCH/ok-tree
mkdir -p "$ok_tree/dir" && echo hello > "$ok_tree/dir/file"

setup_missing() { src=$SCRATCH/does-not-exist; }
setup_not_fs() { src=$SCRATCH/junk; head -c 1M /dev/urandom > "$src"; }
setup_fifo() { src=$SCRATCH/fifo; mkfifo "$src"; }
setup_self() { src=$tgt; }
setup_mounted_rw()
{
	src=$SCRATCH/mounted.img
	"$REF_MKE2FS" -q -F -t ext4 "$src" 64M >/dev/null 2>&1
	mount_image "$src" "$SCRATCH/mnt-rw" rw
}
setup_journal()
{
	src=$SCRATCH/journal.img
	"$REF_MKE2FS" -q -F -t ext4 "$src" 64M >/dev/null 2>&1
	debugfs -w -R "feature needs_recovery" "$src" >/dev/null 2>&1
}
# Run as nobody: a file nobody may read.  Nobody runs a copy of our
# mke2fs (unprivileged_copy), as the build may be out of its reach.
setup_unreadable()
{
	src=$SCRATCH/unreadable
	mkdir -p "$src/dir" && echo secret > "$src/dir/secret"
	echo fine > "$src/dir/aaa"
	chmod 000 "$src/dir/secret"
	chmod -R a+rX "$SCRATCH/unreadable/dir/aaa"
	chmod 777 "$SCRATCH/t-unreadable"
	chown 65534 "$tgt"
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	if unprivileged_copy "$E2X_MKE2FS"; then
		prog=("${UNPRIV_CMD[@]}")
	else
		fail unreadable "uid 65534 cannot run a copy of $E2X_MKE2FS"
		prog=(false)
	fi
}
setup_no_space()
{
	src=$SCRATCH/large
	mkdir -p "$src" && head -c 20M /dev/urandom > "$src/big"
	size=8M
}
setup_no_inodes()
{
	src=$SCRATCH/many
	mkdir -p "$src"
	for i in $(seq 1 300); do : > "$src/f$i"; done
	opts="-N 128"
}

# The data fits by bytes, not by 64 KiB clusters: found during the copy.
setup_no_clusters()
{
	src=$SCRATCH/clusters
	mkdir -p "$src"
	for i in $(seq 1 300); do echo "$i" > "$src/f$i"; done
	opts="-O bigalloc -C 64k"
	size=8M
}

while IFS=$'\t' read -r -u 3 name code msg state; do
	case $name in ''|'#'*) continue ;; esac
	mkdir -p "$SCRATCH/t-$name"
	tgt=$SCRATCH/t-$name/target.img
	"$REF_MKE2FS" -q -F -t ext4 "$tgt" 32M >/dev/null 2>&1
	size=32M opts= as_user= prog=("$E2X_MKE2FS")
	setup_${name//-/_}
	before=$(md5sum < "$tgt")
	$as_user "${prog[@]}" -q -F -t ext4 $opts -d "$src" "$tgt" $size \
		> "$SCRATCH/out" 2>&1
	rc=$?
	out=$(cat "$SCRATCH/out")
	[ -n "${P_VERBOSE:-}" ] && echo "$name: $out"
	[ $rc = "$code" ] || fail "$name" "exit $rc, wanted $code: $out"
	echo "$out" | grep -Eq -- "$msg" ||
		fail "$name" "message does not match /$msg/: $out"
	echo "$out" | grep -Eq 'Sanitizer|runtime error:' &&
		fail "$name" "sanitizer report: $out"
	case $state in
	unchanged)
		[ "$(md5sum < "$tgt")" = "$before" ] ||
			fail "$name" "the target changed"
		;;
	marked)
		echo "$out" | grep -q 'holds an incomplete copy' ||
			fail "$name" "the target's state is not stated"
		dumpe2fs -h "$tgt" 2>/dev/null |
			grep -q '^Filesystem state:.*with errors' ||
			fail "$name" "the target is not marked as having errors"
		;;
	esac
	for m in $MOUNTS; do mountpoint -q "$m" && unmount_image "$m"; done
	MOUNTS=
	[ $fails = 0 ] && echo "ok $name"
done 3< "$PDIR/bad.tsv"
[ $fails = 0 ] || exit 1
