#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# refuse.sh --- tune2fs refusals (refuse.cases): exit 1, exactly one line
# on stderr saying why, and the target byte for byte as it was.  The
# mounted cases need root and loop devices (SKIPped rows otherwise).

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
tune=$top_builddir/tune2fs/tune2fs
refmkfs=/usr/sbin/mke2fs
refdbg=/usr/sbin/debugfs

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$refmkfs" ] || skip "no reference mke2fs"
[ -x "$tune" ] || { echo "FAIL: no tune2fs at $tune"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-refuse.XXXXXX") || exit 1
mnt=$work/mnt
img=$work/t.img
. "$top_srcdir/tests/loop.sh"
trap 'loop_cleanup; rm -rf "$work"' EXIT INT TERM
mkdir -p "$mnt"
fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }
can_mount=no
[ "$(id -u)" = 0 ] && command -v losetup >/dev/null && can_mount=yes

make_target() {
	rm -f "$img"
	case "$1" in
	ext4|mounted)
		truncate -s 16M "$img" &&
		"$refmkfs" -q -F -t ext4 "$img" >/dev/null 2>&1 ;;
	ext4-128)
		truncate -s 16M "$img" &&
		"$refmkfs" -q -F -t ext4 -I 128 "$img" >/dev/null 2>&1 ;;
	full-dir)	# a root block of 12-byte entries: no room for a tail
		truncate -s 16M "$img" &&
		"$refmkfs" -q -F -t ext4 -b 4096 -O ^metadata_csum,^dir_index \
			"$img" >/dev/null 2>&1 &&
		seq 1000 1337 | sed 's/.*/mknod n& p/' >"$img.cmd" &&
		"$refdbg" -w -f "$img.cmd" "$img" >/dev/null 2>&1 ;;
	unclean)
		truncate -s 16M "$img" &&
		"$refmkfs" -q -F -t ext4 -O ^metadata_csum "$img" \
			>/dev/null 2>&1 &&
		"$refdbg" -w -R "ssv state 0" "$img" >/dev/null 2>&1 ;;
	garbage)
		head -c 4194304 /dev/urandom >"$img" ;;
	short)
		truncate -s 16M "$img" &&
		"$refmkfs" -q -F -t ext4 "$img" >/dev/null 2>&1 &&
		truncate -s 1500 "$img" ;;
	esac
}

while IFS='|' read -r name target opts pattern; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	target=$(echo "$target" | tr -d ' ')
	pattern=$(echo "$pattern" | sed 's/^ *//; s/ *$//')
	if [ "$target" = mounted ] && [ "$can_mount" = no ]; then
		echo "SKIP row $name: needs root and loop devices"
		continue
	fi
	make_target "$target" || { fail "cannot make $target"; continue; }
	if [ "$target" = mounted ]; then
		loop_attach || { fail "mount"; continue; }
		sync
		dev=$loop
	else
		dev=$img
	fi
	before=$(sha256sum <"$img")
	# shellcheck disable=SC2086
	"$tune" $opts "$dev" >"$work/out" 2>"$work/err"
	rc=$?
	after=$(sha256sum <"$img")
	[ "$target" = mounted ] && loop_detach
	[ "$rc" = 1 ] || fail "exit $rc, not 1"
	[ "$(wc -l <"$work/err")" = 1 ] ||
		{ fail "stderr is not one line:"; cat "$work/err"; }
	grep -qF -- "$pattern" "$work/err" ||
		{ fail "stderr lacks '$pattern':"; cat "$work/err"; }
	[ "$before" = "$after" ] || fail "target changed"
done <"$here/refuse.cases"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: every refusal is one line, exit 1, target unchanged"
