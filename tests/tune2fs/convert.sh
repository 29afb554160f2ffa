#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# convert.sh --- tune2fs -O conversions in place (convert.cases).  For each
# case the reference mke2fs makes an image, the kernel fills it, and after
# our tune2fs runs:
#   1. the features are as expected, the reference e2fsck -fn (when the
#      case says so) and our e2fsck -fn are clean,
#   2. mounted read-only beside a copy of the original, every file's
#      content, type, mode, owner, times (ns), xattrs and link identity
#      are unchanged (tests/populate/compare.py),
#   3. every inode's i_version is unchanged or bumped exactly once,
#   4. the kernel mounts it read-write, writes, and logs no EXT4-fs
#      warning; after that the reference e2fsck is still clean.
# Needs root, loop devices, python3 and the reference e2fsprogs.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/tune2fs
tune=$top_builddir/tune2fs/tune2fs
ourfsck=$top_builddir/e2fsck/e2fsck
refmkfs=/usr/sbin/mke2fs
reffsck=/usr/sbin/e2fsck
refdbg=/usr/sbin/debugfs

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
[ -x "$reffsck" ] && [ -x "$refmkfs" ] && [ -x "$refdbg" ] ||
	skip "no reference e2fsprogs"
[ -x "$tune" ] || { echo "FAIL: no tune2fs at $tune"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-t-convert.XXXXXX") || exit 1
mnt=$work/mnt
mnt2=$work/mnt2
img=
. "$top_srcdir/tests/loop.sh"
. "$here/lib.sh"
cleanup() {
	loop_cleanup
	umount "$mnt2" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$mnt" "$mnt2" || exit 1

fails=0
fail() { echo "FAIL: $name: $*"; fails=$((fails + 1)); }

# ino version lines for the inodes listed in $work/inos.
versions() {
	sed 's/.*/stat <&>/' "$work/inos" >"$work/stat.cmd"
	"$refdbg" -f "$work/stat.cmd" "$1" 2>/dev/null |
		awk '/^Inode: /{ i = $2 } /Version:/{ print i, $NF }'
}

# Check rule $1 between $work/v.before and $work/v.after: an inode moves
# by at most one per tune2fs run ($2 runs).
check_versions() {
	python3 - "$1" "$work/v.before" "$work/v.after" "$2" <<'PY' || return 1
import sys
rule, a, b, runs = sys.argv[1:]
def load(p):
    d = {}
    for line in open(p):
        ino, v = line.split()
        hi, lo = v.split(':')
        d[ino] = int(hi, 16) << 32 | int(lo, 16)
    return d
before, after = load(a), load(b)
bumped = bad = 0
for ino, v in before.items():
    d = after.get(ino, v) - v
    if 1 <= d <= int(runs):
        bumped += 1
    elif d != 0:
        bad += 1
        print('inode %s: i_version moved by %d' % (ino, d))
if bad or (rule == 'bump' and not bumped) or (rule == 'same' and bumped):
    print('rule %s: %d bumped, %d wrong' % (rule, bumped, bad))
    sys.exit(1)
PY
}

check_features() {
	feats=$("$tune" -l "$img" | sed -n 's/^Filesystem features: *//p')
	for f in $(echo "$1" | tr ',' ' '); do
		want=${f#?}
		case "$f" in
		+*) echo " $feats " | grep -q " $want " ||
			{ fail "feature $want missing: $feats"; return 1; } ;;
		-*) echo " $feats " | grep -q " $want " &&
			{ fail "feature $want still set"; return 1; } ;;
		esac
	done
	return 0
}

ref_clean() {
	"$reffsck" -fn "$img" >"$work/ref.fsck" 2>&1 ||
		{ fail "reference e2fsck $1:"; tail -5 "$work/ref.fsck"; }
}

# The kernel writes into the converted file system.
kernel_writes() {
	loop_attach || { fail "kernel mount"; return 1; }
	(cd "$mnt" && echo more >>small/f60 && mkdir small/newdir &&
		echo new >small/deep/new && rm small/f0 &&
		echo x >big/after) || fail "kernel writes"
	loop_detach || { fail "umount"; return 1; }
	if klog_complaints "$loop_dev"; then
		fail "kernel complained"
	fi
}

run_case() {
	img=$work/$name.img
	fill_short=
	case "$name" in *-short) fill_short=yes ;; esac
	filled_image "$mkfs" || return 1
	cp "$img" "$work/orig.img"
	versions "$img" >"$work/v.before"
	echo "$runs" | tr ';' '\n' | while read -r args; do
		case "$args" in
		e2fsck*)	# -D: exit 1 says it rewrote directories
			# shellcheck disable=SC2086
			"$ourfsck" ${args#e2fsck} "$img" >"$work/tune.out" 2>&1
			[ $? = 1 ] || { echo "$args:"; cat "$work/tune.out"
				exit 1; } ;;
		*)
			# shellcheck disable=SC2086
			"$tune" $args "$img" >"$work/tune.out" 2>&1 ||
				{ echo "tune2fs $args:"; cat "$work/tune.out"
				  exit 1; } ;;
		esac
	done || { fail "conversion"; return 1; }
	check_features "$feats" || return 1
	[ "$reffsck_ok" = yes ] && ref_clean "after tune2fs"
	"$ourfsck" -fn "$img" >"$work/our.fsck" 2>&1 ||
		{ fail "our e2fsck:"; tail -5 "$work/our.fsck"; }
	versions "$img" >"$work/v.after"
	check_versions "$rule" "$(echo "$runs" | tr ';' '\n' | wc -l)" || fail "i_version rule $rule"
	same_tree "$work/orig.img"
	if [ "$reffsck_ok" = yes ]; then
		kernel_writes
		ref_clean "after kernel writes"
	fi
	rm -f "$img" "$work/orig.img"
}

while IFS='|' read -r name mkfs runs feats rule reffsck_ok; do
	name=$(echo "$name" | tr -d ' ')
	case "$name" in ''|'#'*) continue ;; esac
	[ -z "${T_CASE:-}" ] || [ "$T_CASE" = "$name" ] || continue
	feats=$(echo "$feats" | tr -d ' ')
	rule=$(echo "$rule" | tr -d ' ')
	reffsck_ok=$(echo "$reffsck_ok" | tr -d ' ')
	run_case
	echo "ok: $name"
done <"$here/convert.cases"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "PASS: every conversion keeps the tree and both fscks clean"
