#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mke2fs/harness.sh --- the mke2fs drivers must be able to fail: run them
# on a few rows with deliberately broken stand-ins for mke2fs (built around
# the reference) and check that each is caught, and that a correct stand-in
# passes.  The kernel cases are skipped, with a note, without root and loop
# devices; the rest needs neither.

# ours is not needed: every case names its own stand-in
E2X_MKE2FS=${REF_MKE2FS:-/usr/sbin/mke2fs}
. "$(dirname "$0")/lib.sh"

# Cases (tab separated): name, driver, rows (regex on row names), stand-in
# (a mode of the fake below, or "reference" for /usr/sbin/mke2fs itself),
# expected result of the driver, and for a failure a regex its output must
# match, so that it fails for the right reason.
CASES="reference-formats	compare-1k	^(def-8m|inline-1k)\$	reference	pass	-
no-file-system	compare-1k	^def-8m\$	nothing	fail	not find our file system clean
other-inode-count	compare-1k	^def-8m\$	moreinodes	fail	FAIL: Inode count
bitmap-damage	compare-1k	^def-8m\$	freeb	fail	not find our file system clean
sanitizer-report	compare-1k	^def-8m\$	ubsan	fail	sanitizer report
good-refusal	refuse-plain	^(block-3000|bad-type)\$	refuse	pass	-
refusal-without-reason	refuse-plain	^block-3000\$	vague	fail	does not match
reference-overwrites	refuse-plain	^existing-ext4\$	reference	fail	target changed
refusal-exit-0	refuse-plain	^block-3000\$	exit0	fail	want exit 1
refusal-crash	refuse-plain	^block-3000\$	crash	fail	want exit 1
refusal-three-lines	refuse-plain	^bad-type\$	chatty	fail	line.s. of reason
refusal-touches-target	refuse-plain	^existing-ext4\$	touch	fail	target changed
refusal-leaves-file	refuse-plain	^too-small-missing\$	create	fail	target changed
journal-not-zeroed	dirty-old	^ext4-1k\$	lazyjournal	fail	trusts old data
kernel-warning	kernel-a	^def-4k\$	kmsg	fail	kernel complained
kernel-bitmap-damage	kernel-a	^def-4k\$	freeb	fail	new file system clean"

# write_fake PATH --- the stand-in: its FAKE variable picks how it breaks.
write_fake()
{
	cat >"$1" <<'EOF'
#!/bin/sh
# a deliberately broken mke2fs, to prove the tests catch it
tgt=
prev=
for a in "$@"; do
	case $prev in -[bCIiNmOtTEJUL]) prev=; continue ;; esac
	case $a in -*) prev=$a ;; *) [ -z "$tgt" ] && tgt=$a ;; esac
done
case $FAKE in
nothing) exit 0 ;;
moreinodes) exec "$REF_MKE2FS" -i 8192 "$@" ;;
lazyjournal) exec "$REF_MKE2FS" "$@" -E nodiscard,lazy_journal_init=1 ;;
refuse) echo "mke2fs: bad block size or file system type"; exit 1 ;;
vague) echo "mke2fs: refusing"; exit 1 ;;
exit0) echo "mke2fs: refusing, but exiting 0"; exit 0 ;;
crash) ulimit -c 0; echo "mke2fs: about to crash"; kill -SEGV $$ ;;
chatty) printf 'mke2fs: line one\nline two\nline three\n'; exit 1 ;;
touch) printf x | dd of="$tgt" bs=1 seek=1024 conv=notrunc 2>/dev/null
	echo "mke2fs: refusing after a write"; exit 1 ;;
create) : >"$tgt"; echo "mke2fs: too small, left a file"; exit 1 ;;
esac
"$REF_MKE2FS" "$@" || exit $?
case $FAKE in
freeb)	# mark inode-table blocks of group 0 free in the block bitmap
	it=$("$REF_DUMPE2FS" "$tgt" 2>/dev/null |
		sed -n 's/^  Inode table at \([0-9]*\)-.*/\1/p' | head -1)
	"$DEBUGFS" -w -R "freeb $it 16" "$tgt" >/dev/null 2>&1 ;;
ubsan)	echo "mkfs.c:1:2: runtime error: signed integer overflow" >&2 ;;
kmsg)	echo "EXT4-fs warning (device $(basename "$tgt")): injected" \
		>/dev/kmsg ;;
esac
exit 0
EOF
	chmod +x "$1"
}

DEBUGFS=${DEBUGFS:-/usr/sbin/debugfs}
need_programs "$REF_MKE2FS" "$REF_E2FSCK" "$REF_DUMPE2FS" "$DEBUGFS" sfdisk
make_scratch
write_fake "$SCRATCH/fake-mke2fs"
export REF_MKE2FS REF_DUMPE2FS DEBUGFS
tab=$(printf '\t')
echo "$CASES" >"$SCRATCH/cases"
while IFS=$tab read -r name driver sel fake want why; do
	prog=$SCRATCH/fake-mke2fs
	[ "$fake" = reference ] && prog=$REF_MKE2FS
	E2X_MKE2FS=$prog E2X_ROWS=$sel FAKE=$fake \
		sh "$MDIR/$driver.sh" >"$SCRATCH/out" 2>&1
	rc=$?
	got=fail
	[ "$rc" = 0 ] && got=pass
	[ "$rc" = 77 ] && got=skip
	if [ "$got" = skip ] && [ "${driver#kernel}" != "$driver" ]; then
		echo "skipped $name: $(grep -m1 SKIP "$SCRATCH/out")"
	elif [ "$got" = "$want" ] && { [ "$why" = - ] ||
		grep -Eq -- "$why" "$SCRATCH/out"; }; then
		echo "ok $name: $driver $got on rows $sel"
	else
		fail "$name" "$driver should $want ($why) on rows $sel, got $got:"
		sed 's/^/    | /' "$SCRATCH/out"
	fi
done <"$SCRATCH/cases"
finish
