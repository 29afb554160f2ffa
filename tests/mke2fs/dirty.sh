#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/dirty.sh --- the rows of tests/mke2fs/dirty.tsv: fill an image with
# old data, format it with our mke2fs (and, as a control, the reference),
# then e2fsck -fn and tests/mke2fs/zeroed.py must find nothing left over.
# Run through tests/mke2fs/dirty-GROUP.sh.

. "$(dirname "$0")/lib.sh"

# fill_old IMG SIZE --- IMG of SIZE bytes (suffix M), every byte 0xa5.
fill_old()
{
	python3 -c '
import sys
chunk = b"\xa5" * (1 << 20)
with open(sys.argv[1], "wb") as f:
	for _ in range(int(sys.argv[2])):
		f.write(chunk)' "$1" "${2%M}"
}

# format_and_check WHO PROG IMG SIZE OPTS --- one program over old data;
# prints what is wrong, nothing when all is well.
format_and_check()
{
	who=$1 prog=$2 img=$3 size=$4 opts=$5
	fill_old "$img" "$size" || { echo "cannot write $img"; return; }
	# shellcheck disable=SC2086
	if ! "$prog" -q -F $opts "$img" </dev/null >"$SCRATCH/mkfs.out" 2>&1
	then
		echo "$who mke2fs failed:"
		sed 's/^/    | /' "$SCRATCH/mkfs.out"
		return
	fi
	if sanitized "$SCRATCH/mkfs.out"; then
		echo "sanitizer report from $who mke2fs:"
		head -20 "$SCRATCH/mkfs.out" | sed 's/^/    | /'
	fi
	if ! "$REF_E2FSCK" -fn "$img" </dev/null >"$SCRATCH/fsck.out" 2>&1; then
		echo "e2fsck -fn does not find $who file system clean:"
		head -30 "$SCRATCH/fsck.out" | sed 's/^/    | /'
	fi
	python3 "$MDIR/zeroed.py" "$img" >"$SCRATCH/zeroed.out" 2>&1 || {
		echo "$who file system trusts old data:"
		head -20 "$SCRATCH/zeroed.out" | sed 's/^/    | /'
	}
}

# check_row NAME SIZE OPTIONS --- one case.
check_row()
{
	name=$1 size=$2 opts=$3
	img=$SCRATCH/$name.img
	format_and_check reference "$REF_MKE2FS" "$img" "$size" "$opts" \
		>"$SCRATCH/ref.bad"
	if [ -s "$SCRATCH/ref.bad" ]; then
		fail "$name" "the reference fails this row (table error):"
		cat "$SCRATCH/ref.bad"
		rm -f "$img"
		return
	fi
	format_and_check our "$E2X_MKE2FS" "$img" "$size" "$opts" \
		>"$SCRATCH/ours.bad"
	rm -f "$img"
	if [ -s "$SCRATCH/ours.bad" ]; then
		fail "$name" "over old data:"
		cat "$SCRATCH/ours.bad"
	else
		echo "ok $name ($size $opts)"
	fi
}

group=$(group_of_script)
need_ours
need_programs "$REF_MKE2FS" "$REF_E2FSCK" "$REF_DUMPE2FS" /usr/sbin/debugfs \
	python3
make_scratch
n=0
tab=$(printf '\t')
rows "$MDIR/dirty.tsv" "$group" >"$SCRATCH/rows"
while IFS=$tab read -r _ name size opts; do
	n=$((n + 1))
	check_row "$name" "$size" "$opts"
done <"$SCRATCH/rows"
if [ "$n" = 0 ]; then
	echo "FAIL: no rows of group $group in dirty.tsv"
	exit 1
fi
finish
