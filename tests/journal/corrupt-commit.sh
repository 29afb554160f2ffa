#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# corrupt-commit.sh --- damage one block in the middle of a crash image's
# journal (corrupt.tsv) and check that recovery stops at that transaction
# (or skips that block) exactly as the kernel's rules say: the count of
# replayed transactions, the stop reason, and the very same bytes as the
# reference's replay (debugfs journal_run: the kernel's recovery code).
. "$top_srcdir/tests/journal/lib.sh"
T=$(mktemp -d /tmp/h7-corrupt.XXXXXX)
trap cleanup EXIT INT TERM
need_root_loop
command -v debugfs >/dev/null || skip "no debugfs for logdump"

seed=${E2X_SEEDS:-4}
seed=${seed%% *}
runs=0

# log_block TID TYPE: log block of the first block of TYPE in transaction
log_block() {
	sed -n "s/^Found expected sequence $1, type $2 .* at block \([0-9]*\)$/\1/p" \
		"$T/logdump" | head -1
}

# damage IMAGE LOGBLOCK OFFSET: flip one byte of a journal block
damage() {
	local phys bs
	phys=$(debugfs -c -R "bmap <8> $2" "$1" 2>/dev/null)
	bs=$(dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Block size: *//p')
	[ -n "$phys" ] && [ -n "$bs" ] || fail "cannot map log block $2"
	python3 - "$1" $((phys * bs + $3)) <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    b = f.read(1)
    f.seek(int(sys.argv[2]))
    f.write(bytes([b[0] ^ 0x5A]))
PY
}

field() {
	echo "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"
}

run_case() {
	local name=$1 mkopts=$2 mopts=$3 target=$4 stop=$5 tx=$6 rc=$7
	local img=$T/img m=$T/mnt-h7-$$ start end mid blk off bs out got
	[ "$mkopts" = - ] && mkopts=
	[ "$mopts" = - ] && mopts=
	# shellcheck disable=SC2086
	mkfs_img "$img" 64M $mkopts
	mount_img "$img" "$m" "$mopts"
	python3 "$top_srcdir/tests/journal/workload.py" "$m" "$seed" \
		"$T/manifest" >/dev/null || fail "$name: workload"
	umount_img "$m"
	needs_recovery "$img" || fail "$name: no needs_recovery"
	debugfs -c -R logdump "$img" >"$T/logdump" 2>/dev/null
	start=$(sed -n 's/^Journal starts at block [0-9]*, transaction \([0-9]*\)$/\1/p' "$T/logdump")
	end=$(sed -n 's/^Found expected sequence \([0-9]*\), type 2 .*/\1/p' "$T/logdump" | tail -1)
	[ -n "$start" ] && [ -n "$end" ] && [ "$end" -gt $((start + 2)) ] ||
		fail "$name: log too short to damage its middle"
	mid=$(((start + end) / 2))
	bs=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block size: *//p')
	case $target in
	commit) blk=$(log_block $mid 2); off=16 ;;
	descriptor) blk=$(log_block $mid 1); off=$((bs - 1)) ;;
	data) blk=$(($(log_block $mid 1) + 1)); off=100 ;;
	esac
	[ -n "$blk" ] || fail "$name: no $target block in transaction $mid"
	damage "$img" "$blk" "$off"

	cp "$img" "$T/b"
	out=$("$JRECOVER" "$T/b" 2>/dev/null)
	got=$?
	[ "$got" = "$rc" ] || fail "$name: driver exit $got, expected $rc: $out"
	[ "$(field stop "$out")" = "$stop" ] ||
		fail "$name: stop=$(field stop "$out"), expected $stop: $out"
	case $tx in
	mid) tx=$((mid - start)) ;;
	all) tx=$((end + 1 - start)) ;;
	esac
	[ "$(field transactions "$out")" = "$tx" ] ||
		fail "$name: replayed $(field transactions "$out") transactions, expected $tx: $out"
	[ "$target" != data ] || [ "$(field bad_blocks "$out")" = 1 ] ||
		fail "$name: expected one bad data block: $out"
	# the reference replays with the kernel's own recovery code:
	# replay-only results must match byte for byte
	cp "$img" "$T/b"
	"$JRECOVER" -R "$T/b" >/dev/null 2>&1
	cp "$img" "$T/c"
	ref_replay "$T/c"
	# When recovery fails (bad descriptor: the kernel refuses to mount;
	# bad data block: it fails the mount after replay) e2fsck empties
	# the log but keeps s_sequence; we move s_sequence past the whole
	# old log as after a good recovery, so none of it can ever be taken
	# for new transactions.  Ignore that field (and its checksum).
	ign=
	if [ "$rc" = 1 ]; then
		j0=$(($(debugfs -c -R "bmap <8> 0" "$img" 2>/dev/null) * bs))
		ign="$((j0 + 24)):4 $((j0 + 252)):4"
	fi
	# shellcheck disable=SC2086
	same_replay "$T/b" "$T/c" $ign ||
		fail "$name: replay differs from the reference e2fsck's"
	runs=$((runs + 1))
	echo "ok $name log=$start..$end damaged=$target@tid$mid $out"
}

while IFS='|' read -r name mkopts mopts target stop tx rc; do
	name=$(echo $name)
	case "$name" in ''|'#'*) continue ;; esac
	run_case "$name" "$(echo $mkopts)" "$(echo $mopts)" $target $stop $tx $rc
done <"$top_srcdir/tests/journal/corrupt.tsv"
echo "corrupt: $runs cases"
