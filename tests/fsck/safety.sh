#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# safety.sh --- e2fsck never makes a file system worse (issue 13): each
# damage of safety-cases.tsv is made on a kernel-filled image, and our -fy
# must repair it without losing a file that was readable by content
# before (safety-lib.sh judges).  Then a small fixed-seed sample of the
# random damage of safety-sweep (E2X_SAFETY_SAMPLE runs, default 8).
# E2X_SAFETY_ONLY=PATTERN runs the cases whose names match it.
# Needs root and loop devices (SKIP otherwise).
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=$top_builddir/e2fsck/e2fsck
here=$top_srcdir/tests/fsck

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-safety.XXXXXX")
. "$top_srcdir/tests/loop.sh"
. "$here/safety-lib.sh"
trap 'loop_cleanup; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
why=$(safety_can_run) || { echo "SKIP: $why"; exit 77; }

# the damage, by the reference debugfs (ours on itree: the reference
# cannot open it for writing)
dbg() {
	if [ "$sr_itree" = 1 ]; then
		"$e2x_debugfs" -w -R "$1" "$dimg" >/dev/null 2>&1
	else
		"$ref_debugfs" -w -n -R "$1" "$dimg" >/dev/null 2>&1
	fi
}
loc() {	# loc G bb|ib|it: where dumpe2fs says group G's metadata is
	/usr/sbin/dumpe2fs "$dimg" 2>/dev/null | awk -v g="$1" -v k="$2" '
		$1 == "Group" { on = ($2 + 0 == g) }
		on && k == "bb" && /Block bitmap at/ { sub(/.*Block bitmap at /, ""); print $1 + 0; exit }
		on && k == "ib" && /Inode bitmap at/ { sub(/.*Inode bitmap at /, ""); print $1 + 0; exit }
		on && k == "it" && /Inode table at/ { sub(/.*Inode table at /, ""); sub(/-.*/, ""); print $1 + 0; exit }'
}

# ---- the damage ----------------------------------------------------------
# Group 0's block bitmap moved onto its inode table's first block, the
# descriptor checksum recomputed (issue 13 case 1).
bb_over_itable() {
	it=$(loc 0 it)
	dbg "set_bg 0 block_bitmap $it" && dbg "set_bg 0 checksum calc"
}
zero_inode_bitmap() { dbg "zap_block $(loc 0 ib)"; }
zero_block_bitmap() { dbg "zap_block $(loc 0 bb)"; }
rev0() { dbg "ssv rev_level 0"; }
first_ino_far() { dbg "ssv first_ino 12289"; }	# past k1's inode count
zero_primary() {
	dd if=/dev/zero of="$dimg" bs=1024 seek=1 count=1 conv=notrunc 2>/dev/null
}
ib_out_of_range() { dbg "set_bg 1 inode_bitmap 4000000" && dbg "set_bg 1 checksum calc"; }
# group 1's inode bitmap on group 1's backup superblock
ib_on_backup() {
	b=$(($(sb_number blocks_per_group) + $(sb_number first_data_block)))
	dbg "set_bg 1 inode_bitmap $b" && dbg "set_bg 1 checksum calc"
}
sb_number() {
	/usr/sbin/dumpe2fs -h "$dimg" 2>/dev/null | awk -v f="$1" '
		f == "blocks_per_group" && /^Blocks per group:/ { print $4 }
		f == "first_data_block" && /^First block:/ { print $3 }
		f == "blocks_count" && /^Block count:/ { print $3 }
		f == "flex_bg" && /^Filesystem features:/ { print / flex_bg/ ? 1 : 0 }'
}
# the first descriptor block overwritten with a pattern (issue 13 case 5)
gdt_garbage() { dbg "zap_block -p 0xa5 $(($(sb_number first_data_block) + 1))"; }
# garbage in the resize inode's double indirect block, or in the first
# reserved descriptor block past the backups it lists (issue 13 case 4)
resize_dind_garbage() {
	d=$("$ref_debugfs" -R "stat <7>" "$dimg" 2>/dev/null |
		sed -n 's/.*(DIND):\([0-9]*\).*/\1/p')
	[ -n "$d" ] && dbg "zap_block -o 100 -l 16 -p 0x5a $d"
}
resize_gdt_garbage() {
	dbg "zap_block -o 100 -l 16 -p 0x5a $(($(sb_number first_data_block) + 2))"
}
# the first journal descriptor block of a crashed image, its tags
# overwritten (issue 13 case 6: keep what the reference keeps)
jdesc_garbage() { dbg "zap_block -f <8> -o 12 -l 8 -p 0x5a 2"; }
# one superblock field set (the contradictions and backup disagreements
# of super_trust.c); sb_feature_bit adds a feature bit no tool knows
sb_set() { dbg "ssv $1 $2"; }
sb_feature_bit() {
	off=$((1024 + $([ "$1" = incompat ] && echo 96 || echo 100)))
	v=$(od -An -tu4 -j $off -N4 "$dimg" | tr -d ' ')
	dbg "ssv feature_$1 $((v | $2))"
}
# the first tag of the log's second descriptor block names another block
# (a big indexed directory's blocks are in that log on crashdx)
jdesc_tag() {
	b=$("$ref_debugfs" -R logdump "$dimg" 2>/dev/null |
		sed -n 's/.*(descriptor block) at block \([0-9]*\)$/\1/p' |
		sed -n 2p)
	[ -n "$b" ] && dbg "zap_block -f <8> -o 12 -l 4 -p 0x11 $b"
}
# bytes across reserved inodes 9 and 10 (1k blocks, 256-byte inodes):
# the sweep's seed 2200051 on ib64
reserved_junk() { dbg "zap_block -o 245 -l 64 -p 0x1e $(($(loc 0 it) + 2))"; }
# group 3's inode table (its inodes said in use: no uninit flag, none
# unused) moved onto the journal, the descriptor checksum recomputed
itable_on_journal() {
	j=$("$ref_debugfs" -R "bmap <8> 1" "$dimg" 2>/dev/null)
	[ -n "$j" ] && dbg "set_bg 3 inode_table $j" && dbg "set_bg 3 flags 4" &&
		dbg "set_bg 3 itable_unused 0" && dbg "set_bg 3 checksum calc"
}
# the reverse: a journal block pointer of ext3 aimed at group 0's inode
# table (the table is where the backup descriptors have it: it stays)
jblock_on_itable() { dbg "sif <8> block[5] $(loc 0 it)"; }
# the damage safety-sweep made with seed S (damage_gen.py): a finding of
# the long run kept as a case
seed() {
	python3 "$here/damage_gen.py" "$dimg" "$1" >"$work/cmds" || return 1
	if [ "$sr_itree" = 1 ]; then
		"$e2x_debugfs" -w -f "$work/cmds" "$dimg" >/dev/null 2>&1
	else
		"$ref_debugfs" -w -n -f "$work/cmds" "$dimg" >/dev/null 2>&1
	fi
}
# group 0 (the root's) said never used, its checksum made to agree
gd0_inode_uninit() { dbg "set_bg 0 flags 1" && dbg "set_bg 0 checksum calc"; }
# the root's '.' name, '..' and the first entries after them overwritten
root_head_garbage() { dbg "zap_block -f <2> -o 8 -l 64 -p 0x33 0"; }
# The lowest block of the file that owns the most blocks (past the
# reserved inodes): icheck of every block, 200 to a command line.
bigfile_block() {
	seq 1 $(($(sb_number blocks_count) - 1)) | awk '
		{ printf "%s%s", NR % 200 == 1 ? (NR > 1 ? "\nicheck " : "icheck ") : " ", $1 }
		END { print "" }' >"$work/icheck"
	"$ref_debugfs" -f "$work/icheck" "$dimg" 2>/dev/null | awk '
		$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $2 > 11 {
			n[$2]++
			if (!($2 in lo) || $1 + 0 < lo[$2]) lo[$2] = $1 + 0
		}
		END { for (i in n) print n[i], lo[i] }' | sort -rn |
		awk 'NR == 1 { print $2 }'
}
# group metadata K (inode_table, block_bitmap, inode_bitmap) moved onto
# a big regular file's first block, the descriptor checksum recomputed:
# group 0's with flex_bg, else that of the group the block is in (the
# backup descriptors still have the true place; issue 13)
meta_on_file() {
	b=$(bigfile_block)
	[ -n "$b" ] || return 1
	g=0
	[ "$(sb_number flex_bg)" = 1 ] ||
		g=$(((b - $(sb_number first_data_block)) / $(sb_number blocks_per_group)))
	dbg "set_bg $g $1 $b" && dbg "set_bg $g checksum calc"
}
# group 0's inode table pointer aimed at a journal block, the descriptor
# checksum recomputed (ib64 has one group: no backup descriptors)
itable0_on_journal() {
	j=$("$ref_debugfs" -R "bmap <8> 5" "$dimg" 2>/dev/null)
	[ -n "$j" ] && dbg "set_bg 0 inode_table $j" && dbg "set_bg 0 checksum calc"
}
# a subdirectory's '..' and the entries after it overwritten, '.' kept
dir_head_garbage() { dbg "zap_block -f /deep0 -o 15 -l 64 -p 0xff 0"; }
# the root's '.' record broken (its length and name) and the low byte of
# the '..' inode after it: the sweep's seed 5100233 on ib64
root_dot_garbage() { dbg "zap_block -f <2> -o 5 -l 8 -p 0xbc 0"; }
min_extra_isize() { dbg "ssv min_extra_isize 0xffff"; }
# a feature dropped in the primary only: -fn may pass it, -fy writes the
# backups, and a second -fy must find them right (issue 11)
backup_feature() { dbg "feature ^dir_nlink"; }
gd_csum_flip() {
	c=$(/usr/sbin/dumpe2fs "$dimg" 2>/dev/null |
		sed -n 's/^Group 0:.* csum 0x\([0-9a-f]*\).*/\1/p')
	[ -n "$c" ] && dbg "set_bg 0 checksum 0x$(printf %04x $((0x$c ^ 1)))"
}

pass=0 fail=0
while IFS='	' read -r name base damage expect; do
	case $name in ''|'#'*) continue ;; esac
	# E2X_SAFETY_ONLY: a pattern of case names to run (for one fix)
	case $name in ${E2X_SAFETY_ONLY:-*}) ;; *) continue ;; esac
	if ! make_image "$base"; then
		echo "FAIL $name: could not make the image $base"
		fail=$((fail + 1)); continue
	fi
	dimg=$work/damaged.img
	cp "$work/base-$base.img" "$dimg"
	sum=$(sha256sum <"$dimg")
	if ! $damage || [ "$(sha256sum <"$dimg")" = "$sum" ]; then
		echo "FAIL $name: could not apply $damage"
		fail=$((fail + 1)); continue
	fi
	if check_repair "$name" "$dimg" "$expect"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done <"$here/safety-cases.tsv"

# The fixed-seed sample of the property run (safety-sweep runs more).
if sweep "${E2X_SAFETY_SAMPLE:-8}" 1; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
fi
echo "safety: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
