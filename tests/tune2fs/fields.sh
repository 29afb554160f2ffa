#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fields.sh --- superblock edits and the -l listing against the reference
# tune2fs (fields.cases), then e2label, -U on a metadata_csum file system
# and dumpe2fs's header.  Needs the reference e2fsprogs.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
tune=$top_builddir/tune2fs/tune2fs
refmkfs=/usr/sbin/mke2fs
reftune=/usr/sbin/tune2fs
reffsck=/usr/sbin/e2fsck

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$reftune" ] && [ -x "$refmkfs" ] && [ -x "$reffsck" ] ||
	skip "no reference e2fsprogs"
[ -x "$tune" ] || { echo "FAIL: no tune2fs at $tune"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-fields.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

# The fields a write changes by itself drop out of the comparison.
listing() {
	"$1" -l "$2" 2>/dev/null | sed 1d |
		grep -Ev '^(Last write time|Lifetime writes|Checksum):'
}

mkimage() {
	rm -f "$1"
	truncate -s 16M "$1"
	# shellcheck disable=SC2086
	"$refmkfs" -q -F -t ext4 $2 "$1" >/dev/null 2>&1
}

while IFS='|' read -r name mkfs opts; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	mkimage "$work/a.img" "$mkfs" || { fail "mke2fs"; continue; }
	cp "$work/a.img" "$work/b.img"
	# shellcheck disable=SC2086
	"$tune" $opts "$work/a.img" >"$work/our.out" 2>&1 ||
		{ fail "our tune2fs $opts:"; cat "$work/our.out"; continue; }
	# shellcheck disable=SC2086
	"$reftune" $opts "$work/b.img" >/dev/null 2>&1 ||
		{ fail "reference tune2fs $opts refused"; continue; }
	listing "$reftune" "$work/a.img" >"$work/a.l"
	listing "$reftune" "$work/b.img" >"$work/b.l"
	diff "$work/b.l" "$work/a.l" >"$work/d" ||
		{ fail "fields differ (< reference, > ours):"; cat "$work/d"; }
	listing "$tune" "$work/a.img" >"$work/our.l"
	diff "$work/a.l" "$work/our.l" >"$work/d" ||
		{ fail "-l differs (< reference, > ours):"; cat "$work/d"; }
	"$reffsck" -fn "$work/a.img" >"$work/fsck" 2>&1 ||
		{ fail "reference e2fsck:"; tail -3 "$work/fsck"; }
done <"$here/fields.cases"

# e2label is tune2fs under that name.
name=e2label
bin=$(cd "$(dirname "$tune")" && pwd)
if [ -x "$bin/.libs/tune2fs" ]; then	# behind libtool's wrapper script
	bin=$bin/.libs
	LD_LIBRARY_PATH=$(cd "$top_builddir/lib/.libs" && pwd)
	export LD_LIBRARY_PATH
fi
ln -sf "$bin/tune2fs" "$work/e2label"
mkimage "$work/a.img" ""
"$work/e2label" "$work/a.img" new-label || fail "set"
[ "$("$work/e2label" "$work/a.img")" = new-label ] || fail "read back"
[ "$(/usr/sbin/e2label "$work/a.img")" = new-label ] ||
	fail "reference e2label disagrees"

# -U on metadata_csum: every checksum stays valid.
name=uuid-csum
mkimage "$work/a.img" "-O metadata_csum"
"$tune" -U 01234567-89ab-cdef-0123-456789abcdef "$work/a.img" >/dev/null ||
	fail "tune2fs -U"
"$reftune" -l "$work/a.img" | grep -q \
	'^Filesystem UUID: *01234567-89ab-cdef-0123-456789abcdef$' ||
	fail "UUID not set"
"$reffsck" -fn "$work/a.img" >"$work/fsck" 2>&1 ||
	{ fail "reference e2fsck:"; tail -3 "$work/fsck"; }

# Superblock fields on a mounted file system (root and loop devices).
name=online
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	img=$work/a.img mnt=$work/mnt
	mkdir -p "$mnt"
	. "$top_srcdir/tests/loop.sh"
	trap 'loop_cleanup; rm -rf "$work"' EXIT INT TERM
	mkimage "$img" ""
	if loop_attach; then
		"$tune" -c 7 -L online -E stride=4 "$loop" >"$work/out" 2>&1 ||
			{ fail "refused:"; cat "$work/out"; }
		loop_detach
		"$reffsck" -fn "$img" >"$work/fsck" 2>&1 ||
			{ fail "reference e2fsck:"; tail -3 "$work/fsck"; }
		"$reftune" -l "$img" >"$work/l"
		grep -q '^Maximum mount count: *7$' "$work/l" &&
			grep -q '^Filesystem volume name: *online$' "$work/l" &&
			grep -q '^RAID stride: *4$' "$work/l" ||
			fail "fields not set"
	else
		fail "mount"
	fi
else
	echo "SKIP part $name: needs root and loop devices"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: fields and listings match the reference"
