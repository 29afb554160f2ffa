#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# damage.sh --- damage of our own making: populate an image with the
# reference mke2fs -d, break one thing (with the reference debugfs or a
# byte patch), and require our "e2fsck -fn" to exit 4 naming each expected
# problem code (printed by -d).  Cases: damage-cases.tsv.  A second run
# with -fy must leave the image clean for the cases pass 4/5 repair.
# DAMAGE_ONLY=REGEX runs only the cases of the table it matches.
# Then an itree made by our mke2fs and debugfs, one leaf's magic broken;
# E2X_LONG=1 adds a 40,000-entry itree built by tests/lib/dir_driver.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=$top_builddir/e2fsck/e2fsck
here=$top_srcdir/tests/fsck
mkfs=/usr/sbin/mke2fs
debugfs=/usr/sbin/debugfs
ref=/usr/sbin/e2fsck
for t in "$mkfs" "$debugfs" "$ref"; do
	[ -x "$t" ] || { echo "SKIP: $t missing"; exit 77; }
done
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-damage.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
img=$work/img

# The tree every image starts from.
src=$work/src
mkdir -p "$src/wide" "$src/sub"
printf 'hello inline world\n' >"$src/small"
head -c 300000 /dev/zero | tr '\0' 'b' >"$src/big"
i=0
while [ $i -lt 400 ]; do
	: >"$src/wide/entry_with_a_longish_name_$i"
	i=$((i + 1))
done

dbg() { "$debugfs" -w -R "$1" "$img" >/dev/null 2>&1; }
blk_of() { "$debugfs" -R "bmap $1 $2" "$img" 2>/dev/null | tail -1; }
bsize() { "$debugfs" -R stats "$img" 2>/dev/null | sed -n 's/^Block size: *//p'; }
# patch FILE OFFSET FORMAT VALUE: write one little-endian integer
patch_int() {
	python3 - "$@" <<'PY'
import struct, sys
path, off, fmt, val = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4], 0)
with open(path, "r+b") as f:
    f.seek(off)
    f.write(struct.pack("<" + fmt, val & ((1 << (8 * struct.calcsize(fmt))) - 1)))
PY
}
read_int() {
	python3 - "$@" <<'PY'
import struct, sys
path, off, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "rb") as f:
    f.seek(off)
    print(struct.unpack("<" + fmt, f.read(struct.calcsize(fmt)))[0])
PY
}

# set_enc_ctx PATH KEYBYTE: give PATH the encryption flag and a version 1
# context (in-inode attribute "c", index 9, which debugfs cannot name)
# whose master key bytes are all KEYBYTE.  No metadata_csum: the inode
# checksum is not recomputed.
set_enc_ctx() {
	loc=$("$debugfs" -R "imap $1" "$img" 2>/dev/null |
		sed -n 's/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/\1 \2/p')
	[ -n "$loc" ] || return 1
	flags=$("$debugfs" -R "stat $1" "$img" 2>/dev/null |
		sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
	dbg "sif $1 flags $((flags | 0x800))" || return 1
	python3 - "$img" "$(bsize)" $loc "$2" <<'PY'
import struct, sys
path, bs, blk, off, key = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 0), int(sys.argv[5], 0)
with open(path, "r+b") as f:
    base = blk * bs + off
    f.seek(base + 128)
    extra = struct.unpack("<H", f.read(2))[0]
    start = base + 128 + extra
    value = bytes([1, 1, 4, 0]) + bytes([key]) * 8 + bytes(range(16))
    entry = struct.pack("<BBHIII", 1, 9, 256 - 128 - extra - 4 - len(value), 0, len(value), 0) + b"c\0\0\0"
    f.seek(start)
    f.write(struct.pack("<I", 0xEA020000) + entry + b"\0" * 4)
    f.seek(base + 256 - len(value))
    f.write(value)
PY
}
enc_plain_name() {	# an encrypted directory names an unencrypted file
	dbg "mkdir /edir" && head -c 100 /dev/zero >"$work/v" &&
	dbg "write $work/v /edir/plain_file_with_a_long_name" &&
	set_enc_ctx /edir 0x41
}
enc_policy_differs() {	# ... names a file encrypted with another key
	enc_plain_name && set_enc_ctx /edir/plain_file_with_a_long_name 0x42
}

# ---- the damage kinds ----------------------------------------------------
inline_size() { dbg "sif /small size 500"; }
inline_drop_data() { keep_file /small && dbg "ea_rm /small system.data"; }
inline_dir_drop_data() { dbg "ea_rm /sub system.data"; }
inline_on_device() { dbg "mknod dev0 c 1 3" && dbg "sif dev0 flags 0x10000000"; }
inline_fifo_data() {	# a fifo whose i_block holds inline bytes
	dbg "mknod fifo0 p" && dbg "sif fifo0 flags 0x10000000" &&
	dbg "sif fifo0 block[5] 0x41414141" && dbg "sif fifo0 size 60"
}
bigalloc_shift() {	# first extent of /big: physical start + 1
	s=$("$debugfs" -R "stat /big" "$img" 2>/dev/null |
		sed -n 's/.*(0-[0-9]*):\([0-9]*\)-.*/\1/p' | head -1)
	[ -n "$s" ] && dbg "sif /big block[5] $((s + 1))" && keep_file /big
}
iblocks_off() { dbg "sif /big blocks 8"; }
symlink_empty() {	# size 0 and no target bytes
	dbg "symlink /elink abc" && dbg "sif /elink size 0" &&
		dbg "sif /elink block[0] 0"
}
symlink_inline_short() {	# an inline target (past 60 bytes) cut short
	dbg "symlink /ilink $(printf '%080d' 0)" && dbg "sif /ilink size 70"
}
inline_dir_size() { dbg "mkdir /idir" && dbg "sif /idir size 100"; }
extent_far() { dbg "sif /big block[5] 0x7ffffff0"; }	# first extent's start
ind_far() { dbg "sif /big block[2] 0x7ffffff0"; }	# third direct pointer
resize_iblocks() { dbg "sif <7> blocks 0"; }
blocks_hi_set() { keep_file /big && dbg "sif /big blocks_hi 1"; }
dtime_set() { dbg "sif /small dtime 12345"; }
dup_block() {	# /small's one block becomes /big's first (extent or direct)
	b=$(blk_of /big 0)
	if "$debugfs" -R "stat /small" "$img" 2>/dev/null | grep -q EXTENTS; then
		dbg "sif /small block[5] $b"
	else
		dbg "sif /small block[0] $b"
	fi
}
revoke_count() {	# a logged revoke block whose byte count is past its block
	printf 'jo\njw -r 500\njc\n' | "$debugfs" -w -f - "$img" >/dev/null 2>&1
	jb=$("$debugfs" -R logdump "$img" 2>/dev/null |
		sed -n 's/.*(revoke table) at block \([0-9]*\)$/\1/p' | head -1)
	[ -n "$jb" ] || return 1
	python3 - "$img" $(($(blk_of "<8>" "$jb") * $(bsize) + 12)) <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    f.write(struct.pack(">I", 0x7fffffff))
PY
}
jsb_magic() { patch_int "$img" $(($(blk_of "<8>" 0) * $(bsize))) I 0; }
jsb_errno() {	# the journal superblock records an error (s_errno)
	patch_int "$img" $(($(blk_of "<8>" 0) * $(bsize) + 32)) I 0x2c3bcfbd
}
fifo_size() { dbg "mknod fifo0 p" && dbg "sif fifo0 size 100"; }
inline_symlink_ea_block() {	# an inline symlink that gets an xattr block
	head -c 200 /dev/zero | tr '\0' v >"$work/val" &&
	dbg "symlink /lnk /$(printf '%070d' 0)" &&
	"$debugfs" -R "stat /lnk" "$img" 2>/dev/null | grep -q 'Flags: 0x10000000' &&
	dbg "ea_set -f $work/val /lnk user.big"
}
inline_dir_as_fifo() { dbg "sif /sub mode 010755"; }
inline_dir_mode_zero() { dbg "sif /sub mode 0"; }
# an entry of /sub naming /sub itself (only '.' may)
link_to_dot() { dbg "link /sub /sub/self"; }
# the hash index flag on reserved inode 10 (unused, no mode)
reserved_index_flag() { dbg "sif <10> flags 0x1000"; }
# an extent-mapped file's flags overwritten with the inline data flag
inline_flag_over_extents() { dbg "sif /big flags 0x10000000"; }
dir_as_socket() { dbg "mkdir /sdir" && dbg "sif /sdir mode 0140755"; }
casefold_file() { dbg "sif /small flags 0x40000000"; }
bad_ino_extents() { dbg "sif <1> flags 0x80000"; }
ea_inode_value() {	# /small (inline) gets a value inode
	head -c 3000 /dev/zero | tr '\0' v >"$work/val" &&
	dbg "ea_set -f $work/val /small user.big"
}
ea_inode_orphan() { ea_inode_value && dbg "clri /small"; }
# the value inode is the last one taken: the first free one follows it
value_ino() {
	echo $(($("$debugfs" -R ffi "$img" 2>/dev/null |
		sed -n 's/^Free inode found: //p') - 1))
}
ea_inode_refs_off() { ea_inode_value && dbg "sif <$(value_ino)> version 7"; }
ea_inode_flag_lost() { ea_inode_value && dbg "sif <$(value_ino)> flags 0x80000"; }
# the value inode takes the number /small had, beside its owner /big:
# pass 1's scan holds it without the flag the owner's repair gives it
ino_of() {
	"$debugfs" -R "stat $1" "$img" 2>/dev/null |
		sed -n 's/^Inode: *\([0-9]*\).*/\1/p'
}
ea_inode_flag_lost_reuse() {
	low=$(ino_of /small) &&
	head -c 3000 /dev/zero | tr '\0' w >"$work/val" &&
	dbg "rm /small" && dbg "ea_set -f $work/val /big user.big" &&
	"$debugfs" -R "stat <$low>" "$img" 2>/dev/null |
		grep -q 'Flags: 0x280000' &&
	dbg "sif <$low> flags 0x80000"
}
ea_inode_inline_dtime() { ea_inode_value && dtime_set; }
device_extents() { dbg "mknod dev1 c 1 3" && dbg "sif dev1 flags 0x80000"; }
bad_primary() {	# ... names the primary superblock and descriptors (1k)
	dbg "sif <1> block[0] 1" && dbg "sif <1> block[1] 2" &&
	dbg "sif <1> size 2048" && dbg "sif <1> blocks 4"
}
bad_backup_sb() {	# ... names group 1's backup superblock (1k)
	keep_file /big &&
	dbg "sif <1> block[0] 8193" && dbg "sif <1> size 1024" &&
	dbg "sif <1> blocks 2"
}
bad_ibitmap() {	# the bad-blocks list names group 0's inode bitmap
	b=$(/usr/sbin/dumpe2fs "$img" 2>/dev/null |
		sed -n 's/^ *Inode bitmap at \([0-9]*\).*/\1/p' | head -1)
	bs=$(bsize)
	dbg "sif <1> block[0] $b" && dbg "sif <1> size $bs" &&
	dbg "sif <1> blocks $((bs / 512))"
}
# keep_file PATH: -fy must leave PATH's contents as they are now
keep_file() {
	printf '%s %s\n' "$1" "$("$debugfs" -R "cat $1" "$img" 2>/dev/null |
		sha256sum | cut -c1-64)" >>"$work/keep"
}
# keep_node PATH: -fy must leave PATH named (a device, fifo or socket)
keep_node() { printf '%s node\n' "$1" >>"$work/keep"; }
# new_big FILE: /big replaced by FILE's contents; sets s (its first block),
# bs and r (blocks a cluster: these cases use -C 16384)
new_big() {
	bs=$(bsize)
	r=$((16384 / bs))
	dbg "rm /big" && dbg "write $1 /big" || return 1
	s=$(blk_of /big 0)
}
# free_cluster FROM: the first block of a free cluster at or after FROM
free_cluster() {
	fc=$("$debugfs" -R "ffb 1 $1" "$img" 2>/dev/null |
		sed -n 's/.*found: *\([0-9]*\).*/\1/p')
	[ -n "$fc" ] && echo $(( (fc / r) * r ))
}
# A file's extent root rewritten (raw i_block words): its first logical
# cluster is split, blocks 2-3 mapped one cluster further (same offsets);
# what blocks 0-3 held must come back in place.
bigalloc_split() {
	bs=$(bsize)
	for c in a b c d; do head -c "$bs" /dev/zero | tr '\0' $c; done \
		>"$work/four"
	new_big "$work/four" || return 1
	# a free cluster past it takes blocks 2-3 (offsets 2 and 3)
	t=$(free_cluster $((s + r))) || return 1
	keep_file /big
	dbg "sif /big block[0] $((0xF30A | (2 << 16)))" &&
	dbg "sif /big block[3] 0" && dbg "sif /big block[4] 2" &&
	dbg "sif /big block[5] $s" &&
	dbg "sif /big block[6] 2" && dbg "sif /big block[7] 2" &&
	dbg "sif /big block[8] $((t + 2))" &&
	dd if="$img" of="$img" bs="$bs" skip=$((s + 2)) seek=$((t + 2)) \
		count=2 conv=notrunc 2>/dev/null
}
# Logical cluster 0 split (block 1 one cluster on), and block r+1 of
# logical cluster 1 mapped into cluster 0's first cluster: moving block 1
# back there must not overwrite what block r+1 holds.
bigalloc_crossed() {
	bs=$(bsize)
	r=$((16384 / bs))
	for c in $(seq 1 $((r + 2))); do
		head -c "$bs" /dev/zero | tr '\0' "\\$(printf %03o $((64 + c)))"
	done >"$work/blocks"
	new_big "$work/blocks" || return 1
	t=$(free_cluster $((s + 2 * r))) || return 1
	dd if="$img" of="$img" bs="$bs" skip=$((s + 1)) seek=$((t + 1)) \
		count=1 conv=notrunc 2>/dev/null &&
	dd if="$img" of="$img" bs="$bs" skip=$((s + r + 1)) seek=$((s + 1)) \
		count=1 conv=notrunc 2>/dev/null &&
	dbg "sif /big block[0] $((0xF30A | (3 << 16)))" &&
	dbg "sif /big block[3] 0" && dbg "sif /big block[4] 1" &&
	dbg "sif /big block[5] $s" &&
	dbg "sif /big block[6] 1" && dbg "sif /big block[7] 1" &&
	dbg "sif /big block[8] $((t + 1))" &&
	dbg "sif /big block[9] $((r + 1))" && dbg "sif /big block[10] 1" &&
	dbg "sif /big block[11] $((s + 1))" && keep_file /big
}
bigalloc_dup() { keep_file /big && dup_block; }
# The user quota tree's root (quota block 1: 1 KiB blocks) refers past
# the end of the file: the file is written anew from the usage counted
quota_root_bad() {
	bs=$(bsize) && [ -n "$bs" ] &&
	p=$(blk_of "<3>" $((1024 / bs))) && [ -n "$p" ] && [ "$p" != 0 ] &&
	keep_file /big &&
	patch_int "$img" $((p * bs + 1024 % bs)) I 65535
}
# The orphan file's inode wiped: a new orphan file is made after pass 5
orphan_file_inum() {
	"$debugfs" -R stats "$img" 2>/dev/null |
		sed -n 's/^Orphan file inode: *//p'
}
orphan_file_wiped() {
	o=$(orphan_file_inum) && [ -n "$o" ] && keep_file /big &&
	dbg "clri <$o>"
}
extent_flag_lost() { keep_file /big && dbg "sif /big flags 0"; }
# /frag (see extent_deep): its first extent remapped onto its fifth's
# block, its fourth onto its own leaf block, which it then maps as data
# too.  Cloning the first rewrites the leaf; the copy of the fourth must
# still get what the block held before.
extent_leaf_as_data() {
	frag_file || return 1
	leaf=$("$debugfs" -R "stat /frag" "$img" 2>/dev/null |
		sed -n 's/.*(ETB0):\([0-9]*\).*/\1/p')
	[ -n "$leaf" ] || return 1
	# leaf entries: 12-byte header, 12 bytes an entry, start_lo at 8
	patch_int "$img" $((leaf * $(bsize) + 12 + 8)) I "$(blk_of /frag 8)" &&
	patch_int "$img" $((leaf * $(bsize) + 12 + 3 * 12 + 8)) I "$leaf" &&
	keep_file /frag
}
# A file of ten extents (one block every other, too many for the root:
# one leaf) whose leaf is moved down a chain of seven one-entry nodes
# (free blocks taken for them): a root eight levels deep, past what the
# kernel reads.  No metadata_csum (the nodes carry no checksum).  -fy
# must keep the file.
frag_file() {
	python3 - "$work/frag" "$(bsize)" <<'PY'
import sys
bs = int(sys.argv[2])
with open(sys.argv[1], "wb") as f:
    for k in range(10):
        f.seek(2 * k * bs)
        f.write(bytes([65 + k]) * bs)
PY
	dbg "write $work/frag frag"
}
extent_deep() {
	frag_file || return 1
	keep_file /frag
	nb=$("$debugfs" -R "ffb 7" "$img" 2>/dev/null |
		sed -n 's/.*found: *//p')
	set -- $nb
	[ $# = 7 ] || return 1
	loc=$("$debugfs" -R "imap /frag" "$img" 2>/dev/null |
		sed -n 's/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/\1 \2/p')
	[ -n "$loc" ] || return 1
	for b in "$@"; do dbg "setb $b" || return 1; done
	python3 - "$img" "$(bsize)" $loc "$@" <<'PY'
import struct, sys
path, bs, iblk, ioff = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 0)
nodes = [int(x) for x in sys.argv[5:]]
with open(path, "r+b") as f:
    ib = iblk * bs + ioff + 0x28
    f.seek(ib)
    root = f.read(60)
    magic, n, mx, depth = struct.unpack("<HHHH", root[:8])
    assert magic == 0xF30A and depth == 1 and n == 1
    leaf = struct.unpack("<I", root[16:20])[0]
    f.seek(leaf * bs)
    node = f.read(bs)
    magic, n, mx, depth = struct.unpack("<HHHH", node[:8])
    assert magic == 0xF30A and depth == 0 and n == 10
    body = node[12:12 + 12 * n]
    per = (bs - 12) // 12
    # nodes[0] the leaf, nodes[k] the index at depth k pointing to nodes[k-1]
    for d, b in enumerate(nodes):
        if d == 0:
            blk = struct.pack("<HHHHI", 0xF30A, n, per, 0, 0) + body
        else:
            c = nodes[d - 1]
            blk = struct.pack("<HHHHI", 0xF30A, 1, per, d, 0) + \
                struct.pack("<IIHH", 0, c & 0xffffffff, c >> 32, 0)
        f.seek(b * bs)
        f.write(blk.ljust(bs, b"\0"))
    top = nodes[-1]
    newroot = struct.pack("<HHHHI", 0xF30A, 1, 4, len(nodes), 0) + \
        struct.pack("<IIHH", 0, top & 0xffffffff, top >> 32, 0)
    f.seek(ib)
    f.write(newroot.ljust(60, b"\0"))
PY
}
bigalloc_blockmap() {	# /small mapped by a block map (no extent flag)
	b=$(blk_of /small 0)
	keep_file /small
	dbg "sif /small flags 0" && dbg "sif /small block[0] $b" &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		dbg "sif /small block[$i] 0" || return 1
	done
}
bad_primary_gd() {	# the bad-blocks list names the first descriptor block
	bs=$(bsize)
	gd=1; [ "$bs" = 1024 ] && gd=2
	dbg "sif <1> block[0] $gd" && dbg "sif <1> size $bs" &&
	dbg "sif <1> blocks $((bs / 512))"
}
meta_bg_on() { dbg "feature meta_bg" && dbg "ssv first_meta_bg 1"; }
csum_seed_on() { dbg "feature metadata_csum_seed"; }	# no metadata_csum
uninit_bg_on() { dbg "feature uninit_bg"; }	# beside metadata_csum
extent_off() { dbg "feature ^extent"; }
inodes_count_off() { dbg "ssv inodes_count 3000"; }	# 2048 made; one group, no backup
mmp_magic() {	# debugfs then refuses to read the block back
	dbg "set_mmp_value magic 0x1234"
	"$debugfs" -R dump_mmp "$img" 2>&1 | grep -q 'invalid magic'
}
dir_tail_type() {	# /lost+found block 1: the checksum tail's type byte 0xdf
	bs=$(bsize)
	b=$(blk_of /lost+found 1)
	patch_int "$img" $((b * bs + bs - 5)) B 0xdf
}
dir_first_shifted() { dbg "sif /wide block[3] 1"; }	# first extent's start
dot_name_end() {	# /sub: the byte after the names of '.' and '..' set
	bs=$(bsize)
	b=$(blk_of /sub 0)
	patch_int "$img" $((b * bs + 9)) B 0x41 &&
		patch_int "$img" $((b * bs + 12 + 10)) B 0x42
}
dotdot_byte_lost() {	# /sub: '..' named '.' and a NUL
	bs=$(bsize)
	b=$(blk_of /sub 0)
	patch_int "$img" $((b * bs + 12 + 9)) B 0
}
dotdot_type() {	# /sub: '..' typed 10 (no such type)
	bs=$(bsize)
	b=$(blk_of /sub 0)
	patch_int "$img" $((b * bs + 12 + 7)) B 10
}
dir_first_hole() { dbg "punch /wide 0 0"; }	# block 0 of a linear dir
dir_rec_len() {	# first entry of /sub: rec_len 5 (not a multiple of 4)
	b=$(blk_of /sub 0)
	patch_int "$img" $((b * $(bsize) + 4)) H 5
}
htree_order() {	# last index entry of /wide's root: hash pushed to the top
	b=$(blk_of /wide 0)
	base=$((b * $(bsize)))
	count=$(read_int "$img" $((base + 34)) H)
	[ "$count" -ge 2 ] || return 1
	patch_int "$img" $((base + 32 + 8 * (count - 1))) I 0xfffffffe
}
# An attribute block on /big (the images of these cases have 128-byte
# inodes, so the values cannot stay in the inode); OFF_FN names what to
# break in it: the end marker of its entry list, or the name index of
# its first entry.
ea_block_of() {
	"$debugfs" -R "stat $1" "$img" 2>/dev/null |
		sed -n 's/.*File ACL: \([0-9]*\).*/\1/p'
}
ea_patch() {
	dbg "ea_set /big user.alpha valueone" &&
		dbg "ea_set /big user.beta valuetwo" || return 1
	b=$(ea_block_of /big)
	[ -n "$b" ] && [ "$b" != 0 ] || return 1
	python3 - "$img" $((b * $(bsize))) "$1" <<'PY'
import struct, sys
path, base, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "r+b") as f:
    f.seek(base)
    blk = bytearray(f.read(4096))
    off = 32
    while struct.unpack_from("<I", blk, off)[0]:
        off += (16 + blk[off] + 3) & ~3
    if what == "end":
        struct.pack_into("<I", blk, off, 0xdeadbeef)
    else:
        blk[33] = 0
    f.seek(base)
    f.write(blk[:off + 4])
PY
}
ea_no_end() { ea_patch end; }
ea_index_zero() { ea_patch index; }
link_count() { dbg "sif /small links_count 5"; }
hurd_made() { dbg "ssv creator_os 1"; }	# the Hurd keeps no file types
gd_free_blocks() { dbg "set_bg 1 free_blocks_count 60000"; }
gd_free_inodes() { dbg "set_bg 1 free_inodes_count 60000"; }
gd_unused_over_free() { dbg "set_bg 1 free_inodes_count 5"; }	# unused 2048
jinode_clear() { dbg "clri <8>"; }	# the superblock keeps its map
# inodes per group doubled (one group: no backup to compare); the inode
# count and group 0's bitmap padding still say the old number
# the bad-blocks inode names a block past the end (not its first pointer)
badino_far() { dbg "sif <1> block[2] 3342336"; }
# ... and group 0's inode bitmap is out of the file system too: the
# relocation noted before pass 1 must survive pass 1's second round
badino_far_ibitmap() {
	n=$("$debugfs" -R stats "$img" 2>/dev/null |
		sed -n 's/^Block count: *//p')
	badino_far && dbg "set_bg 0 inode_bitmap $n"
}
ipg_doubled() {
	n=$("$debugfs" -R stats "$img" 2>/dev/null |
		sed -n 's/^Inodes per group: *//p')
	keep_file /big && dbg "ssv inodes_per_group $((n * 2))"
}
# group 0's inode table at the block count, out of the file system (one
# group: no backup descriptors); the journal and resize inodes go with it
itable_outside() {
	n=$("$debugfs" -R stats "$img" 2>/dev/null |
		sed -n 's/^Block count: *//p')
	dbg "set_bg 0 inode_table $n"
}

# ---- damage of e2fsprogs tests outside our corpus (the hold-out set) ----
# free_count: the free blocks (or inodes, with "inodes") the superblock says
free_count() {
	"$debugfs" -R stats "$img" 2>/dev/null |
		sed -n "s/^Free ${1:-blocks}: *//p"
}
# fill_blocks: a file /fill takes every free block
fill_blocks() {
	n=$(free_count) && [ -n "$n" ] || return 1
	head -c $((n * $(bsize))) /dev/zero | tr '\0' f >"$work/fill" &&
	dbg "write $work/fill fill" || return 1
	n=$(free_count)
	[ "$n" = 0 ] && return 0
	head -c $((n * $(bsize))) /dev/zero | tr '\0' f >"$work/fill2" &&
	dbg "write $work/fill2 fill2"
	[ "$(free_count)" = 0 ]
}
# f_nospc_create_lnf: every inode taken, no /lost+found, /big unnamed: it
# is named in the root instead (a full file system is no error: the
# second -fn is clean)
lpf_no_inode() {
	dbg "rmdir lost+found" || return 1
	n=$(free_count inodes)
	seq -f 'mknod fifo%g p' 1 "$n" >"$work/cmds" &&
	"$debugfs" -w -f "$work/cmds" "$img" >/dev/null 2>&1 &&
	[ "$(free_count inodes)" = 0 ] || return 1
	keep_file "<$(ino_of /big)>"
	dbg "unlink /big"
}
# f_filetype: fifos and devices marked immutable lose the flag, not the
# inode (the reference clears only those whose block words are not zero)
special_immutable() {
	dbg "mknod fifo0 p" && dbg "mknod dev0 c 1 3" &&
	dbg "symlink slink /small" &&
	dbg "sif fifo0 flags 0x10" && dbg "sif dev0 flags 0x20" &&
	dbg "sif slink flags 0x10" &&
	keep_type /fifo0 && keep_type /dev0 && keep_type /slink
}
symlink_immutable() {	# ... a symlink alone
	dbg "symlink slink /small" && dbg "sif slink flags 0x10" &&
	keep_type /slink
}
# f_extent_oobounds: a two-leaf tree whose first leaf's last extent runs
# 15 blocks into the range of the second leaf (made with debugfs'
# extent commands, over blocks found free).  It is cut where the second
# leaf starts: the file reads as before (the kernel looks up the second
# leaf there), and no block of it is lost.
extent_past_node() {
	b=$("$debugfs" -R "ffb 1 20000" "$img" 2>/dev/null |
		sed -n 's/.*found: *\([0-9]*\).*/\1/p')
	[ -n "$b" ] || return 1
	for k in 0 1 2 3 4 5 6 7 8 9; do
		head -c $((15 * $(bsize))) /dev/zero | tr '\0' "\\$(printf %03o $((65 + k)))"
	done >"$work/ten"
	dd if="$work/ten" of="$img" bs="$(bsize)" seek="$b" conv=notrunc \
		2>/dev/null || return 1
	cat >"$work/cmds" <<-EOC
	write /dev/null testfile
	setb $b 150
	extent_open testfile
	insert_node 0 15 $b
	insert_node --after 15 15 $((b + 15))
	insert_node --after 30 15 $((b + 30))
	insert_node --after 45 15 $((b + 45))
	split
	down
	split
	root
	down
	next
	replace_node 15 30 $((b + 100))
	extent_close
	sif testfile size $((60 * $(bsize)))
	sif testfile blocks $((62 * $(bsize) / 512))
	EOC
	"$debugfs" -w -f "$work/cmds" "$img" >/dev/null 2>&1 || return 1
	"$debugfs" -R "ex testfile" "$img" 2>/dev/null |
		grep -q "15 - *44 *$((b + 100))" || return 1
	keep_file /testfile
}
# f_extent_leaf_bad_magic: /frag's leaf loses its magic (only that: the
# magic is written back and /frag kept, where the reference drops it)
extent_leaf_magic() {
	frag_file || return 1
	leaf=$("$debugfs" -R "stat /frag" "$img" 2>/dev/null |
		sed -n 's/.*(ETB0):\([0-9]*\).*/\1/p')
	[ -n "$leaf" ] && keep_file /frag &&
	patch_int "$img" $((leaf * $(bsize))) H 0
}
# f_jnl_etb_alloc_fail: the journal cannot be used and its blocks are all
# the room there is: the run clears it, finds no room for a new one and
# leaves a sound file system without a journal (exit 1, not 8)
journal_no_room() {
	keep_file /big && fill_blocks && dbg "ssv jnl_backup_type 0" &&
	dbg "clri <8>"
}
# f_uninit_last_uninit: the last group marked as having no block bitmap
last_group_uninit() {
	g=$(( $(/usr/sbin/dumpe2fs "$img" 2>/dev/null | grep -c '^Group [0-9]*:') - 1 ))
	dbg "set_bg $g flags 7" && dbg "set_bg $g checksum calc"
}
# f_zero_inode_size: the primary superblock's inode size 0
sb_inode_size_zero() { keep_file /big && dbg "ssv inode_size 0"; }
# bg_field FIELD VALUE: group 0's descriptor FIELD set in the primary and
# in every backup (1 KiB blocks, 8192 blocks a group, 32-byte descriptors)
bg_everywhere() {
	python3 - "$img" "$1" "$2" <<'PY'
import struct, sys
path, field, val = sys.argv[1], sys.argv[2], int(sys.argv[3])
off = {"block_bitmap": 0, "inode_bitmap": 4, "inode_table": 8}[field]
grp = 1 if field == "inode_table" else 0
with open(path, "r+b") as f:
    size = f.seek(0, 2)
    for g in [0, 1, 3, 5, 7, 9, 25, 27, 49]:
        blk = g * 8192 + 2
        if (blk + 1) * 1024 > size:
            break
        f.seek(blk * 1024 + 32 * grp + off)
        f.write(struct.pack("<I", val))
PY
}
# f_preen: group 0's block bitmap at 0 in every copy of the descriptors
bb_zero_everywhere() { keep_file /big && bg_everywhere block_bitmap 0; }
# f_misstable: group 1's inode table at 0 in every copy
itable_zero_everywhere() { keep_file /big && bg_everywhere inode_table 0; }
# f_overfsblks: group 0's inode bitmap on its block bitmap
ibitmap_on_bbitmap() {
	keep_file /big &&
	b=$(/usr/sbin/dumpe2fs "$img" 2>/dev/null |
		sed -n 's/^ *Block bitmap at \([0-9]*\).*/\1/p' | head -1) &&
	dbg "set_bg 0 inode_bitmap $b"
}
# f_lpffile: /lost+found a regular file
lpf_is_file() { keep_file /big && dbg "sif lost+found mode 0100644"; }
# f_lpf: no /lost+found, no UUID, files unnamed, one with a deletion time
# and free in the bitmap, blocks of another marked free
lpf_gone_unnamed() {
	i=$(ino_of /small) && b=$(blk_of /big 0) &&
	keep_file "<$(ino_of /big)>" && keep_file "<$i>" &&
	dbg "ssv uuid null" && dbg "rmdir lost+found" &&
	dbg "unlink /small" && dbg "unlink /big" &&
	dbg "sif <$i> dtime 12345" && dbg "freei <$i>" && dbg "freeb $b 3"
}
# f_h_badnode: an interior node of a two-level hash index names one leaf
# twice and a hash out of order
htree_node_twice() {
	mkdir -p "$work/deep" &&
	seq -f "$work/deep/a_fairly_long_file_name_for_the_index_%g" 1 5000 |
		xargs touch && rm -f "$img" && truncate -s 32M "$img" &&
	"$mkfs" -q -F -b 1024 -t ext4 -O ^metadata_csum -d "$work/deep" "$img" \
		>/dev/null 2>&1 && "$ref" -fyD "$img" >/dev/null 2>&1 || return 1
	rm -rf "$work/deep"
	"$debugfs" -R "htree /" "$img" 2>/dev/null | grep -q 'Indirect levels: 1' ||
		return 1
	n=$("$debugfs" -R "htree /" "$img" 2>/dev/null |
		sed -n 's/^Entry #0: Hash 0x00000000, block \([0-9]*\)$/\1/p' |
		head -1)
	[ -n "$n" ] && n=$(blk_of / "$n") || return 1
	python3 - "$img" "$n" <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    base = int(sys.argv[2]) * 1024
    f.seek(base)
    b = bytearray(f.read(1024))
    # entries after the 8-byte fake record: count/limit + block, then
    # (hash, block) pairs
    h2, b2 = struct.unpack_from("<II", b, 8 + 16)
    struct.pack_into("<I", b, 8 + 24 + 4, b2)
    struct.pack_into("<I", b, 8 + 40, 0xfffffff0)
    f.seek(base)
    f.write(b)
PY
}
quota_chown() { dbg "sif /big uid 4242"; }
quota_inum_far() {	# the number past the inode count, its file gone
	dbg "ssv usr_quota_inum 808464432" && dbg "clri <3>"
}
quota_ref_wrap() {	# user quota tree root (quota block 1): first ref ~0
	bs=$(bsize)
	b=$(blk_of "<3>" $((1024 / bs))) || return 1
	patch_int "$img" $((b * bs + 1024 % bs)) I 0xffffffff
}
map_loop() {	# /big's double and triple indirect maps all reach one block
	ind=$("$debugfs" -R "stat /big" "$img" 2>/dev/null |
		sed -n 's/.*(IND):\([0-9]*\).*/\1/p')
	[ -n "$ind" ] || return 1
	bs=$(bsize)
	d=$(( $(blk_of /big 0) + 2000 )); t=$((d + 1))
	python3 - "$img" "$bs" "$ind" "$d" "$t" <<'PY'
import struct, sys
img, bs, ind, d, t = sys.argv[1], *map(int, sys.argv[2:])
with open(img, "r+b") as f:
    f.seek(d * bs); f.write(struct.pack("<I", ind) * (bs // 4))
    f.seek(t * bs); f.write(struct.pack("<I", d) * (bs // 4))
PY
	dbg "sif /big block[DIND] $d" && dbg "sif /big block[TIND] $t"
}
# rename_entry DIR FROM TO: the entry FROM of DIR's blocks renamed TO (same
# length), so the directory holds TO twice
rename_entry() {
	bs=$(bsize)
	for b in $("$debugfs" -R "blocks $1" "$img" 2>/dev/null); do
		python3 - "$img" "$bs" "$b" "$2" "$3" <<'PY' && return 0
import re, sys
img, bs, b, fr, to = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4].encode(), sys.argv[5].encode()
with open(img, "r+b") as f:
    f.seek(b * bs)
    blk = bytearray(f.read(bs))
    m = re.search(re.escape(bytes([len(fr)])) + b"." + re.escape(fr), blk,
                  re.DOTALL)
    if not m:
        sys.exit(1)
    i = m.start()
    blk[i + 2:i + 2 + len(to)] = to
    f.seek(b * bs)
    f.write(blk)
PY
	done
	return 1
}
dup_name_linear() { rename_entry / sub big; }
dup_name_htree() {
	rename_entry /wide entry_with_a_longish_name_10 entry_with_a_longish_name_11
}
bitmap_clear() {
	b=$(blk_of /big 0)
	dbg "freeb $b 4"
}
# Past the first 65,536 bits of either bitmap (the images of these cases
# have 1 KiB blocks, 8,192 blocks a group, and about 100,000 inodes): the
# backup superblock and descriptors of group 9 marked free, and an unused
# inode of the last group marked in use.
bitmap_far() {
	dbg "freeb $((9 * 8192 + 1)) 4" && dbg "seti <99000>"
}
entry_to_cleared() { dbg "clri /big"; }
dir_hole() { dbg "punch /wide 2 2"; }
root_clear() { dbg "clri <2>"; }
lpf_removed() { dbg "rmdir lost+found"; }
dir_unnamed() { dbg "unlink /sub"; }	# the count stays: unconnected
file_unnamed() { dbg "unlink /big"; }
htree_root_info() {	# /wide's root: info_length 3
	b=$(blk_of /wide 0)
	patch_int "$img" $((b * $(bsize) + 24 + 5)) B 3
}
dir_csum() {	# /sub's leaf: the checksum in its tail flipped
	bs=$(bsize)
	b=$(blk_of /sub 0)
	v=$(read_int "$img" $((b * bs + bs - 4)) I)
	patch_int "$img" $((b * bs + bs - 4)) I $((v ^ 0x5a5a))
}
# inode_off PATH: byte offset of PATH's inode in the image
inode_off() {
	"$debugfs" -R "imap $1" "$img" 2>/dev/null | python3 -c '
import re, sys
t = sys.stdin.read()
b = int(re.search(r"block (\d+)", t).group(1))
o = int(re.search(r"offset (0x[0-9a-f]+)", t).group(1), 16)
print(b * int(sys.argv[1]) + o)' "$(bsize)"
}
inline_dir_rec_len() {	# /sub inline: its first entry's rec_len 5
	patch_int "$img" $(( $(inode_off /sub) + 40 + 4 + 4 )) H 5
}
inline_dir_parent() {	# /sub inline: '..' beyond the inode count
	patch_int "$img" $(( $(inode_off /sub) + 40 )) I 0x7fffffff
}

# ---- e2fsprogs tests that are not in our corpus, made again -----------
# f_dup_resize: the reserved descriptor blocks 4-7 (1 KiB blocks) and
# their backups in group 1 marked free, then a new file written there:
# the file keeps its contents (cloned) and the resize inode is rebuilt.
dup_resize() {
	head -c 64512 /dev/zero | tr '\0' r >"$work/bits" &&
	dbg "freeb 4 4" && dbg "freeb 8195 4" &&
	dbg "write $work/bits /resized" && keep_file /resized
}
# f_desc_size_bad: a descriptor size that is no power of two in the
# primary only, with groups smaller than a bitmap block (-g 512): the
# backup in group 1 is where the primary's group size puts it.
desc_size_odd() { keep_file /big && dbg "ssv desc_size 129"; }
# f_end-bitmap: the bits of the last group's block bitmap past the last
# block cleared (they must stay set) and that group's free count off.
end_bitmap_pad() {
	last=$(/usr/sbin/dumpe2fs "$img" 2>/dev/null |
		sed -n 's/^ *Block bitmap at \([0-9]*\).*/\1/p' | tail -1)
	[ -n "$last" ] || return 1
	python3 - "$img" "$(bsize)" "$last" <<'PY'
import struct, sys
path, bs, bm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek(1024)
    sb = f.read(1024)
    count, first, bpg = struct.unpack_from("<I", sb, 4)[0], \
        struct.unpack_from("<I", sb, 20)[0], struct.unpack_from("<I", sb, 32)[0]
    n = (count - first) % bpg
    assert n > 0
    f.seek(bm * bs + n // 8)
    keep = f.read(1)[0] & ((1 << (n % 8)) - 1)
    f.seek(bm * bs + n // 8)
    f.write(bytes([keep]) + bytes(bs - n // 8 - 1))
PY
}
# f_badinode: on a Hurd file system a fifo whose fragment size byte (the
# Hurd keeps it where Linux has i_blocks_hi) is 4: the field is cleared,
# the fifo kept.
hurd_frag() {
	dbg "mknod timings p" && keep_node /timings &&
	patch_int "$img" $(($(inode_off /timings) + 117)) B 4
}
# ... and devices marked immutable: the flag goes, the device stays; with
# words past the device number too the inode is garbage and goes.
device_immutable() {
	dbg "mknod char_dev c 3 4" && dbg "sif /char_dev flags 0x10" &&
	keep_node /char_dev &&
	dbg "mknod block_dev b 1 2" && dbg "sif /block_dev block[5] 99" &&
	keep_node /block_dev
}
device_immutable_junk() {
	dbg "mknod block_dev b 1 2" && dbg "sif /block_dev flags 0x10" &&
	dbg "sif /block_dev block[5] 99"
}
# f_bbinode, f_badtable: the bad-blocks list names the inode table block
# holding /big's inode (and, for the second, group 0's bitmaps): the
# table cannot move, so it comes off the list and every file is kept
# (the reference drops the names of the inodes there); bitmaps move.
bb_list() {	# bb_list BLOCK...: the bad-blocks inode lists just these
	bs=$(bsize) && n=0
	for b in "$@"; do
		dbg "sif <1> block[$n] $b" || return 1
		n=$((n + 1))
	done
	dbg "sif <1> size $((n * bs))" && dbg "sif <1> blocks $((n * bs / 512))"
}
itable_blk() {
	"$debugfs" -R "imap $1" "$img" 2>/dev/null |
		sed -n 's/.*located at block \([0-9]*\),.*/\1/p'
}
bad_itable() {
	keep_file /big && keep_file /small && bb_list "$(itable_blk /big)"
}
bad_itable_bitmaps() {
	set -- $(/usr/sbin/dumpe2fs "$img" 2>/dev/null |
		sed -n 's/^ *\(Block\|Inode\) bitmap at \([0-9]*\).*/\2/p' |
		head -2)
	[ $# = 2 ] && keep_file /big && keep_file /small &&
	bb_list "$1" "$2" "$(itable_blk /big)"
}
# f_ea_inode_self_ref: an inline file of more than 60 bytes whose
# system.data entry names the file itself as its value inode (size 0):
# the file stays, with the 60 bytes i_block holds.
inline_data_self_ref() {
	printf '%070d\n' 7 >"$work/inl" && dbg "write $work/inl inl" &&
	keep_node /inl &&
	"$debugfs" -R "stat /inl" "$img" 2>/dev/null |
		grep -q 'Flags: 0x10000000' || return 1
	python3 - "$img" "$(inode_off /inl)" "$(ino_of /inl)" <<'PY'
import struct, sys
path, base, ino = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek(base + 128)
    e = base + 128 + struct.unpack("<H", f.read(2))[0] + 4
    while True:
        f.seek(e)
        nl, idx = struct.unpack("<BB", f.read(2))
        if not nl:
            sys.exit(1)
        f.seek(e + 16)
        if idx == 7 and f.read(nl) == b"data":
            f.seek(e + 4)
            f.write(struct.pack("<II", ino, 0))
            break
        e += (16 + nl + 3) & ~3
PY
}
# f_dir_bad_csum: a directory's first block rewritten with '.' (or '..')
# given a record length too short, so that the records behind it start
# at unaligned offsets (and the checksum tail is gone).  Salvage keeps
# what it can; '.' and '..' must come out zero-padded and nothing read
# from the slack of '.' may become an entry.
dot_records() {	# dot_records DOT_LEN DOTDOT_LEN
	dbg "mkdir dd" && dbg "write $work/v dd/f" || return 1
	python3 - "$img" "$(bsize)" "$(blk_of /dd 0)" "$(ino_of /dd)" \
		"$(ino_of /dd/f)" "$1" "$2" <<'PY'
import struct, sys
img, bs, blk, d, f, l1, l2 = [int(x) if i else x for i, x in enumerate(sys.argv[1:])]
out = b""
for ino, name, rl, ft in ((d, b".", l1, 2), (2, b"..", l2, 2),
                          (f, b"f", 1000, 1)):
    out += struct.pack("<IHBB", ino, rl, len(name), ft) + name
    out = out.ljust(len(out) + max(0, rl - 8 - len(name)), b"\0")
with open(img, "r+b") as fh:
    fh.seek(blk * bs)
    fh.write(out.ljust(bs, b"\0")[:bs])
PY
}
dot_rec_len_zero() { head -c 10 /dev/zero >"$work/v" && dot_records 0 12; }
dotdot_rec_len_short() { head -c 10 /dev/zero >"$work/v" && dot_records 12 3; }
# Hold-out damage kinds ours repaired already (regression cases):
# f_eofblocks: a size far short of the blocks mapped
size_short() { dbg "sif /big size 2048"; }
# f_expand: the root inode made a regular file (every name is lost with
# it: the files go to lost+found, which has to grow)
root_not_dir() { dbg "sif <2> mode 0100644"; }
# f_bitmaps: bits of both bitmaps wrong both ways
bitmaps_both_ways() {
	dbg "freeb $(blk_of /big 0)" && dbg "setb 9000" &&
	dbg "freei <11>" && dbg "seti <500>"
}
# f_dup3: one block mapped twice by the same file (block map)
dup_in_one_file() { dbg "sif /big block[5] $(blk_of /big 2)"; }
# f_badlkcnt: files whose names are gone and that were freed (dtime,
# bitmaps) but still count a link
freed_with_links() {
	i=$(ino_of /big) && dbg "unlink /big" && dbg "kill_file <$i>"
}
# f_baddotdir: the first entry of /sub names lost+found as 'X'
dot_renamed() {
	python3 - "$img" "$(bsize)" "$(blk_of /sub 0)" <<'PY'
import struct, sys
img, bs, blk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(img, "r+b") as f:
    f.seek(blk * bs)
    ino, rl, nl, ft = struct.unpack("<IHBB", f.read(8))
    assert nl == 1
    f.seek(blk * bs)
    f.write(struct.pack("<I", 11))
    f.seek(blk * bs + 8)
    f.write(b"X")
PY
}
# f_extent_int_bad_magic: a file whose extent tree is two levels deep
# (400 one-block extents, 1 KiB blocks), its index node's magic zeroed:
# the rest of the node is sound, so the magic is written back and the
# file kept whole (the reference empties the file).
extent_index_magic() {
	python3 - "$work/sparse" <<'PY'
import sys
with open(sys.argv[1], "wb") as f:
    for k in range(400):
        f.seek(2 * k * 1024)
        f.write(bytes([65 + k % 26]) * 1024)
PY
	dbg "write $work/sparse sparse" && keep_file /sparse || return 1
	idx=$("$debugfs" -R "stat /sparse" "$img" 2>/dev/null |
		sed -n 's/.*(ETB0):\([0-9]*\).*/\1/p')
	"$debugfs" -R "ex /sparse" "$img" 2>/dev/null | grep -q '^ *0/ *2' &&
	[ -n "$idx" ] && patch_int "$img" $((idx * $(bsize))) H 0
}

# Every file keep_file noted still holds what it held ($lost: those not).
kept_files() {
	lost=
	[ -f "$work/keep" ] || return 0
	while read -r path sum; do
		if [ "$sum" = node ]; then
			"$debugfs" -R "stat $path" "$img" 2>/dev/null |
				grep -q '^Inode:' || lost="$lost $path"
			continue
		fi
		[ "$("$debugfs" -R "cat $path" "$img" 2>/dev/null |
			sha256sum | cut -c1-64)" = "$sum" ] || lost="$lost $path"
	done <"$work/keep"
	[ -z "$lost" ]
}
# keep_type PATH: -fy must leave PATH there (fifos, devices and
# symlinks, whose contents cat cannot show)
keep_type() { printf '%s node\n' "$1" >>"$work/keep"; }

pass=0 fail=0
while IFS='	' read -r name opts damage codes refsees fixes size; do
	case $name in ''|'#'*) continue ;; esac
	if [ -n "${DAMAGE_ONLY:-}" ] &&
		! printf '%s\n' "$name" | grep -Eq "$DAMAGE_ONLY"; then
		continue
	fi
	rm -f "$img"
	truncate -s "${size:-64M}" "$img"
	# shellcheck disable=SC2086
	if ! "$mkfs" -q -F $opts -d "$src" "$img" >"$work/log" 2>&1; then
		echo "FAIL $name: mke2fs: $(head -1 "$work/log")"
		fail=$((fail + 1)); continue
	fi
	# index directories larger than a block
	"$ref" -fyD "$img" >/dev/null 2>&1
	if ! "$ref" -fn "$img" >/dev/null 2>&1; then
		echo "FAIL $name: the image is not clean before the damage"
		fail=$((fail + 1)); continue
	fi
	"$ours" -fn "$img" >"$work/out0" 2>&1 || {
		echo "FAIL $name: ours complains about the undamaged image"
		sed 's/^/    /' "$work/out0" | head; fail=$((fail + 1)); continue; }
	rm -f "$work/keep"
	if ! $damage; then
		echo "FAIL $name: could not apply damage $damage"
		fail=$((fail + 1)); continue
	fi
	sum=$(sha256sum <"$img")
	"$ours" -fnd "$img" >"$work/out" 2>&1
	rc=$?
	missing=
	for code in $(echo "$codes" | tr , ' '); do
		grep -q "\[$code\]" "$work/out" || missing="$missing $code"
	done
	if [ "$rc" != 4 ] || [ -n "$missing" ]; then
		echo "FAIL $name: exit $rc, want 4 with problems $codes"
		grep -v '^Pass \|^Superblock and' "$work/out" | head -8 | sed 's/^/    /'
		fail=$((fail + 1)); continue
	fi
	[ "$(sha256sum <"$img")" = "$sum" ] || {
		echo "FAIL $name: -n changed the image"; fail=$((fail + 1)); continue; }
	[ "$refsees" = yes ] && "$ref" -fn "$img" >/dev/null 2>&1 && {
		echo "FAIL $name: the reference does not see the damage (bad case)"
		fail=$((fail + 1)); continue; }
	if [ "$fixes" = yes ]; then
		"$ours" -fy "$img" >"$work/fy" 2>&1
		rc=$?
		if [ "$rc" != 1 ] || ! "$ours" -fn "$img" >/dev/null 2>&1 ||
			! "$ref" -fn "$img" >/dev/null 2>&1; then
			echo "FAIL $name: -fy exit $rc did not leave it clean"
			grep -v '^Pass \|^Superblock and' "$work/fy" | head -6 | sed 's/^/    /'
			fail=$((fail + 1)); continue
		fi
		if ! kept_files; then
			echo "FAIL $name: -fy lost the contents of$lost"
			fail=$((fail + 1)); continue
		fi
		echo "ok $name ($codes, repaired)"
	else
		echo "ok $name ($codes)"
	fi
	pass=$((pass + 1))
done <"$here/damage-cases.tsv"
# DAMAGE_ONLY=REGEX runs only the table's cases whose names match.
if [ -n "${DAMAGE_ONLY:-}" ]; then
	echo "damage: $pass passed, $fail failed (only /$DAMAGE_ONLY/)"
	[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
	exit
fi
# A 64bit primary superblock whose descriptor size is 0 cannot be opened
# (nor by the reference): -n changes nothing (the backup is checked: exit
# 4), -y sets the size 64-bit file systems are made with and leaves the
# file system clean.
desc_size_case() {
	rm -f "$img"
	truncate -s 64M "$img"
	"$mkfs" -q -F -t ext4 -O 64bit -d "$src" "$img" >/dev/null 2>&1
	patch_int "$img" $((1024 + 0xfe)) H 0
	sum=$(sha256sum <"$img")
	"$ours" -fnd "$img" >"$work/out" 2>&1
	rc=$?
	if [ "$rc" != 4 ] || ! grep -q '\[0x00002f\]' "$work/out" ||
		[ "$(sha256sum <"$img")" != "$sum" ]; then
		echo "FAIL desc_size_unset: -n exit $rc, want 4 with 0x00002f and no change"
		fail=$((fail + 1)); return
	fi
	"$ours" -fy "$img" >"$work/fy" 2>&1
	rc=$?
	if [ "$rc" != 1 ] || ! "$ours" -fn "$img" >/dev/null 2>&1 ||
		! "$ref" -fn "$img" >/dev/null 2>&1 ||
		[ "$(read_int "$img" $((1024 + 0xfe)) H)" != 64 ]; then
		echo "FAIL desc_size_unset: -fy exit $rc did not leave it clean"
		head -6 "$work/fy" | sed 's/^/    /'
		fail=$((fail + 1)); return
	fi
	echo "ok desc_size_unset (0x00002f, repaired)"; pass=$((pass + 1))
}
desc_size_case

# Blocks shared while the stored bitmap marks every block in use: the
# clone must take blocks pass 1 found free (pass 5 frees them anyway)
# rather than give up and clear the files.
full_bitmap_clone() {
	rm -f "$img"
	truncate -s 64M "$img"
	# no uninit_bg: the bitmaps of uninitialised groups are not read
	"$mkfs" -q -F -t ext4 -O ^metadata_csum,^uninit_bg -d "$src" \
		"$img" >"$work/log" 2>&1 &&
		"$ref" -fyD "$img" >/dev/null 2>&1
	n=$("$debugfs" -R stats "$img" 2>/dev/null |
		sed -n 's/^Block count: *//p')
	dup_block && dbg "setb 1 $((n - 1))" || return 1
	timeout 60 "$ours" -fyd "$img" >"$work/fy" 2>&1
	rc=$?
	[ "$rc" = 1 ] && ! grep -q '\[0x110003\]' "$work/fy" &&
		"$debugfs" -R "stat /small" "$img" 2>&1 | grep -q 'Links: 1' &&
		"$ours" -fn "$img" >/dev/null 2>&1 &&
		"$ref" -fn "$img" >/dev/null 2>&1
}
if full_bitmap_clone; then
	echo "ok dup_block_full_bitmap (cloned, both files kept)"
	pass=$((pass + 1))
else
	echo "FAIL dup_block_full_bitmap: -fy did not clone and stay clean"
	grep -v '^Pass \|^Superblock and' "$work/fy" | head -6 | sed 's/^/    /'
	fail=$((fail + 1))
fi
# itree: a directory whose itree is built by libe2x must be clean, and a
# leaf node with a broken magic must be reported (0x020015).  The short
# tree (our mke2fs and debugfs, 150 names) always runs; the 40,000-entry
# tree of tests/lib/dir_driver takes minutes: only with E2X_LONG=1.
our_mkfs=$top_builddir/mke2fs/mke2fs
our_dbg=$top_builddir/debugfs/debugfs
driver=$top_builddir/tests/lib/dir_driver
itree_short() {	# 1 KiB blocks: six leaves under one index node
	"$our_mkfs" -q -F -t ext4 -b 1024 -I 256 -O itree "$img" 16M &&
	{ echo "mkdir big"
	  seq 1 150 | sed 's|.*|mknod big/a-longer-entry-name-& p|'
	} >"$work/cmds" && "$our_dbg" -w -f "$work/cmds" "$img" >/dev/null
}
itree_long() {
	"$mkfs" -q -F -t ext4 -b 4096 -N 40000 "$img" 256M &&
	"$driver" build "$img" itree >/dev/null
}
itree_case() {	# name build
	rm -f "$img"
	if ! $2 >"$work/log" 2>&1; then
		echo "FAIL $1: cannot build the itree: $(head -2 "$work/log")"
		fail=$((fail + 1)); return
	fi
	if ! "$ours" -fn "$img" >"$work/out" 2>&1; then
		echo "FAIL $1: ours complains about a fresh itree"
		grep -v '^Pass \|^Superblock and' "$work/out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1)); return
	fi
	bs=$(bsize)
	leaf=$("$our_dbg" -R "itree_dump /big" "$img" 2>/dev/null |
		sed -n 's/^ *Node \([0-9]*\): level 0,.*/\1/p' | sed -n 2p)
	if [ -z "$leaf" ]; then
		echo "FAIL $1: no second itree leaf in /big to damage"
		fail=$((fail + 1)); return
	fi
	printf 'XXXX' | dd of="$img" bs=1 seek=$((leaf * bs)) conv=notrunc 2>/dev/null
	"$ours" -fnd "$img" >"$work/out" 2>&1
	rc=$?
	if [ "$rc" = 4 ] && grep -q '\[0x020015\].*' "$work/out" &&
		grep -q "magic wrong at block $leaf" "$work/out"; then
		echo "ok $1 (0x020015)"; pass=$((pass + 1))
	else
		echo "FAIL $1: exit $rc, want 4 with 0x020015 for block $leaf"
		grep -v '^Pass \|^Superblock and' "$work/out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
	itree_rebuilt "$1 magic"
	# a node whose magic holds but whose body (and checksum) does not
	rm -f "$img"
	$2 >"$work/log" 2>&1 || return
	leaf=$("$our_dbg" -R "itree_dump /big" "$img" 2>/dev/null |
		sed -n 's/^ *Node \([0-9]*\): level 0,.*/\1/p' | sed -n 2p)
	printf 'XXXX' | dd of="$img" bs=1 seek=$((leaf * bs + 40)) conv=notrunc 2>/dev/null
	itree_rebuilt "$1 body"
}
# itree_rebuilt NAME: one -fy rebuilds the damaged tree and frees its old
# nodes in the same run: a second -fy changes nothing (exit 0)
itree_rebuilt() {
	"$ours" -fy "$img" >"$work/out" 2>&1
	rc=$?
	"$ours" -fy "$img" >"$work/out2" 2>&1
	rc2=$?
	[ "$rc" = 1 ] && [ "$rc2" = 0 ]
	judge $? "$1 rebuilt in one run" \
		"$1: -fy exit $rc then $rc2, want 1 then 0" "$work/out2"
}
# judge STATUS OK-TEXT FAIL-TEXT LOG: count and say the verdict (STATUS 0
# passes); a failure shows LOG's first lines.
judge() {
	if [ "$1" = 0 ]; then
		echo "ok $2"; pass=$((pass + 1))
	else
		echo "FAIL $3"
		grep -v '^Pass \|^Superblock and\|^$' "$4" | head -5 |
			sed 's/^/    /'
		fail=$((fail + 1))
	fi
}
# A name given twice where the later record has no room to grow (eight
# characters in a 16-byte record, not the block's last): it must keep its
# file, renamed in place, not lose its name (corpus f_dup_de2).
dup_name_tight() {
	rm -f "$img"
	"$mkfs" -q -F -t ext4 -O ^metadata_csum "$img" 8M >/dev/null 2>&1 &&
	{ echo "mkdir d"
	  seq -f 'write /dev/null d/test-%03g' 1 10
	} >"$work/cmds" && "$debugfs" -w -f "$work/cmds" "$img" >/dev/null 2>&1 &&
	rename_entry /d test-003 test-008 || {
		echo "FAIL dup_name_tight: cannot make the image"
		fail=$((fail + 1)); return; }
	"$ours" -fy "$img" >"$work/out" 2>&1
	rc=$?
	n=$("$debugfs" -R "ls -l /d" "$img" 2>/dev/null |
		awk '$1 > 0 && $NF ~ /^test-/' | wc -l)
	[ "$rc" = 1 ] && [ "$n" = 10 ] && "$ref" -fn "$img" >/dev/null 2>&1
	judge $? "dup_name_tight (10 files kept)" \
		"dup_name_tight: -fy exit $rc, $n of 10 files named after" \
		"$work/out"
}
dup_name_tight
# e2fsprogs' f_imagic_fs: with imagic_inodes an inode flagged imagic
# needs no name (AFS keeps such inodes): -fn is clean, -fy leaves it be.
imagic_unnamed() {
	rm -f "$img"
	"$mkfs" -q -F -t ext2 -b 1024 -d "$src" "$img" 8M >/dev/null 2>&1 &&
	i=$(ino_of /big) && dbg "feature imagic_inodes" &&
	dbg "sif /big flags 0x2000" && dbg "unlink /big" || {
		echo "FAIL imagic_unnamed: cannot make the image"
		fail=$((fail + 1)); return; }
	"$ours" -fn "$img" >"$work/out" 2>&1
	rc=$?
	"$ours" -fy "$img" >"$work/out2" 2>&1
	rc2=$?
	[ "$rc" = 0 ] && [ "$rc2" = 0 ] && "$ref" -fn "$img" >/dev/null 2>&1 &&
		! "$debugfs" -R "ls -l /lost+found" "$img" 2>/dev/null |
			grep -q "^ *$i "
	judge $? "imagic_unnamed (left unnamed)" \
		"imagic_unnamed: -fn exit $rc, -fy exit $rc2, want 0 and 0" \
		"$work/out"
}
imagic_unnamed
# e2fsprogs' f_lpf, f_noroot, f_overfsblks: a file system without a UUID
# gets one from -fy (without metadata_csum, whose checksums it seeds)
uuid_given() {
	rm -f "$img"
	"$mkfs" -q -F -t ext2 -b 1024 -d "$src" "$img" 8M >/dev/null 2>&1 &&
	dbg "ssv uuid null" || {
		echo "FAIL uuid_given: cannot make the image"
		fail=$((fail + 1)); return; }
	"$ours" -fy "$img" >"$work/out" 2>&1
	rc=$?
	u=$(/usr/sbin/dumpe2fs -h "$img" 2>/dev/null |
		sed -n 's/^Filesystem UUID: *//p')
	[ "$rc" -le 1 ] && [ -n "$u" ] && [ "$u" != "<none>" ] &&
		"$ours" -fn "$img" >/dev/null 2>&1 &&
		"$ref" -fn "$img" >/dev/null 2>&1
	judge $? "uuid_given ($u)" \
		"uuid_given: -fy exit $rc, UUID '$u' after" "$work/out"
}
uuid_given
# e2fsprogs' f_jnl_64bit: a 64bit journal holding one transaction (every
# metadata block a few debugfs commands changed, written with debugfs'
# journal commands over a copy of the image before them): -fy replays
# it, fixes the free counts the replay leaves stale, and the files the
# transaction made are there.
journal_replay_64bit() {
	rm -f "$img"
	"$mkfs" -q -F -t ext4 -O 64bit -b 1024 "$img" 16M >/dev/null 2>&1 &&
	cp "$img" "$work/after" &&
	printf 'hello from the journal\n' >"$work/hn" &&
	printf 'mkdir dd\nwrite %s dd/hn\nmkdir dd/e\n' "$work/hn" |
		"$debugfs" -w -f - "$work/after" >/dev/null 2>&1 &&
	python3 - "$img" "$work/after" "$work/jdata" >"$work/jblocks" <<'PY' &&
import sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
d = [i for i in range(len(a) // 1024)
     if i != 1 and a[i * 1024:(i + 1) * 1024] != b[i * 1024:(i + 1) * 1024]]
open(sys.argv[3], "wb").write(b"".join(b[i * 1024:(i + 1) * 1024] for i in d))
print(",".join(map(str, d)))
PY
	printf 'jo\njw -b %s %s\njc\n' "$(cat "$work/jblocks")" "$work/jdata" |
		"$debugfs" -w -f - "$img" >/dev/null 2>&1 || {
		echo "FAIL journal_replay_64bit: cannot make the image"
		fail=$((fail + 1)); return; }
	"$ours" -fy "$img" >"$work/out" 2>&1
	rc=$?
	[ "$rc" = 1 ] && "$ours" -fn "$img" >/dev/null 2>&1 &&
		"$ref" -fn "$img" >/dev/null 2>&1 &&
		[ "$("$debugfs" -R "cat /dd/hn" "$img" 2>/dev/null)" = \
		  "hello from the journal" ]
	judge $? "journal_replay_64bit (replayed, clean)" \
		"journal_replay_64bit: -fy exit $rc, not clean or /dd/hn lost" \
		"$work/out"
}
journal_replay_64bit
if [ -x "$our_mkfs" ] && [ -x "$our_dbg" ]; then
	itree_case itree_leaf_magic itree_short
else
	echo "FAIL: our mke2fs or debugfs not built"; fail=$((fail + 1))
fi
if [ -n "${E2X_LONG:-}" ]; then
	if [ -x "$driver" ]; then
		itree_case itree_leaf_magic_40k itree_long
	else
		echo "FAIL: E2X_LONG set but $driver not built"
		fail=$((fail + 1))
	fi
fi
echo "damage: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
