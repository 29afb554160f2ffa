#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/populate/options.sh --- mke2fs -d with other options (tests/populate/options.tsv):
# -E root_owner and -U/-L still apply, the summary of what was copied, the
# progress display on a terminal (none with -q), and inode order: each
# directory's entries have adjacent inode numbers.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/populate/lib.sh"
need_root_loop
command -v script >/dev/null || skip "script(1) is not installed"
make_scratch
src=$SCRATCH/src
mkdir -p "$src/a/b" "$src/c"
for i in $(seq 1 40); do echo "file $i" > "$src/a/f$i"; done
for i in $(seq 1 40); do head -c 5000 /dev/urandom > "$src/c/g$i"; done
echo tiny > "$src/a/b/tiny"
chown 42:43 "$src"
img=$SCRATCH/t.img
dbg() { debugfs -R "$1" "$img" 2>/dev/null; }

check_root_owner()
{
	dbg "stat /" | grep -q 'User:  1234   Group:  5678' ||
		fail "$1" "root owner not 1234:5678: $(dbg "stat /" | grep User)"
	dbg "stat /a" | grep -q 'User:     0' || fail "$1" "a's owner changed"
}
check_label_uuid()
{
	dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem volume name: *copied$' ||
		fail "$1" "label lost"
	dumpe2fs -h "$img" 2>/dev/null |
		grep -q '^Filesystem UUID: *0b3e6b6e-5a2c-4a34-9d51-2c9a3a5f9a01$' ||
		fail "$1" "UUID lost"
	dbg "stat /" | grep -q 'User:    42   Group:    43' ||
		fail "$1" "root owner not the source's 42:43"
}
check_summary()
{
	grep -Eq '^Copied 81 files, 3 directories, 0 symlinks, 0 special files, 0 extra hard links; 20[0-9]{4} bytes of file data$' "$out" ||
		fail "$1" "summary line: $(grep Copied "$out")"
	grep -Eq '^Stored 4[0-9] inline' "$out" ||
		fail "$1" "inline count: $(grep Stored "$out")"
}
check_progress()
{
	grep -q 'Copying files: 100% (84/84)' "$out" ||
		fail "$1" "no progress to 100%: $(tr '\r' '\n' < "$out" | grep Copying | tail -2)"
}
check_quiet()
{
	[ ! -s "$out" ] || fail "$1" "-q printed: $(head -3 "$out")"
}
# Inode numbers of each directory's entries form one run.
check_order()
{
	local d inos
	for d in / /a /c; do
		inos=$(dbg "ls -l $d" | awk '$NF != "." && $NF != ".." &&
			$NF != "lost+found" && NF > 2 {print $1}' | sort -n)
		echo "$inos" | awk 'NR > 1 && $1 != prev + 1 {bad = 1}
			{prev = $1} END {exit bad}' ||
			fail "$1" "entries of $d not adjacent: $(echo $inos)"
	done
}

while IFS=$'\t' read -r -u 3 name extra tty check; do
	case $name in ''|'#'*) continue ;; esac
	out=$SCRATCH/out-$name
	rm -f "$img"
	cmd="$E2X_MKE2FS -F -t ext4 $extra -d $src $img 64M"
	if [ "$tty" = yes ]; then
		script -qec "$cmd" /dev/null < /dev/null > "$out" 2>&1
	else
		$cmd < /dev/null > "$out" 2>&1
	fi || { fail "$name" "mke2fs failed: $(cat "$out")"; continue; }
	ref_fsck_clean "$name" "$img"
	check_$check "$name"
	[ $fails = 0 ] && echo "ok $name"
done 3< "$PDIR/options.tsv"
[ $fails = 0 ] || exit 1
