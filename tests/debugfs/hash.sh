#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# hash.sh --- dx_hash (hash.cases) must give the reference debugfs' hash
# and minor hash for the signed algorithms; the unsigned variants (which
# the reference cannot name) must equal the signed ones on ASCII names and
# differ on names with bytes >= 0x80.  Then the hash choice on an image:
# a file system flagged unsigned_directory_hash gets an htree of such names
# through our debugfs, and the reference e2fsck (which hashes them
# unsigned) must find each entry where its hash belongs.

: "${top_srcdir:=.}" "${top_builddir:=.}"
LC_ALL=C; export LC_ALL
here=$top_srcdir/tests/debugfs
dbg=$top_builddir/debugfs/debugfs
mkfs=${E2X_TEST_MKE2FS:-$top_builddir/mke2fs/mke2fs}
ref=/usr/sbin/debugfs
fsck=/usr/sbin/e2fsck
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
[ -x "$mkfs" ] || { echo "FAIL: no mke2fs at $mkfs"; exit 1; }
[ -x "$ref" ] && [ -x "$fsck" ] ||
	{ echo "SKIP: no reference e2fsprogs"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-hash.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# "hash minor" in hex -> decimal (the reference drops leading zeros)
norm() {
	# shellcheck disable=SC2086
	set -- $1
	[ $# = 2 ] && echo "$((0x$1)) $((0x$2))"
}

fails=0
n=0
grep -v '^#' "$here/hash.cases" > "$work/cases"
while IFS='|' read -r alg seed name <&3; do
	n=$((n + 1))
	name=$(printf "$name")
	[ "$seed" = zero ] && seed=00000000-0000-0000-0000-000000000000
	want=$("$ref" -R "dx_hash -h $alg -s $seed \"$name\"" 2>/dev/null |
		sed -n 's/.* is 0x\([0-9a-f]*\) (minor 0x\([0-9a-f]*\)).*/\1 \2/p')
	got=$("$dbg" -R "dx_hash -h $alg -s $seed \"$name\"" 2>&1 |
		sed -n 's/.* is 0x\([0-9a-f]*\) (minor 0x\([0-9a-f]*\)).*/\1 \2/p')
	w=$(norm "$want")
	g=$(norm "$got")
	if [ -z "$w" ] || [ "$w" != "$g" ]; then
		echo "FAIL: $alg $seed '$name': ours '$got', reference '$want'"
		fails=$((fails + 1))
	fi
	u=$("$dbg" -R "dx_hash -h ${alg}_unsigned -s $seed \"$name\"" 2>&1 |
		sed -n 's/.* is 0x\([0-9a-f]*\) .*/\1/p')
	if printf '%s' "$name" | LC_ALL=C grep -q '[^ -~]'; then
		[ -n "$u" ] && [ "$u" != "${got%% *}" ] ||
			{ echo "FAIL: ${alg}_unsigned '$name' equals the signed hash"
			  fails=$((fails + 1)); }
	else
		[ "$u" = "${got%% *}" ] ||
			{ echo "FAIL: ${alg}_unsigned '$name': $u, signed ${got%% *}"
			  fails=$((fails + 1)); }
	fi
done 3< "$work/cases"

# 300 names with bytes >= 0x80 in a 1 KiB-block directory: an htree
img=$work/img
"$mkfs" -q -F -t ext4 -b 1024 "$img" 16M &&
	"$dbg" -w -R "ssv flags 2" "$img" ||
	{ echo "FAIL: cannot make the unsigned-hash image"; exit 1; }
{ echo "mkdir d"
  seq 1 300 | sed "s|.*|mknod d/caf$(printf '\303\251')-&-$(printf '\377') p|"
} > "$work/cmds"
n=$((n + 1))
if ! "$dbg" -w -f "$work/cmds" "$img" > /dev/null 2> "$work/err" ||
	[ -s "$work/err" ]; then
	echo "FAIL: unsigned image: the session failed: $(head -2 "$work/err")"
	fails=$((fails + 1))
elif ! "$ref" -R "htree d" "$img" 2>/dev/null |
	grep -q 'Number of entries'; then
	echo "FAIL: unsigned image: /d did not become an htree"
	fails=$((fails + 1))
elif ! "$fsck" -fn "$img" > "$work/fsck" 2>&1; then
	echo "FAIL: unsigned image: the reference e2fsck finds problems:"
	grep -v '^Pass\|^e2fsck' "$work/fsck" | head -6
	fails=$((fails + 1))
fi
echo "$n cases, $fails failed"
[ $fails = 0 ]
