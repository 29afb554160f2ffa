# SPDX-License-Identifier: GPL-2.0-or-later
# safety-lib.sh --- sourced by safety.sh and safety-sweep: kernel-filled
# images, the files readable by content, and the verdict on one repair.
# "e2fsck never makes a file system worse" (issue 13): after our -fy every
# file readable before is still readable (unless the reference's own
# repair loses it too), exit 0/1 only when our -fn and the reference's
# -fn are both clean afterwards, and a second -fy (unless the first
# exited 8) exits 0.
#
# The caller sets work (scratch directory), top_srcdir, top_builddir and
# ours (E2X_TUNE2FS and E2X_DEBUGFS may name the tune2fs and debugfs
# that convert and damage the itree images), and
# sources tests/loop.sh first.

ref=/usr/sbin/e2fsck
tune2fs=${E2X_TUNE2FS:-$top_builddir/tune2fs/tune2fs}
e2x_debugfs=${E2X_DEBUGFS:-$top_builddir/debugfs/debugfs}
ref_mkfs=/usr/sbin/mke2fs
ref_debugfs=/usr/sbin/debugfs
mnt=$work/mnt
mkdir -p "$mnt"

safety_can_run() {
	[ "$(id -u)" = 0 ] || { echo "needs root for loop mounts"; return 1; }
	for t in "$ref" "$ref_mkfs" "$ref_debugfs"; do
		[ -x "$t" ] || { echo "$t missing"; return 1; }
	done
	command -v python3 >/dev/null || { echo "no python3"; return 1; }
	truncate -s 1M "$work/probe"
	l=$(losetup -f --show "$work/probe" 2>/dev/null) ||
		{ echo "no loop devices"; return 1; }
	losetup -d "$l"
	[ -x "$ours" ] || { echo "$ours not built"; return 1; }
}

# base_image NAME SIZE OPTS SEED OPS [crash|crashdirs|itree]: a file
# system formatted by the reference mke2fs and filled by the kernel
# (workload.py), kept in $work/base-NAME.img.  With "crash" the image is
# copied while still mounted after a sync: the journal is live and needs
# recovery.  With "itree" our tune2fs converts it afterwards.
base_image() {
	img=$work/base-$1.img
	[ -f "$img" ] && return 0
	rm -f "$img"
	truncate -s "$2" "$img"
	# shellcheck disable=SC2086
	"$ref_mkfs" -q -F $3 "$img" >"$work/mkfs.log" 2>&1 || return 1
	loop_attach || return 1
	python3 "$top_srcdir/tests/fsck/workload.py" "$mnt" "$4" "$5" \
		>"$work/wl.log" 2>&1
	case ${6:-} in
	crash|crashdirs)
		sync
		# more work after the copy's commit, so the log is not empty;
		# crashdirs: big indexed directories changed in the log
		if [ "$6" = crash ]; then
			set -- "$@" 30
		else
			set -- "$@" 700 dirs
		fi
		python3 "$top_srcdir/tests/fsck/workload.py" "$mnt" \
			"$(($4 + 1000))" "$7" ${8:-} >/dev/null 2>&1
		sync
		cp "$img" "$img.crash"
	esac
	loop_detach || return 1
	if [ -f "$img.crash" ]; then
		mv "$img.crash" "$img"
		"$ref_debugfs" -R stats "$img" 2>/dev/null |
			grep -q needs_recovery || return 1
	elif [ "${6:-}" = itree ]; then
		# the reference checks it first, then our tune2fs indexes
		# its big directories with itrees (the reference cannot
		# open that: our -fn judges it)
		"$ref" -fn "$img" >/dev/null 2>&1 &&
			"$tune2fs" -O itree "$img" >/dev/null 2>&1 &&
			"$ours" -fn "$img" >/dev/null 2>&1 || return 1
	else
		"$ref" -fn "$img" >/dev/null 2>&1 || return 1
	fi
}

# contents IMG OUT: "hash size" of every regular file the reference
# debugfs can read out of IMG without its bitmaps (rdump), one a line,
# sorted.  Empty files say nothing about damage and are left out, and so
# are files of 256 MiB or more (a damaged size read out sparse: hashing
# it would take hours).  When the primary superblock cannot be used, the
# first backup's word counts.
contents() {
	c_img=$1 c_out=$2
	rm -rf "$work/dump"
	mkdir "$work/dump"
	timeout 120 "$ref_debugfs" -c -R "rdump / $work/dump" "$c_img" >/dev/null 2>&1
	for c_sb in 8193:1024 16384:2048 32768:4096; do
		[ -z "$(ls "$work/dump")" ] || break
		timeout 120 "$ref_debugfs" -c -s "${c_sb%:*}" -b "${c_sb#*:}" \
			-R "rdump / $work/dump" "$c_img" >/dev/null 2>&1
	done
	find "$work/dump" -type f -size +0 -size -262144k -exec sha256sum {} + 2>/dev/null |
		awk '{ print $1 }' | sort >"$c_out"
	rm -rf "$work/dump"
}

# truth BASE: the files of the undamaged image BASE (once its journal is
# recovered by the reference; as it is for itree) in $work/truth-BASE.
truth() {
	[ -f "$work/truth-$1" ] && return 0
	cp "$work/base-$1.img" "$work/truth.img"
	if [ "$sr_itree" != 1 ]; then
		"$ref" -fy "$work/truth.img" >/dev/null 2>&1
		"$ref" -fy "$work/truth.img" >/dev/null 2>&1
	fi
	contents "$work/truth.img" "$work/truth-$1"
	rm -f "$work/truth.img"
}

# journal_sum IMG: a hash of the internal journal's contents (inode 8).
journal_sum() {
	"$ref_debugfs" -c -R "cat <8>" "$1" 2>/dev/null | sha256sum
}

# meta_places IMG: where each group's bitmaps and inode table are.
meta_places() {
	/usr/sbin/dumpe2fs "$1" 2>/dev/null |
		sed -n 's/.*\(Block bitmap\|Inode bitmap\|Inode table\) at \([0-9-]*\).*/\1 \2/p'
}

# lost BEFORE AFTER: the hashes of BEFORE missing from AFTER (counted).
lost() {
	comm -23 "$1" "$2"
}

# check_repair NAME IMG EXPECT: run our -fy on IMG (damaged) and judge.
# EXPECT is "fixed" (exit 1, both -fn clean afterwards, every file the
# reference's repair keeps kept too), "fixed-jkeep" (fixed, and the
# journal's contents as they were), "fixed-meta" (fixed, every file of
# the undamaged image kept and each group's metadata back where the
# undamaged image has it: the backup descriptors knew) or "any" (the
# property run: exit 0/1 only when clean; else 4 or 8 with nothing lost
# that the reference keeps).  Prints one line; returns 1 on a failure.
check_repair() {
	name=$1 dimg=$2 expect=$3
	jsum= refrep=1 sr_weak=0
	[ "$expect" = fixed-jkeep ] && jsum=$(journal_sum "$dimg")
	contents "$dimg" "$work/before"
	if [ "$sr_itree" = 1 ]; then
		# no reference repair to compare with: every file readable
		# before must be kept
		cp "$work/before" "$work/refkept"
	else
		cp "$dimg" "$work/refcopy.img"
		"$ref" -fy "$work/refcopy.img" >/dev/null 2>&1
		"$ref" -fy "$work/refcopy.img" >/dev/null 2>&1
		"$ref" -fn "$work/refcopy.img" >/dev/null 2>&1
		refrep=$?
		contents "$work/refcopy.img" "$work/refkept"
	fi
	E2X_FSCK_WRITE_LOG=$work/writes timeout 300 "$ours" -fy "$dimg" >"$work/fy.log" 2>&1
	rc=$?
	"$ours" -fn "$dimg" >"$work/fn.log" 2>&1
	ourn=$?
	"$ref" -fn "$dimg" >"$work/refn.log" 2>&1
	refn=$?
	[ "$sr_itree" = 1 ] && refn=0	# it cannot open itree
	contents "$dimg" "$work/after"
	# one run suffices: a second -fy changes nothing (issue 11)
	# (after a first run that left errors it could not repair, exit 4
	# again with no byte changed is no change either)
	again=0
	if [ "$rc" -lt 8 ]; then
		cp "$dimg" "$work/again.img"
		"$ours" -fy "$work/again.img" >"$work/again.log" 2>&1
		again=$?
		[ "$rc" = 4 ] && [ "$again" = 4 ] &&
			cmp -s "$dimg" "$work/again.img" && again=0
		rm -f "$work/again.img"
	fi
	why=
	if [ "$rc" -ge 16 ] || [ "$ourn" -ge 16 ] ||
		grep -q 'runtime error:\|AddressSanitizer' "$work/fy.log" "$work/fn.log"; then
		why="crashed, did not run or a sanitizer report (exit $rc, then $ourn)"
	elif [ "$rc" -ge 8 ] && [ "${expect%-*}" = fixed ]; then
		why="-fy exit $rc"
	elif [ "$rc" -le 1 ] && { [ $ourn != 0 ] || [ $refn != 0 ]; }; then
		why="-fy exit $rc but afterwards our -fn $ourn, reference -fn $refn"
	elif [ "${expect%-*}" = fixed ] && [ "$rc" != 1 ]; then
		why="-fy exit $rc, want 1"
	elif [ "$again" != 0 ]; then
		why="a second -fy exit $again, want 0 (no change)"
		grep -v '^Pass \|^Superblock and\|^$' "$work/again.log" |
			head -4 | sed 's/^/    again: /'
	fi
	lost "$work/before" "$work/after" >"$work/lost"
	# what the reference's repair loses too is not held against us
	comm -12 "$work/lost" "$work/refkept" >"$work/lost-kept"
	n=$(wc -l <"$work/lost-kept")
	[ "$n" = 0 ] || why="${why:+$why; }$n file(s) readable before are not after"
	# a repair called complete keeps at least what the reference's keeps
	if [ "${expect%-*}" = fixed ]; then
		# ... of the files the undamaged image holds: what else the
		# reference keeps it made up (inodes read out of the journal
		# where a misplaced table points)
		truth "$sr_base"
		comm -12 "$work/refkept" "$work/truth-$sr_base" >"$work/refreal"
		n=$(lost "$work/refreal" "$work/after" | wc -l)
		[ "$n" = 0 ] || why="${why:+$why; }$n file(s) the reference's repair keeps are not kept"
	fi
	if [ "$expect" = fixed-meta ]; then
		n=$(lost "$work/truth-$sr_base" "$work/after" | wc -l)
		[ "$n" = 0 ] || why="${why:+$why; }$n file(s) of the undamaged image are not kept"
		meta_places "$work/base-$sr_base.img" >"$work/places-base"
		meta_places "$dimg" >"$work/places-after"
		cmp -s "$work/places-base" "$work/places-after" ||
			why="${why:+$why; }group metadata not back where it was: $(diff "$work/places-base" "$work/places-after" | grep '^>' | head -2 | tr '\n' ' ')"
	fi
	if [ "$expect" = fixed-jkeep ] && [ "$(journal_sum "$dimg")" != "$jsum" ]; then
		why="${why:+$why; }the journal's contents changed"
	fi
	if [ -s "$work/writes" ] && grep -q '^REFUSED' "$work/writes"; then
		why="${why:+$why; }the write guard refused: $(grep -m1 '^REFUSED' "$work/writes")"
	fi
	rm -f "$work/writes"
	if [ -n "$why" ]; then
		echo "FAIL $name: $why"
		grep -v '^Pass \|^Superblock and\|^$' "$work/fy.log" | head -8 |
			sed 's/^/    fy: /'
		grep -v '^Pass \|^Superblock and\|^$' "$work/refn.log" | head -4 |
			sed 's/^/    ref -fn: /'
		return 1
	fi
	# not a failure, but counted: the reference's repair ends clean where
	# ours leaves errors (issue 11 wants one -fy run to suffice)
	if [ "$rc" -ge 4 ] && [ "$refrep" = 0 ]; then
		sr_weak=1
		echo "WEAK $name: -fy exit $rc where the reference's repair ends clean"
		grep -v '^Pass \|^Superblock and\|^$' "$work/fn.log" | head -4 |
			sed 's/^/    fn: /'
	fi
	echo "ok $name (exit $rc, $(wc -l <"$work/before") files readable before)"
	return 0
}

# make_images: every image of safety-images.tsv (made once per $work).
images_tsv=$top_srcdir/tests/fsck/safety-images.tsv
make_image() {
	line=$(awk -F'\t' -v n="$1" '$1 == n' "$images_tsv")
	[ -n "$line" ] || return 1
	IFS='	' read -r _ size opts seed ops crash <<EOF2
$line
EOF2
	sr_itree=0 sr_base=$1
	[ "${crash:-}" = itree ] && sr_itree=1
	base_image "$1" "$size" "$opts" "$seed" "$ops" "${crash:-}"
}

# sweep RUNS SEED: RUNS random damages (damage_gen.py) spread over the
# images, each judged by check_repair ... any.  Prints a summary line;
# returns 1 when any run failed.
sweep() {
	names=$(awk -F'\t' '!/^#/ && NF { print $1 }' "$images_tsv")
	nimg=$(echo "$names" | wc -l)
	i=0 sw_ok=0 sw_fail=0 sw_noop=0 sw_weak=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		s=$(($2 * 100000 + i))
		base=$(echo "$names" | sed -n "$((i % nimg + 1))p")
		if ! make_image "$base"; then
			echo "FAIL sweep: could not make the image $base"
			sw_fail=$((sw_fail + 1)); continue
		fi
		dimg=$work/damaged.img
		cp "$work/base-$base.img" "$dimg"
		python3 "$top_srcdir/tests/fsck/damage_gen.py" "$dimg" "$s" \
			>"$work/cmds"
		sum=$(sha256sum <"$dimg")
		# the reference cannot open an itree file system for writing
		if [ "$sr_itree" = 1 ]; then
			"$e2x_debugfs" -w -f "$work/cmds" "$dimg" >/dev/null 2>&1
		else
			"$ref_debugfs" -w -n -f "$work/cmds" "$dimg" \
				>/dev/null 2>&1
		fi
		if [ "$(sha256sum <"$dimg")" = "$sum" ]; then
			sw_noop=$((sw_noop + 1)); continue
		fi
		if check_repair "seed $s $base: $(head -1 "$work/cmds" | cut -c3-)" \
			"$dimg" any; then
			sw_ok=$((sw_ok + 1))
			sw_weak=$((sw_weak + sr_weak))
		else
			sw_fail=$((sw_fail + 1))
		fi
	done
	echo "sweep: $1 runs (seed $2): $sw_ok ok ($sw_weak of them left errors the reference's repair clears), $sw_fail failed, $sw_noop left the image unchanged"
	[ $sw_fail = 0 ]
}
