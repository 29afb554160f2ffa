#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/compare.sh --- mke2fs against the reference, one row of
# tests/mke2fs/compare.tsv at a time: the reference e2fsck -fn must find our file
# system clean, and its counts must equal the reference's (or be within the
# row's tolerance, whose reason the row states).
# Run through a wrapper tests/mke2fs/compare-GROUP.sh, which picks the rows.

. "$(dirname "$0")/lib.sh"

# Fields that must be equal, and counts that may differ by the row's
# tolerance.  Everything else dumpe2fs prints is shown when it differs but
# does not decide the result.
EXACT="Filesystem features|Block size|Cluster size|Inode size|First block"
COUNTS="Inode count|Block count|Free blocks|Free inodes|Reserved block count"
INFO="Blocks per group|Inodes per group|Inode blocks per group|\
Reserved GDT blocks|Flex block group size|Overhead clusters|\
Group descriptor size|Total journal size|Default mount options|\
Filesystem flags|Required extra isize|Journal backup"

# header IMAGE --- "field<TAB>value" lines of dumpe2fs -h, the feature list
# sorted so that the order does not matter.
header()
{
	"$REF_DUMPE2FS" -h "$1" 2>/dev/null | awk '
	{
		i = index($0, ":")
		if (i == 0)
			next
		k = substr($0, 1, i - 1)
		v = substr($0, i + 1)
		gsub(/^[ \t]+|[ \t]+$/, "", v)
		if (k == "Filesystem features") {
			n = split(v, f, " ")
			for (a = 1; a <= n; a++)
				for (b = a + 1; b <= n; b++)
					if (f[b] < f[a]) {
						t = f[a]; f[a] = f[b]; f[b] = t
					}
			v = ""
			for (a = 1; a <= n; a++)
				v = v (a > 1 ? " " : "") f[a]
		}
		print k "\t" v
	}'
}

# compare_headers NAME TOL OURS REF --- print one line per difference,
# "FAIL:" first on those that decide; exit status 1 if any does.
compare_headers()
{
	awk -F'\t' -v tol="$2" -v exact="^($EXACT)\$" \
		-v counts="^($COUNTS)\$" -v info="^($INFO)\$" '
	FNR == NR { ours[$1] = $2; seen[$1] = 1; next }
	{ ref[$1] = $2; seen[$1] = 1 }
	END {
		bad = 0
		for (k in seen) {
			o = (k in ours) ? ours[k] : "(absent)"
			r = (k in ref) ? ref[k] : "(absent)"
			if (o == r)
				continue
			if (k ~ exact) {
				printf "FAIL: %s: ours \"%s\", reference \"%s\"\n", k, o, r
				bad = 1
			} else if (k ~ counts) {
				d = o - r
				if (d < 0)
					d = -d
				lim = tol * r / 100
				if (d > lim || !(k in ours)) {
					printf "FAIL: %s: ours %s, reference %s (allowed %s%%)\n", k, o, r, tol
					bad = 1
				} else {
					printf "within %s%%: %s: ours %s, reference %s\n", tol, k, o, r
				}
			} else if (k ~ info) {
				printf "info: %s: ours \"%s\", reference \"%s\"\n", k, o, r
			}
		}
		exit bad
	}' "$3" "$4"
}

# check_row NAME SIZE OPTIONS TOL REASON --- one case of the table.
check_row()
{
	name=$1 size=$2 opts=$3 tol=${4%\%} reason=$5 f0=$fails
	[ "$opts" = - ] && opts=
	ours=$SCRATCH/$name.ours.img
	ref=$SCRATCH/$name.ref.img
	case $tol in
	''|*[!0-9.]*) fail "$name" "bad tolerance '$4' in the table"; return ;;
	esac
	if [ "$tol" != 0 ] && [ -z "$reason" ]; then
		fail "$name" "tolerance $4 without a reason in the table"
		return
	fi
	# shellcheck disable=SC2086
	if ! "$REF_MKE2FS" -q $opts "$ref" "$size" </dev/null \
		>"$SCRATCH/ref.out" 2>&1; then
		fail "$name" "the reference refused the row (table error):"
		sed 's/^/    | /' "$SCRATCH/ref.out"
		rm -f "$ref"
		return
	fi
	# shellcheck disable=SC2086
	if ! "$E2X_MKE2FS" -q $opts "$ours" "$size" </dev/null \
		>"$SCRATCH/ours.out" 2>&1; then
		fail "$name" "our mke2fs failed:"
		sed 's/^/    | /' "$SCRATCH/ours.out"
		rm -f "$ours" "$ref"
		return
	fi
	if sanitized "$SCRATCH/ours.out"; then
		fail "$name" "sanitizer report from our mke2fs:"
		head -20 "$SCRATCH/ours.out" | sed 's/^/    | /'
	fi
	if ! "$REF_E2FSCK" -fn "$ours" </dev/null >"$SCRATCH/fsck.out" 2>&1; then
		fail "$name" "e2fsck -fn does not find our file system clean:"
		head -40 "$SCRATCH/fsck.out" | sed 's/^/    | /'
	fi
	header "$ours" >"$SCRATCH/ours.h"
	header "$ref" >"$SCRATCH/ref.h"
	if [ ! -s "$SCRATCH/ours.h" ]; then
		fail "$name" "dumpe2fs cannot read our superblock"
	elif ! compare_headers "$name" "$tol" "$SCRATCH/ours.h" \
		"$SCRATCH/ref.h" >"$SCRATCH/diff.out"; then
		fail "$name" "differs from the reference:"
		sed 's/^/    | /' "$SCRATCH/diff.out"
	else
		[ "$fails" = "$f0" ] && echo "ok $name ($size $opts)"
		sed 's/^/    | /' "$SCRATCH/diff.out"
	fi
	rm -f "$ours" "$ref"
}

group=$(group_of_script)
need_ours
need_programs "$REF_MKE2FS" "$REF_E2FSCK" "$REF_DUMPE2FS"
make_scratch
n=0
tab=$(printf '\t')
rows "$MDIR/compare.tsv" "$group" >"$SCRATCH/rows"
while IFS=$tab read -r _ name size opts tol reason; do
	n=$((n + 1))
	check_row "$name" "$size" "$opts" "${tol:-0}" "$reason"
done <"$SCRATCH/rows"
if [ "$n" = 0 ]; then
	echo "FAIL: no rows of group $group in compare.tsv"
	exit 1
fi
finish
