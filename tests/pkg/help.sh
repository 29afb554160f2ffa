#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# help.sh --- every program answers -h, --help, -V and --version alike:
# help on stdout with exit 0 and nothing on stderr; the version as two
# lines, "PROG (e2x) VERSION" and the libext2fs version the program is
# linked with, in the words the reference prints there.
: "${top_builddir:=.}"
fail=0
libver=$(/usr/sbin/e2fsck -V 2>&1 | sed -n 's/.*EXT2FS Library version \([0-9.]*\).*/\1/p')
[ -n "$libver" ] || { echo "SKIP: no reference e2fsck to learn the libext2fs version"; exit 77; }
pkgver=$(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
n=0
# dumpe2fs's -h is "header only" (as in e2fsprogs): --help alone there
for prog in mke2fs/mke2fs e2fsck/e2fsck debugfs/debugfs tune2fs/tune2fs \
	dumpe2fs/dumpe2fs; do
	bin=$top_builddir/$prog
	name=${prog#*/}
	if [ ! -x "$bin" ]; then
		echo "FAIL $name: not built"; fail=1; continue
	fi
	n=$((n + 1))
	helps="-h --help"
	[ "$name" = dumpe2fs ] && helps=--help
	for a in $helps; do
		"$bin" $a >"$out" 2>"$err"; rc=$?
		if [ $rc -ne 0 ] || [ -s "$err" ] ||
			! grep -qi "^usage: $name " "$out"; then
			echo "FAIL $name $a: exit $rc, stderr: $(head -1 "$err")"
			fail=1
		fi
	done
	want=$(printf '%s (e2x) %s\n\tUsing EXT2FS Library version %s' \
		"$name" "$pkgver" "$libver")
	for a in -V --version; do
		"$bin" $a >"$out" 2>"$err"; rc=$?
		if [ $rc -ne 0 ] || [ -s "$err" ] ||
			[ "$(cat "$out")" != "$want" ]; then
			echo "FAIL $name $a: exit $rc, output:"; cat "$out" "$err"
			fail=1
		fi
	done
done
[ $fail -eq 0 ] && echo "ok: $n programs answer -h, --help, -V, --version"
exit $fail
