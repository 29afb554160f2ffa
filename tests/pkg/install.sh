#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install.sh --- the installed tree, as a packager sees it: make install
# DESTDIR=... puts the programs, the mkfs.ext2/3/4 and fsck.ext2/3/4
# links (pointing at mke2fs and e2fsck), and a page for every program,
# link and page that a SEE ALSO line names (pages of programs this tree
# does not build yet, and the system's ext4(5), excepted).  Installed
# again with the e2x- program prefix, every program, link and page of ours
# is named e2x-NAME exactly once (no e2x-e2x-itree.5) and the links point
# at the prefixed programs, and the SEE ALSO lines of the installed pages
# name them as installed.  make uninstall leaves no file behind.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
MAKE=${MAKE:-make}
work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# install_into DIR [TRANSFORM]
install_into() {
	if [ -n "${2:-}" ]; then
		$MAKE -C "$top_builddir" install DESTDIR="$1" prefix=/usr \
			program_transform_name="$2" >"$work/log" 2>&1
	else
		$MAKE -C "$top_builddir" install DESTDIR="$1" prefix=/usr \
			>"$work/log" 2>&1
	fi || { cat "$work/log"; bad "make install failed"; exit 1; }
}

# check_tree ROOT PREFIX
check_tree() {
	root=$1 pfx=$2
	sbin=$root/usr/sbin man5=$root/usr/share/man/man5
	man8=$root/usr/share/man/man8
	for p in mke2fs e2fsck debugfs tune2fs; do
		if [ ! -e "$top_builddir/$p/$p" ]; then
			continue
		fi
		[ -x "$sbin/$pfx$p" ] || bad "$pfx$p not installed"
		[ -f "$man8/$pfx$p.8" ] || bad "$pfx$p.8 not installed"
	done
	for l in mkfs.ext2:mke2fs mkfs.ext3:mke2fs mkfs.ext4:mke2fs \
		fsck.ext2:e2fsck fsck.ext3:e2fsck fsck.ext4:e2fsck; do
		n=$pfx${l%%:*} p=$pfx${l#*:}
		[ "$(readlink "$sbin/$n")" = "$p" ] ||
			bad "$sbin/$n -> '$(readlink "$sbin/$n")', not $p"
		[ -x "$sbin/$n" ] || bad "$n does not lead to a program"
		[ "$(readlink "$man8/$n.8")" = "$p.8" ] ||
			bad "$man8/$n.8 -> '$(readlink "$man8/$n.8")', not $p.8"
	done
	[ -f "$man5/${pfx}mke2fs.conf.5" ] || bad "${pfx}mke2fs.conf.5 not installed"
	[ -f "$man5/e2x-itree.5" ] || bad "e2x-itree.5 not installed under its own name"
	if ls "$sbin" "$man5" "$man8" | grep -q 'e2x-e2x-'; then
		bad "doubled prefix: $(ls "$sbin" "$man5" "$man8" | grep 'e2x-e2x-')"
	fi
	if [ -n "$pfx" ]; then
		left=$(ls "$sbin" "$man5" "$man8" | grep -v '^e2x-\|^$\|:$')
		[ -z "$left" ] || bad "names without the prefix: $left"
	fi
	# every page a SEE ALSO names (ours: by our programs' names)
	for page in "$top_srcdir"/man/*.[58]; do
		sed -n '/^\.SH SEE ALSO/,/^\.SH/p' "$page" |
			sed -n 's/^\.BR \([a-z0-9._-]*\) (\([58]\)).*/\1 \2/p'
	done | sort -u | while read -r name sec; do
		case $name in
		ext4) continue ;;	# the system's page
		e2x-*) f=$root/usr/share/man/man$sec/$name.$sec ;;
		*)	[ "$sec" = 8 ] && [ ! -e "$top_builddir/$name/$name" ] &&
				continue	# not built in this tree yet
			f=$root/usr/share/man/man$sec/$pfx$name.$sec ;;
		esac
		[ -f "$f" ] || { echo "FAIL SEE ALSO names $name($sec): no $f"; exit 1; }
	done || fail=1
}

# see_also_installed ROOT PREFIX: the SEE ALSO lines of the installed
# pages name the pages as installed (e2x-mke2fs (8) under the e2x-
# prefix); a name this tree does not install (e2undo, ext4) is left be.
see_also_installed() {
	root=$1 pfx=$2
	for page in "$root"/usr/share/man/man[58]/*; do
		[ -L "$page" ] && continue
		sed -n '/^\.SH SEE ALSO/,/^\.SH/p' "$page" |
			sed -n 's/^\.BR \([a-z0-9._-]*\) (\([58]\)).*/\1 \2/p' |
			sed "s|^|${page##*/} |"
	done | while read -r page name sec; do
		[ -e "$root/usr/share/man/man$sec/$name.$sec" ] && continue
		[ -e "$root/usr/share/man/man$sec/$pfx$name.$sec" ] || continue
		echo "FAIL $page names $name($sec), installed as $pfx$name.$sec"
		exit 1
	done || fail=1
}

install_into "$work/plain"
check_tree "$work/plain" ""
install_into "$work/pfx" 's,^,e2x-,'
check_tree "$work/pfx" e2x-
see_also_installed "$work/plain" ""
see_also_installed "$work/pfx" e2x-
$MAKE -C "$top_builddir" uninstall DESTDIR="$work/pfx" prefix=/usr \
	program_transform_name='s,^,e2x-,' >"$work/log" 2>&1 ||
	{ cat "$work/log"; bad "make uninstall failed"; }
leftover=$(find "$work/pfx" -type f -o -type l)
[ -z "$leftover" ] || bad "left after uninstall: $leftover"
[ $fail = 0 ] && echo "ok: $(find "$work/plain" -type f -o -type l | wc -l) files and links installed; prefix e2x- consistent"
exit $fail
