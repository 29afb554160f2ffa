#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make-seeds.sh --- seed images for the e2fsck fuzz drivers, one per line
# of seeds.tsv, made with our mke2fs (fixed UUID and hash seed) into DIR.
#   make-seeds.sh BUILDDIR DIR
# Files are NAME.img, full size (sparse).  Exit 0 when every seed was made.
set -u
build=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkfs=$build/mke2fs/mke2fs
dbg=$build/debugfs/debugfs
[ -x "$mkfs" ] && [ -x "$dbg" ] || { echo "make-seeds: build $build first"; exit 1; }
mkdir -p "$out" || exit 1
src=$(mktemp -d "${TMPDIR:-/tmp}/e2x-seedsrc.XXXXXX") || exit 1
trap 'rm -rf "$src"' EXIT

# the source trees: deterministic names, content and times
tree() {
	mkdir -p "$1/d/big" "$1/e"
	echo hello >"$1/d/small"
	awk 'BEGIN { for (i = 0; i < 500; i++) printf "line %d\n", i }' \
		>"$1/d/medium"
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%07d\n", i }' \
		>"$1/big.bin"
	ln -s d/small "$1/link"
	ln -s "$(printf '%0100d' 0)" "$1/longlink"
	ln "$1/d/small" "$1/d/hard"
	i=1
	while [ $i -le 120 ]; do
		echo $i >"$1/d/big/file-with-a-longer-name-$i"
		i=$((i + 1))
	done
	find "$1" -exec touch -h -d @1700000000 {} +
}
tree "$src/plain"
tree "$src/full"
if command -v setfattr >/dev/null; then
	setfattr -n user.small -v value "$src/full/d/small"
	setfattr -n user.big -v "$(printf '%0300d' 7)" "$src/full/d/medium"
	setfattr -n user.dir -v x "$src/full/d"
fi
mkdir "$src/none"
awk 'BEGIN { for (i = 0; i < 256; i++) printf "%08d", i }' >"$src/blk"

rc=0
while IFS='	' read -r name opts size source steps; do
	case $name in ''|'#'*) continue ;; esac
	img=$out/$name.img
	rm -f "$img"
	# shellcheck disable=SC2086
	if ! "$mkfs" -q -F $opts -U 6b33f5e1-8c2a-4c55-9a0f-2d7f3b1e0a11 \
		-E hash_seed=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 \
		-d "$src/$source" "$img" "$size" >"$src/log" 2>&1; then
		echo "make-seeds: $name: mke2fs failed: $(head -2 "$src/log")"
		rc=1
		continue
	fi
	[ "$steps" = - ] && continue
	echo "$steps" | tr '|' '\n' >"$src/steps"
	while read -r step; do
		prog=$dbg
		case $step in ref:*) prog=debugfs; step=${step#ref:} ;; esac
		echo "$step" | tr ';' '\n' |
			sed "s|BLK|$src/blk|; s|SRC|$src/plain|g" |
			"$prog" -w -f - "$img" >"$src/log" 2>&1 || {
			echo "make-seeds: $name: debugfs failed: $(tail -2 "$src/log")"
			rc=1
		}
	done <"$src/steps"
done <"$here/seeds.tsv"
exit $rc
