#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/refuse.sh --- the refusals of tests/mke2fs/refuse.tsv: for each row,
# set up the target, run our mke2fs with stdin from /dev/null, and check the
# exit status, the one-line reason and that the target did not change.
# Run through tests/mke2fs/refuse-plain.sh and tests/mke2fs/refuse-loop.sh.

. "$(dirname "$0")/lib.sh"

# setup_target KIND PATH --- make the target of a row; sets TGT to the path
# mke2fs gets (a loop device for the loop kinds).
setup_target()
{
	kind=$1 img=$2
	TGT=$img
	rm -f "$img"
	case $kind in
	missing) ;;
	blank|loopblank) truncate -s 64M "$img" ;;
	tiny) truncate -s 32K "$img" ;;
	ext4|ext2|loopfs|mounted)
		t=$kind
		case $kind in loopfs|mounted) t=ext4 ;; esac
		"$REF_MKE2FS" -q -F -t "$t" "$img" 64M </dev/null >/dev/null 2>&1
		;;
	dos|gpt)
		truncate -s 64M "$img"
		printf 'label: %s\n,32M,L\n,,L\n' "$kind" |
			sfdisk -q "$img" >/dev/null 2>&1
		;;
	*) echo "unknown setup $kind"; return 1 ;;
	esac || return 1
	case $kind in
	loopblank|loopfs|mounted)
		TGT=$(losetup -f --show "$img") || return 1
		on_exit "detach_image $img"
		if [ "$kind" = mounted ]; then
			mnt=$SCRATCH/mnt-$(basename "$img" .img)
			mkdir -p "$mnt"
			mount -o ro "$TGT" "$mnt" || return 1
			on_exit "unmount_dir $mnt"
		fi
		;;
	esac
}

# digest PATH --- the target's checksum, or "missing".
digest()
{
	if [ -e "$1" ]; then
		sha256sum <"$1" | cut -d' ' -f1
	else
		echo missing
	fi
}

# check_row NAME SETUP ARGS EXPECT LINES MATCH --- one case.
check_row()
{
	name=$1 kind=$2 args=$3 expect=$4 maxlines=$5 match=$6
	setup_target "$kind" "$SCRATCH/$name.img" ||
		{ fail "$name" "cannot set up a '$kind' target"; return; }
	tgt=$TGT
	before=$(digest "$tgt")
	# shellcheck disable=SC2046,SC2086
	set -- $(echo "$args" | sed "s|@T@|$tgt|g")
	"$E2X_MKE2FS" "$@" </dev/null >"$SCRATCH/out" 2>&1
	rc=$?
	after=$(digest "$tgt")
	lines=$(grep -c . "$SCRATCH/out")
	what="exit $rc, $lines line(s) of output"
	bad=
	case $expect in
	refuse)
		[ "$rc" -ge 1 ] && [ "$rc" -le 125 ] ||
			bad="$bad; want exit 1..125"
		[ "$lines" -ge 1 ] && [ "$lines" -le "$maxlines" ] ||
			bad="$bad; want 1..$maxlines line(s) of reason"
		[ "$match" = - ] || grep -Eiq -- "$match" "$SCRATCH/out" ||
			bad="$bad; reason does not match /$match/"
		;;
	ok)
		[ "$rc" = 0 ] || bad="$bad; want exit 0"
		[ "$lines" -le "$maxlines" ] || bad="$bad; too much output"
		;;
	either)
		[ "$rc" -le 125 ] || bad="$bad; killed by a signal"
		;;
	esac
	[ "$before" = "$after" ] || bad="$bad; the target changed"
	sanitized "$SCRATCH/out" && bad="$bad; sanitizer report"
	if [ -n "$bad" ]; then
		fail "$name" "$what${bad}:"
		sed 's/^/    | /' "$SCRATCH/out"
	else
		echo "ok $name: $what: $(head -1 "$SCRATCH/out")"
	fi
}

group=$(group_of_script)
need_ours
need_programs "$REF_MKE2FS" sfdisk sha256sum truncate
[ "$group" = loop ] && need_loop
make_scratch
n=0
tab=$(printf '\t')
rows "$MDIR/refuse.tsv" "$group" >"$SCRATCH/rows"
while IFS=$tab read -r _ name kind args expect maxlines match _; do
	n=$((n + 1))
	check_row "$name" "$kind" "$args" "$expect" "$maxlines" "$match"
done <"$SCRATCH/rows"
if [ "$n" = 0 ]; then
	echo "FAIL: no rows of group $group in refuse.tsv"
	exit 1
fi
finish
