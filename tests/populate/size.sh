#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/size.sh --- mke2fs -d sizes the target for its source, and its
# closing report states the file system after the copy.  A tree of 4,040
# entries, then a kernel-filled image holding it, copied into bigalloc
# with 64 KiB clusters (whose default is one inode per cluster: 1,024 on
# 64 MiB): enough inodes are made and said so, the reference e2fsck finds
# the result clean and the kernel mounts it; the "free" line of the report
# is what the reference dumpe2fs reads from the target.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/populate/lib.sh"
need_root_loop
make_scratch
tree=$SCRATCH/tree
mkdir "$tree"
for d in $(seq 1 40); do
	mkdir "$tree/d$d"
	(cd "$tree/d$d" && seq 1 100 | xargs touch && echo "$d" > 1)
done
entries=4040
kimg=$SCRATCH/kernel.img
"$REF_MKE2FS" -q -F -t ext4 -N 8192 "$kimg" 64M >/dev/null 2>&1
mount_image "$kimg" "$SCRATCH/mnt" rw || fail kernel "cannot mount"
cp -a "$tree/." "$SCRATCH/mnt/"
unmount_image "$SCRATCH/mnt"

for kind in tree kernel; do
	src=$tree
	[ $kind = kernel ] && src=$kimg
	tgt=$SCRATCH/$kind-64k.img
	"$E2X_MKE2FS" -F -t ext4 -O bigalloc -C 64k -d "$src" "$tgt" 64M \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	[ $rc = 0 ] || { fail $kind "exit $rc: $(cat "$SCRATCH/err")"; continue; }
	# the kernel image adds lost+found to the tree's entries
	grep -Eq "holds 404[01] entries: made [0-9]+ inodes instead of the default 1024" \
		"$SCRATCH/err" || fail $kind "no note on the inodes: $(cat "$SCRATCH/err")"
	ref_fsck_clean $kind "$tgt"
	icount=$(dumpe2fs -h "$tgt" 2>/dev/null | sed -n 's/^Inode count: *//p')
	[ "${icount:-0}" -gt $entries ] || fail $kind "only $icount inodes"
	fb=$(dumpe2fs -h "$tgt" 2>/dev/null | sed -n 's/^Free blocks: *//p')
	fi=$(dumpe2fs -h "$tgt" 2>/dev/null | sed -n 's/^Free inodes: *//p')
	grep -q "^  free  *$fb blocks, $fi inodes$" "$SCRATCH/out" ||
		fail $kind "report says '$(grep '^  free' "$SCRATCH/out")'; the target has $fb blocks, $fi inodes free"
	mount_image "$tgt" "$SCRATCH/mnt" ro || fail $kind "the kernel refuses it"
	n=$(find "$SCRATCH/mnt" -mindepth 1 -not -path "$SCRATCH/mnt/lost+found*" | wc -l)
	[ "$n" = $entries ] || fail $kind "$n entries in the copy, not $entries"
	unmount_image "$SCRATCH/mnt"
	[ $fails = 0 ] && echo "ok $kind: $icount inodes, $fb blocks and $fi inodes free"
done
[ $fails = 0 ] || exit 1
