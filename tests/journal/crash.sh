#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# crash.sh --- crash images: a seeded kernel workload stopped mid-flight by
# EXT4_IOC_SHUTDOWN (no log flush), for every case of crash.tsv.  Checks:
# the dry run writes nothing and its overlay view is clean to the reference
# e2fsck; the real recovery is clean to the reference, keeps every
# fsync'ed file intact and mounts without kernel complaints; its replay
# is byte-identical to the reference debugfs journal_run but for time
# stamps; the files are those the reference e2fsck -fy gives; our e2fsck -fy (when built; off with
# E2X_CRASH_E2FSCK=0) must give the same.  The "revoke" workload must leave
# revoke records in the log (our scan counts them).  E2X_LONG=1: more seeds;
# E2X_SEEDS="a b c" to choose; E2X_CASES="name ..." to filter.
. "$top_srcdir/tests/journal/lib.sh"
T=$(mktemp -d /tmp/h7-crash.XXXXXX)
trap cleanup EXIT INT TERM
need_root_loop

seeds=${E2X_SEEDS:-1}
OUR_FSCK=$top_builddir/e2fsck/e2fsck
[ -n "$E2X_LONG" ] && [ -z "$E2X_SEEDS" ] && seeds="1 2 3 4 5 6 7 8"
total_tx=0 total_files=0 runs=0

# run_case NAME SIZE MKFS MOUNT FLAGS JFEATURES SEED
run_case() {
	local name=$1 size=$2 mkopts=$3 mopts=$4 flags=$5 jfeat=$6 seed=$7
	local img=$T/img m=$T/mnt-h7-$$ out
	[ "$mkopts" = - ] && mkopts=
	[ "$mopts" = - ] && mopts=
	[ "$flags" = - ] && flags=
	# shellcheck disable=SC2086
	mkfs_img "$img" "$size" $mkopts
	mount_img "$img" "$m" "$mopts"
	python3 "$top_srcdir/tests/journal/workload.py" "$m" "$seed" \
		"$T/manifest" $flags >"$T/wl.out" || fail "$name: workload"
	umount_img "$m"
	needs_recovery "$img" || fail "$name/$seed: no needs_recovery after crash"
	[ "$jfeat" = - ] || journal_has "$img" $jfeat ||
		fail "$name/$seed: journal lacks $jfeat"
	if [ "${name#orphan_file}" != "$name" ]; then
		dumpe2fs -h "$img" 2>/dev/null | grep -q 'features:.*orphan_present' ||
			fail "$name/$seed: orphan file not in use at the crash"
	fi

	# (1) dry run: byte-identical image, overlay view clean
	cp "$img" "$T/a"
	"$JRECOVER" -n -o "$T/dump" "$T/a" >"$T/dry.out" ||
		fail "$name/$seed: dry run: $(cat "$T/dry.out")"
	cmp -s "$img" "$T/a" || fail "$name/$seed: dry run changed the image"
	ref_clean "$T/dump" || fail "$name/$seed: dry-run view not clean"

	# (2) real recovery
	cp "$img" "$T/b"
	"$JRECOVER" "$T/b" >"$T/real.out" || fail "$name/$seed: recovery"
	needs_recovery "$T/b" && fail "$name/$seed: needs_recovery still set"
	ref_clean "$T/b" || fail "$name/$seed: reference e2fsck not clean"
	mount_img "$T/b" "$m" ro
	check_manifest "$m" "$T/manifest" ||
		fail "$name/$seed: fsync'ed file content lost"
	listing "$m" >"$T/list.ours"
	kernel_errors "$DEV" && fail "$name/$seed: kernel complained"
	umount_img "$m"

	# (3) the replay alone is byte-identical to the reference's.  (The
	# orphan pass is checked by its results above and below: e2fsck
	# 1.47.0 leaves freed orphans' block maps, mis-counts bigalloc
	# truncation and keeps orphan-file entries, so bytes can't match.)
	cp "$img" "$T/d"
	"$JRECOVER" -R "$T/d" >/dev/null || fail "$name/$seed: replay only"
	cp "$img" "$T/e"
	ref_replay "$T/e" || fail "$name/$seed: reference journal_run"
	same_replay "$T/d" "$T/e" ||
		fail "$name/$seed: replay differs from the reference's"
	rm -f "$T/d" "$T/e"

	# (4) the reference e2fsck -fy gives the same files; so does the
	# dry-run view
	cp "$img" "$T/c"
	"$REF_FSCK" -fy "$T/c" >/dev/null 2>&1
	[ $? -le 1 ] || fail "$name/$seed: reference e2fsck -fy failed"
	mount_img "$T/c" "$m" ro
	listing "$m" >"$T/list.ref"
	umount_img "$m"
	diff "$T/list.ref" "$T/list.ours" ||
		fail "$name/$seed: files differ from the reference recovery"
	mount_img "$T/dump" "$m" ro
	listing "$m" >"$T/list.dry"
	umount_img "$m"
	diff "$T/list.ours" "$T/list.dry" ||
		fail "$name/$seed: dry-run view differs from the recovery"

	# (5) our e2fsck -fy, once built, recovers the same way
	if [ -x "$OUR_FSCK" ] && [ "${E2X_CRASH_E2FSCK:-1}" != 0 ]; then
		cp "$img" "$T/f"
		"$OUR_FSCK" -fy "$T/f" >"$T/ours-fsck.out" 2>&1
		[ $? -le 1 ] || fail "$name/$seed: e2fsck -fy: $(tail -3 "$T/ours-fsck.out")"
		ref_clean "$T/f" || fail "$name/$seed: not clean after e2fsck -fy"
		mount_img "$T/f" "$m" ro
		check_manifest "$m" "$T/manifest" ||
			fail "$name/$seed: e2fsck -fy lost fsync'ed content"
		listing "$m" >"$T/list.fsck"
		umount_img "$m"
		diff "$T/list.ours" "$T/list.fsck" ||
			fail "$name/$seed: e2fsck -fy files differ from the recovery"
		rm -f "$T/f"
	fi

	out=$(cat "$T/real.out")
	tx=$(echo "$out" | sed -n 's/.* transactions=\([0-9]*\).*/\1/p')
	[ "${tx:-0}" -gt 0 ] || fail "$name/$seed: nothing replayed: $out"
	if [ "$flags" = orphans ]; then
		rel=$(echo "$out" | sed -n 's/.* released=\([0-9]*\).*/\1/p')
		[ "${rel:-0}" -ge 2 ] || fail "$name/$seed: orphans not released: $out"
	fi
	if [ "$flags" = revoke ]; then
		rv=$(echo "$out" | sed -n 's/.* revoke_records=\([0-9]*\).*/\1/p')
		[ "${rv:-0}" -gt 0 ] || fail "$name/$seed: no revoke records: $out"
	fi
	nf=$(wc -l <"$T/manifest")
	total_tx=$((total_tx + tx))
	total_files=$((total_files + nf))
	runs=$((runs + 1))
	echo "ok $name seed=$seed mkfs=$MKFS_USED fsynced=$nf $out"
	rm -f "$T/a" "$T/b" "$T/c" "$T/dump" "$img"
}

while IFS='|' read -r name size mkopts mopts flags jfeat; do
	name=$(echo $name)
	case "$name" in ''|'#'*) continue ;; esac
	if [ -n "$E2X_CASES" ]; then
		case " $E2X_CASES " in *" $name "*) ;; *) continue ;; esac
	fi
	for seed in $seeds; do
		run_case "$name" $size "$(echo $mkopts)" "$(echo $mopts)" \
			"$(echo $flags)" "$(echo $jfeat)" "$seed"
	done
done <"$top_srcdir/tests/journal/crash.tsv"
echo "crash: $runs runs, $total_tx transactions replayed, $total_files fsync'ed files verified"
