#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# write_rules.sh --- rules every debugfs writing command keeps
# (write_rules.cases): i_version moves exactly once per changing command
# (read with our stat before and after), breakage made with sif / ssv /
# feature is reported by our dir_check with the expected problem, and on a
# read-only open each writing command is refused with one line and leaves
# the image byte for byte unchanged; so is a writing command given bad
# input on a read-write open.

: "${top_srcdir:=.}" "${top_builddir:=.}"
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-wrules.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
. "$here/session.sh"

version() {
	v=$("$dbg" -R "stat $1" "$img" 2>/dev/null |
		sed -n 's/.*Version: *0x\([0-9a-f]*\):\([0-9a-f]*\).*/\1\2/p')
	[ -n "$v" ] && printf '%d\n' "0x$v"
}

fails=0
n=0
grep -v '^#' "$here/write_rules.cases" | grep . > "$work/cases"
while IFS='|' read -r kind name opts setup cmd a1 a2 <&3; do
	n=$((n + 1))
	bad=
	img=$work/img
	rm -f "$img"
	# shellcheck disable=SC2086
	"$mkfs" -q -F $opts "$img" 32M > "$work/mkfs" 2>&1 ||
		{ echo "FAIL: $kind $name: mke2fs: $(cat "$work/mkfs")"
		  fails=$((fails + 1)); continue; }
	session "$setup" > "$work/setup"
	"$dbg" -w -f "$work/setup" "$img" > /dev/null 2> "$work/err" ||
		bad="setup failed: $(head -2 "$work/err" | tr '\n' ' ')"
	session "$cmd" > "$work/cmd"
	case $kind in
	ver)
		v0=$(version "$a1")
		"$dbg" -w -f "$work/cmd" "$img" > /dev/null 2> "$work/err" ||
			bad="$bad; '$cmd' failed: $(head -2 "$work/err")"
		v1=$(version "$a1")
		case $a2 in
		=*) [ "$v1" = "${a2#=}" ] ||
			bad="$bad; i_version of new $a1 is $v1, want $a2" ;;
		*) [ -n "$v0" ] && [ -n "$v1" ] && [ $((v1 - v0)) = "$a2" ] ||
			bad="$bad; i_version of $a1 $v0 -> $v1, want +$a2" ;;
		esac ;;
	brk)
		"$dbg" -w -f "$work/cmd" "$img" > /dev/null 2> "$work/err" ||
			bad="$bad; '$cmd' failed: $(head -2 "$work/err")"
		if "$dbg" -R "dir_check $a1" "$img" > "$work/dc" 2>&1; then
			bad="$bad; dir_check $a1 finds nothing"
		fi
		grep -Eq "$a2" "$work/dc" ||
			bad="$bad; dir_check: $(tr '\n' ' ' < "$work/dc")" ;;
	ro|bad)
		sum=$(sha256sum < "$img")
		if [ "$kind" = ro ]; then w=; want=read-only; else w=-w; want=$a1; fi
		"$dbg" $w -f "$work/cmd" "$img" > "$work/out" 2> "$work/err" &&
			bad="$bad; '$cmd' succeeded"
		[ "$(wc -l < "$work/err")" = 1 ] ||
			bad="$bad; $(wc -l < "$work/err") lines on stderr"
		grep -Eq "$want" "$work/err" ||
			bad="$bad; said: $(head -2 "$work/err")"
		[ "$(sha256sum < "$img")" = "$sum" ] ||
			bad="$bad; the image changed" ;;
	*) bad="unknown kind $kind" ;;
	esac
	if [ -n "$bad" ]; then
		echo "FAIL: $kind $name: ${bad#; }"
		fails=$((fails + 1))
	fi
done 3< "$work/cases"
echo "$n cases, $fails failed"
[ "$fails" = 0 ]
