#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# damage.sh --- damage of our own making: populate an image with the
# reference mke2fs -d, break one thing (with the reference debugfs or a
# byte patch), and require our "e2fsck -fn" to exit 4 naming the expected
# problem code (printed by -d).  Cases: damage-cases.tsv.  A second run
# with -fy must leave the image clean for the cases pass 4/5 repair.
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

# ---- the damage kinds ----------------------------------------------------
inline_size() { dbg "sif /small size 500"; }
inline_drop_data() { dbg "ea_rm /small system.data"; }
inline_on_device() { dbg "mknod dev0 c 1 3" && dbg "sif dev0 flags 0x10000000"; }
bigalloc_shift() {	# first extent of /big: physical start + 1
	s=$("$debugfs" -R "stat /big" "$img" 2>/dev/null |
		sed -n 's/.*(0-[0-9]*):\([0-9]*\)-.*/\1/p' | head -1)
	[ -n "$s" ] && dbg "sif /big block[5] $((s + 1))"
}
iblocks_off() { dbg "sif /big blocks 8"; }
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
link_count() { dbg "sif /small links_count 5"; }
jinode_clear() { dbg "clri <8>"; }	# the superblock keeps its map
quota_chown() { dbg "sif /big uid 4242"; }
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

pass=0 fail=0
while IFS='	' read -r name opts damage code refsees fixes; do
	case $name in ''|'#'*) continue ;; esac
	rm -f "$img"
	truncate -s 64M "$img"
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
	if ! $damage; then
		echo "FAIL $name: could not apply damage $damage"
		fail=$((fail + 1)); continue
	fi
	sum=$(sha256sum <"$img")
	"$ours" -fnd "$img" >"$work/out" 2>&1
	rc=$?
	if [ "$rc" != 4 ] || ! grep -q "\[$code\]" "$work/out"; then
		echo "FAIL $name: exit $rc, want 4 with problem $code"
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
		echo "ok $name ($code, repaired)"
	else
		echo "ok $name ($code)"
	fi
	pass=$((pass + 1))
done <"$here/damage-cases.tsv"
# itree: a directory tree built by libe2x (tests/lib/dir_driver) must be
# clean, and a leaf node with a broken magic must be reported.  Building
# the tree takes minutes on a loaded machine: only with E2X_LONG=1.
driver=$top_builddir/tests/lib/dir_driver
if [ -n "${E2X_LONG:-}" ] && [ -x "$driver" ]; then
	rm -f "$img"
	"$mkfs" -q -F -t ext4 -b 4096 -N 40000 "$img" 256M >/dev/null 2>&1
	"$driver" build "$img" itree >"$work/expect" 2>&1
	if "$ours" -fn "$img" >"$work/out" 2>&1; then
		leaf=$("$top_builddir/debugfs/debugfs" -R "itree_dump /big" "$img" 2>/dev/null |
			sed -n 's/^ *Node \([0-9]*\): level 0,.*/\1/p' | head -1)
		if [ -n "$leaf" ]; then
			printf 'XXXX' | dd of="$img" bs=1 seek=$((leaf * 4096)) conv=notrunc 2>/dev/null
			"$ours" -fnd "$img" >"$work/out" 2>&1
			rc=$?
			if [ "$rc" = 4 ] && grep -q '\[0x020015\]' "$work/out"; then
				echo "ok itree_leaf_magic (0x020015)"; pass=$((pass + 1))
			else
				echo "FAIL itree_leaf_magic: exit $rc, want 4 with 0x020015"
				fail=$((fail + 1))
			fi
		else
			echo "note: no itree leaf in /big; itree case skipped"
		fi
	else
		echo "FAIL itree_clean: ours complains about a fresh itree tree"
		grep -v '^Pass \|^Superblock and' "$work/out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
fi
echo "damage: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
