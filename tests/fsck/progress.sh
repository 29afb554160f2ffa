#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# progress.sh --- e2fsck -C 0: on a terminal (script(1) gives one) the bar
# is redrawn at most ~10 times a second, each drawing shows one overall
# percentage that never goes back, and no pass title or summary shares a
# line with the bar; without a terminal nothing is drawn.
: "${top_builddir:=.}"
ours=$top_builddir/e2fsck/e2fsck
command -v script >/dev/null || { echo "SKIP: no script(1) for a terminal"; exit 77; }
[ -x /usr/sbin/mke2fs ] || { echo "SKIP: no reference mke2fs"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tree"
i=0
while [ $i -lt 40 ]; do
	mkdir "$work/tree/d$i"
	(cd "$work/tree/d$i" && seq 1 200 | xargs touch)
	i=$((i + 1))
done
img=$work/img
/usr/sbin/mke2fs -q -t ext4 -d "$work/tree" -N 20000 "$img" 64M ||
	{ echo "FAIL: cannot make the image"; exit 1; }
fail=0
t0=$(date +%s.%N)
script -qec "$ours -C 0 -fn $img" /dev/null >"$work/out" 2>&1 </dev/null
rc=$?
t1=$(date +%s.%N)
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; cat "$work/out"; fail=1; }
tr '\r' '\n' <"$work/out" >"$work/lines"
draws=$(grep -c '%' "$work/lines")
limit=$(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 10 + 3 }')
echo "$draws drawing(s) in $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s (limit $limit)"
[ "$draws" -ge 1 ] || { echo "FAIL: no bar drawn"; fail=1; }
[ "$draws" -le "$limit" ] || { echo "FAIL: $draws drawings, more than $limit"; fail=1; }
if grep '%' "$work/lines" | grep -v '^[^ ]*: |[= ]*| *[0-9.]*%$' >/dev/null; then
	echo "FAIL: a drawing that is not one bar with one percentage:"
	grep '%' "$work/lines" | grep -v '^[^ ]*: |[= ]*| *[0-9.]*%$' | head -3
	fail=1
fi
if ! grep '%' "$work/lines" | sed 's/.*| *//; s/%//' |
	awk 'NR > 1 && $1 < last { exit 1 } { last = $1 }'; then
	echo "FAIL: the percentage went back"; fail=1
fi
grep -q '^Pass 5: ' "$work/lines" || { echo "FAIL: pass title not at the start of a line"; fail=1; }
grep -q "^$img: [0-9]*/[0-9]* files" "$work/lines" ||
	{ echo "FAIL: summary not on a line of its own"; fail=1; }
"$ours" -C 0 -fn "$img" >"$work/notty" 2>&1
if grep -q '%' "$work/notty"; then
	echo "FAIL: a bar drawn without a terminal"; fail=1
fi
exit $fail
