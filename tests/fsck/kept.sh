#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kept.sh --- never lose what the reference keeps (issue 11): for every
# corpus image both tools repair (ours listed in corpus-repaired.txt, the
# reference's -fy exits 0 or 1), the reference -fy runs on one copy and
# ours on another; then every regular file still reachable (lost+found
# too) is read out with the reference "debugfs -c -R 'rdump / DIR'" and
# hashed.  For every content hash, ours must keep at least as many files
# as the reference keeps (a file ours holds at the same path with more
# of its data, where the reference has a hole, counts as kept).  The images where ours keeps fewer today are
# listed, with what is lost, in kept-losses.tsv (shrink it as repairs
# land, never grow it; a listed image that keeps everything fails until
# its line goes).  Two images at a time (E2X_KEPT_JOBS).
# The corpus is $E2X_CORPUS or $top_srcdir/../shared/corpus/e2fsprogs;
# SKIP when absent.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
ours=${E2X_FSCK:-$top_builddir/e2fsck/e2fsck}
here=$top_srcdir/tests/fsck
refck=/usr/sbin/e2fsck
refdbg=/usr/sbin/debugfs

# files IMG OUT: the content hash of every regular file rdump reaches,
# one a line, sorted (a hash appears once per file holding it; empty
# files count).  A repaired size can make a sparse file tens of GiB:
# each file is read out to its first 64 MiB only (ulimit, SIGXFSZ
# ignored so the write fails and rdump goes on).
files() {
	rm -rf "$2.d"
	mkdir "$2.d"
	(trap '' XFSZ; ulimit -f 131072
	 timeout 300 "$refdbg" -c -R "rdump / $2.d" "$1" >/dev/null 2>&1)
	f_rc=$?
	find "$2.d" -type f -exec sha256sum {} + 2>/dev/null |
		sed "s|  $2.d/|  |" >"$2.paths"
	awk '{ print $1 }' "$2.paths" | sort >"$2"
	[ $f_rc != 124 ]
}

# covered D HASH: a file the reference keeps with HASH (under D/ref.list.d)
# is at the same path in ours (D/ours.list.d) with all of it and more: the
# same size, and every byte that differs is a zero of the reference's
# (a block it lost to a hole that ours kept).
covered() {
	grep "^$2  " "$1/ref.list.paths" | cut -c67- | while IFS= read -r p; do
		r=$1/ref.list.d/$p o=$1/ours.list.d/$p
		[ -f "$o" ] && [ "$(wc -c <"$r")" = "$(wc -c <"$o")" ] &&
			cmp -l "$r" "$o" | awk '$2 != 0 { exit 1 }' &&
			{ echo yes; break; }
	done | grep -q yes
}

# Images not compared: after both repairs f_big_sparse holds a 20 GiB
# sparse file, which rdump reads whole (minutes) even past the 64 MiB cap.
slow=" f_big_sparse "

# one NAME: prints "ok NAME ...", "skip NAME ..." or "FAIL NAME ..."
one() {
	case $slow in *" $1 "*)
		echo "skip $1: too slow to read out (see slow in kept.sh)"
		return ;;
	esac
	d=$work/$1
	mkdir "$d"
	gzip -dc "$corpus/$1.img.gz" >"$d/ref.img" 2>/dev/null ||
		{ echo "FAIL $1: cannot decompress"; return; }
	cp "$d/ref.img" "$d/ours.img"
	E2FSCK_CONFIG=/dev/null timeout 120 "$refck" -fy "$d/ref.img" \
		>/dev/null 2>&1 </dev/null
	rrc=$?
	E2FSCK_CONFIG=/dev/null timeout 120 "$ours" -fy "$d/ours.img" \
		>/dev/null 2>&1 </dev/null
	orc=$?
	if [ $rrc -gt 1 ]; then
		echo "skip $1: the reference's -fy exits $rrc"
		rm -rf "$d"; return
	fi
	if [ $orc -ge 8 ] && [ $orc != 8 ] && [ $orc != 12 ]; then
		echo "FAIL $1: our -fy crashed, timed out or did not run (exit $orc)"
		rm -rf "$d"; return
	fi
	if ! files "$d/ref.img" "$d/ref.list" ||
		! files "$d/ours.img" "$d/ours.list"; then
		echo "FAIL $1: rdump took more than 300 s"
		rm -rf "$d"; return
	fi
	# hashes the reference keeps more often than ours, but for files
	# ours keeps whole where the reference lost a block to a hole
	short=0
	for h in $(comm -23 "$d/ref.list" "$d/ours.list"); do
		covered "$d" "$h" || short=$((short + 1))
	done
	nr=$(wc -l <"$d/ref.list") no=$(wc -l <"$d/ours.list")
	why=$(awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$exceptions")
	if [ "$short" != 0 ]; then
		if [ -n "$why" ]; then
			echo "known $1: $short of the reference's files missing: $why"
		else
			echo "FAIL $1: ours keeps $no files, the reference $nr;" \
				"$short of the reference's are missing (our -fy exit $orc)"
		fi
	elif [ -n "$why" ]; then
		echo "FAIL $1: keeps every file now; remove it from kept-losses.tsv"
	else
		echo "ok $1: ours $no files, the reference $nr"
	fi
	rm -rf "$d"
}

if [ "${1:-}" = --one ]; then
	work=$2 corpus=$3 exceptions=$4
	one "$5"
	exit 0
fi

corpus=${E2X_CORPUS:-$top_srcdir/../shared/corpus/e2fsprogs}
[ -d "$corpus" ] || corpus=/work/shared/corpus/e2fsprogs
[ -f "$corpus/MANIFEST.tsv" ] ||
	{ echo "SKIP: corpus not found (set E2X_CORPUS)"; exit 77; }
[ -x "$refck" ] && [ -x "$refdbg" ] ||
	{ echo "SKIP: no reference e2fsck and debugfs to compare with"; exit 77; }
[ -x "$ours" ] || { echo "FAIL: $ours not built"; exit 1; }
command -v timeout >/dev/null || { echo "SKIP: no timeout(1)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-kept.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
grep -v '^#' "$here/corpus-repaired.txt" | grep . |
	xargs -P "${E2X_KEPT_JOBS:-2}" -n 1 sh "$0" --one "$work" "$corpus" \
		"$here/kept-losses.tsv" >"$work/results"
grep -v '^ok ' "$work/results" | sort
ok=$(grep -c '^ok ' "$work/results")
known=$(grep -c '^known ' "$work/results")
skip=$(grep -c '^skip ' "$work/results")
bad=$(grep -c '^FAIL ' "$work/results")
echo "kept: $ok images keep at least the reference's files, $known keep" \
	"fewer (known, kept-losses.tsv), $bad fail, $skip skipped"
[ "$bad" = 0 ] && [ "$ok" -gt 0 ]
