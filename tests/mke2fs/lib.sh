# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/lib.sh --- shared helpers of the mke2fs integration tests: which
# programs to run (ours and the reference), scratch space, skips, table rows.
# Sourced by the drivers in tests/mke2fs/; not a test of its own.

# Ours by default; E2X_MKE2FS overrides it (e.g. /usr/sbin/mke2fs to try a
# driver against the reference itself).
if [ -z "${E2X_MKE2FS:-}" ]; then
	if [ -z "${top_builddir:-}" ]; then
		echo "tests/mke2fs: set top_builddir or E2X_MKE2FS" >&2
		exit 99
	fi
	E2X_MKE2FS=$top_builddir/mke2fs/mke2fs
fi
REF_MKE2FS=${REF_MKE2FS:-/usr/sbin/mke2fs}
REF_E2FSCK=${REF_E2FSCK:-/usr/sbin/e2fsck}
REF_DUMPE2FS=${REF_DUMPE2FS:-/usr/sbin/dumpe2fs}
MDIR=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/mke2fs
export E2FSCK_CONFIG=${E2FSCK_CONFIG:-/dev/null}
export LC_ALL=C TZ=UTC

fails=0

# sanitized FILE --- true when FILE (a program's output) holds an ASan or
# UBSan report; such a run fails whatever its exit status.
sanitized()
{
	grep -Eq 'Sanitizer|runtime error:' "$1"
}

# skip REASON --- print SKIP with the reason and leave with automake's 77.
skip()
{
	echo "SKIP: $*"
	exit 77
}

# fail NAME REASON --- record one failed row; the driver exits 1 at the end.
fail()
{
	echo "FAIL $1: $2"
	fails=$((fails + 1))
}

# need_programs PROG... --- skip the test unless every program is present.
need_programs()
{
	for p in "$@"; do
		[ -x "$p" ] || command -v "$p" >/dev/null 2>&1 ||
			skip "$p is not installed"
	done
}

# need_ours --- the mke2fs under test must exist (a missing build is a
# failure, not a skip).
need_ours()
{
	if [ ! -x "$E2X_MKE2FS" ]; then
		echo "FAIL: $E2X_MKE2FS is not built"
		exit 1
	fi
}

# need_loop --- skip unless we are root and can attach a loop device.
need_loop()
{
	[ "$(id -u)" = 0 ] || skip "needs root for loop devices and mounts"
	need_programs losetup mount umount mountpoint dmesg
	losetup -f >/dev/null 2>&1 || skip "no free loop device (losetup -f)"
	[ -w /dev/kmsg ] || skip "cannot write a marker to /dev/kmsg"
}

# make_scratch --- a private directory under $TMPDIR, removed on exit along
# with anything registered through on_exit.
make_scratch()
{
	SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/e2x-m.XXXXXX") || exit 99
	EXIT_HOOKS=
	trap 'run_exit_hooks' EXIT
	trap 'exit 130' INT TERM HUP
}

# detach_image FILE --- detach the loop devices backed by FILE (never a
# device number remembered from earlier: it may belong to someone else by
# now).
detach_image()
{
	for d in $(losetup -n -O NAME -j "$1" 2>/dev/null); do
		losetup -d "$d"
	done
}

# unmount_dir DIR --- unmount DIR if something is mounted there.
unmount_dir()
{
	if mountpoint -q "$1"; then
		umount "$1"
	fi
}

# on_exit CMD --- run CMD (a string) when the test ends, latest first.
on_exit()
{
	EXIT_HOOKS="$1; $EXIT_HOOKS"
}

run_exit_hooks()
{
	st=$?
	eval "$EXIT_HOOKS" >/dev/null 2>&1
	rm -rf "$SCRATCH"
	exit $st
}

# rows TABLE GROUP --- the rows of a tab-separated table whose first column
# is GROUP, without comments and blank lines; only those whose name (second
# column) matches the regex E2X_ROWS when that is set.
rows()
{
	grep -v '^[[:space:]]*\(#\|$\)' "$1" |
		awk -F'\t' -v g="$2" -v r="${E2X_ROWS:-.}" '$1 == g && $2 ~ r'
}

# group_of_script --- the row group a wrapper script stands for: the part
# of its name after the last '-' (tests/mke2fs/compare-4k.sh -> 4k).
group_of_script()
{
	b=$(basename "$0" .sh)
	echo "${b##*-}"
}

# finish --- the test's exit status from the failure count.
finish()
{
	if [ "$fails" -gt 0 ]; then
		echo "$fails row(s) failed"
		exit 1
	fi
	echo "all rows passed"
	exit 0
}
