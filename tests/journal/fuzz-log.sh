#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz-log.sh --- random damage to the log of a kernel crash image
# (damage.py, one seed per run).  Every run: no crash (exit 0 or 1), the
# dry run writes nothing; a journal we refuse leaves the image untouched;
# any other replay is byte-identical to the reference's (debugfs
# journal_run: the kernel's recovery code) but for stamps and, when
# recovery fails, the s_sequence we move past the old log.  16 seeds;
# E2X_LONG=1: 400.
. "$top_srcdir/tests/journal/lib.sh"
T=$(mktemp -d /tmp/h7-fuzz.XXXXXX)
trap cleanup EXIT INT TERM
need_root_loop
command -v debugfs >/dev/null || skip "no debugfs"

count=16
[ -n "$E2X_LONG" ] && count=400
img=$T/img
m=$T/mnt-h7-$$
mkfs_img "$img" 64M
mount_img "$img" "$m"
python3 "$top_srcdir/tests/journal/workload.py" "$m" 9 "$T/manifest" orphans \
	>/dev/null || fail "workload"
umount_img "$m"
needs_recovery "$img" || fail "no needs_recovery after the crash"
bs=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block size: *//p')
j0=$(debugfs -c -R "bmap <8> 0" "$img" 2>/dev/null)
same=0 refused=0 s=1
while [ $s -le $count ]; do
	cp "$img" "$T/z"
	python3 "$top_srcdir/tests/journal/damage.py" "$T/z" "$j0" "$bs" $s ||
		fail "seed $s: damage.py"
	cp "$T/z" "$T/zn"
	"$JRECOVER" -n "$T/zn" >"$T/out" 2>&1
	[ $? -le 1 ] || fail "seed $s: dry run crashed: $(head -3 "$T/out")"
	cmp -s "$T/z" "$T/zn" || fail "seed $s: dry run wrote"
	cp "$T/z" "$T/zr"
	"$JRECOVER" -R "$T/z" >"$T/out" 2>&1
	rc=$?
	[ $rc -le 1 ] || fail "seed $s: recovery crashed: $(head -3 "$T/out")"
	# "jrecover: IMAGE: why" is a refusal (nothing may be written)
	if grep -q "^jrecover: $T/z: " "$T/out"; then
		cmp -s "$T/z" "$T/zr" || fail "seed $s: refused journal, but wrote"
		refused=$((refused + 1))
	else
		ref_replay "$T/zr"
		ign=
		[ $rc = 1 ] && ign="$((j0 * bs + 24)):4 $((j0 * bs + 252)):4"
		# shellcheck disable=SC2086
		same_replay "$T/z" "$T/zr" $ign >"$T/cmp" ||
			fail "seed $s: differs from the reference: $(cat "$T/out") $(head -2 "$T/cmp")"
		same=$((same + 1))
	fi
	s=$((s + 1))
done
echo "fuzz-log: $count seeds, $same recovered as the reference, $refused journals refused untouched"
