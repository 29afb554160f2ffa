#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# jwrite.sh --- debugfs journal_open/journal_write/journal_close against
# the reference: the same script, run by the reference debugfs and by ours
# on copies of one image (made by our mke2fs), must give
#  - the same log: the reference's logdump, and ours, print the same for
#    both copies (block types, sequences, tags and their flags);
#  - the same replay: after the reference e2fsck -fy, the two images are
#    byte for byte the same outside the journal (the superblock's times,
#    lifetime writes and checksum aside), and the blocks logged hold what the
#    script logged (revoked and uncommitted ones untouched);
#  - our e2fsck -fy replays ours as the reference e2fsck does, and so does
#    a kernel mount (blocks checked, needs_recovery gone, fsck clean).
# Cases: no checksums, csum v3 (100 blocks over two descriptors, a block
# starting with the jbd2 magic, 130 revokes over two blocks), csum v2 on
# 4 KiB blocks, csum v1 on ext3 (with a revoke: ours only), an uncommitted transaction, a second
# session appending to the log, a transaction wrapping past the end of
# the journal (ours only); and ours' refusals.
# Needs root and loop devices for the kernel part; SKIP (77) otherwise.

: "${top_srcdir:=.}" "${top_builddir:=.}"
dbg=$top_builddir/debugfs/debugfs
mkfs=$top_builddir/mke2fs/mke2fs
ourfsck=$top_builddir/e2fsck/e2fsck
ref=/usr/sbin/debugfs
fsck=/usr/sbin/e2fsck
skip() { echo "SKIP: $*"; exit 77; }
for t in "$dbg" "$mkfs" "$ourfsck"; do
	[ -x "$t" ] || { echo "FAIL: no $t"; exit 1; }
done
[ -x "$ref" ] && [ -x "$fsck" ] || skip "no reference e2fsprogs"
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"

. "$top_srcdir/tests/loop.sh"
loop_scratch d-jwrite
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

# 100 blocks of data for block size $1; block 5 starts with the jbd2 magic
data_file() {
	python3 - "$1" "$work/data.$1" <<'EOF'
import random, sys
bs = int(sys.argv[1])
rnd = random.Random(bs)
b = bytearray(rnd.getrandbits(8) for _ in range(100 * bs))
b[5 * bs:5 * bs + 4] = bytes([0xc0, 0x3b, 0x39, 0x98])
open(sys.argv[2], "wb").write(b)
EOF
}

# same_outside A B BS FIELDS: A and B differ only inside the journal and
# in the superblock fields listed (offset:length in the superblock)
same_outside() {
	"$ref" -R "blocks <8>" "$1" 2>/dev/null > "$work/jblocks"
	python3 - "$1" "$2" "$3" "$work/jblocks" "$4" <<'EOF'
import sys
a, b, bs = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), int(sys.argv[3])
jb = set(int(x) for x in open(sys.argv[4]).read().split())
ok = set()
for f in sys.argv[5].split():
    off, n = (int(x, 0) for x in f.split(":"))
    ok |= set(range(1024 + off, 1024 + off + n))
if len(a) != len(b):
    sys.exit("sizes differ")
bad = [k for i in range(0, len(a), bs) if a[i:i + bs] != b[i:i + bs]
       and i // bs not in jb for k in range(i, i + bs)
       if a[k] != b[k] and k not in ok]
if bad:
    sys.exit("%d bytes differ outside the journal, first at %d" % (len(bad), bad[0]))
EOF
}
# superblock fields an e2fsck run or the writing session stamps: write
# time, last check, their high bytes, lifetime writes, checksum
SB_FSCK="0x30:4 0x40:4 0x274:1 0x277:1 0x178:8 0x3fc:4"

# expect IMG BS SPEC: SPEC is "first-last@fileblock" (logged from the data
# file) or "first-last@-" (untouched: as in the fresh image)
expect() {
	for spec in $3; do
		range=${spec%@*} src=${spec#*@}
		first=${range%-*} last=${range#*-}
		n=$((last - first + 1))
		dd if="$1" bs="$2" skip="$first" count="$n" 2>/dev/null \
			> "$work/got"
		if [ "$src" = - ]; then
			dd if="$work/fresh.img" bs="$2" skip="$first" \
				count="$n" 2>/dev/null > "$work/want"
		else
			dd if="$work/data.$2" bs="$2" skip="$src" count="$n" \
				2>/dev/null > "$work/want"
		fi
		cmp -s "$work/got" "$work/want" ||
			fail "$4: blocks $range do not hold what was logged"
	done
}

# Tag flags as their low 16 bits: the reference's writer spills the
# UUID over the high flag bits of a later v3 tag (its logdump shows 16
# bits, ours all 32); and without last-tag (8): ours marks the last tag
# of every descriptor as the kernel does, the reference's only the last
# of the transaction.
low_flags() {
	python3 -c 'import re, sys
sys.stdout.write(re.sub(r"flags 0x([0-9a-f]+)\)",
	lambda m: "flags 0x%x)" % (int(m.group(1), 16) & 0xfff7),
	sys.stdin.read()))'
}

# run_case NAME "MKFS OPTIONS" SIZE BS SCRIPT EXPECT [noref [PREP]]
# noref: the reference's own log is not replayable (see the case);
# PREP: a function run on the fresh image first
run_case() {
	name=$1 bs=$4 script=$5 want=$6 noref=${7:-} prep=${8:-}
	# shellcheck disable=SC2086 # the options are words
	"$mkfs" -q -F $2 "$work/fresh.img" "$3" >/dev/null 2>&1 ||
		{ fail "mke2fs $2"; return; }
	[ -z "$prep" ] || $prep "$work/fresh.img" || { fail "$prep"; return; }
	[ -f "$work/data.$bs" ] || data_file "$bs"
	printf '%s\n' "$script" | sed "s|@DATA@|$work/data.$bs|" \
		> "$work/script"
	cp "$work/fresh.img" "$work/ref.img"
	cp "$work/fresh.img" "$work/our.img"
	"$ref" -w -f "$work/script" "$work/ref.img" >/dev/null 2>&1
	"$dbg" -w -f "$work/script" "$work/our.img" > "$work/our.out" 2>&1 ||
		fail "our debugfs failed: $(grep -v '^debugfs:' \
			"$work/our.out" | head -2 | tr '\n' ' ')"
	for d in "$ref" "$dbg"; do
		[ -z "$noref" ] || break
		"$d" -R logdump "$work/ref.img" 2>/dev/null |
			low_flags > "$work/log.ref"
		"$d" -R logdump "$work/our.img" 2>/dev/null |
			low_flags > "$work/log.our"
		grep -q "commit block" "$work/log.ref" ||
			fail "$d logdump: no commit in the reference's log"
		cmp -s "$work/log.ref" "$work/log.our" ||
			fail "$d logdump differs: $(diff "$work/log.ref" \
				"$work/log.our" | head -4 | tr '\n' ' ')"
	done
	# replay by the reference e2fsck
	for who in ref our; do
		cp "$work/$who.img" "$work/$who.fsck"
		"$fsck" -fy "$work/$who.fsck" >/dev/null 2>&1
		echo $? > "$work/$who.rc"
	done
	[ -n "$noref" ] || cmp -s "$work/ref.rc" "$work/our.rc" ||
		fail "e2fsck -fy exits $(cat "$work/ref.rc") on the reference's, $(cat "$work/our.rc") on ours"
	[ -n "$noref" ] || msg=$(same_outside "$work/ref.fsck" \
		"$work/our.fsck" "$bs" "$SB_FSCK" 2>&1) ||
		fail "replayed images: $msg"
	expect "$work/our.fsck" "$bs" "$want" "reference e2fsck"
	"$fsck" -fn "$work/our.fsck" >/dev/null 2>&1 ||
		fail "not clean after the replay"
	# replay by our e2fsck
	cp "$work/our.img" "$work/our.e2x"
	"$ourfsck" -fy "$work/our.e2x" >/dev/null 2>&1
	[ $? -le 1 ] || fail "our e2fsck -fy failed"
	msg=$(same_outside "$work/our.fsck" "$work/our.e2x" "$bs" \
		"$SB_FSCK" 2>&1) || fail "our e2fsck's replay: $msg"
	# replay by the kernel
	img=$work/our.kernel
	cp "$work/our.img" "$img"
	if loop_attach && loop_detach; then
		expect "$img" "$bs" "$want" "kernel"
		"$fsck" -fn "$img" >/dev/null 2>&1 ||
			fail "not clean after the kernel's replay"
		"$ref" -R "stats -h" "$img" 2>/dev/null |
			grep -q needs_recovery && fail "kernel left needs_recovery"
	else
		fail "the kernel cannot mount ours"
	fi
}

run_case plain "-t ext4 -b 1024" 16M 1024 \
"jo
jw -b 12000-12002 @DATA@
jw -r 12001
jc" "12000-12000@0 12001-12001@- 12002-12002@2"

run_case csum3 "-t ext4 -b 1024" 16M 1024 \
"jo -c
jw -b 12000-12099 @DATA@
jw -r 12000-12129
jw -b 12200-12202 @DATA@
jc" "12000-12099@- 12200-12202@0"

run_case csum3_escape "-t ext4 -b 1024" 16M 1024 \
"jo -c
jw -b 12000-12099 @DATA@
jc" "12000-12099@0"

run_case csum2_4k "-t ext4 -b 4096" 64M 4096 \
"jo -c -v 2
jw -b 10000-10099 @DATA@
jw -r 10050
jc" "10000-10049@0 10050-10050@- 10051-10099@51"

run_case csum1_ext3 "-t ext3 -b 1024" 16M 1024 \
"jo -c
jw -b 12000-12009 @DATA@
jw -b 12100 @DATA@
jc" "12000-12009@0 12100-12100@0"

# The reference's writer folds revoke blocks into the v1 commit checksum,
# which neither the kernel nor e2fsck does: its own e2fsck finds that
# transaction corrupt.  Ours is checked on its own (both e2fscks and the
# kernel replay it, revoke applied).
run_case csum1_revoke "-t ext3 -b 1024" 16M 1024 \
"jo -c
jw -b 12000-12009 @DATA@
jw -r 12003
jw -b 12100 @DATA@
jc" "12000-12002@0 12003-12003@- 12004-12009@4 12100-12100@0" noref

run_case uncommitted_4k "-t ext4 -b 4096" 64M 4096 \
"jo
jw -b 10000-10002 @DATA@
jw -c -b 10003-10004 @DATA@
jc" "10000-10002@0 10003-10004@-"

run_case append "-t ext4 -b 1024" 16M 1024 \
"jo
jw -b 12000-12004 @DATA@
jc
jo
jw -b 12010-12011 @DATA@
jw -r 12002
jc" "12000-12001@0 12002-12002@- 12003-12004@3 12010-12011@0"

# An empty log that starts 124 blocks before the journal's end (as the
# kernel leaves it after a checkpoint): a 200-block transaction wraps to
# the journal's first block.  The reference's writer refuses to wrap.
log_near_end() {
	jsb=$("$ref" -R "bmap <8> 0" "$1" 2>/dev/null) || return 1
	python3 - "$1" "$jsb" <<'EOF'
import struct, sys
f = open(sys.argv[1], "r+b")
off = int(sys.argv[2]) * 1024
f.seek(off)
sb = bytearray(f.read(1024))
maxlen = struct.unpack(">I", sb[0x10:0x14])[0]
if struct.unpack(">I", sb[0x28:0x2c])[0] & 0x18:
    sys.exit("a checksummed journal superblock")
sb[0x1c:0x20] = struct.pack(">I", maxlen - 124)
f.seek(off)
f.write(sb)
EOF
}
run_case wrap "-t ext4 -b 1024" 16M 1024 \
"jo
jw -b 12000-12099 @DATA@
jw -b 12100-12199 @DATA@
jw -r 12150
jc" "12000-12099@0 12100-12149@0 12150-12150@- 12151-12199@51" noref \
	log_near_end

# refusals of ours (jw before jo, a block past the end, a transaction
# larger than the log, jo read-only): one error, nothing logged
name=refuse
cp "$work/fresh.img" "$work/r.img"
"$dbg" -w -R "jw -r 10" "$work/r.img" > "$work/out" 2>&1 &&
	fail "jw without jo accepted"
printf 'jo\njw -b 99999999 %s\njc\n' "$work/data.4096" |
	"$dbg" -w -f - "$work/r.img" > "$work/out" 2>&1 &&
	fail "a block past the end accepted"
grep -q "jw:" "$work/out" || fail "no error for a block past the end"
head -c $((1100 * 1024)) /dev/zero > "$work/big"
printf 'jo\njw -b 1000-2099 %s\njc\n' "$work/big" |
	"$dbg" -w -f - "$work/r.img" > "$work/out" 2>&1 &&
	fail "a transaction larger than the log accepted"
grep -q "No space" "$work/out" || fail "no room: $(grep jw: "$work/out")"
"$dbg" -R "jo" "$work/r.img" > "$work/out" 2>&1 && fail "jo read-only"
"$ref" -R logdump "$work/r.img" 2>/dev/null | grep -q "commit block" &&
	fail "a refused transaction reached the log"
"$ref" -R "stats -h" "$work/r.img" 2>/dev/null | grep -q needs_recovery &&
	fail "a refused transaction set needs_recovery"

[ "$fails" -eq 0 ] || { echo "jwrite: $fails failures"; exit 1; }
echo "jwrite: 9 scripts log, replay (reference e2fsck, ours, kernel) as the reference's"
exit 0
