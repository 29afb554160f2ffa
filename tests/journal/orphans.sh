#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# orphans.sh --- orphan list processing without a kernel: the reference
# debugfs builds an orphan list (a file truncated past its blocks, and an
# unlinked file still on disk); after e2x_orphans_process the reference
# e2fsck -fn must find nothing, the kept file must keep its first SIZE
# bytes and own only the blocks covering them, the other inode be free.
# With the fs marked in error the list must only be dropped.
. "$top_srcdir/tests/journal/lib.sh"
T=$(mktemp -d /tmp/h7-orph.XXXXXX)
trap cleanup EXIT INT TERM
[ -x "$REF_FSCK" ] && command -v debugfs >/dev/null ||
	skip "no reference e2fsck/debugfs"
[ -x "$JRECOVER" ] || fail "driver $JRECOVER not built"

head -c 300000 /dev/urandom >"$T/blob"
runs=0

run_case() {
	local name=$1 mkopts=$2 size=$3 state=$4 img=$T/img out
	[ "$mkopts" = - ] && mkopts=
	rm -f "$img"
	truncate -s 64M "$img"
	# shellcheck disable=SC2086
	"$REF_MKE2FS" -q -F -t ext4 $mkopts "$img" || fail "$name: mke2fs"
	debugfs -w -f - "$img" >/dev/null 2>&1 <<-EOF
	write $T/blob keep
	write $T/blob gone
	unlink gone
	sif <13> links_count 0
	sif <12> size $size
	sif <12> dtime 13
	ssv last_orphan 12
	ssv state $state
	EOF
	"$REF_FSCK" -fn "$img" >/dev/null 2>&1 &&
		fail "$name: the orphan list was not built"
	out=$("$JRECOVER" "$img") || fail "$name: driver: $out"
	if [ "$state" = 3 ]; then
		echo "$out" | grep -q ' released=0 truncated=0 .*orphan_skipped=1' ||
			fail "$name: orphans of a fs with errors processed: $out"
		dumpe2fs -h "$img" 2>/dev/null | grep -q '^First orphan inode' &&
			fail "$name: orphan list not dropped"
		runs=$((runs + 1))
		echo "ok $name $out"
		return
	fi
	echo "$out" | grep -q ' released=1 truncated=1 ' ||
		fail "$name: wrong orphan counts: $out"
	ref_clean "$img" || fail "$name: reference e2fsck not clean"
	debugfs -R "testi <13>" "$img" 2>&1 | grep -q "not in use" ||
		fail "$name: released inode still in use"
	debugfs -R "dump keep $T/keep" "$img" >/dev/null 2>&1
	head -c "$size" "$T/blob" | cmp -s - "$T/keep" ||
		fail "$name: kept file content changed"
	# the kernel's truncate zeroes the last block past the size: growing
	# the file again must show zeroes, not the old bytes
	debugfs -w -R "sif keep size $((size + 100))" "$img" >/dev/null 2>&1
	debugfs -R "dump keep $T/keep" "$img" >/dev/null 2>&1
	{ head -c "$size" "$T/blob"; head -c 100 /dev/zero; } |
		cmp -s - "$T/keep" || fail "$name: stale bytes past the old size"
	runs=$((runs + 1))
	echo "ok $name $out"
}

while IFS='|' read -r name mkopts size state; do
	name=$(echo $name)
	case "$name" in ''|'#'*) continue ;; esac
	run_case "$name" "$(echo $mkopts)" $size $state
done <"$top_srcdir/tests/journal/orphans.tsv"
echo "orphans: $runs cases"
