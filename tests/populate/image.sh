#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/image.sh --- mke2fs -d from an ext4 image the kernel wrote: the
# awkward tree copied in by cp -a on a kernel mount, then a workload
# (deletions, appends, unwritten preallocation, links, chattr), unmounted.
# Each target of targets.tsv is made from the image while the image is
# mounted read-only, checked like tests/populate/dir.sh against that mount.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/populate/lib.sh"
need_root_loop
make_scratch
tree=$SCRATCH/tree
python3 "$PDIR/gentree.py" "$tree" --big ${P_BIG:-8000} \
	--depth ${P_DEPTH:-300} --far $((1 << 40)) ||
	{ echo "FAIL: generating the source tree"; exit 1; }
simg=$SCRATCH/source.img
smnt=$SCRATCH/mnt-source
"$REF_MKE2FS" -q -F -t ext4 -b 4096 -O inline_data "$simg" 512M >/dev/null 2>&1 ||
	{ echo "FAIL: reference mke2fs"; exit 1; }
mount_image "$simg" "$smnt" rw || { echo "FAIL: mounting the source"; exit 1; }
SLOOP=$LOOP
(cp -a "$tree/." "$smnt/" &&
 rm -f "$smnt"/big/entry-0001* &&
 echo appended >> "$smnt/sizes/f4096" &&
 fallocate -l 1M "$smnt/sizes/prealloc" &&
 printf 'written' | dd of="$smnt/sizes/prealloc" conv=notrunc 2>/dev/null &&
 ln "$smnt/sizes/f61" "$smnt/l3/f61-link" &&
 mkdir "$smnt/later" && echo late > "$smnt/later/file" &&
 chattr +i "$smnt/later/file") ||
	{ echo "FAIL: kernel workload on the source"; exit 1; }
kmsg_check source "$SLOOP"
unmount_image "$smnt"
ref_fsck_clean source "$simg" || exit 1
# read-only mounted sources are fine
mount_image "$simg" "$smnt" ro || { echo "FAIL: source ro mount"; exit 1; }
while IFS=$'\t' read -r -u 3 name opts size itree; do
	case $name in ''|'#'*) continue ;; esac
	img=$SCRATCH/$name.img
	make_target "img-$name" "$img" "$simg" "$opts" "$size" "$itree" &&
		check_target "img-$name" "$img" "$smnt" "$itree" &&
		echo "ok img-$name (at ${SECONDS}s)"
	rm -f "$img"
done 3< "$PDIR/targets.tsv"
[ $fails = 0 ] || exit 1
