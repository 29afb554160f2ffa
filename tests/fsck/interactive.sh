#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interactive.sh --- e2fsck asking on a real terminal (tmux): one key
# answers without Enter (y fixes, n leaves), 'a' answers yes to this and
# every later question, Ctrl-C cancels (exit 32) and leaves the terminal
# as it was, "Abort? yes" stops with exit 8 and leaves the image as it
# was, and a run that repaired says FILE SYSTEM WAS MODIFIED.

: "${top_srcdir:=.}" "${top_builddir:=.}"
fsck=$top_builddir/e2fsck/e2fsck
mkfs=/usr/sbin/mke2fs
ref_dbg=/usr/sbin/debugfs
ref_fsck=/usr/sbin/e2fsck
[ -x "$fsck" ] || { echo "FAIL: no e2fsck at $fsck"; exit 1; }
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
[ -x "$mkfs" ] && [ -x "$ref_dbg" ] && [ -x "$ref_fsck" ] ||
	{ echo "SKIP: no reference mke2fs/debugfs/e2fsck to make and judge images"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-f-tty.XXXXXX") || exit 1
sock=e2x-fsck-$$-0
n=0
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	sleep 0.2
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
screen() { tmux -L "$sock" capture-pane -p -S -200 -t t 2>/dev/null; }
. "$top_srcdir/tests/tty.sh"
keys() { tmux -L "$sock" send-keys -t t "$@"; }
# session IMG: start e2fsck -f on IMG in a fresh terminal (a server of
# its own: a new one on a socket just killed may fail to start)
session() {
	tmux -L "$sock" kill-server 2>/dev/null
	n=$((n + 1))
	sock=e2x-fsck-$$-$n
	tmux -L "$sock" new-session -d -s t -x 120 -y 40 \
		"env TERM=xterm E2FSCK_CONFIG=/dev/null $fsck -f $1; \
		 echo EXITED-\$?; \
		 echo TTY-\$(stty -a | tr ' ;' '\n\n' | grep -x -- '-\{0,1\}echo'); \
		 sleep 30" || { fail "tmux"; exit 1; }
}
last_screen() { echo "--- last screen ($1):"; screen | grep -v '^$'; }

# two wrong link counts: the root's and lost+found's
img=$work/links.img
"$mkfs" -q -F -t ext4 "$img" 32M >/dev/null || exit 1
"$ref_dbg" -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
"$ref_dbg" -w -R "sif <11> links_count 7" "$img" >/dev/null 2>&1
cp "$img" "$work/links2.img"

# y then n, each a single key with no Enter
f=$fails
session "$img"
wait_for 'link count 9.*Fix<y>\? ?$' || fail "no question for the root"
keys y
wait_for 'Fix<y>\? yes$' || fail "y was not taken as yes"
wait_for 'link count 7.*Fix<y>\? ?$' || fail "no question for lost+found"
keys n
wait_for 'Fix<y>\? no$' || fail "n was not taken as no"
wait_for '^EXITED-5$' || fail "y then n: want exit 5 (one fixed, one left)"
"$ref_fsck" -fn "$img" >"$work/ref.out" 2>&1
grep -q 'Inode 2 ref count' "$work/ref.out" && fail "y did not fix the root"
grep -q 'Inode 11 ref count is 7' "$work/ref.out" ||
	fail "n still fixed lost+found"
[ $fails = $f ] || last_screen "y then n"

# a: yes to all, the second question answered without a key
f=$fails
session "$work/links2.img"
wait_for 'link count 9.*Fix<y>\? ?$' || fail "no first question"
keys a
wait_for 'yes to all$' || fail "a was not taken as yes to all"
wait_for 'link count 7.*Fix\? yes$' || fail "the next question was not answered yes"
wait_for 'FILE SYSTEM WAS MODIFIED' || fail "no FILE SYSTEM WAS MODIFIED"
wait_for '^EXITED-1$' || fail "yes to all: want exit 1"
"$ref_fsck" -fn "$work/links2.img" >"$work/ref.out" 2>&1 ||
	{ fail "the reference -fn finds errors after yes to all"; cat "$work/ref.out"; }
[ $fails = $f ] || last_screen "yes to all"

# Ctrl-C at a question cancels (32, with 4: the problem stays) and the
# terminal is set back
f=$fails
"$mkfs" -q -F -t ext4 "$work/cc.img" 32M >/dev/null || exit 1
"$ref_dbg" -w -R "sif <2> links_count 9" "$work/cc.img" >/dev/null 2>&1
session "$work/cc.img"
wait_for 'link count 9.*Fix<y>\? ?$' || fail "no question to cancel"
keys C-c
wait_for '^EXITED-36$' || fail "Ctrl-C: want exit 36 (cancelled, the problem left)"
wait_for '^TTY-echo$' || fail "Ctrl-C left the terminal without echo"
[ $fails = $f ] || last_screen "ctrl-c"

# Abort? yes on an image longer than its device: exit 8, no byte changed
f=$fails
img=$work/short.img
"$mkfs" -q -F -t ext4 "$img" 32M >/dev/null || exit 1
"$ref_dbg" -w -R "sif <2> links_count 9" "$img" >/dev/null 2>&1
truncate -s 20M "$img"
sum=$(sha256sum <"$img")
session "$img"
wait_for 'Abort<y>\? ?$' || fail "no Abort question"
keys y
wait_for '^EXITED-8$' || fail "Abort? yes: want exit 8"
[ "$(sha256sum <"$img")" = "$sum" ] || fail "Abort? yes changed the image"
screen | grep -q 'Pass 1' && fail "the run went on after Abort? yes"
[ $fails = $f ] || last_screen "abort"

[ $fails = 0 ]
