#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/dir.sh --- mke2fs -d from a directory tree of awkward cases
# (tests/populate/gentree.py) into each target feature set of targets.tsv: the
# reference e2fsck -fn clean, the kernel mounts it, tests/populate/compare.py
# finds no difference, the big directory is indexed, the kernel can write
# to it afterwards and e2fsck stays clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/populate/lib.sh"
need_root_loop
make_scratch
src=$SCRATCH/src
python3 "$PDIR/gentree.py" "$src" --big ${P_BIG:-20000} \
	--depth ${P_DEPTH:-1000} --far $((1 << 40)) ||
	{ echo "FAIL: generating the source tree"; exit 1; }
while IFS=$'\t' read -r -u 3 name opts size itree; do
	case $name in ''|'#'*) continue ;; esac
	img=$SCRATCH/$name.img
	make_target "$name" "$img" "$src" "$opts" "$size" "$itree" &&
		check_target "$name" "$img" "$src" "$itree" &&
		echo "ok $name (at ${SECONDS}s)"
	rm -f "$img"
done 3< "$PDIR/targets.tsv"
[ $fails = 0 ] || exit 1
